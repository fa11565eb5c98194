//go:build unix

package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO would block a plain open forever; read_file must refuse it before
// opening.
func TestReadTextFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTextFile(grants(dir), "pipe", 1000); !errors.Is(err, ErrNotText) {
		t.Fatalf("err = %v, want ErrNotText", err)
	}
}

// TestReadTextFileRefusesHardLinks: a hard link inside the folder to a
// file outside reads the outside file's content under an inside name; any
// file with a second name is refused, and so is the original once linked.
func TestReadTextFileRefusesHardLinks(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "granted")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(outside, []byte("TOPSECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "notes.txt")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	got, err := ReadTextFile(grants(dir), "notes.txt", 1000)
	if !errors.Is(err, ErrLinked) || strings.Contains(got.Text, "TOPSECRET") {
		t.Fatalf("hard link to a file outside: %q, %v; want ErrLinked", got.Text, err)
	}
	if err := os.Remove(outside); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadTextFile(grants(dir), "notes.txt", 1000); err != nil || got.Text != "TOPSECRET" {
		t.Fatalf("the same file with one name left: %q, %v", got.Text, err)
	}
}

// TestOpenBeneathFollowsNoLink: openBeneath is handed a path resolve found
// free of links; a link that appears on it afterwards (a swap) makes it
// fail instead of being followed, whether it replaces a folder or the file.
func TestOpenBeneathFollowsNoLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "a.txt"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "swapped")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real/a.txt", filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"swapped/a.txt", "b.txt"} {
		if f, err := openBeneath(dir, rel); !errors.Is(err, ErrChanged) {
			if f != nil {
				f.Close()
			}
			t.Errorf("openBeneath(%q) = %v, want ErrChanged", rel, err)
		}
	}
	f, err := openBeneath(dir, filepath.Join("real", "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
