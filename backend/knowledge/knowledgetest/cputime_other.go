//go:build !unix

package knowledgetest

import "time"

// CPUTime is not measured here: callers skip CPU figures when it is 0.
func CPUTime() time.Duration { return 0 }
