//go:build !unix

package atomicfile

// syncDir does nothing outside Unix: Windows cannot open a folder for
// writing through os, and NTFS journals a rename with the file's metadata.
func syncDir(string) error { return nil }
