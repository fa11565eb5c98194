package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

var errEmpty = errors.New("empty")

// greeter stands in for a bound service.
type greeter struct{}

func (greeter) Hello(name string, times int) (string, error) {
	if name == "" {
		return "", errEmpty
	}
	return strings.Repeat("hi "+name+" ", times), nil
}
func (greeter) Nothing()          {}
func (greeter) Fail() error       { return errors.New("plain failure") }
func (greeter) Info() api.AppInfo { return api.AppInfo{Mode: "serve"} }

func newTestServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	assets := fstest.MapFS{
		"index.html":    {Data: []byte("<html>app</html>")},
		"assets/app.js": {Data: []byte("console.log(1)")},
	}
	describe := func(err error) api.ErrorInfo {
		if errors.Is(err, errEmpty) {
			return api.ErrorInfo{Code: api.ErrEmptyMessage, Message: "empty"}
		}
		return api.ErrorInfo{Code: api.ErrInternal, Message: err.Error()}
	}
	s, err := New(Options{Services: map[string]any{"Greeter": greeter{}}, Assets: assets, Token: "secret", Describe: describe})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func post(t *testing.T, ts *httptest.Server, path, body string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer secret")
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func TestCall(t *testing.T) {
	_, ts := newTestServer(t)
	tests := []struct {
		name, path, body string
		hdr              map[string]string
		status           int
		want             string
	}{
		{"result", "/api/Greeter/Hello", `["민수", 2]`, nil, 200, `"hi 민수 hi 민수 "`},
		{"void", "/api/Greeter/Nothing", `[]`, nil, 200, `null`},
		{"struct", "/api/Greeter/Info", `[]`, nil, 200, `"mode":"serve"`},
		{"typed error", "/api/Greeter/Hello", `["", 1]`, nil, 400, `"code":"empty_message"`},
		{"plain error", "/api/Greeter/Fail", `[]`, nil, 500, `"code":"internal"`},
		{"wrong arity", "/api/Greeter/Hello", `["x"]`, nil, 400, `takes 2 arguments`},
		{"wrong type", "/api/Greeter/Hello", `["x", "y"]`, nil, 400, `argument 2`},
		{"not an array", "/api/Greeter/Hello", `{}`, nil, 400, `JSON array`},
		{"unknown method", "/api/Greeter/Nope", `[]`, nil, 404, `No such method`},
		{"unknown service", "/api/Nope/Hello", `[]`, nil, 404, `No such method`},
		{"no token", "/api/Greeter/Nothing", `[]`, map[string]string{"Authorization": ""}, 401, `token`},
		{"wrong token", "/api/Greeter/Nothing", `[]`, map[string]string{"Authorization": "Bearer nope"}, 401, `token`},
		{"foreign origin", "/api/Greeter/Nothing", `[]`, map[string]string{"Origin": "http://evil.example"}, 403, `other web pages`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, ts, tt.path, tt.body, tt.hdr)
			if status != tt.status || !strings.Contains(body, tt.want) {
				t.Fatalf("got %d %s, want %d containing %s", status, body, tt.status, tt.want)
			}
		})
	}
}

func TestSameOriginAllowed(t *testing.T) {
	_, ts := newTestServer(t)
	status, _ := post(t, ts, "/api/Greeter/Nothing", `[]`, map[string]string{"Origin": ts.URL})
	if status != 200 {
		t.Fatalf("same-origin request refused: %d", status)
	}
}

func TestForeignHostRefused(t *testing.T) {
	s, _ := newTestServer(t)
	req := httptest.NewRequest("GET", "http://attacker.example/", nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("DNS-rebinding host got %d", rec.Code)
	}
}

func TestStaticAndSPAFallback(t *testing.T) {
	_, ts := newTestServer(t)
	for path, want := range map[string]string{"/": "app", "/assets/app.js": "console", "/settings": "app"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Fatalf("GET %s = %d %q", path, resp.StatusCode, b)
		}
	}
}

func TestEvents(t *testing.T) {
	s, ts := newTestServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events?token=secret", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	r := bufio.NewReader(resp.Body)
	// Wait for the opening comment, so the subscription exists.
	if line, _ := r.ReadString('\n'); !strings.HasPrefix(line, ": connected") {
		t.Fatalf("first line %q", line)
	}
	s.Emit(api.EventToken, api.TokenBatch{SessionID: "s1", Text: "안녕"})
	var got []string
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < 2 && time.Now().Before(deadline) {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "event:") || strings.HasPrefix(line, "data:") {
			got = append(got, strings.TrimSpace(line))
		}
	}
	want := []string{"event: chat.token", `data: {"session_id":"s1","turn_id":"","message_id":"","text":"안녕"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q, want %q", got, want)
	}

	noToken, err := http.Get(ts.URL + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	noToken.Body.Close()
	if noToken.StatusCode != 401 {
		t.Fatalf("events without token: %d", noToken.StatusCode)
	}
}

func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.5:0", "example.com:80", "nonsense"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) accepted", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		ln, err := Listen(addr)
		if err != nil {
			if addr == "[::1]:0" && strings.Contains(err.Error(), "assign") {
				continue // no IPv6 on this machine
			}
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		ln.Close()
	}
}

func TestServeShutsDownWithOpenStreams(t *testing.T) {
	s, err := New(Options{Services: map[string]any{}, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/api/events?token=t")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return with a stream open")
	}
}
