package llm

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func TestEmbedBatchesInOrder(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedDim(16))
	c := newClient(t, srv.URL(), WithEmbedBatch(32))
	inputs := make([]string, 70)
	for i := range inputs {
		inputs[i] = fmt.Sprintf("chunk %d 문서", i)
	}
	var progress []int
	vecs, err := c.EmbedWithProgress(context.Background(), "bge-m3", inputs, func(done, total int) {
		if total != 70 {
			t.Errorf("total = %d", total)
		}
		progress = append(progress, done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{32, 64, 70}, progress); d != "" {
		t.Errorf("progress (-want +got):\n%s", d)
	}
	if len(vecs) != 70 {
		t.Fatalf("%d vectors", len(vecs))
	}
	for i, v := range vecs {
		if d := cmp.Diff(ollamatest.Vector(inputs[i], 16), v); d != "" {
			t.Fatalf("vector %d is not the embedding of input %d", i, i)
		}
	}
	var sizes []int
	for _, r := range srv.EmbedRequests() {
		sizes = append(sizes, len(r.Input.([]any)))
	}
	if d := cmp.Diff([]int{32, 32, 6}, sizes); d != "" {
		t.Errorf("batch sizes (-want +got):\n%s", d)
	}
	if v, err := c.Embed(context.Background(), "bge-m3", nil); err != nil || len(v) != 0 || srv.Count(ollamatest.PathEmbed) != 3 {
		t.Errorf("empty input: %v %v, %d requests", v, err, srv.Count(ollamatest.PathEmbed))
	}
}

// A turn embeds the person's message twice (memory recall, then document
// search): the second time comes from the cache, per model, and a caller
// changing its vector does not change the cached one. Several inputs are
// never cached.
func TestEmbedCachesQueries(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedDim(8), ollamatest.WithModels(
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}},
		ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}},
	))
	c := newClient(t, srv.URL())
	ctx := context.Background()
	embed := func(model string, inputs ...string) [][]float32 {
		t.Helper()
		v, err := c.Embed(ctx, model, inputs)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	first := embed("bge-m3", "연차는 며칠이야?")
	first[0][0] = 42 // the caller's copy
	again := embed("bge-m3", "연차는 며칠이야?")
	if n := srv.Count(ollamatest.PathEmbed); n != 1 {
		t.Errorf("%d embed requests for the same query twice, want 1", n)
	}
	if d := cmp.Diff(ollamatest.Vector("연차는 며칠이야?", 8), again[0]); d != "" {
		t.Errorf("cached vector changed by a caller (-want +got):\n%s", d)
	}
	embed("nomic-embed-text", "연차는 며칠이야?")
	embed("bge-m3", "a", "b")
	embed("bge-m3", "a", "b")
	if n := srv.Count(ollamatest.PathEmbed); n != 4 {
		t.Errorf("%d embed requests, want 4 (another model and two batches are not cached)", n)
	}
}

func TestEmbedErrors(t *testing.T) {
	srv := ollamatest.New(t)
	c := newClient(t, srv.URL())
	srv.Fail(ollamatest.PathEmbed, 1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	if _, err := c.Embed(context.Background(), "bge-m3", []string{"a"}); err != nil {
		t.Errorf("500 then success: %v", err)
	}
	if srv.Count(ollamatest.PathEmbed) != 2 {
		t.Errorf("requests = %d", srv.Count(ollamatest.PathEmbed))
	}
	_, err := c.Embed(context.Background(), "nomic-embed-text", []string{"a"})
	if !errors.Is(err, ErrModelNotFound) || Classify(err).Hint != "ollama pull nomic-embed-text" {
		t.Errorf("missing model: %v / %+v", err, Classify(err))
	}
	srv.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	if _, err := newClient(t, srv.URL(), WithTimeouts(Timeouts{Request: 20e6})).Embed(context.Background(), "bge-m3", []string{"a"}); !errors.Is(err, ErrTimeout) {
		t.Errorf("hanging embed: %v", err)
	}
}

func TestModelsShowCapabilities(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}, Size: 10},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}, Size: 20},
	))
	c := newClient(t, srv.URL())
	got, err := c.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []wf.ModelInfo{
		{Name: "llama3.2:3b", Size: 10, Capabilities: []string{"completion", "tools"}},
		{Name: "bge-m3:latest", Size: 20, Capabilities: []string{"embedding"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("models (-want +got):\n%s", d)
	}
	st, err := c.ModelState(context.Background(), "bge-m3")
	if err != nil || !st.Installed || st.Capabilities[0] != "embedding" {
		t.Errorf("bge-m3 state %+v %v", st, err)
	}
	st, err = c.ModelState(context.Background(), "qwen3:4b")
	if err != nil || st.Installed {
		t.Errorf("missing model state %+v %v", st, err)
	}
	if v, err := c.Version(context.Background()); err != nil || v != "0.34.4" {
		t.Errorf("version %q %v", v, err)
	}
}

func TestPull(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithPullFailure("nope", "pull model manifest: file does not exist"))
	c := newClient(t, srv.URL())
	var statuses []string
	if err := c.Pull(context.Background(), "qwen3:4b", func(p Progress) { statuses = append(statuses, p.Status) }); err != nil {
		t.Fatal(err)
	}
	if statuses[0] != "pulling manifest" || statuses[len(statuses)-1] != "success" {
		t.Errorf("statuses = %v", statuses)
	}
	if st, _ := c.ModelState(context.Background(), "qwen3:4b"); !st.Installed {
		t.Error("pulled model not installed")
	}

	err := c.Pull(context.Background(), "nope", nil)
	if !errors.Is(err, ErrPullFailed) || srv.Count(ollamatest.PathPull) != 2 {
		t.Fatalf("failed pull: %v after %d requests", err, srv.Count(ollamatest.PathPull))
	}
	info := Classify(err)
	if !strings.Contains(info.Message, "file does not exist") || !strings.Contains(info.Hint, "ollama pull nope") {
		t.Errorf("Classify = %+v", info)
	}

	srv.Fail(ollamatest.PathPull, 1, ollamatest.Fault{Kind: ollamatest.FaultDrop})
	if err := c.Pull(context.Background(), "phi4", nil); err != nil {
		t.Errorf("pull after a dropped connection: %v", err)
	}
}

func TestParseHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "http://127.0.0.1:11434"},
		{"127.0.0.1:11434", "http://127.0.0.1:11434"},
		{"localhost", "http://localhost:11434"},
		{"http://example.lan:8080/", "http://example.lan:8080"},
		{"https://ollama.example.com", "https://ollama.example.com"},
		{"[::1]", "http://[::1]:11434"},
		{"ftp://x", ""},
		{"http://", ""},
	}
	for _, tt := range tests {
		u, err := ParseHost(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("ParseHost(%q) = %v, want error", tt.in, u)
			}
			continue
		}
		if err != nil || u.String() != tt.want {
			t.Errorf("ParseHost(%q) = %v, %v; want %s", tt.in, u, err, tt.want)
		}
	}
}

func TestClassifyEveryKind(t *testing.T) {
	tests := []struct {
		err  error
		code wf.ErrorCode
		hint string
		// args are the particulars the window words the error with, in
		// the person's language, instead of the English message.
		args map[string]string
	}{
		{&Error{Kind: ErrUnreachable, Host: "http://127.0.0.1:11434"}, wf.ErrOllamaUnreachable, "ollama serve", map[string]string{"host": "http://127.0.0.1:11434"}},
		{&Error{Kind: ErrModelNotFound, Model: "llama3.2:3b"}, wf.ErrModelMissing, "ollama pull llama3.2:3b", map[string]string{"model": "llama3.2:3b"}},
		{&Error{Kind: ErrNoToolSupport, Model: "gemma:2b"}, wf.ErrModelNoTools, "tools", map[string]string{"model": "gemma:2b"}},
		{&Error{Kind: ErrTimeout}, wf.ErrTimeout, "smaller model", nil},
		{&Error{Kind: ErrTimeout, Model: "qwen3:4b"}, wf.ErrTimeout, "smaller model", map[string]string{"model": "qwen3:4b"}},
		{&Error{Kind: ErrStreamDropped}, wf.ErrStreamDropped, "ollama ps", nil},
		{&Error{Kind: ErrMalformedOutput}, wf.ErrBadModelOutput, "Try again", nil},
		{&Error{Kind: ErrPullFailed, Model: "x", Err: errors.New("offline")}, wf.ErrPullFailed, "ollama pull x", map[string]string{"model": "x", "reason": "offline"}},
		{&Error{Kind: ErrRejected, Err: errors.New("bad")}, wf.ErrInvalidInput, "Settings", map[string]string{"case": "ollama_rejected", "reason": "bad"}},
		{&Error{Kind: ErrServer, Err: errors.New("boom")}, wf.ErrOllamaError, "server log", map[string]string{"reason": "boom"}},
		{&Error{Kind: ErrOutOfMemory, Model: "qwen3:32b"}, wf.ErrModelOutOfMemory, "fallback model", map[string]string{"model": "qwen3:32b"}},
		{fmt.Errorf("chat: %w", context.DeadlineExceeded), wf.ErrTimeout, "smaller model", nil},
	}
	for _, tt := range tests {
		info := Classify(fmt.Errorf("wrapped: %w", tt.err))
		if info.Code != tt.code || info.Message == "" || !strings.Contains(info.Hint, tt.hint) {
			t.Errorf("Classify(%v) = %+v, want code %s, hint with %q", tt.err, info, tt.code, tt.hint)
		}
		if !reflect.DeepEqual(info.Args, tt.args) {
			t.Errorf("Classify(%v).Args = %v, want %v", tt.err, info.Args, tt.args)
		}
	}
	if !reflect.DeepEqual(Classify(nil), wf.ErrorInfo{}) {
		t.Error("Classify(nil) not zero")
	}
}
