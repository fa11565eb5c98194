package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// appendParagraph writes one more paragraph at the end of the file at
// path, as an editor saving it does while it is read.
func appendParagraph(path string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("\n\n덧붙인 문단\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// TestFileChangedWhileRead: a file cut short, or written to, while it is
// read fails with ErrChanged and leaves nothing, rather than being kept as
// half of one version (before, a text file truncated in the middle was
// imported as its first half, "successfully").
func TestFileChangedWhileRead(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(path string) error
	}{
		{"truncated", func(path string) error { return os.Truncate(path, 1000) }},
		{"appended", appendParagraph},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "바뀌는.txt")
			var text strings.Builder
			for i := range 4000 {
				text.WriteString(strings.Repeat("문단 하나의 글자들 ", 20) + string(rune('가'+i%100)) + "\n\n")
			}
			if err := os.WriteFile(path, []byte(text.String()), 0o600); err != nil {
				t.Fatal(err)
			}
			b := newPlainEnv(t).openWith(Options{})
			did := false
			rep, err := b.Import(context.Background(), []string{path}, func(p Progress) {
				if p.Stage == StageChunking && p.Chunks > 0 && !did {
					did = true // the first batch is staged: the file is being read
					if err := tt.change(path); err != nil {
						t.Error(err)
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !did {
				t.Fatal("no batch was staged while the file was read")
			}
			if len(rep.Failed) != 1 || !errors.Is(rep.Failed[0].Err, ErrChanged) {
				t.Fatalf("report %+v, want the file failed with ErrChanged", rep)
			}
			docs, err := b.List(context.Background())
			if err != nil || len(docs) != 0 {
				t.Fatalf("documents %d (%v), want none", len(docs), err)
			}
		})
	}
}

// TestAttachFileChanged: a file attached by its path (AttachFile) that is
// saved while it is copied fails with ErrChanged, as an import of it does
// (TestFileChangedWhileRead), and nothing of it is kept; one left alone
// is attached. Before, the copy was kept whatever happened to the file.
func TestAttachFileChanged(t *testing.T) {
	const conv = "0199a000-0000-7000-8000-00000000000c"
	for _, tt := range []struct {
		name   string
		change func(path string) error
		want   error
	}{
		{"unchanged", func(string) error { return nil }, nil},
		{"truncated", func(path string) error { return os.Truncate(path, 10) }, ErrChanged},
		{"appended", appendParagraph, ErrChanged},
		{"rewritten in place, same size", func(path string) error {
			return os.Chtimes(path, time.Now(), time.Now().Add(time.Minute))
		}, ErrChanged},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, b, dir := uploadEnv(t)
			path := filepath.Join(t.TempDir(), "회의록.md")
			if err := os.WriteFile(path, []byte("# 회의록\n\n"+strings.Repeat("예산 검토 결과를 정리했다. ", 400)), 0o600); err != nil {
				t.Fatal(err)
			}
			opened := attachOpened
			t.Cleanup(func() { attachOpened = opened })
			attachOpened = func(*os.File) {
				if err := tt.change(path); err != nil {
					t.Error(err)
				}
			}
			var last Progress
			res, err := b.AttachFile(context.Background(), conv, path, time.Time{}, func(p Progress) { last = p })
			if err != nil {
				t.Fatal(err)
			}
			docs, err := b.ConversationDocuments(context.Background(), conv)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if res.Outcome != UploadAdded || len(docs) != 1 {
					t.Fatalf("outcome %v, %d documents; want it added", res.Outcome, len(docs))
				}
				return
			}
			if res.Outcome != UploadFailed || len(res.Report.Failed) != 1 || !errors.Is(res.Report.Failed[0].Err, tt.want) {
				t.Fatalf("outcome %v, report %+v; want it failed with %v", res.Outcome, res.Report, tt.want)
			}
			if last.Stage != StageFailed || !errors.Is(last.Err, tt.want) {
				t.Errorf("last progress %+v, want failed with %v", last, tt.want)
			}
			if len(docs) != 0 {
				t.Errorf("%d documents kept, want none", len(docs))
			}
			if kept := files(t, dir); len(kept) != 0 {
				t.Errorf("upload folder holds %v, want nothing", kept)
			}
		})
	}
}
