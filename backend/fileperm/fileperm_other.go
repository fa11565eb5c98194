//go:build !unix

package fileperm

import "io/fs"

// Restrict does nothing outside Unix (Windows has no umask); it returns 0.
func Restrict() (previous fs.FileMode) { return 0 }

func shared(fs.FileMode) fs.FileMode { return 0o666 }

func tightenOne(string) error { return nil }
