//go:build windows

package tools

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openBeneath opens rel (a path without links, relative to dir) through
// os.Root, which on Windows refuses links and reparse points that lead out
// of dir, and then checks that the opened file is the one named rel (a
// link swapped in between would be another file).
func openBeneath(dir, rel string) (*os.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	named, err := root.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if named.Mode()&fs.ModeSymlink != 0 {
		return nil, ErrChanged
	}
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err != nil || !os.SameFile(named, opened) {
		f.Close()
		return nil, fmt.Errorf("%w", ErrChanged)
	}
	return f, nil
}

// linkCount is the number of names the opened file has.
func linkCount(f *os.File, _ fs.FileInfo) (uint64, error) {
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(syscall.Handle(f.Fd()), &d); err != nil {
		return 0, fmt.Errorf("count the file's names: %w", err)
	}
	return uint64(d.NumberOfLinks), nil
}
