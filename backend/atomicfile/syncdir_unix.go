//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// syncDir makes a rename in dir durable: on Unix a new name is written to
// the folder's own data, which fsync on the file does not cover. Some file
// systems (network ones, FUSE) cannot sync a folder and say EINVAL or
// ENOTSUP; there the rename is as durable as they make it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
