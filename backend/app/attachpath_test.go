package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// The desktop window's paperclip opens the native dialog, titled in the
// window's language and showing the documents Wayfinder reads: the
// webview's own chooser was titled "Select Files" in the system's
// language and showed every file, programs and pictures too. What the
// person chose comes back as paths; a cancelled dialog, as none.
func TestChooseAttachments(t *testing.T) {
	for _, tc := range []struct {
		lang, title, filter string
		chosen              []string
	}{
		{"en", "Attach files to this conversation", "Documents Wayfinder reads", []string{"/home/me/report.pdf", "/home/me/메모.hwp"}},
		{"ko", "대화에 파일 첨부", "Wayfinder가 읽는 문서", nil},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			a := appSpeaking(t, tc.lang)
			sh := &filesShell{chosen: tc.chosen}
			a.AttachShell(sh)
			got, err := (&KnowledgeService{a}).ChooseAttachments()
			if err != nil || !slices.Equal(got, tc.chosen) {
				t.Fatalf("chose %q, %v; want %q", got, err, tc.chosen)
			}
			if sh.title != tc.title || sh.filterName != tc.filter {
				t.Errorf("dialog %q, filter %q; want %q, %q", sh.title, sh.filterName, tc.title, tc.filter)
			}
			for _, ext := range importer.Extensions() {
				if !slices.Contains(sh.patterns, "*"+ext) || !slices.Contains(sh.patterns, "*"+strings.ToUpper(ext)) {
					t.Errorf("the dialog hides %s files: patterns %v", ext, sh.patterns)
				}
			}
		})
	}
	// The browser has no native dialog: its page keeps its file input.
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	if _, err := (&KnowledgeService{a}).ChooseAttachments(); describe(err).Code != api.ErrDesktopOnly {
		t.Fatalf("ChooseAttachments outside the window: %v", err)
	}
}

// A file attached by its path (the native dialog, a drop on the window)
// goes into the conversation's own files as an upload of it would, with
// its progress and report under the id AttachPath returned, whatever its
// size: an upload's 64 MB bound is for content crossing the bridge in
// base64, and a 65 MB file the person chose attaches. A missing file, a
// folder or a kind Wayfinder does not read fails in its report, with the
// reason the window words, and leaves nothing attached.
func TestAttachPath(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"})), "llama3.2:3b")
	k := &KnowledgeService{a}
	sess, err := (&ChatService{a}).Create("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Past the upload bound: a short text, then blank lines.
	large := filepath.Join(dir, "큰 보고서.txt")
	f, err := os.Create(large)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# 연간 보고서\n\n올해 매출은 12억 원입니다.\n"); err != nil {
		t.Fatal(err)
	}
	blank := []byte(strings.Repeat("\n", 1<<20))
	for range maxUpload>>20 + 1 {
		if _, err := f.Write(blank); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, path string
		reason     string // "" when it attaches
	}{
		{"a document", write("출장규정.md", "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n"), ""},
		{"over the upload bound", large, ""},
		{"missing", filepath.Join(dir, "없는 파일.pdf"), "not_found"},
		{"a folder", dir, "not_regular"},
		{"a program", write("setup.exe", "MZ"), "unsupported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := k.AttachPath(sess.ID, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			rep := importDone(t, events, id)
			if rep.Conversation != sess.ID || rep.Error != nil {
				t.Fatalf("report %+v", rep)
			}
			files, err := k.Attached(sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			listed := slices.ContainsFunc(files, func(d api.KBDocument) bool { return filepath.Base(d.Source) == filepath.Base(tc.path) })
			if tc.reason == "" {
				if len(rep.Imported) != 1 || len(rep.Failed) != 0 || !listed {
					t.Fatalf("not attached: report %+v, conversation's files %+v", rep, files)
				}
				// Its progress went under its id, to its conversation.
				if events.count(api.EventImport, func(p any) bool {
					ev := p.(api.ImportProgress)
					return ev.ImportID == id && ev.Conversation == sess.ID
				}) == 0 {
					t.Error("no progress under its import id")
				}
				return
			}
			if len(rep.Failed) != 1 || rep.Failed[0].Reason == nil || rep.Failed[0].Reason.Code != tc.reason || len(rep.Imported) != 0 || listed {
				t.Fatalf("want it failed with %s, nothing attached: report %+v, conversation's files %+v", tc.reason, rep, files)
			}
		})
	}
	if docs, _ := k.Documents(); len(docs) != 0 {
		t.Errorf("the library lists an attached file: %+v", docs)
	}
	// A path the person attached is no grant: read_file still reads no
	// folder of it (the person grants folders in Settings only).
	if folders := a.settings.Current().Folders; len(folders) != 0 {
		t.Errorf("attaching by path granted read_file %+v", folders)
	}

	for _, tc := range []struct{ name, session, path string }{
		{"an unknown conversation", "no-such-session", filepath.Join(dir, "출장규정.md")},
		{"a path relative to nothing the person knows", sess.ID, "출장규정.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if id, err := k.AttachPath(tc.session, tc.path); err == nil {
				t.Fatalf("attached, import %s", id)
			}
		})
	}
}

// importDone waits for the report of import id. Reading 65 MB takes
// seconds, and under the race detector on a busy two-core machine a
// minute or more: longer than eventLog.waitFor waits.
func importDone(t *testing.T, events *eventLog, id string) api.ImportReport {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, p := range events.all(api.EventImportDone) {
			if rep := p.(api.ImportReport); rep.ImportID == id {
				return rep
			}
		}
	}
	t.Fatalf("import %s did not end", id)
	return api.ImportReport{}
}
