package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Settings' "None (keyword search only)" saves no embedding model. Then
// nothing asks Ollama to embed with a model named "" (an import did, and
// the background worker again every minute), and the next start opens, the
// passages and memories found by their words (it failed: "open memory
// vectors: no embedding model").
func TestNoEmbedModel(t *testing.T) {
	fake, saved := settledLibrary(t, "# 출장비 규정\n\n출장비는 하루 5만 원까지 정산한다.\n", "bge-m3")
	before := len(fake.EmbedRequests())

	a, err := openApp(context.Background(), saved, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	<-a.library.ready
	s := a.settings.Current()
	s.EmbedModel = ""
	if _, err := (&SettingsService{app: a}).Save(s); err != nil {
		a.Close()
		t.Fatal(err)
	}
	a.Close()

	doc := filepath.Join(t.TempDir(), "leave.md")
	if err := os.WriteFile(doc, []byte("# 휴가 규정\n\n연차는 1년에 15일이다.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--data-dir", saved.dataDir, "--ollama-host", saved.ollamaHost, "--model", saved.model}
	if code, _, stderr := wayfinder(t, append(base, "kb", "import", doc)...); code != 0 {
		t.Fatalf("kb import: exit %d, %s", code, stderr)
	}

	next, err := openApp(context.Background(), saved, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatalf("start with no embedding model: %v", err)
	}
	<-next.library.ready
	next.library.bg.Wait()
	hits, err := next.memory.Search(context.Background(), "무료 도구", 1)
	next.Close()
	if err != nil || len(hits) != 1 {
		t.Errorf("memory by its words: %v, %v", hits, err)
	}
	empty := 0
	for _, r := range fake.EmbedRequests()[before:] {
		if r.Model == "" {
			empty++
		}
	}
	if empty > 0 {
		t.Errorf("asked Ollama to embed with no model %d times since the save", empty)
	}
	if code, out, stderr := wayfinder(t, append(base, "kb", "search", "연차")...); code != 0 || !strings.Contains(out, "휴가 규정") {
		t.Errorf("kb search by words: exit %d, %q, %s", code, out, stderr)
	}
}
