package llm

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const model = "llama3.2:3b"

// newClient points a Client at srv with fast retries and short timeouts,
// and its own transport so no connection outlives the test.
func newClient(t testing.TB, url string, opts ...Option) *Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	base := []Option{
		WithHTTPClient(&http.Client{Transport: tr}),
		WithRetry(3, time.Millisecond),
		WithLogger(slog.New(slog.DiscardHandler)),
		WithTimeouts(Timeouts{FirstToken: 2 * time.Second, Idle: 2 * time.Second, Request: 2 * time.Second}),
	}
	c, err := New(url, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func user(text string) []api.Message { return []api.Message{{Role: "user", Content: text}} }

func TestChatStreamsChunksAndSeparatesThinking(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Script(ollamatest.Reply{Text: "Hello from the fake.", Thinking: "Let me think.", PromptTokens: 42, CompletionTokens: 7})
	c := newClient(t, srv.URL())
	var chunks []Chunk
	resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, func(ch Chunk) { chunks = append(chunks, ch) })
	if err != nil {
		t.Fatal(err)
	}
	want := []Chunk{{Thinking: "Let me think."}, {Content: "Hello "}, {Content: "from "}, {Content: "the "}, {Content: "fake."}}
	if d := cmp.Diff(want, chunks); d != "" {
		t.Errorf("chunks (-want +got):\n%s", d)
	}
	if resp.Message.Content != "Hello from the fake." || resp.Message.Thinking != "Let me think." || resp.Message.Role != "assistant" {
		t.Errorf("message = %+v", resp.Message)
	}
	if resp.PromptTokens != 42 || resp.CompletionTokens != 7 || resp.DoneReason != "stop" || resp.TotalDuration == 0 || resp.EvalDuration == 0 {
		t.Errorf("accounting = %+v", resp)
	}
	if resp.Attempts != 1 || len(resp.Retries) != 0 {
		t.Errorf("attempts %d retries %v", resp.Attempts, resp.Retries)
	}
}

func TestNumCtxIsAlwaysExplicit(t *testing.T) {
	tests := []struct {
		name  string
		opts  []Option
		req   ChatRequest
		want  float64
		wantT float64 // temperature passed through, 0 = absent
	}{
		{"default", nil, ChatRequest{}, DefaultNumCtx, 0},
		{"client option", []Option{WithNumCtx(32768)}, ChatRequest{}, 32768, 0},
		{"per request", []Option{WithNumCtx(32768)}, ChatRequest{NumCtx: 4096}, 4096, 0},
		{"caller options kept", nil, ChatRequest{Options: map[string]any{"num_ctx": 2048, "temperature": 0.2}}, 2048, 0.2},
		// The fake's llama3.2:3b says 131072: more than a laptop should reserve.
		{"the model's own, capped", []Option{WithNumCtx(0)}, ChatRequest{}, MaxModelNumCtx, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := ollamatest.New(t)
			tt.req.Model, tt.req.Messages = model, user("hi")
			if _, err := newClient(t, srv.URL(), tt.opts...).Chat(context.Background(), tt.req, nil); err != nil {
				t.Fatal(err)
			}
			got, _ := srv.LastChat()
			if got.Options["num_ctx"] != tt.want {
				t.Errorf("num_ctx = %v, want %v", got.Options["num_ctx"], tt.want)
			}
			if tt.wantT != 0 && got.Options["temperature"] != tt.wantT {
				t.Errorf("temperature = %v", got.Options["temperature"])
			}
			if got.Stream == nil || !*got.Stream {
				t.Error("request was not streamed")
			}
		})
	}
}

// TestContextSize: the size set wins; unset, the model's own context
// length from /api/show (asked once), capped; unknown, the default.
func TestContextSize(t *testing.T) {
	srv := ollamatest.New(t)
	srv.AddModel(ollamatest.Model{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 4096})
	ctx := context.Background()
	if got := newClient(t, srv.URL(), WithNumCtx(3000)).ContextSize(ctx, "small:1b"); got != 3000 {
		t.Errorf("set: %d", got)
	}
	own := newClient(t, srv.URL(), WithNumCtx(0))
	for range 2 {
		if got := own.ContextSize(ctx, "small:1b"); got != 4096 {
			t.Errorf("the model's own: %d", got)
		}
	}
	if n := srv.Count(ollamatest.PathShow); n != 1 {
		t.Errorf("/api/show asked %d times, want once", n)
	}
	if got := own.ContextSize(ctx, "llama3.2:3b"); got != MaxModelNumCtx {
		t.Errorf("capped: %d", got)
	}
	if got := own.ContextSize(ctx, "missing:1b"); got != DefaultNumCtx {
		t.Errorf("unknown model: %d", got)
	}
	if _, err := own.Chat(ctx, ChatRequest{Model: "small:1b", Messages: user("hi")}, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := srv.LastChat(); got.Options["num_ctx"] != float64(4096) {
		t.Errorf("num_ctx sent = %v", got.Options["num_ctx"])
	}
}

// Ollama's ways of saying a model does not fit in memory, in an HTTP error
// or in an error line of a started stream: out of memory, not retried.
func TestOutOfMemory(t *testing.T) {
	for _, msg := range []string{
		"model requires more system memory (48.0 GiB) than is available (15.2 GiB)",
		"llama runner process has terminated: cudaMalloc failed: out of memory",
	} {
		srv := ollamatest.New(t)
		srv.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: msg})
		_, err := newClient(t, srv.URL()).Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
		if !errors.Is(err, ErrOutOfMemory) || Classify(err).Code != wf.ErrModelOutOfMemory || srv.Count(ollamatest.PathChat) != 1 {
			t.Errorf("%q: %v (%d requests)", msg, err, srv.Count(ollamatest.PathChat))
		}
	}
	if kindOf(errors.New("out of memory")) != ErrOutOfMemory {
		t.Error("an error line in the stream was not read as out of memory")
	}
}

func TestChatToolCalls(t *testing.T) {
	srv := ollamatest.New(t)
	srv.On(ollamatest.HasTools(), ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "calculator", Args: map[string]any{"expression": "123*456"}}}})
	tools := api.Tools{{Type: "function", Function: api.ToolFunction{Name: "calculator", Description: "Evaluates arithmetic."}}}
	var streamed []api.ToolCall
	resp, err := newClient(t, srv.URL()).Chat(context.Background(), ChatRequest{Model: model, Messages: user("123*456?"), Tools: tools},
		func(ch Chunk) { streamed = append(streamed, ch.ToolCalls...) })
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 1 || len(streamed) != 1 || calls[0].Function.Name != "calculator" {
		t.Fatalf("tool calls = %+v (streamed %+v)", calls, streamed)
	}
	if args := calls[0].Function.Arguments.ToMap(); args["expression"] != "123*456" {
		t.Errorf("arguments = %v", args)
	}
	got, _ := srv.LastChat()
	if len(got.Tools) != 1 || got.Tools[0].Function.Name != "calculator" {
		t.Errorf("tools sent = %+v", got.Tools)
	}
}

// TestChatFaults is the fault matrix for one call: what the caller gets, how
// many requests reached the server, and how many retries were recorded.
func TestChatFaults(t *testing.T) {
	const text = "one two three four"
	tests := []struct {
		name        string
		setup       func(*ollamatest.Server)
		stream      bool // pass an onChunk
		wantKind    error
		wantCode    wf.ErrorCode
		wantCalls   int
		wantText    string // final or partial content
		wantRetries int
		timeouts    Timeouts // zero: generous, so a loaded machine cannot time out
	}{
		{"500 then success", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
		},
			true, nil, "", 2, text, 1, Timeouts{}},
		{"500 forever", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
		},
			true, ErrServer, wf.ErrOllamaError, 4, "", 3, Timeouts{}},
		{"model missing", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultModelNotFound})
		},
			true, ErrModelNotFound, wf.ErrModelMissing, 1, "", 0, Timeouts{}},
		{"no tool support", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultNoTools})
		},
			true, ErrNoToolSupport, wf.ErrModelNoTools, 1, "", 0, Timeouts{}},
		{"dropped before headers", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultDrop})
		},
			true, nil, "", 2, text, 1, Timeouts{}},
		{"dropped mid-stream, tokens shown", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2})
		},
			true, ErrStreamDropped, wf.ErrStreamDropped, 1, "one two ", 0, Timeouts{}},
		{"dropped mid-stream, nothing shown", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2})
		},
			false, nil, "", 2, text, 1, Timeouts{}},
		{"malformed line forever", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultMalformed})
		},
			true, ErrServer, wf.ErrOllamaError, 4, "", 3, Timeouts{}},
		{"no done line", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultNoDone, After: 3})
		},
			true, ErrStreamDropped, wf.ErrStreamDropped, 1, "one two three ", 0, Timeouts{}},
		{"never answers", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
		},
			true, ErrTimeout, wf.ErrTimeout, 4, "", 3, Timeouts{FirstToken: 300 * time.Millisecond}},
		{"stalls after a token", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultHang, After: 1})
		},
			true, ErrTimeout, wf.ErrTimeout, 1, "one ", 0, Timeouts{Idle: 100 * time.Millisecond}},
		{"empty reply", func(s *ollamatest.Server) {
			s.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultEmpty})
		},
			true, nil, "", 1, "", 0, Timeouts{}},
		{"unknown model", func(s *ollamatest.Server) { s.RemoveModel(model) },
			true, ErrModelNotFound, wf.ErrModelMissing, 1, "", 0, Timeouts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: text}))
			tt.setup(srv)
			c := newClient(t, srv.URL(), WithTimeouts(Timeouts{FirstToken: 10 * time.Second, Idle: 10 * time.Second}), WithTimeouts(tt.timeouts))
			var onChunk func(Chunk)
			var shown strings.Builder
			if tt.stream {
				onChunk = func(ch Chunk) { shown.WriteString(ch.Content) }
			}
			resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, onChunk)
			switch {
			case tt.wantKind == nil && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantKind != nil && !errors.Is(err, tt.wantKind):
				t.Fatalf("err = %v, want %v", err, tt.wantKind)
			}
			if tt.wantKind != nil {
				if info := Classify(err); info.Code != tt.wantCode || info.Message == "" || info.Hint == "" {
					t.Errorf("Classify = %+v, want code %s with message and hint", info, tt.wantCode)
				}
			}
			if got := srv.Count(ollamatest.PathChat); got != tt.wantCalls {
				t.Errorf("requests = %d, want %d", got, tt.wantCalls)
			}
			if resp.Message.Content != tt.wantText {
				t.Errorf("content = %q, want %q", resp.Message.Content, tt.wantText)
			}
			if tt.stream && shown.String() != tt.wantText {
				t.Errorf("shown = %q, want %q (never duplicated)", shown.String(), tt.wantText)
			}
			if len(resp.Retries) != tt.wantRetries || resp.Attempts != tt.wantRetries+1 {
				t.Errorf("retries %+v attempts %d, want %d retries", resp.Retries, resp.Attempts, tt.wantRetries)
			}
			for i, r := range resp.Retries {
				if r.Attempt != i+1 || r.Op != "chat" || r.Code == "" || r.Error == "" {
					t.Errorf("retry record %d = %+v", i, r)
				}
			}
		})
	}
}

func TestUnreachableIsNotRetried(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := newClient(t, "http://"+addr)
	resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, ErrUnreachable) || len(resp.Retries) != 0 {
		t.Fatalf("err %v retries %v", err, resp.Retries)
	}
	info := Classify(err)
	if info.Code != wf.ErrOllamaUnreachable || !strings.Contains(info.Message, addr) || !strings.Contains(info.Hint, "ollama serve") {
		t.Errorf("Classify = %+v", info)
	}
	if _, err := c.Version(context.Background()); !errors.Is(err, ErrUnreachable) {
		t.Errorf("version: %v", err)
	}
}

// A machine that is off answers nothing: the dialer gives up after its
// timeout ("dial tcp …: i/o timeout"). That is an address that cannot be
// reached, as a refused one, not an Ollama that hangs: worded as
// unreachable and not retried (four attempts of the dial's 30 s each,
// then "the model may still be loading").
func TestMachineThatIsOffIsUnreachable(t *testing.T) {
	srv := ollamatest.New(t)
	off := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		// What net.Dialer returns when its timeout passes with no answer.
		return (&net.Dialer{Deadline: time.Now().Add(-time.Second)}).DialContext(ctx, network, addr)
	}}
	c := newClient(t, srv.URL(), WithHTTPClient(&http.Client{Transport: off}))
	resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, ErrUnreachable) || len(resp.Retries) != 0 || !strings.Contains(err.Error(), "i/o timeout") {
		t.Fatalf("chat: err %v, retries %v", err, resp.Retries)
	}
	if info := Classify(err); info.Code != wf.ErrOllamaUnreachable || !strings.Contains(info.Hint, "ollama serve") {
		t.Errorf("Classify = %+v", info)
	}
	if _, err := c.Version(context.Background()); !errors.Is(err, ErrUnreachable) {
		t.Errorf("version: %v", err)
	}
	if n := srv.Count(ollamatest.PathChat) + srv.Count(ollamatest.PathVersion); n != 0 {
		t.Errorf("the fake was reached %d times", n)
	}

	// Among several hosts, it is listed as one nothing answers at (the
	// window's "is that computer on?"), not as a server error.
	up := ollamatest.New(t)
	offAddr := strings.TrimPrefix(srv.URL(), "http://")
	some := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := &net.Dialer{}
		if addr == offAddr {
			d.Deadline = time.Now().Add(-time.Second)
		}
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(some.CloseIdleConnections)
	st, err := newClient(t, up.URL()+","+srv.URL(), WithHTTPClient(&http.Client{Transport: some})).HostStates(context.Background())
	if err != nil || len(st) != 2 || !st[0].Up || st[1].Up || st[1].Code != wf.ErrOllamaUnreachable {
		t.Errorf("host states: %+v, %v", st, err)
	}
}

func TestCancelMidStreamKeepsPartialReply(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Script(ollamatest.Reply{Text: "a long answer that takes its time", ChunkDelay: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := newClient(t, srv.URL()).Chat(ctx, ChatRequest{Model: model, Messages: user("hi")}, func(Chunk) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if resp.Message.Content != "a " || len(resp.Retries) != 0 {
		t.Errorf("partial = %q retries %v", resp.Message.Content, resp.Retries)
	}
	if info := Classify(err); info.Code != wf.ErrInternal || info.Message != "The request was stopped." {
		t.Errorf("Classify = %+v", info)
	}
}

// onRetry is a log handler that calls fn when a retry is logged, i.e. just
// before the backoff starts.
type onRetry struct {
	slog.Handler
	fn func()
}

func (h onRetry) Enabled(context.Context, slog.Level) bool  { return true }
func (h onRetry) Handle(context.Context, slog.Record) error { h.fn(); return nil }

func TestCancelDuringBackoff(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newClient(t, srv.URL(), WithRetry(3, time.Hour), WithLogger(slog.New(onRetry{slog.DiscardHandler, cancel})))
	resp, err := c.Chat(ctx, ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, context.Canceled) || len(resp.Retries) != 1 || srv.Count(ollamatest.PathChat) != 1 {
		t.Fatalf("err %v retries %d requests %d", err, len(resp.Retries), srv.Count(ollamatest.PathChat))
	}
}

func TestBackoffDoubles(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	resp, _ := newClient(t, srv.URL(), WithRetry(3, time.Millisecond)).Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	var got []time.Duration
	for _, r := range resp.Retries {
		got = append(got, r.Backoff)
	}
	if d := cmp.Diff([]time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond}, got); d != "" {
		t.Errorf("backoffs (-want +got):\n%s", d)
	}
}

func TestRetriesDisabled(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	_, err := newClient(t, srv.URL(), WithRetry(0, time.Millisecond)).Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, ErrServer) || srv.Count(ollamatest.PathChat) != 1 {
		t.Fatalf("err %v after %d requests", err, srv.Count(ollamatest.PathChat))
	}
}

func TestConcurrentChats(t *testing.T) {
	srv := ollamatest.New(t)
	c := newClient(t, srv.URL())
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, func(Chunk) {})
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if srv.Count(ollamatest.PathChat) != 8 {
		t.Errorf("requests = %d", srv.Count(ollamatest.PathChat))
	}
}

func BenchmarkChatStream(b *testing.B) {
	srv := ollamatest.New(b, ollamatest.WithDefaultReply(ollamatest.Reply{Text: strings.Repeat("word ", 50)}))
	c := newClient(b, srv.URL())
	req := ChatRequest{Model: model, Messages: user("hi")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chat(context.Background(), req, func(Chunk) {}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestKoreanStreamsIntact(t *testing.T) {
	const text = "안녕하세요! 연차 휴가는 15일입니다."
	srv := ollamatest.New(t)
	srv.Script(ollamatest.Reply{Text: text})
	var shown strings.Builder
	resp, err := newClient(t, srv.URL()).Chat(context.Background(), ChatRequest{Model: model, Messages: user("휴가 문서를 보여줘")}, func(ch Chunk) { shown.WriteString(ch.Content) })
	if err != nil || resp.Message.Content != text || shown.String() != text {
		t.Fatalf("content %q shown %q err %v", resp.Message.Content, shown.String(), err)
	}
	sent, _ := srv.LastChat()
	if sent.Messages[0].Content != "휴가 문서를 보여줘" {
		t.Errorf("prompt sent = %q", sent.Messages[0].Content)
	}
}

// A reply line far larger than the reader's first buffer (a model pasting a
// long document in one chunk) still arrives whole.
func TestChatLongLine(t *testing.T) {
	srv := ollamatest.New(t)
	long := strings.Repeat("가나다라 ", 60_000) // ≈ 780 KB in one chunk
	srv.Script(ollamatest.Reply{Chunks: []string{long, "끝"}})
	resp, err := newClient(t, srv.URL()).Chat(context.Background(), ChatRequest{Model: model, Messages: user("x")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != long+"끝" {
		t.Fatalf("content of %d bytes, want %d", len(resp.Message.Content), len(long)+len("끝"))
	}
}

// Thinking models are asked not to think; others get no `think` field,
// which some Ollama versions reject for them.
func TestThinkingTurnedOffOnlyForThinkingModels(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "qwen3:4b", Capabilities: []string{"completion", "tools", "thinking"}},
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}},
	))
	c := newClient(t, srv.URL())
	for _, tt := range []struct {
		model string
		think string
	}{{"qwen3:4b", "false"}, {"llama3.2:3b", "<nil>"}, {"qwen3:4b", "false"}} {
		if _, err := c.Chat(context.Background(), ChatRequest{Model: tt.model, Messages: user("hi")}, nil); err != nil {
			t.Fatal(err)
		}
		req, _ := srv.LastChat()
		got := "<nil>"
		if req.Think != nil {
			b, _ := json.Marshal(req.Think)
			got = string(b)
		}
		if got != tt.think {
			t.Errorf("%s: think = %s, want %s", tt.model, got, tt.think)
		}
	}
	if n := srv.Count(ollamatest.PathShow); n != 2 {
		t.Errorf("%d /api/show calls, want 2 (one per model, then cached)", n)
	}
}

// The app's startup status check shows every model; the first turn after
// it must not ask again.
func TestModelsWarmsThinkingCache(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "qwen3:4b", Capabilities: []string{"completion", "thinking"}},
	))
	c := newClient(t, srv.URL())
	if _, err := c.Models(context.Background()); err != nil {
		t.Fatal(err)
	}
	shows := srv.Count(ollamatest.PathShow)
	if _, err := c.Chat(context.Background(), ChatRequest{Model: "qwen3:4b", Messages: user("hi")}, nil); err != nil {
		t.Fatal(err)
	}
	if req, _ := srv.LastChat(); req.Think == nil {
		t.Error("thinking model got no think=false after Models()")
	}
	if n := srv.Count(ollamatest.PathShow); n != shows {
		t.Errorf("chat made %d more /api/show calls after Models(), want 0", n-shows)
	}
}
