//go:build unix

package pdftext

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used: on a shared machine it
// measures the work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
