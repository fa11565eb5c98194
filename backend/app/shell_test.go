package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// filesShell is a desktop window that records what its file dialog was
// asked to show.
type filesShell struct {
	Shell
	title, filterName string
	patterns          []string
}

func (f *filesShell) OpenFiles(title, filterName string, patterns []string) ([]string, error) {
	f.title, f.filterName, f.patterns = title, filterName, patterns
	return nil, nil
}

// The desktop window's "Add files…" dialog shows every kind Wayfinder
// reads, however the file's name is cased, in the window's language: it
// once showed only PDF, Markdown, text and JSON, so a person's .hwp and
// .docx files were not there to choose.
func TestChooseFilesShowsEveryKind(t *testing.T) {
	for _, tc := range []struct{ lang, title, filter string }{
		{"en", "Import documents", "Documents Wayfinder reads"},
		{"ko", "문서 가져오기", "Wayfinder가 읽는 문서"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
			cfg := a.settings.Current()
			cfg.Language = tc.lang
			if _, err := a.settings.Save(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			sh := &filesShell{}
			a.AttachShell(sh)
			if _, err := (&KnowledgeService{a}).ChooseFiles(); err != nil {
				t.Fatal(err)
			}
			if sh.title != tc.title || sh.filterName != tc.filter {
				t.Errorf("dialog %q, filter %q; want %q, %q", sh.title, sh.filterName, tc.title, tc.filter)
			}
			for _, ext := range importer.Extensions() {
				for _, p := range []string{"*" + ext, "*" + strings.ToUpper(ext)} {
					if !slices.Contains(sh.patterns, p) {
						t.Errorf("the dialog hides %s files: patterns %v", p, sh.patterns)
					}
				}
			}
		})
	}
}
