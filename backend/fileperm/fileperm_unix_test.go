//go:build unix

package fileperm

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestTighten: a data folder an older version (or the person) made 0755,
// with 0644 files and 0755 subfolders, ends up private; owner bits stay as
// they were, and a symlink's target outside is not touched.
func TestTighten(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "data")
	outside := filepath.Join(base, "outside.txt")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "memory", "abc"), 0o755))
	must(os.Chmod(dir, 0o755))
	must(os.WriteFile(filepath.Join(dir, "wayfinder.db"), nil, 0o644))
	must(os.WriteFile(filepath.Join(dir, "memory", "abc", "1.gob"), nil, 0o664))
	must(os.WriteFile(filepath.Join(dir, "readonly"), nil, 0o444))
	must(os.WriteFile(outside, nil, 0o644))
	must(os.Chmod(filepath.Join(dir, "wayfinder.db"), 0o644)) // past any umask
	must(os.Symlink(outside, filepath.Join(dir, "link")))

	must(Tighten(dir))
	for path, want := range map[string]fs.FileMode{
		dir:                                          0o700,
		filepath.Join(dir, "memory"):                 0o700,
		filepath.Join(dir, "memory", "abc"):          0o700,
		filepath.Join(dir, "wayfinder.db"):           0o600,
		filepath.Join(dir, "memory", "abc", "1.gob"): 0o600,
		filepath.Join(dir, "readonly"):               0o400,
		outside:                                      0o644,
	} {
		if got := mode(t, path); got != want {
			t.Errorf("%s: mode %o, want %o", path, got, want)
		}
	}
}

func TestCreatePrivate(t *testing.T) {
	dir := t.TempDir()
	fresh, old := filepath.Join(dir, "fresh.db"), filepath.Join(dir, "old.db")
	if err := os.WriteFile(old, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fresh, old} {
		if err := CreatePrivate(p); err != nil {
			t.Fatal(err)
		}
		if got := mode(t, p); got != 0o600 {
			t.Errorf("%s: mode %o, want 600", p, got)
		}
	}
	if b, _ := os.ReadFile(old); string(b) != "keep" {
		t.Fatalf("an existing file lost its content: %q", b)
	}
}

// TestRestrict: after Restrict, a library that asks for 0644 and 0755 gets
// 0600 and 0700; a file the person saves elsewhere gets their own default.
func TestRestrict(t *testing.T) {
	prev := Restrict()
	defer syscall.Umask(int(prev))
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "lib.gob")) // 0666 before the umask
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, filepath.Join(dir, "lib.gob")); got != 0o600 {
		t.Errorf("file: %o", got)
	}
	if got := mode(t, filepath.Join(dir, "sub")); got != 0o700 {
		t.Errorf("folder: %o", got)
	}
	guide := filepath.Join(dir, "guide.md")
	if err := WriteShared(guide, []byte("# guide"), prev); err != nil {
		t.Fatal(err)
	}
	if got, want := mode(t, guide), 0o666&^prev; got != want {
		t.Errorf("saved guide: %o, want %o", got, want)
	}
}
