package ollamatest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// client returns the official client pointed at srv, with its own transport
// so idle connections are closed when the test ends.
func client(t *testing.T, srv *Server) *api.Client {
	t.Helper()
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return api.NewClient(u, &http.Client{Transport: tr})
}

func ptr[T any](v T) *T { return &v }

// collect runs a chat and gathers every chunk.
func collect(t *testing.T, c *api.Client, req *api.ChatRequest) ([]api.ChatResponse, error) {
	t.Helper()
	var got []api.ChatResponse
	err := c.Chat(context.Background(), req, func(r api.ChatResponse) error {
		got = append(got, r)
		return nil
	})
	return got, err
}

func userMsg(text string) []api.Message { return []api.Message{{Role: "user", Content: text}} }

func TestChatStreamsScriptedReplyInChunks(t *testing.T) {
	srv := New(t)
	srv.Script(Reply{Text: "Hello there, friend.", Thinking: "Let me think.", PromptTokens: 12})
	got, err := collect(t, client(t, srv), &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 { // thinking, 3 words, done
		t.Fatalf("got %d chunks, want 5: %+v", len(got), got)
	}
	var content, thinking strings.Builder
	for _, c := range got {
		content.WriteString(c.Message.Content)
		thinking.WriteString(c.Message.Thinking)
	}
	if content.String() != "Hello there, friend." || thinking.String() != "Let me think." {
		t.Errorf("content %q thinking %q", content.String(), thinking.String())
	}
	last := got[len(got)-1]
	if !last.Done || last.DoneReason != "stop" || last.PromptEvalCount != 12 || last.EvalCount != 4 {
		t.Errorf("final chunk = %+v", last)
	}
	for _, c := range got[:len(got)-1] {
		if c.Done {
			t.Errorf("chunk before the last is done: %+v", c)
		}
	}
}

func TestChatNonStreamingAnswersOneObject(t *testing.T) {
	srv := New(t)
	srv.Script(Reply{Text: "All at once", ToolCalls: []ToolCall{{Name: "calculator", Args: map[string]any{"expression": "1+1"}}}})
	got, err := collect(t, client(t, srv), &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi"), Stream: ptr(false)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got[0].Done || got[0].Message.Content != "All at once" {
		t.Fatalf("got %+v", got)
	}
	calls := got[0].Message.ToolCalls
	if len(calls) != 1 || calls[0].Function.Name != "calculator" {
		t.Fatalf("tool calls = %+v", calls)
	}
	if v, _ := calls[0].Function.Arguments.Get("expression"); v != "1+1" {
		t.Errorf("expression = %v", v)
	}
}

func TestReplySelectionOrder(t *testing.T) {
	srv := New(t, WithDefaultReply(Reply{Text: "fallback"}))
	srv.Script(Reply{Text: "first"}, Reply{Text: "second"})
	srv.On(LastUserContains("weather"), Reply{Text: "sunny"}, Reply{Text: "rainy"})
	srv.OnFunc(LastIsToolResult(), func(req api.ChatRequest) Reply {
		return Reply{Text: "tool said " + req.Messages[len(req.Messages)-1].Content}
	})
	c := client(t, srv)
	ask := func(msgs []api.Message) string {
		got, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, g := range got {
			b.WriteString(g.Message.Content)
		}
		return b.String()
	}
	var answers []string
	answers = append(answers, ask(userMsg("hello")))
	answers = append(answers, ask(userMsg("weather?")))
	answers = append(answers, ask(userMsg("weather again?")))
	answers = append(answers, ask(userMsg("weather a third time?")))
	answers = append(answers, ask(append(userMsg("x"), api.Message{Role: "tool", Content: "42"})))
	answers = append(answers, ask(userMsg("hello")))
	answers = append(answers, ask(userMsg("hello")))
	want := []string{"first", "sunny", "rainy", "rainy", "tool said 42", "second", "fallback"}
	if d := cmp.Diff(want, answers); d != "" {
		t.Errorf("answers (-want +got):\n%s", d)
	}
	if srv.Count(PathChat) != 7 || srv.Pending() != 0 {
		t.Errorf("count %d pending %d", srv.Count(PathChat), srv.Pending())
	}
}

func TestStructuredRequestsGetSchemaInstance(t *testing.T) {
	srv := New(t)
	schema := json.RawMessage(`{"type":"object","properties":{"route":{"type":"string","enum":["simple","complex"]},"steps":{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"n":{"type":"integer"}}}},"ok":{"type":"boolean"}},"required":["route"]}`)
	srv.Script(Reply{}, Reply{JSON: map[string]any{"route": "complex"}})
	c := client(t, srv)
	for _, want := range []string{
		`{"ok":false,"route":"simple","steps":[{"n":0,"title":""}]}`,
		`{"route":"complex"}`,
	} {
		got, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("plan"), Format: schema, Stream: ptr(false)})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Message.Content != want {
			t.Errorf("content = %s, want %s", got[0].Message.Content, want)
		}
	}
	req, _ := srv.LastChat()
	if string(req.Format) != string(schema) {
		t.Errorf("recorded format = %s", req.Format)
	}
	got, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("x"), Format: json.RawMessage(`"json"`), Stream: ptr(false)})
	if err != nil || got[0].Message.Content != "{}" {
		t.Errorf(`format "json": %+v, %v`, got, err)
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name      string
		fault     Fault
		stream    bool
		wantErr   func(error) bool
		wantChunk int // content chunks seen before the error
	}{
		{"500", Fault{Kind: FaultHTTP500, Message: "boom"}, true, statusIs(500, "boom"), 0},
		{"404", Fault{Kind: FaultModelNotFound}, true, statusIs(404, "model 'llama3.2:3b' not found"), 0},
		{"no tools", Fault{Kind: FaultNoTools}, true, statusIs(400, "does not support tools"), 0},
		{"drop before headers", Fault{Kind: FaultDrop}, true, errContains("EOF"), 0},
		{"drop mid-stream", Fault{Kind: FaultDrop, After: 2}, true, errIs(errUnexpectedEOF), 2},
		{"malformed line", Fault{Kind: FaultMalformed, After: 1}, true, errContains("unfini"), 1},
		{"malformed body", Fault{Kind: FaultMalformed}, false, errContains("unfini"), 0},
		{"no done", Fault{Kind: FaultNoDone, After: 3}, true, isNil, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			srv.Script(Reply{Text: "one two three four five", Fault: tt.fault})
			got, err := collect(t, client(t, srv), &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi"), Stream: ptr(tt.stream)})
			if !tt.wantErr(err) {
				t.Fatalf("unexpected error %v", err)
			}
			if len(got) != tt.wantChunk {
				t.Errorf("got %d chunks before the fault, want %d", len(got), tt.wantChunk)
			}
			for _, c := range got {
				if c.Done {
					t.Errorf("a done chunk arrived despite the fault")
				}
			}
		})
	}
}

var errUnexpectedEOF = errors.New("unexpected EOF")

func statusIs(code int, sub string) func(error) bool {
	return func(err error) bool {
		var se api.StatusError
		return errors.As(err, &se) && se.StatusCode == code && strings.Contains(se.ErrorMessage, sub)
	}
}
func errContains(sub string) func(error) bool {
	return func(err error) bool { return err != nil && strings.Contains(err.Error(), sub) }
}
func errIs(target error) func(error) bool { return errContains(target.Error()) }
func isNil(err error) bool                { return err == nil }

func TestEmptyReplyIsCompleteAndEmpty(t *testing.T) {
	srv := New(t)
	srv.Script(Reply{Text: "ignored", Fault: Fault{Kind: FaultEmpty}})
	got, err := collect(t, client(t, srv), &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi")})
	if err != nil || len(got) != 1 || !got[0].Done || got[0].Message.Content != "" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestHangEndsWhenClientGivesUp(t *testing.T) {
	srv := New(t)
	srv.Script(Reply{Text: "a b c", Fault: Fault{Kind: FaultHang, After: 1}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var chunks int
	err := client(t, srv).Chat(ctx, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi")}, func(api.ChatResponse) error {
		chunks++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || chunks != 1 {
		t.Fatalf("err %v after %d chunks", err, chunks)
	}
}

func TestCloseReleasesHangingRequests(t *testing.T) {
	srv := New(t)
	srv.Fail(PathVersion, -1, Fault{Kind: FaultHang})
	c := client(t, srv)
	done := make(chan error, 1)
	go func() {
		_, err := c.Version(context.Background())
		done <- err
	}()
	for srv.Count(PathVersion) == 0 {
		time.Sleep(time.Millisecond)
	}
	srv.Close()
	if err := <-done; err == nil {
		t.Fatal("a hanging request succeeded after Close")
	}
}

func TestFailIsGlobalAndKeepsScript(t *testing.T) {
	srv := New(t)
	srv.Script(Reply{Text: "scripted"})
	srv.Fail(PathChat, 2, Fault{Kind: FaultHTTP500})
	srv.Fail(PathEmbed, 1, Fault{Kind: FaultDrop})
	c := client(t, srv)
	for i := range 2 {
		if _, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi")}); !statusIs(500, "")(err) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	got, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi")})
	if err != nil || got[0].Message.Content != "scripted" {
		t.Fatalf("third attempt: %+v %v", got, err)
	}
	if _, err := c.Embed(context.Background(), &api.EmbedRequest{Model: "bge-m3", Input: "x"}); err == nil {
		t.Error("embed fault did not fire")
	}
	if _, err := c.Embed(context.Background(), &api.EmbedRequest{Model: "bge-m3", Input: "x"}); err != nil {
		t.Errorf("embed after the fault: %v", err)
	}
}

func TestCapabilityChecksLikeTheRealServer(t *testing.T) {
	srv := New(t, WithModels(Model{Name: "gemma:2b", Capabilities: []string{"completion"}}, Model{Name: "bge-m3", Capabilities: []string{"embedding"}}))
	c := client(t, srv)
	tool := api.Tool{Type: "function", Function: api.ToolFunction{Name: "calculator"}}
	_, err := collect(t, c, &api.ChatRequest{Model: "gemma:2b", Messages: userMsg("hi"), Tools: api.Tools{tool}})
	if !statusIs(400, "registry.ollama.ai/library/gemma:2b does not support tools")(err) {
		t.Errorf("tools on gemma: %v", err)
	}
	if _, err = collect(t, c, &api.ChatRequest{Model: "bge-m3", Messages: userMsg("hi")}); !statusIs(400, "does not support chat")(err) {
		t.Errorf("chat on bge-m3: %v", err)
	}
	if _, err = collect(t, c, &api.ChatRequest{Model: "nope", Messages: userMsg("hi")}); !statusIs(404, "model 'nope' not found")(err) {
		t.Errorf("unknown model: %v", err)
	}
}

func TestModelsListShowAndPull(t *testing.T) {
	srv := New(t)
	c := client(t, srv)
	list, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range list.Models {
		names = append(names, m.Name)
	}
	if d := cmp.Diff([]string{"llama3.2:3b", "bge-m3:latest"}, names); d != "" {
		t.Errorf("models (-want +got):\n%s", d)
	}
	show, err := c.Show(context.Background(), &api.ShowRequest{Model: "bge-m3"})
	if err != nil || len(show.Capabilities) != 1 || show.Capabilities[0] != "embedding" {
		t.Errorf("show bge-m3: %+v %v", show, err)
	}
	if _, err := c.Show(context.Background(), &api.ShowRequest{Model: "qwen3:4b"}); !statusIs(404, "model 'qwen3:4b' not found")(err) {
		t.Errorf("show missing: %v", err)
	}

	var progress []api.ProgressResponse
	err = c.Pull(context.Background(), &api.PullRequest{Model: "qwen3:4b"}, func(p api.ProgressResponse) error {
		progress = append(progress, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if progress[0].Status != "pulling manifest" || progress[len(progress)-1].Status != "success" {
		t.Errorf("progress = %+v", progress)
	}
	var last int64
	for _, p := range progress {
		if p.Total > 0 {
			if p.Completed < last {
				t.Errorf("progress went backwards: %+v", progress)
			}
			last = p.Completed
		}
	}
	if last != 1<<30 {
		t.Errorf("download ended at %d", last)
	}
	if _, err := c.Show(context.Background(), &api.ShowRequest{Model: "qwen3:4b"}); err != nil {
		t.Errorf("pulled model not installed: %v", err)
	}
}

func TestPullFailureIsAnErrorLineIn200(t *testing.T) {
	srv := New(t, WithPullFailure("nope", "pull model manifest: file does not exist"))
	var progress []api.ProgressResponse
	err := client(t, srv).Pull(context.Background(), &api.PullRequest{Model: "nope"}, func(p api.ProgressResponse) error {
		progress = append(progress, p)
		return nil
	})
	var se api.StatusError
	if err == nil || errors.As(err, &se) || err.Error() != "pull model manifest: file does not exist" {
		t.Fatalf("err = %#v", err)
	}
	if len(progress) != 1 {
		t.Errorf("progress before the error = %+v", progress)
	}
}

func TestEmbedIsDeterministicAndCounted(t *testing.T) {
	srv := New(t, WithEmbedDim(32))
	c := client(t, srv)
	resp, err := c.Embed(context.Background(), &api.EmbedRequest{Model: "bge-m3", Input: []string{"leave policy days", "leave policy days", "pizza recipe"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Embeddings) != 3 || len(resp.Embeddings[0]) != 32 {
		t.Fatalf("shape %d x %d", len(resp.Embeddings), len(resp.Embeddings[0]))
	}
	if d := cmp.Diff(resp.Embeddings[0], resp.Embeddings[1]); d != "" {
		t.Errorf("identical input, different vectors")
	}
	if d := cmp.Diff(Vector("pizza recipe", 32), resp.Embeddings[2]); d != "" {
		t.Errorf("Vector differs from the served vector")
	}
	if srv.Count(PathEmbed) != 1 || len(srv.EmbedRequests()) != 1 {
		t.Errorf("embed count %d", srv.Count(PathEmbed))
	}
	if _, err := c.Embed(context.Background(), &api.EmbedRequest{Model: "missing", Input: "x"}); !statusIs(404, "model 'missing' not found")(err) {
		t.Errorf("missing model: %v", err)
	}
}

func TestVectorSimilarity(t *testing.T) {
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	const dim = 256
	q := Vector("annual leave policy", dim)
	near := Vector("the leave policy gives 15 days of annual leave", dim)
	far := Vector("how to bake bread", dim)
	if dot(q, near) <= dot(q, far) {
		t.Errorf("related text not closer: near %.3f far %.3f", dot(q, near), dot(q, far))
	}
	ko := Vector("휴가 문서를 보여줘", dim)
	if dot(ko, Vector("문서", dim)) <= dot(ko, Vector("점심 메뉴", dim)) {
		t.Error("Korean particle variant not closer")
	}
	if n := dot(q, q); n < 0.999 || n > 1.001 {
		t.Errorf("not normalised: %.4f", n)
	}
	if v := Vector("", 8); v[0] != 1 {
		t.Errorf("empty text vector = %v", v)
	}
}

func TestCorruptionIsSeededAndOnlyStructured(t *testing.T) {
	run := func() (broken, corruptions int) {
		srv := New(t, WithCorruption(42, 0.3))
		c := client(t, srv)
		for range 100 {
			got, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("x"), Format: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`), Stream: ptr(false)})
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if json.Unmarshal([]byte(got[0].Message.Content), &v) != nil {
				broken++
			}
		}
		got, _ := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("x"), Stream: ptr(false)})
		if got[0].Message.Content != "ok" {
			t.Errorf("plain reply corrupted: %q", got[0].Message.Content)
		}
		return broken, srv.Corruptions()
	}
	b1, c1 := run()
	b2, c2 := run()
	if b1 != b2 || c1 != c2 {
		t.Errorf("same seed, different runs: %d/%d vs %d/%d", b1, c1, b2, c2)
	}
	if c1 < 15 || c1 > 45 || b1 != c1 {
		t.Errorf("corruptions %d (invalid JSON %d) of 100 at p=0.3", c1, b1)
	}
}

// With WithListPlans a corrupted reply holding a plan is the list a small
// model writes; without it the same reply is broken as JSON, and a reply
// with no plan is broken as JSON either way.
func TestListPlansOnlyWithTheOption(t *testing.T) {
	plan := map[string]any{"sub_tasks": []map[string]string{{"title": "a", "detail": "x"}, {"title": "b", "detail": "y"}}}
	for _, tt := range []struct {
		name  string
		opts  []Option
		reply any
		list  bool
	}{
		{"a plan, listed", []Option{WithCorruption(7, 1), WithListPlans()}, plan, true},
		{"a plan, without the option", []Option{WithCorruption(7, 1)}, plan, false},
		{"no plan", []Option{WithCorruption(7, 1), WithListPlans()}, map[string]any{"route": "simple"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, tt.opts...)
			srv.On(func(api.ChatRequest) bool { return true }, Reply{JSON: tt.reply})
			got, err := collect(t, client(t, srv), &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("x"), Format: json.RawMessage(`"json"`), Stream: ptr(false)})
			if err != nil {
				t.Fatal(err)
			}
			text := got[0].Message.Content
			if list := strings.Contains(text, "\n1. a: x\n2. b: y\n"); list != tt.list || json.Valid([]byte(text)) {
				t.Fatalf("reply %q, want a list %v", text, tt.list)
			}
		})
	}
}

func TestControlEndpoints(t *testing.T) {
	srv := New(t)
	post := func(path, body string) int {
		resp, err := http.Post(srv.URL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("/__fake/script", `[{"text":"from e2e","chunk_delay_ms":1},{"text":"second"}]`); code != 200 {
		t.Fatalf("script: %d", code)
	}
	if code := post("/__fake/fail", `{"path":"/api/version","fault":{"kind":"http_500"}}`); code != 200 {
		t.Fatalf("fail: %d", code)
	}
	if code := post("/__fake/script", `nonsense`); code != 400 {
		t.Errorf("bad script accepted: %d", code)
	}
	c := client(t, srv)
	got, err := collect(t, c, &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi")})
	if err != nil || len(got) != 3 || got[0].Message.Content+got[1].Message.Content != "from e2e" {
		t.Fatalf("scripted reply: %+v %v", got, err)
	}
	if _, err := c.Version(context.Background()); !statusIs(500, "")(err) {
		t.Errorf("version fault: %v", err)
	}
	if post("/__fake/reset", ``) != 200 || srv.Pending() != 0 || srv.Count(PathChat) != 0 {
		t.Errorf("reset left state: pending %d", srv.Pending())
	}
	http.DefaultClient.CloseIdleConnections()
}

func TestLatencyAndChunkDelayHonourCancellation(t *testing.T) {
	srv := New(t, WithLatency(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := client(t, srv).Version(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

func TestStartServesOutsideTests(t *testing.T) {
	srv, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	v, err := client(t, srv).Version(context.Background())
	if err != nil || v != "0.34.4" {
		t.Fatalf("version %q %v", v, err)
	}
}

func TestOnFuncMayUseTheServer(t *testing.T) {
	srv := New(t)
	srv.OnFunc(func(api.ChatRequest) bool { return srv.Count(PathChat) > 0 }, func(api.ChatRequest) Reply {
		return Reply{Text: fmt.Sprintf("call %d", srv.Count(PathChat))}
	})
	got, err := collect(t, client(t, srv), &api.ChatRequest{Model: "llama3.2:3b", Messages: userMsg("hi"), Stream: ptr(false)})
	if err != nil || got[0].Message.Content != "call 1" {
		t.Fatalf("got %+v %v", got, err)
	}
}

func BenchmarkVector(b *testing.B) {
	text := strings.Repeat("연차 휴가 정책 문서를 검토합니다 leave policy ", 20)
	b.ReportAllocs()
	for b.Loop() {
		Vector(text, 1024)
	}
}
