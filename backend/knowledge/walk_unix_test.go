//go:build unix

package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFolderLinksAreListed: a folder's import reads only the folder the
// person chose, once, and says of every entry it did not read why. A
// link out of it (to a file, a folder, the folder above) is not followed
// and listed; a link to a file inside is read where that file is, not
// twice; a link to a hidden file is left out as the hidden file is; links
// that loop and links to nothing are listed; a pipe is not a file.
// Before, every link and the pipe were skipped without a word. A folder
// named through a link is walked under the name given.
func TestFolderLinksAreListed(t *testing.T) {
	top := t.TempDir()
	outside := filepath.Join(top, "outside")
	folder := filepath.Join(top, "folder")
	for _, d := range []string{outside, filepath.Join(folder, "sub"), filepath.Join(folder, ".hidden")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "secret.txt"), "바깥의 비밀")
	write(filepath.Join(folder, "a.txt"), "안쪽의 글")
	write(filepath.Join(folder, ".hidden", "key.txt"), "숨은 열쇠")
	links := map[string]string{
		"escape.txt":   filepath.Join(outside, "secret.txt"),
		"relative.txt": "../outside/secret.txt",
		"outdir":       outside,
		"sub/up":       "../..",
		"sub/self":     "..",
		"copy.txt":     "a.txt",
		"key.txt":      ".hidden/key.txt",
		"loop1.txt":    "loop2.txt",
		"loop2.txt":    "loop1.txt",
		"gone.txt":     "nothing.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(folder, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(folder, "pipe.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(top, "named")
	if err := os.Symlink(folder, named); err != nil {
		t.Fatal(err)
	}
	type left struct{ Path, Why, Target string }
	want := []left{
		{"copy.txt", "inside", "a.txt"},
		{"escape.txt", "outside", filepath.Join(outside, "secret.txt")},
		{"gone.txt", "broken", "nothing.txt"},
		{"key.txt", "hidden", ".hidden/key.txt"},
		{"loop1.txt", "loop", ""},
		{"loop2.txt", "loop", ""},
		{"outdir", "outside", outside},
		{"pipe.txt", "not a file", ""},
		{"relative.txt", "outside", filepath.Join(outside, "secret.txt")},
		{"sub/self", "inside", "."},
		{"sub/up", "outside", top},
	}
	for _, root := range []string{folder, named} {
		t.Run(filepath.Base(root), func(t *testing.T) {
			b := newPlainEnv(t).openWith(Options{})
			rep, err := b.Import(context.Background(), []string{root}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{filepath.Join(root, "a.txt")}, rep.Imported); diff != "" {
				t.Errorf("imported (-want +got):\n%s", diff)
			}
			var got []left
			for _, f := range rep.LeftOut {
				rel, _ := filepath.Rel(root, f.Path)
				var le *LinkError
				switch {
				case errors.As(f.Err, &le):
					target := le.Target
					if r, err := filepath.Rel(root, target); le.Why != LinkOutside && le.Why != LinkBroken && err == nil {
						target = r
					}
					got = append(got, left{rel, string(le.Why), target})
				case errors.Is(f.Err, ErrNotRegular):
					got = append(got, left{rel, "not a file", ""})
				default:
					t.Errorf("%s: %v", rel, f.Err)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("left out (-want +got):\n%s", diff)
			}
			hits, err := b.Search(context.Background(), "비밀 열쇠", SearchOptions{TopK: 5})
			if err != nil || len(hits) != 0 {
				t.Errorf("what lies outside the folder, or hidden, was read: %+v, %v", hits, err)
			}
		})
	}
}
