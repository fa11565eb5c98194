//go:build unix

package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestImportRefusesWhatIsNotAFile: a path named on its own that is a device
// or a named pipe fails with ErrNotRegular at once. Before, /dev/zero
// (here behind a .txt link) was hashed forever and a pipe waited forever
// for a writer; neither heeded Ctrl+C.
func TestImportRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.txt")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	b := newPlainEnv(t).openWith(Options{})
	for _, path := range []string{zero, fifo} {
		done := make(chan Report, 1)
		go func() {
			rep, err := b.Import(context.Background(), []string{path}, nil)
			if err != nil {
				t.Errorf("%s: %v", path, err)
			}
			done <- rep
		}()
		select {
		case rep := <-done:
			if len(rep.Failed) != 1 || !errors.Is(rep.Failed[0].Err, ErrNotRegular) {
				t.Errorf("%s: %+v, want one failure with ErrNotRegular", filepath.Base(path), rep)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the import did not end (it reads a file that never ends)", filepath.Base(path))
		}
	}
}

// TestHashFileStops: hashing stops when the import is cancelled and when a
// file grows past the size limit while it is read.
func TestHashFileStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := hashFile(ctx, "/dev/zero"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	var tl *TooLargeError
	if _, err := hashFile(context.Background(), "/dev/zero"); !errors.As(err, &tl) || tl.Max != maxFileSize>>20 {
		t.Errorf("endless file: %v, want a TooLargeError", err)
	}
}

// TestOpenRegularDoesNotWaitOnAPipe: the file is judged by the descriptor
// it is read through, and opening a named pipe for that does not wait for
// a writer. A path checked with stat and then opened could be swapped for
// a pipe in between, and the open would wait forever.
func TestOpenRegularDoesNotWaitOnAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, _, err := openRegular(fifo)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("err %v, want ErrNotRegular", err)
		}
	case <-time.After(30 * time.Second):
		// Unblock the open before failing: a writer ends its wait.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("opening a named pipe waited for a writer")
	}
}
