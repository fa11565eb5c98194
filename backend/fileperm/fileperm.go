// Package fileperm keeps what Wayfinder writes readable by the person
// alone: folders 0700, files 0600, whatever modes a folder had before and
// whatever a library (SQLite, chromem-go) would have chosen on its own. Chats,
// memories and documents are private, and on a shared computer a data folder
// created 0755 by an older version, or by the person, must not leave them
// readable by every local user.
//
// On Windows, modes do not carry this meaning (the per-user profile's ACLs
// do); there these functions only create folders.
package fileperm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The modes of what Wayfinder creates.
const (
	Dir  fs.FileMode = 0o700
	File fs.FileMode = 0o600
)

// MkdirAll creates dir and its missing parents with mode Dir and tightens
// dir itself when it already existed with looser permissions.
func MkdirAll(dir string) error {
	if err := os.MkdirAll(dir, Dir); err != nil {
		return err
	}
	return tightenOne(dir)
}

// Tighten creates dir when missing and removes group and other permissions
// from dir and from everything under it. Symbolic links are left alone (a
// chmod would follow one to its target, anywhere on the disk). It walks the
// whole folder, so it is for start-up, not for every write.
func Tighten(dir string) error {
	if err := MkdirAll(dir); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	var errs []error
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil // keep tightening what can be reached
		}
		if d.Type()&fs.ModeSymlink != 0 || path == dir {
			return nil
		}
		if err := tightenOne(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("make %s private: %w", dir, err)
	}
	return nil
}

// CreatePrivate creates path as an empty file with mode File when it does
// not exist, and tightens it when it does. It lets a library that takes its
// file's mode from the file (SQLite gives -wal and -shm the database's
// mode) create the rest privately too.
func CreatePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, File)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return tightenOne(path)
}

// TightenFile tightens path if it exists.
func TightenFile(path string) error {
	if err := tightenOne(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// WriteShared writes a file the person saves outside the data folder (an
// exported guide) with the mode their own tools would give a new file: 0666
// under the umask they had before Restrict (which would otherwise make it
// 0600). An existing file keeps its mode.
func WriteShared(path string, data []byte, previous fs.FileMode) error {
	_, statErr := os.Lstat(path)
	if err := os.WriteFile(path, data, File); err != nil {
		return err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		return os.Chmod(path, shared(previous))
	}
	return nil
}
