//go:build unix

package fileperm

import (
	"io/fs"
	"os"
	"syscall"
)

// Restrict sets the process's umask to 077, so that every file and folder
// created from now on, by Wayfinder or by a library, is private whatever
// mode the creator asked for. It returns the umask in effect before, for
// files the person saves elsewhere (see WriteShared).
func Restrict() (previous fs.FileMode) {
	return fs.FileMode(syscall.Umask(0o077))
}

func shared(previous fs.FileMode) fs.FileMode { return 0o666 &^ previous }

func tightenOne(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 || fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	return os.Chmod(path, fi.Mode().Perm()&0o700)
}
