package pdftext

// sliceMemory is the fallback when the system refuses a mapping: linear
// memory in a Go slice that is copied as it grows (what wazero does by
// default). wazero needs some LinearMemory from an allocator, never nil.
type sliceMemory struct {
	buf []byte
	max uint64
}

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		grown := make([]byte, size, min(m.max, max(size, uint64(cap(m.buf))*2)))
		copy(grown, m.buf)
		m.buf = grown
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
