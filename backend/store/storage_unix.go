//go:build unix

package store

import (
	"errors"
	"syscall"
)

func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

func isReadOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }
