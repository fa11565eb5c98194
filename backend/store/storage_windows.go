//go:build windows

package store

import (
	"errors"
	"syscall"
)

// Windows error codes (winerror.h).
const (
	errorWriteProtect   = syscall.Errno(19)
	errorHandleDiskFull = syscall.Errno(39)
	errorDiskFull       = syscall.Errno(112)
)

func isDiskFull(err error) bool {
	return errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull)
}

func isReadOnlyFS(err error) bool { return errors.Is(err, errorWriteProtect) }
