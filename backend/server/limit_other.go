//go:build !unix

package server

// openFileLimit: Windows limits sockets by memory, not by a count; this
// keeps the caps where they are on a usual Linux.
func openFileLimit() int { return 4096 }
