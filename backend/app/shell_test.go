package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// filesShell is a desktop window that records what its file dialogs
// were asked to show; its save dialog chooses saveTo, its open dialog
// chosen (none: the person cancelled).
type filesShell struct {
	Shell
	title, filterName, defaultName, saveTo string
	patterns, chosen                       []string
}

func (f *filesShell) SaveFile(title, defaultName, filterName string) (string, error) {
	f.title, f.defaultName, f.filterName = title, defaultName, filterName
	return f.saveTo, nil
}

func (f *filesShell) OpenFiles(title, filterName string, patterns []string) ([]string, error) {
	f.title, f.filterName, f.patterns = title, filterName, patterns
	return f.chosen, nil
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
			a := appSpeaking(t, tc.lang)
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

// The save dialog shows the files of the kind saved, named in the window's
// language: a conversation exported as JSON once showed only Markdown
// files.
func TestSaveTextFileNamesItsKind(t *testing.T) {
	for _, tc := range []struct{ lang, name, title, filter string }{
		{"en", "conversations.json", "Save", "JSON"},
		{"ko", "../guide.md", "저장", "마크다운"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			a := appSpeaking(t, tc.lang)
			sh := &filesShell{saveTo: filepath.Join(t.TempDir(), "saved")}
			a.AttachShell(sh)
			path, err := (&SettingsService{a}).SaveTextFile(tc.name, "내용")
			if err != nil || path != sh.saveTo {
				t.Fatalf("saved to %q, %v", path, err)
			}
			if sh.title != tc.title || sh.filterName != tc.filter || sh.defaultName != filepath.Base(tc.name) {
				t.Errorf("dialog %q, file %q, filter %q; want %q, %q, %q", sh.title, sh.defaultName, sh.filterName, tc.title, filepath.Base(tc.name), tc.filter)
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != "내용" {
				t.Errorf("file holds %q, %v", b, err)
			}
		})
	}
}

// appSpeaking is a test app whose language, saved in Settings, is lang.
// (Its quick Close once left the status check the save started writing in
// the data folder; TestNothingHappensAfterClose holds that.)
func appSpeaking(t *testing.T, lang string) *App {
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	cfg := a.settings.Current()
	cfg.Language = lang
	if _, err := a.settings.Save(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	return a
}
