package app

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A PowerPoint file's pages are slides wherever the command line counts or
// names them: the import's progress, kb list's length, kb search's place
// and the unit in kb search --json; a PDF's stay pages.
func TestKBSaysSlidesForPresentations(t *testing.T) {
	docs := t.TempDir()
	for dst, src := range map[string]string{
		"deck.pptx":  "../knowledge/importer/testdata/office/regulation.pptx",
		"report.pdf": "../knowledge/testdata/library/hello.pdf",
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		lang                 string
		imported, list, hits []string
		not                  []string
	}{
		{"en_US.UTF-8",
			[]string{"deck.pptx: 4 slides, ", "report.pdf: 1 page, "},
			[]string{"LENGTH", "  4 slides  ", "  1 page  "}, // a cell between two columns' padding
			[]string{"deck.pptx, slide 2, § 제1장 총칙)"},
			[]string{"p. 2", "4 pages"}},
		{"ko_KR.UTF-8",
			[]string{"deck.pptx: 슬라이드 4장, ", "report.pdf: 1쪽, "},
			[]string{"분량", "  슬라이드 4장  ", "  1쪽  "},
			[]string{"deck.pptx, 슬라이드 2, § 제1장 총칙)"},
			[]string{"2쪽", "4쪽", "slide"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "--embed-model", "bge-m3"}
			check := func(what, out string, want []string) {
				t.Helper()
				for _, w := range want {
					if !strings.Contains(out, w) {
						t.Errorf("%s: want %q in\n%s", what, w, out)
					}
				}
				for _, n := range tc.not {
					if strings.Contains(out, n) {
						t.Errorf("%s: %q says a slide is a page:\n%s", what, n, out)
					}
				}
			}
			_, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...)
			check("import", out+errOut, tc.imported)
			_, out, errOut = wayfinder(t, append(base, "kb", "list")...)
			check("list", out+errOut, tc.list)
			_, out, errOut = wayfinder(t, append(base, "kb", "search", "등록금", "납부")...)
			check("search", out+errOut, tc.hits)
		})
	}
	t.Run("json", func(t *testing.T) {
		base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "--embed-model", "bge-m3"}
		wayfinder(t, append(base, "kb", "import", docs)...)
		for query, want := range map[string]string{"등록금 납부": "slide", "revenue regions": "page"} {
			code, out, errOut := wayfinder(t, append(base, "kb", "search", "--json", query)...)
			var rows []struct {
				File string `json:"file"`
				Page int    `json:"page"`
				Unit string `json:"unit"`
			}
			if err := json.Unmarshal([]byte(out), &rows); err != nil || code != 0 || len(rows) == 0 {
				t.Fatalf("kb search --json %q: exit %d, %v:\n%s%s", query, code, err, out, errOut)
			}
			if rows[0].Unit != want || rows[0].Page == 0 {
				t.Errorf("kb search --json %q: %+v, want its page counted in %ss", query, rows[0], want)
			}
		}
	})
}

// `wayfinder ask` lists a reply's sources with their slide or page, as the
// window does under the reply; a source saved before units were kept
// (Unit "") is a page.
func TestAskSourcesNameSlides(t *testing.T) {
	srcs := []api.Source{
		{Title: "메뉴 소개", Source: "menu.pptx", Page: 4, Unit: "slide"},
		{Title: "휴가 정책", Source: "leave.pdf", Page: 2, Unit: "page"},
		{Title: "Old", Source: "old.pdf", Page: 7},
	}
	for lang, want := range map[int]string{
		0: "[1] 메뉴 소개 — menu.pptx — slide 4\n[2] 휴가 정책 — leave.pdf — p. 2\n[3] Old — old.pdf — p. 7\n",
		1: "[1] 메뉴 소개 — menu.pptx — 슬라이드 4\n[2] 휴가 정책 — leave.pdf — 2쪽\n[3] Old — old.pdf — 7쪽\n",
	} {
		var out bytes.Buffer
		printSources(stdio{out: &out}, srcs, lang)
		if got := out.String(); !strings.HasSuffix(got, want) {
			t.Errorf("language %d: sources\n%s\nwant them to end with\n%s", lang, got, want)
		}
	}
}

// The window's knowledge API gives the unit beside every page: the
// document list, the import's progress, a search hit and the passage the
// reader opens.
func TestKnowledgeAPIGivesTheUnit(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	data, err := os.ReadFile("../knowledge/importer/testdata/office/regulation.pptx")
	if err != nil {
		t.Fatal(err)
	}
	id, err := k.Upload("학칙.pptx", base64.StdEncoding.EncodeToString(data))
	if err != nil {
		t.Fatal(err)
	}
	if r := waitReport(t, events, id); len(r.Imported) != 1 {
		t.Fatalf("report %+v", r)
	}
	events.mu.Lock()
	var done api.ImportProgress
	for _, e := range events.events {
		if p, ok := e.payload.(api.ImportProgress); ok && p.ImportID == id && p.Stage == "done" {
			done = p
		}
	}
	events.mu.Unlock()
	if done.Pages != 4 || done.Unit != "slide" {
		t.Errorf("progress: %d %ss, want 4 slides", done.Pages, done.Unit)
	}
	docs, err := k.Documents()
	if err != nil || len(docs) != 1 || docs[0].Pages != 4 || docs[0].Unit != "slide" {
		t.Fatalf("documents %+v, %v", docs, err)
	}
	hits, err := k.Search("등록금 납부", 1)
	if err != nil || len(hits) != 1 || hits[0].Page != 2 || hits[0].Unit != "slide" {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	p, err := k.Passage("", hits[0].ID, "", "")
	if err != nil || p.Page != 2 || p.Unit != "slide" {
		t.Fatalf("passage %+v, %v", p, err)
	}
}
