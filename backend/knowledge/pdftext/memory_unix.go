//go:build unix

package pdftext

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapAllocator backs each PDFium instance's linear memory with its own
// anonymous mapping of the instance's maximum size. Pages cost memory only
// once PDFium touches them, the memory never moves as it grows (wazero's
// default allocator copies it into a larger Go slice at every growth, which
// doubled the peak), and closing the instance unmaps it: the pages go back
// to the system at once instead of waiting for the Go heap to shrink.
type mmapAllocator struct{}

func (mmapAllocator) Allocate(_, max uint64) experimental.LinearMemory {
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return &sliceMemory{max: max}
	}
	return &mmapMemory{buf: buf}
}

type mmapMemory struct{ buf []byte }

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}

func memoryAllocator() experimental.MemoryAllocator { return mmapAllocator{} }
