package app

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// settleRun opens the data folder as serve does, waits until the library's
// passages all have a vector of the run's model (the catalog's too) and
// closes it again; it returns the /api/embed calls the run made by model.
func settleRun(t *testing.T, fake *ollamatest.Server, g globals) map[string]int {
	t.Helper()
	before := len(fake.EmbedRequests())
	a, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	<-a.library.ready
	a.library.bg.Wait() // embedMissing: the passages the vectors lack
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := a.library.vectors.Status()
		if st.Loaded && st.Pending == 0 && !st.Reembedding {
			break
		}
		if time.Now().After(deadline) {
			a.Close()
			t.Fatalf("the library's vectors did not settle: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.Close()
	calls := map[string]int{}
	for _, r := range fake.EmbedRequests()[before:] {
		calls[r.Model]++
	}
	return calls
}

// settledLibrary starts a fake Ollama with llama3.2:3b and the embedding
// models given, imports a document of text into a new data folder with
// `kb import`, adds a memory with `memory add` and runs once until every
// vector is made, so that the test measures only what its own runs embed.
// It returns the fake and the run's settings, without --embed-model.
func settledLibrary(t *testing.T, text string, embedModels ...string) (*ollamatest.Server, globals) {
	t.Helper()
	models := []ollamatest.Model{{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}}}
	for _, m := range embedModels {
		models = append(models, ollamatest.Model{Name: m, Capabilities: []string{"embedding"}})
	}
	fake := ollamatest.New(t, ollamatest.WithModels(models...))
	dir := t.TempDir()
	doc := filepath.Join(t.TempDir(), "trip.md")
	if err := os.WriteFile(doc, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	for _, args := range [][]string{{"kb", "import", doc}, {"memory", "add", "사용자는 무료 도구를 선호한다"}} {
		if code, _, stderr := wayfinder(t, append(base, args...)...); code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
	}
	saved := globals{dataDir: dir, ollamaHost: fake.URL(), model: "llama3.2:3b"}
	settleRun(t, fake, saved) // the catalog's passages too
	return fake, saved
}

// A one-run --embed-model leaves the saved model's vectors as they are:
// the run embeds into a store of its own, and the next run without the
// flag embeds nothing again (it used to re-embed every passage and memory
// twice, once with the tried model and once back, with vector search off
// meanwhile).
func TestEmbedModelFlagKeepsSavedVectors(t *testing.T) {
	fake, saved := settledLibrary(t, "# 출장비 규정\n\n출장비는 하루 5만 원까지 정산한다.\n\n숙박비는 영수증을 붙여 따로 청구한다.\n",
		"bge-m3", "nomic-embed-text")
	dir := saved.dataDir
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	vecFile := filepath.Join(dir, "knowledge", "chunks.vec")
	before, err := os.ReadFile(vecFile)
	if err != nil {
		t.Fatal(err)
	}

	// A short command with the flag, alone and beside the open app (read
	// only): it finds the file by its words, the tried model having no
	// vectors yet, and leaves the saved model's as they are.
	search := append(base, "--embed-model", "nomic-embed-text", "kb", "search", "출장비")
	if code, stdout, stderr := wayfinder(t, search...); code != 0 || !strings.Contains(stdout, "trip.md") {
		t.Errorf("kb search with the flag: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	open, err := openApp(context.Background(), saved, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := wayfinder(t, search...)
	open.Close()
	if code != 0 || !strings.Contains(stdout, "trip.md") {
		t.Errorf("kb search with the flag beside the open app: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if after, err := os.ReadFile(vecFile); err != nil || !bytes.Equal(before, after) {
		t.Errorf("kb search with the flag rewrote the saved model's vectors (%d bytes, then %d; %v)", len(before), len(after), err)
	}

	tried := saved
	tried.embedModel = "nomic-embed-text"
	calls := settleRun(t, fake, tried)
	t.Logf("/api/embed calls of the run with --embed-model: %v", calls)
	if calls["nomic-embed-text"] == 0 {
		t.Errorf("the run with --embed-model embedded nothing with it: %v", calls)
	}
	if calls["bge-m3"] != 0 {
		t.Errorf("the run with --embed-model called the saved model %d times", calls["bge-m3"])
	}
	after, err := os.ReadFile(vecFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the run with --embed-model rewrote the saved model's vectors (%d bytes, then %d)", len(before), len(after))
	}

	triedFile := filepath.Join(dir, "knowledge", "chunks.override.vec")
	if _, err := os.Stat(triedFile); err != nil {
		t.Errorf("the tried model's vectors: %v", err)
	}
	if n := collections(t, dir); n != 2 {
		t.Errorf("memory folder after the tried run: %d collections, want the saved model's and the tried one's", n)
	}

	calls = settleRun(t, fake, saved)
	t.Logf("/api/embed calls of the next run without it: %v", calls)
	if len(calls) != 0 {
		t.Errorf("the run after the flag embedded again: %v /api/embed calls by model, want none", calls)
	}
	// Disk holds the saved model's vectors only once a run goes without
	// the flag.
	if _, err := os.Stat(triedFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the tried model's vectors after a run without the flag: %v, want them removed", err)
	}
	if n := collections(t, dir); n != 1 {
		t.Errorf("memory folder after a run without the flag: %d collections, want the saved model's only", n)
	}
}

// collections counts the chromem collections (one folder each) of the
// memory vectors.
func collections(t *testing.T, dataDir string) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dataDir, "memory"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() {
			n++
		}
	}
	return n
}

// Ollama resolves "bge-m3" and "bge-m3:latest" to one model: a run given
// the saved model's other spelling with --embed-model is no tried run, and
// that spelling saved in Settings changes no model. Neither embeds a
// passage or a memory again, nor writes vectors of its own.
func TestEmbedModelSpellingKeepsVectors(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, fake *ollamatest.Server, saved globals) map[string]int
	}{
		{"--embed-model", func(t *testing.T, fake *ollamatest.Server, saved globals) map[string]int {
			g := saved
			g.embedModel = "bge-m3:latest"
			return settleRun(t, fake, g)
		}},
		{"saved in Settings", func(t *testing.T, fake *ollamatest.Server, saved globals) map[string]int {
			before := len(fake.EmbedRequests())
			a, err := openApp(context.Background(), saved, "serve", newLogger(io.Discard, false))
			if err != nil {
				t.Fatal(err)
			}
			<-a.library.ready
			a.library.bg.Wait()
			s := a.settings.Current()
			s.EmbedModel = "BGE-M3:latest"
			_, err = (&SettingsService{app: a}).Save(s)
			st := a.library.vectors.Status()
			a.Close()
			if err != nil {
				t.Fatal(err)
			}
			if st.Pending != 0 || st.Reembedding {
				t.Errorf("after the save: %+v, want every passage's vector kept", st)
			}
			calls := map[string]int{}
			for _, r := range fake.EmbedRequests()[before:] {
				calls[r.Model]++
			}
			// And the next run, with the spelling saved.
			for m, n := range settleRun(t, fake, saved) {
				calls[m] += n
			}
			return calls
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, saved := settledLibrary(t, "# 출장비 규정\n\n출장비는 하루 5만 원까지 정산한다.\n", "bge-m3")
			dir := saved.dataDir

			if calls := tt.run(t, fake, saved); len(calls) != 0 {
				t.Errorf("embedded again: %v /api/embed calls by model, want none", calls)
			}
			if _, err := os.Stat(filepath.Join(dir, "knowledge", "chunks.override.vec")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("vectors of a tried model written (%v), want none", err)
			}
			if n := collections(t, dir); n != 1 {
				t.Errorf("memory folder: %d collections, want the saved model's only", n)
			}
		})
	}
}
