//go:build unix

package tools

import (
	"errors"
	"path/filepath"
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
	if _, err := ReadTextFile([]string{dir}, "pipe", 1000); !errors.Is(err, ErrNotText) {
		t.Fatalf("err = %v, want ErrNotText", err)
	}
}
