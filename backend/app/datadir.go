package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// errDataDirBusy: another Wayfinder process has the data folder open.
var errDataDirBusy = errors.New("another Wayfinder is using the data folder")

// lockDataDir keeps a second Wayfinder process (a second window, or
// `wayfinder ask` beside the open app) out of a data folder in use. Two would
// each keep their own in-memory copy of the vectors, and the second would
// mark the first one's reply in progress as interrupted when it starts. The
// lock is the kernel's: it goes away with the process, however it ends.
func lockDataDir(dir string) (*flock.Flock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the data folder %s: %w", dir, err)
	}
	l := flock.New(filepath.Join(dir, "wayfinder.lock"), flock.SetPermissions(0o600))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock the data folder %s: %w", dir, err)
	}
	if !ok {
		return nil, busyError{dir}
	}
	return l, nil
}

// busyError is errDataDirBusy for the folder dir. The command line says
// it in its language (words), where a Korean terminal read it in
// English; the log and the desktop's start page take Error.
type busyError struct{ dir string }

func (e busyError) Error() string {
	return fmt.Sprintf("%v %s (a Wayfinder window, `wayfinder serve` or `wayfinder ask`): close it first, or choose another folder with --data-dir", errDataDirBusy, e.dir)
}

func (e busyError) Is(target error) bool { return target == errDataDirBusy }

func (e busyError) words(lang int) (message, hint string) {
	return say("cli.dataDirBusy", lang, "dir", e.dir), say("cli.dataDirBusy.hint", lang)
}
