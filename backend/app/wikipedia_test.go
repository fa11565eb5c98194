package app

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// wayfinder --wikipedia-zim FILE ask: search_wikipedia is offered for the
// run, reads the file, and the call with its result is in the turn's
// details; without the flag (and Settings off) it is not offered; a file
// that is not a ZIM file is refused before anything runs.
func TestAskSearchesWikipedia(t *testing.T) {
	fake := ollamatest.New(t)
	offered := false
	fake.OnFunc(ollamatest.All(ollamatest.HasTools(), ollamatest.LastIsToolResult()), func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Text: "위키백과: " + req.Messages[len(req.Messages)-1].Content}
	})
	fake.OnFunc(ollamatest.HasTools(), func(req ollama.ChatRequest) ollamatest.Reply {
		offered = false
		for _, tl := range req.Tools {
			offered = offered || tl.Function.Name == "search_wikipedia"
		}
		if !offered {
			return ollamatest.Reply{Text: "no wikipedia"}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "search_wikipedia", Args: map[string]any{"query": "서울"}}}}
	})
	dataDir := t.TempDir()
	base := []string{"--data-dir", dataDir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}

	code, out, errOut := wayfinder(t, append(base, "ask", "--json", "서울에 대해 알려줘")...)
	if code != 0 || offered || !strings.Contains(out, "no wikipedia") {
		t.Fatalf("without the file: %d, offered %v\n%s\n%s", code, offered, out, errOut)
	}

	zim := filepath.Join("..", "zim", "testdata", "wiki.zim") // relative: the flag makes it absolute
	code, out, errOut = wayfinder(t, append(base, "--wikipedia-zim", zim, "ask", "--json", "서울에 대해 알려줘")...)
	var res api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("with the file: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(res.Response, "서울특별시는 대한민국의 수도이다.") || len(res.ToolCalls) != 1 || res.ToolCalls[0].Tool != "search_wikipedia" ||
		!strings.Contains(res.ToolCalls[0].Result, "[1] 서울 — offline Wikipedia (wiki.zim)") {
		t.Fatalf("the call and its result: %+v", res)
	}

	code, _, errOut = wayfinder(t, append(base, "--wikipedia-zim", filepath.Join("testdata"), "ask", "서울")...)
	if code == 0 || !strings.Contains(errOut, "--wikipedia-zim: the Wikipedia file") {
		t.Fatalf("a folder as the file: %d\n%s", code, errOut)
	}
}

// doctor checks the chosen ZIM file: a file damaged or gone since it was
// chosen is a problem with its fix.
func TestDoctorChecksTheZIMFile(t *testing.T) {
	ctx := context.Background()
	fake := ollamatest.New(t)
	dir := t.TempDir()
	whole, err := os.ReadFile(filepath.Join("..", "zim", "testdata", "wiki.zim"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "위키백과.zim")
	if err := os.WriteFile(file, whole, 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := openApp(ctx, globals{dataDir: dir}, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	cfg := a.settings.Current()
	cfg.OllamaHost, cfg.ChatModel, cfg.EmbedModel = fake.URL(), "llama3.2:3b", "bge-m3"
	cfg.WikipediaEnabled, cfg.WikipediaZIM, cfg.WikipediaOnline = true, file, true
	if _, err := a.settings.Save(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	a.Close()
	code, out, errOut := wayfinder(t, "--data-dir", dir, "doctor")
	for _, want := range []string{"✓ search_wikipedia reads the ZIM file " + file + " (", "✓ search_wikipedia may ask Wikipedia online", "Everything is ready."} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("doctor: exit %d, want %q in\n%s\n%s", code, want, out, errOut)
		}
	}
	if err := os.WriteFile(file, []byte("<html>a login page, not the download</html>"+strings.Repeat(" ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = wayfinder(t, "--data-dir", dir, "doctor")
	if code != 1 || !strings.Contains(out, "✗ search_wikipedia cannot read its ZIM file "+file+": not a ZIM file") || !strings.Contains(out, "--wikipedia-zim FILE") {
		t.Fatalf("doctor with a damaged file: exit %d\n%s", code, out)
	}
}

// zimShell is a desktop window whose file dialog returns a chosen file.
type zimShell struct {
	Shell
	chosen, title string
}

func (z *zimShell) OpenZIM(title, _ string) (string, error) { z.title = title; return z.chosen, nil }

// The file dialog for the ZIM file exists in the desktop window only.
func TestChooseZIM(t *testing.T) {
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	s := &SettingsService{a}
	if _, err := s.ChooseZIM(); describe(err).Code != api.ErrDesktopOnly {
		t.Fatalf("outside the window: %v", err)
	}
	sh := &zimShell{chosen: "/home/you/wikipedia_ko_all.zim"}
	a.AttachShell(sh)
	if p, err := s.ChooseZIM(); err != nil || p != sh.chosen || !strings.Contains(sh.title, "ZIM") {
		t.Fatalf("in the window: %q, %v (title %q)", p, err, sh.title)
	}
}
