//go:build !unix

package security

func execWithFileLimit() {}
