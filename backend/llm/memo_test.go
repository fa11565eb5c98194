package llm

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// mapMemo is a ContextMemo in memory.
type mapMemo map[string]int

func (m mapMemo) Recall(model string) int  { return m[wf.ModelKey(model)] }
func (m mapMemo) Note(model string, n int) { m[wf.ModelKey(model)] = n }

// downURL is the address of a port nothing listens on: a host that is off
// or an Ollama not started yet.
func downURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr
}

// TestContextSizeRemembered: with the model's own context and no host
// answering, the size is the one the memo kept from the last time the model
// was seen (not DefaultNumCtx, which would fold the conversation into
// summaries to fit); a host that answers says it afresh, and the memo
// follows.
func TestContextSizeRemembered(t *testing.T) {
	tests := []struct {
		name     string
		up       bool // Ollama answers (its small:1b says 16384)
		numCtx   int
		memo     mapMemo // nil: no memo
		model    string
		want     int
		wantMemo mapMemo
	}{
		{"down, remembered from the last run", false, 0, mapMemo{"small:1b": 4096}, "small:1b", 4096, mapMemo{"small:1b": 4096}},
		{"down, remembered under the name without its tag", false, 0, mapMemo{"small:latest": 6144}, "small", 6144, mapMemo{"small:latest": 6144}},
		{"down, remembered but capped", false, 0, mapMemo{"big:8b": 131072}, "big:8b", MaxModelNumCtx, mapMemo{"big:8b": 131072}},
		{"down, never seen", false, 0, mapMemo{}, "small:1b", DefaultNumCtx, mapMemo{}},
		{"down, no memo", false, 0, nil, "small:1b", DefaultNumCtx, nil},
		{"up: learned again, and the memo follows", true, 0, mapMemo{"small:1b": 4096}, "small:1b", 16384, mapMemo{"small:1b": 16384}},
		{"up: noted the first time", true, 0, mapMemo{}, "small:1b", 16384, mapMemo{"small:1b": 16384}},
		{"the size set wins", false, 3000, mapMemo{"small:1b": 4096}, "small:1b", 3000, mapMemo{"small:1b": 4096}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := downURL(t)
			if tt.up {
				srv := ollamatest.New(t)
				srv.AddModel(ollamatest.Model{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 16384})
				url = srv.URL()
			}
			opts := []Option{WithNumCtx(tt.numCtx)}
			if tt.memo != nil {
				opts = append(opts, WithContextMemo(tt.memo))
			}
			if got := newClient(t, url, opts...).ContextSize(context.Background(), tt.model); got != tt.want {
				t.Errorf("ContextSize = %d, want %d", got, tt.want)
			}
			if d := cmp.Diff(tt.wantMemo, tt.memo); d != "" {
				t.Errorf("memo (-want +got):\n%s", d)
			}
		})
	}
}

// TestContextFileKeepsLengthsAcrossStarts: what one client learned from
// /api/show, a client of the next start (its Ollama not up yet) recalls
// from the file in the data folder.
func TestContextFileKeepsLengthsAcrossStarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), ContextFileName)
	quiet := slog.New(slog.DiscardHandler)
	srv := ollamatest.New(t)
	srv.AddModel(ollamatest.Model{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 16384})
	ctx := context.Background()
	if got := newClient(t, srv.URL(), WithNumCtx(0), WithContextMemo(OpenContextFile(path, quiet))).ContextSize(ctx, "small:1b"); got != 16384 {
		t.Fatalf("with Ollama up: %d", got)
	}
	next := newClient(t, downURL(t), WithNumCtx(0), WithContextMemo(OpenContextFile(path, quiet)))
	if got := next.ContextSize(ctx, "small:1b"); got != 16384 {
		t.Errorf("next start, Ollama not up yet: %d, want 16384", got)
	}
	if got := next.ContextSize(ctx, "other:1b"); got != DefaultNumCtx {
		t.Errorf("a model never seen: %d", got)
	}
}

func TestContextFile(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	tests := []struct {
		name    string
		content string // "" : no file
		notes   map[string]int
		want    map[string]int // recalled after reopening
	}{
		{"no file yet", "", map[string]int{"qwen3:4b": 40960}, map[string]int{"qwen3:4b": 40960, "qwen3": 0}},
		{"names as Ollama resolves them", "", map[string]int{"Llama3": 8192}, map[string]int{"llama3:latest": 8192}},
		{"kept lengths stay, a new one replaces the old", `{"a:1b": 2048, "b:1b": 4096}`, map[string]int{"b:1b": 16384}, map[string]int{"a:1b": 2048, "b:1b": 16384}},
		{"nonsense is not noted", "", map[string]int{"a:1b": 0, "b:1b": -5}, map[string]int{"a:1b": 0, "b:1b": 0}},
		{"a broken file counts as empty and is replaced", `{"a:1b": 20`, map[string]int{"b:1b": 4096}, map[string]int{"a:1b": 0, "b:1b": 4096}},
		{"lengths that are not positive are dropped", `{"a:1b": -1, "b:1b": 4096}`, nil, map[string]int{"a:1b": 0, "b:1b": 4096}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ContextFileName)
			if tt.content != "" {
				if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			f := OpenContextFile(path, quiet)
			for m, n := range tt.notes {
				f.Note(m, n)
			}
			again := OpenContextFile(path, quiet)
			for m, n := range tt.want {
				if got := again.Recall(m); got != n {
					t.Errorf("Recall(%q) after reopening = %d, want %d", m, got, n)
				}
			}
		})
	}
}

// TestContextFileBounds: a file too large is not read into memory, and
// the memo stops growing at maxContextModels.
func TestContextFileBounds(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	path := filepath.Join(t.TempDir(), ContextFileName)
	big := make([]byte, maxContextFile+10)
	for i := range big {
		big[i] = ' '
	}
	if err := os.WriteFile(path, big, 0o600); err != nil {
		t.Fatal(err)
	}
	f := OpenContextFile(path, quiet)
	if len(f.lengths) != 0 {
		t.Errorf("a file too large gave %d lengths", len(f.lengths))
	}
	for i := range maxContextModels + 5 {
		f.Note("m:"+strconv.Itoa(i), 4096)
	}
	if n := len(OpenContextFile(path, quiet).lengths); n != maxContextModels {
		t.Errorf("kept %d models, want %d", n, maxContextModels)
	}
}

// TestContextFileClosed: after Close a note is recalled but not written,
// so a model call still running when the app closes its data folder
// leaves nothing there (its file, or a temporary one beside it).
func TestContextFileClosed(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	dir := t.TempDir()
	path := filepath.Join(dir, ContextFileName)
	f := OpenContextFile(path, quiet)
	f.Note("a:1b", 2048)
	f.Close()
	f.Note("b:1b", 4096)
	if got := f.Recall("b:1b"); got != 4096 {
		t.Errorf("Recall after Close = %d, want 4096", got)
	}
	again := OpenContextFile(path, quiet)
	if a, b := again.Recall("a:1b"), again.Recall("b:1b"); a != 2048 || b != 0 {
		t.Errorf("on file: a:1b %d, b:1b %d; want 2048 and nothing", a, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the memo alone", len(entries))
	}
}
