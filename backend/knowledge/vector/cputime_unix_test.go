//go:build unix

package vector

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time. The machine is shared, so
// wall-clock latency depends on the neighbours; CPU time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
