//go:build !unix

package pdftext

import "time"

func cpuTime() time.Duration { return 0 }
