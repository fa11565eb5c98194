package security

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
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
	srv := startServe(t, serveOptions{ollama: fake.URL()})
	addr, token := srv.addr, srv.token

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

// serveOptions start the real `wayfinder serve`.
type serveOptions struct {
	ollama  string   // the fake Ollama's URL
	dataDir string   // "" makes a new one
	args    []string // more of serve's arguments (--new-token, --verbose)
	// launch, when set, turns serve's argv into the command to run
	// (path, arguments, environment), e.g. under an open-file limit.
	launch func(argv []string) (string, []string, []string)
}

// served is a running `wayfinder serve`.
type served struct {
	addr, token string
	pid         int
	// log is what it wrote to its standard error so far.
	log func() string
	// stop interrupts it (Ctrl+C) and waits until it has exited.
	stop func()
}

// startServe runs `wayfinder serve` until stop or the end of the test.
func startServe(t *testing.T, o serveOptions) served {
	t.Helper()
	if o.dataDir == "" {
		o.dataDir = t.TempDir()
	}
	ctx, cancel := context.WithCancel(context.Background())
	argv := []string{binary, "--data-dir", o.dataDir, "--ollama-host", o.ollama, "serve", "--addr", "127.0.0.1:" + freePort(t)}
	argv = append(argv, o.args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if o.launch != nil {
		path, args, env := o.launch(argv)
		cmd = exec.CommandContext(ctx, path, args...)
		cmd.Env = env
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &lockedWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := sync.OnceFunc(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("serve's log:\n%s", cmd.Stderr.(*lockedWriter).String())
		}
	})
	t.Cleanup(stop)
	var addr, token string
	lines := bufio.NewScanner(stdout)
	deadline := time.AfterFunc(30*time.Second, cancel)
	for lines.Scan() {
		if m := urlRe.FindStringSubmatch(lines.Text()); m != nil {
			addr, token = m[1], m[2]
			break
		}
	}
	deadline.Stop()
	if addr == "" {
		t.Fatalf("serve printed no address with a token; its log:\n%s", cmd.Stderr.(*lockedWriter).String())
	}
	go io.Copy(io.Discard, stdout)
	return served{addr, token, cmd.Process.Pid, cmd.Stderr.(*lockedWriter).String, stop}
}

// lockedWriter lets the test read a child's stderr while it still writes.
type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

// callAPI calls a bound method ("Service/Method") through serve with the
// token and decodes the answer, a result or an ErrorInfo, into out (which
// may be nil); it returns the HTTP status.
func callAPI(t *testing.T, addr, token, method string, out any, args ...any) int {
	t.Helper()
	body, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/api/"+method, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: status %d, %v in %s", method, resp.StatusCode, err, data)
		}
	}
	return resp.StatusCode
}
