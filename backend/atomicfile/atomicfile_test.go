package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestWriteWith(t *testing.T) {
	errHalf := errors.New("disk full halfway")
	tests := []struct {
		name    string
		old     string // the file's content before; "" for none
		target  string // written to, relative to the folder; "f" unless set
		perm    fs.FileMode
		write   func(io.Writer) error
		wantErr error // nil: success; errAny: some error
		want    string
	}{
		{name: "new file", perm: 0o600, write: text("new\n"), want: "new\n"},
		{name: "replaces the old one", old: "old\n", perm: 0o600, write: text("new\n"), want: "new\n"},
		{name: "mode given exactly, not narrowed", perm: 0o640, write: text("x"), want: "x"},
		{name: "empty", old: "old\n", perm: 0o600, write: text(""), want: ""},
		{
			name: "failure in the middle keeps the old file", old: "old\n", perm: 0o600,
			write: func(w io.Writer) error {
				io.WriteString(w, "half of the ne")
				return errHalf
			},
			wantErr: errHalf, want: "old\n",
		},
		{
			name: "failure in the middle of a first write leaves nothing", perm: 0o600,
			write: func(w io.Writer) error {
				io.WriteString(w, "half")
				return errHalf
			},
			wantErr: errHalf,
		},
		{name: "rename fails: target is a folder", target: "sub", perm: 0o600, write: text("x"), wantErr: errAny},
		{name: "folder missing", target: "none/f", perm: 0o600, write: text("x"), wantErr: fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			target := tt.target
			if target == "" {
				target = "f"
			}
			path := filepath.Join(dir, target)
			if tt.old != "" {
				if err := os.WriteFile(path, []byte(tt.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var modeSeen fs.FileMode
			err := WriteWith(path, tt.perm, func(w io.Writer) error {
				// The mode is set before the first byte.
				fi, err := w.(*os.File).Stat()
				if err != nil {
					return err
				}
				modeSeen = fi.Mode().Perm()
				return tt.write(w)
			})
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("WriteWith: %v", err)
			case tt.wantErr == errAny && err == nil, tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("WriteWith: %v, want %v", err, tt.wantErr)
			}
			if runtime.GOOS != "windows" && modeSeen != 0 && modeSeen != tt.perm {
				t.Errorf("mode while writing %v, want %v", modeSeen, tt.perm)
			}
			if tt.target == "" {
				got, rerr := os.ReadFile(path)
				switch {
				case tt.old == "" && tt.wantErr != nil:
					if !errors.Is(rerr, fs.ErrNotExist) {
						t.Errorf("a failed first write left %q (%v)", got, rerr)
					}
				case rerr != nil:
					t.Fatal(rerr)
				case string(got) != tt.want:
					t.Errorf("file holds %q, want %q", got, tt.want)
				}
				if fi, err := os.Stat(path); err == nil && tt.wantErr == nil && runtime.GOOS != "windows" && fi.Mode().Perm() != tt.perm {
					t.Errorf("mode %v, want %v", fi.Mode().Perm(), tt.perm)
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Name() != "f" && e.Name() != "sub" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token")
	for _, s := range []string{"one", "two"} {
		if err := Write(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != s {
			t.Errorf("file holds %q, want %q", got, s)
		}
	}
}

// errAny stands for an error of any kind in the table.
var errAny = errors.New("any error")

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// A temporary file a killed write left (an hour unwritten) goes at the
// next write of the same file; one being written, another file's, or a
// file that only looks alike, stays.
func TestWriteSweepsWhatACrashLeft(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * staleAfter)
	files := map[string]bool{ // name → removed by the write of chunks.vec
		".chunks.vec.123456.tmp":  true,
		".chunks.vec.999.tmp":     true,
		".chunks.vec.fresh.tmp":   false, // another process's write under way
		".memo.json.123.tmp":      false, // another file's
		"chunks.vec.123.tmp":      false, // not hidden: not ours
		".chunks.vec.123.tmp.bak": false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if name != ".chunks.vec.fresh.tmp" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Write(filepath.Join(dir, "chunks.vec"), []byte("v"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, gone := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if removed := errors.Is(err, fs.ErrNotExist); removed != gone {
			t.Errorf("%s: removed %v, want %v", name, removed, gone)
		}
	}
}
