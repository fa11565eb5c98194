package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
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

// Choosing an embedding model in Settings after a start with "None
// (keyword search only)" makes memory search use vectors at once, and
// None again stops it, where memories stayed searched by their words (or
// by the old model's vectors) until the next start.
func TestSettingsEmbedModelReachesMemoryWithoutRestart(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}}))
	g := globals{dataDir: t.TempDir(), ollamaHost: fake.URL(), model: "llama3.2:3b"}
	save := func(a *App, model string) {
		t.Helper()
		s := a.settings.Current()
		s.EmbedModel = model
		if _, err := (&SettingsService{app: a}).Save(s); err != nil {
			t.Fatal(err)
		}
		a.bg.Wait() // the switch runs in the background
	}
	first, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	save(first, "")
	first.Close()

	a, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := (&MemoryService{app: a}).Add("사용자는 무료 도구를 선호한다", api.MemoryPreference); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		model  string // chosen in Settings
		embeds bool   // memory search embeds its query
	}{
		{"", false},
		{"bge-m3", true},
		{"", false},
		{"bge-m3", true},
	} {
		t.Run("embed model "+strconv.Quote(tc.model), func(t *testing.T) {
			if tc.model != a.settings.Current().EmbedModel {
				save(a, tc.model)
			}
			before := len(fake.EmbedRequests())
			hits, err := a.memory.Search(context.Background(), "무료 도구", 1)
			if err != nil || len(hits) != 1 {
				t.Fatalf("search: %v, %v", hits, err)
			}
			asked := false
			for _, r := range fake.EmbedRequests()[before:] {
				asked = asked || r.Model == "bge-m3" && fmt.Sprint(r.Input) == "[무료 도구]"
			}
			if asked != tc.embeds {
				t.Errorf("the query embedded: %v, want %v", asked, tc.embeds)
			}
		})
	}
}
