//go:build integration

package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"
)

// chatCall is one /api/chat call as the real server answered it.
type chatCall struct {
	req  ollama.ChatRequest
	done ollama.ChatResponse // the last chunk, with the metrics
}

// recorder sits between Wayfinder and the real server and keeps every
// chat call with the server's own metrics: only the server knows what its
// prompt cache saved (prompt_eval_duration; prompt_eval_count is the whole
// prompt even on a hit).
type recorder struct {
	mu    sync.Mutex
	calls []*chatCall
}

func (r *recorder) start(t *testing.T, target string) string {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/api/chat" {
			proxy.ServeHTTP(w, req)
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c := &chatCall{}
		if err := json.Unmarshal(body, &c.req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		var out bytes.Buffer
		proxy.ServeHTTP(teeWriter{w, &out}, req)
		lines := bufio.NewScanner(&out)
		lines.Buffer(make([]byte, 1<<20), 1<<24)
		for lines.Scan() {
			var chunk ollama.ChatResponse
			if json.Unmarshal(lines.Bytes(), &chunk) == nil && chunk.Done {
				c.done = chunk
			}
		}
		r.mu.Lock()
		r.calls = append(r.calls, c)
		r.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (r *recorder) take() []*chatCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls := r.calls
	r.calls = nil
	return calls
}

type teeWriter struct {
	http.ResponseWriter
	copy *bytes.Buffer
}

func (w teeWriter) Write(p []byte) (int, error) {
	w.copy.Write(p)
	return w.ResponseWriter.Write(p)
}

func (w teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// role is the first line of a call's last system message, the role's
// instructions after the shared preamble ("You are Wayfinder's reviewer.
// …"), cut short.
func role(c *chatCall) string {
	for i := len(c.req.Messages) - 1; i >= 0; i-- {
		if m := c.req.Messages[i]; m.Role == "system" {
			line, _, _ := strings.Cut(m.Content, "\n")
			line, _, _ = strings.Cut(line, ".")
			return line
		}
	}
	return "?"
}

// extends says whether b's prompt starts with all of a's: same model,
// tools and options, and a's messages first. The server's slot then holds
// a's prompt (and its reply), so only b's new end is evaluated.
func extends(a, b *chatCall) bool {
	if a.req.Model != b.req.Model || len(b.req.Messages) <= len(a.req.Messages) {
		return false
	}
	ja, _ := json.Marshal([]any{a.req.Tools, a.req.Options, a.req.Messages})
	jb, _ := json.Marshal([]any{b.req.Tools, b.req.Options, b.req.Messages[:len(a.req.Messages)]})
	return bytes.Equal(ja, jb)
}

// send makes one chat call straight to the server and returns its metrics.
func send(t *testing.T, host string, req ollama.ChatRequest) ollama.Metrics {
	t.Helper()
	stream := false
	req.Stream = &stream
	body, _ := json.Marshal(req)
	resp, err := http.Post(host+"/api/chat", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out ollama.ChatResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("chat: %d %v", resp.StatusCode, err)
	}
	return out.Metrics
}

// cold is what req costs the server from an empty cache: first a prompt
// that shares nothing with it (same model and options, so the runner is
// not reloaded) takes the slot, then req.
func cold(t *testing.T, host string, req ollama.ChatRequest) ollama.Metrics {
	t.Helper()
	send(t, host, ollama.ChatRequest{Model: req.Model, Options: req.Options,
		Messages: []ollama.Message{{Role: "user", Content: fmt.Sprintf("flush %d", time.Now().UnixNano())}}})
	return send(t, host, req)
}

// TestIntegrationPromptCache runs the complex task on the real server and
// checks, with the server's own metrics, that its consecutive calls hit
// the server's prompt cache as the fake's latency model says they do: a
// call whose prompt extends the one before (a repaired answer, a tool
// round) pays only for its new end. The real server counts the whole
// prompt in prompt_eval_count even on a hit, but prompt_eval_duration
// drops; so each such call's duration in the task is set against the same
// prompt sent again from a cold cache, on the same server, just after.
// Wayfinder's num_ctx (8192 by default) must hold every prompt: a longer
// one is cut at the front and never hits.
func TestIntegrationPromptCache(t *testing.T) {
	upstream := os.Getenv("WAYFINDER_REAL_OLLAMA")
	if upstream == "" {
		t.Fatal("WAYFINDER_REAL_OLLAMA is not set: run `make test-ollama`")
	}
	rec := &recorder{}
	host := rec.start(t, upstream)
	args := []string{"--data-dir", t.TempDir(), "--ollama-host", host, "--model", "tiny", "--embed-model", "tiny",
		"--workflow", "testdata/plan-first.workflow.json", "ask", "--approve", "--json", "Make a YouTube Shorts video about my café"}
	if code, out, errOut := wayfinder(t, args...); code != 0 {
		t.Fatalf("complex task: %d\n%s\n%s", code, out, errOut)
	}
	calls := rec.take()
	if len(calls) < 4 {
		t.Fatalf("the task made %d chat calls", len(calls))
	}
	var hit, full time.Duration
	pairs := 0
	for i, c := range calls {
		m := c.done.Metrics
		numCtx, _ := c.req.Options["num_ctx"].(float64)
		if m.PromptEvalCount == 0 || numCtx == 0 || float64(m.PromptEvalCount+m.EvalCount) >= numCtx {
			t.Fatalf("call %d (%s): prompt %d + reply %d tokens, num_ctx %v: the prompt must fit", i, role(c), m.PromptEvalCount, m.EvalCount, numCtx)
		}
		if i == 0 || !extends(calls[i-1], c) {
			t.Logf("call %d, %s: %d prompt tokens in %v", i, role(c), m.PromptEvalCount, m.PromptEvalDuration)
			continue
		}
		base := cold(t, upstream, c.req)
		t.Logf("call %d, %s, extends call %d: %d prompt tokens in %v; sent again from a cold cache %v",
			i, role(c), i-1, m.PromptEvalCount, m.PromptEvalDuration, base.PromptEvalDuration)
		hit += m.PromptEvalDuration
		full += base.PromptEvalDuration
		pairs++
	}
	if pairs == 0 {
		t.Fatal("no call of the task extends the one before it")
	}
	// Measured here: a reviewer's repaired answer, 3,693 tokens, 1.9 s in
	// the task and 25 s cold; the planner's, 678 tokens, 0.7 s and 1.7 s.
	if hit*2 > full {
		t.Fatalf("the calls that extend the one before took %v, %v from a cold cache: the server's cache did not serve them", hit, full)
	}
}
