//go:build unix

package knowledgetest

import (
	"syscall"
	"time"
)

// CPUTime is the process's user+system CPU time. The machine is shared, so
// wall-clock figures depend on the neighbours; CPU time does not.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
