//go:build windows

package pdftext

import (
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/windows"
)

// virtualAllocator reserves each PDFium instance's maximum linear memory as
// address space and commits pages as it grows, so the memory never moves
// (wazero's default allocator copies it at every growth) and is released
// to the system when the instance closes.
type virtualAllocator struct{}

func (virtualAllocator) Allocate(_, max uint64) experimental.LinearMemory {
	addr, err := windows.VirtualAlloc(0, uintptr(max), windows.MEM_RESERVE, windows.PAGE_READWRITE)
	if err != nil {
		return &sliceMemory{max: max}
	}
	// The reservation is not Go memory, so the conversion is safe; it is
	// written through a pointer so that vet sees no uintptr arithmetic.
	base := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return &virtualMemory{addr: addr, max: max, buf: unsafe.Slice((*byte)(base), max)}
}

type virtualMemory struct {
	addr      uintptr
	max       uint64
	committed uint64
	buf       []byte
}

func (m *virtualMemory) Reallocate(size uint64) []byte {
	if m.addr == 0 || size > m.max {
		return nil
	}
	if size > m.committed {
		if _, err := windows.VirtualAlloc(m.addr, uintptr(size), windows.MEM_COMMIT, windows.PAGE_READWRITE); err != nil {
			return nil
		}
		m.committed = size
	}
	return m.buf[:size]
}

func (m *virtualMemory) Free() {
	if m.addr != 0 {
		_ = windows.VirtualFree(m.addr, 0, windows.MEM_RELEASE)
		m.addr, m.buf = 0, nil
	}
}

func memoryAllocator() experimental.MemoryAllocator { return virtualAllocator{} }
