package security

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func commandContext(ctx context.Context, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, binary, args...)
}

// TestServeRefusesOtherAddresses: only loopback may be listened on.
func TestServeRefusesOtherAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.168.1.10:8765", ":8765", "example.com:80"} {
		t.Run(addr, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			out, err := commandContext(ctx, "--data-dir", t.TempDir(), "serve", "--addr", addr).CombinedOutput()
			if err == nil {
				t.Fatalf("serve --addr %s started:\n%s", addr, out)
			}
			if ctx.Err() != nil {
				t.Fatalf("serve --addr %s kept running", addr)
			}
			if !strings.Contains(string(out), "loopback") {
				t.Fatalf("serve --addr %s: unclear refusal:\n%s", addr, out)
			}
		})
	}
}

var urlRe = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/\?token=([A-Za-z0-9_-]+)`)

// TestServeGuardsTheAPI starts the real `serve` and tries the API without
// the token, with a wrong one, from a foreign page and through a foreign
// Host name (DNS rebinding); only the right token from the page itself
// gets an answer.
func TestServeGuardsTheAPI(t *testing.T) {
	fake := ollamatest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := commandContext(ctx, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "serve", "--addr", "127.0.0.1:"+freePort(t))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		_ = cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	var addr, token string
	deadline := time.AfterFunc(30*time.Second, cancel)
	for lines.Scan() {
		if m := urlRe.FindStringSubmatch(lines.Text()); m != nil {
			addr, token = m[1], m[2]
			break
		}
	}
	deadline.Stop()
	if addr == "" {
		t.Fatal("serve printed no address with a token")
	}
	go io.Copy(io.Discard, stdout)

	call := func(path, auth, origin, host string) int {
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+path, strings.NewReader(`[""]`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	const list = "/api/ChatService/ListSessions"
	tests := []struct {
		name               string
		path, auth, origin string
		host               string
		want               int
	}{
		{"no token", list, "", "", "", http.StatusUnauthorized},
		{"wrong token", list, token + "x", "", "", http.StatusUnauthorized},
		{"token in a foreign page", list, token, "http://evil.example", "", http.StatusForbidden},
		{"token from a look-alike origin", list, token, "http://" + addr + ".evil.example", "", http.StatusForbidden},
		{"foreign Host (DNS rebinding)", list, token, "", "evil.example:80", http.StatusForbidden},
		{"no token on the event stream", "/api/events", "", "", "", http.StatusUnauthorized},
		{"the right token", list, token, "", "", http.StatusOK},
		{"the right token from the page itself", list, token, "http://" + addr, "", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if got := call(path, tt.auth, tt.origin, tt.host); got != tt.want {
				// /api/events is a GET; a POST there may be refused for
				// the method instead, which is no proof of the guard.
				if path == "/api/events" {
					got = get(t, "http://"+addr+path)
				}
				if got != tt.want {
					t.Fatalf("status %d, want %d", got, tt.want)
				}
			}
		})
	}
}

func get(t *testing.T, u string) int {
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
