//go:build unix

package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// openBeneath opens rel (a path without links, relative to dir) one element
// at a time with openat and O_NOFOLLOW, so that no symbolic link is
// followed, wherever it appeared, and refuses an element on another device
// than dir (a disk mounted inside the folder). The file is opened with
// O_NONBLOCK so that a FIFO swapped in cannot block the open; the caller
// checks on the opened file that it is a regular one.
func openBeneath(dir, rel string) (*os.File, error) {
	fd, err := openat(unix.AT_FDCWD, dir, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	var top unix.Stat_t
	if err := unix.Fstat(fd, &top); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: dir, Err: err}
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i, name := range parts {
		flags := unix.O_RDONLY | unix.O_NOFOLLOW
		if i < len(parts)-1 {
			flags |= unix.O_DIRECTORY
		} else {
			flags |= unix.O_NONBLOCK | unix.O_NOCTTY
		}
		next, err := openat(fd, name, flags)
		unix.Close(fd)
		switch {
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.EMLINK):
			return nil, ErrChanged // a link where a folder or the file was
		case err != nil:
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, rel), Err: err}
		}
		fd = next
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
			return nil, &fs.PathError{Op: "stat", Path: filepath.Join(dir, rel), Err: err}
		}
		if st.Dev != top.Dev {
			unix.Close(fd)
			return nil, fmt.Errorf("%w (%s is on another disk mounted inside the folder; grant that folder itself)", ErrChanged, filepath.Join(parts[:i+1]...))
		}
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir, rel)), nil
}

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// linkCount is the number of names the opened file has.
func linkCount(_ *os.File, fi fs.FileInfo) (uint64, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, errors.New("cannot tell how many names the file has")
	}
	return uint64(st.Nlink), nil
}
