//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFilesArePrivate: in a data folder that already existed with mode
// 0755 and under the usual 022 umask, the database and the -wal and -shm
// SQLite creates beside it are 0600 and the folder becomes 0700; a database
// left 0644 by an older version is tightened with its -wal and -shm.
func TestFilesArePrivate(t *testing.T) {
	for _, old := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "data")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if old {
			for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
				if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(filepath.Join(dir, name), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		s, err := Open(context.Background(), dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateSession(context.Background(), "write something"); err != nil {
			t.Fatal(err)
		}
		want := map[string]os.FileMode{dir: 0o700, filepath.Join(dir, FileName): 0o600,
			filepath.Join(dir, FileName+"-wal"): 0o600, filepath.Join(dir, FileName+"-shm"): 0o600}
		for path, mode := range want {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatalf("old=%v: %v", old, err)
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("old=%v: %s has mode %o, want %o", old, filepath.Base(path), fi.Mode().Perm(), mode)
			}
		}
		s.Close()
	}
}
