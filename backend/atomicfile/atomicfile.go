// Package atomicfile replaces a file whole: what it writes goes to a
// temporary file beside the target, which is synced and renamed over it.
// A crash or a failed write leaves the old file or the new one, never half
// of one; a failed write leaves no temporary file behind, and the
// temporary file a crash left is removed by the next write of the same
// file (sweep). Wayfinder keeps its token,
// settings, indexes and exports this way.
//
// github.com/google/renameio/v2 does the same on Unix but has no TempFile
// or WriteFile on Windows, which the app also builds for; os.Rename
// replaces an existing file there too (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING), so one small implementation serves both.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// staleAfter is how long a temporary file must have gone unwritten to be
// taken for a crash's leftover rather than another process's write in
// progress (every write renames or removes its own within seconds).
const staleAfter = time.Hour

// Write replaces path with data; see WriteWith.
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteWith(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith replaces path with what write writes. The temporary file is
// created in path's folder (a rename across file systems is a copy) and
// given perm before write runs, so a secret is never readable by others,
// not even for a moment. The file is synced before the rename and the
// folder after it, where the system can sync a folder, so that the new
// name survives a power cut. On any failure, write's included, the
// temporary file is removed and path is left as it was.
//
// The folder must exist. Errors are returned as they come (an
// *fs.PathError names the file); callers add what they were doing.
func WriteWith(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close() // a second Close only returns an error
			os.Remove(tmp)
		}
	}()
	// Chmod, unlike the mode given at creation, is not narrowed by the
	// umask: the file gets perm exactly. On Windows only the read-only
	// bit is meaningful; elsewhere without modes it is unsupported.
	if err := f.Chmod(perm); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	sweep(dir, base, time.Now())
	if err := syncDir(dir); err != nil {
		// The new file is in place; only its survival of a crash is not
		// sure. Said all the same: the caller asked for a durable write.
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

// sweep removes the temporary files of base in dir that a killed process
// left (their names are random, so no later write replaces them, and a
// vector index's can be hundreds of megabytes). A file written to within
// staleAfter is left alone: it may be another process's write under way.
// Failures are ignored: the leftovers only take room.
func sweep(dir, base string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > staleAfter {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
