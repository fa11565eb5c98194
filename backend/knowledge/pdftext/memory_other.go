//go:build !unix && !windows

package pdftext

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator is wazero's default (Go slices) where no mapping is at hand.
func memoryAllocator() experimental.MemoryAllocator { return nil }
