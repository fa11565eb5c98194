package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
		{"appended", func(path string) error {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			if _, err := f.WriteString("\n\n덧붙인 문단\n"); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}},
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
