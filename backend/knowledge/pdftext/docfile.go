package pdftext

import (
	"context"
	"encoding/binary"
	"errors"
	"io"

	"github.com/tetratelabs/wazero/api"
)

// PDFium opens the document by path (FPDF_LoadDocument) and reads it with
// open/fstat/lseek/read, which this Emscripten build imports as syscalls.
// The host answers them for one file, served from an io.ReaderAt: the
// document never has to be copied into PDFium's memory (where it would
// count against Limits.Memory) nor, when the caller has it on disk, be
// read into Go's.

// docPath is the name PDFium is given for the document.
const docPath = "/document.pdf"

// docFD is the descriptor the document gets; anything else is unknown.
const docFD = 7

// docFile is the one file an instance can open.
type docFile struct {
	r    io.ReaderAt
	size int64
	pos  int64
	err  error // a read error of r, reported instead of "damaged"
}

// Emscripten's errno values (musl numbering) and WASI's.
const (
	errnoEBADF    = 8
	wasiEINVAL    = 28
	wasiEIO       = 29
	errnoENOENT   = 44
	statSizeField = 24 // offset of st_size in Emscripten's struct stat
	statLen       = 96
)

func fileOf(ctx context.Context) *docFile {
	if st := stateOf(ctx); st != nil {
		return st.file
	}
	return nil
}

// openat(dirfd, path, flags, ...) opens the document, nothing else.
func sysOpenat(ctx context.Context, m api.Module, s []uint64) {
	f := fileOf(ctx)
	if f == nil || cString(m, uint32(s[1])) != docPath {
		s[0] = api.EncodeI32(-errnoENOENT)
		return
	}
	f.pos = 0
	s[0] = docFD
}

// fstat64(fd, buf) reports a regular file of the document's size.
func sysFstat(ctx context.Context, m api.Module, s []uint64) {
	f := fileOf(ctx)
	if f == nil || uint32(s[0]) != docFD {
		s[0] = api.EncodeI32(-errnoEBADF)
		return
	}
	var st [statLen]byte
	binary.LittleEndian.PutUint32(st[4:], 0o100444) // S_IFREG, read-only
	binary.LittleEndian.PutUint32(st[8:], 1)        // nlink
	binary.LittleEndian.PutUint64(st[statSizeField:], uint64(f.size))
	binary.LittleEndian.PutUint32(st[32:], 4096) // blksize
	if !m.Memory().Write(uint32(s[1]), st[:]) {
		s[0] = api.EncodeI32(-errnoEBADF)
		return
	}
	s[0] = 0
}

// fd_read(fd, iovs, iovs_len, nread) reads at the file's position.
func wasiRead(ctx context.Context, m api.Module, s []uint64) {
	fd, iovs, n, nread := uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[3])
	f := fileOf(ctx)
	if f == nil || fd != docFD {
		m.Memory().WriteUint32Le(nread, 0) // stdin and the like: end of file
		s[0] = 0
		return
	}
	mem := m.Memory()
	var total uint32
	for i := uint32(0); i < n; i++ {
		ptr, ok1 := mem.ReadUint32Le(iovs + i*8)
		l, ok2 := mem.ReadUint32Le(iovs + i*8 + 4)
		buf, ok3 := mem.Read(ptr, l)
		if !ok1 || !ok2 || !ok3 {
			s[0] = wasiEINVAL
			return
		}
		if f.pos >= f.size || l == 0 {
			break
		}
		got, err := f.r.ReadAt(buf[:min(int64(l), f.size-f.pos)], f.pos)
		f.pos += int64(got)
		total += uint32(got)
		if err != nil && !errors.Is(err, io.EOF) {
			f.err = err
			s[0] = wasiEIO
			return
		}
		if got < int(l) {
			break
		}
	}
	mem.WriteUint32Le(nread, total)
	s[0] = 0
}

// fd_seek(fd, offset_lo, offset_hi, whence, newoffset): this build passes
// the 64-bit offset as two halves.
func wasiSeek(ctx context.Context, m api.Module, s []uint64) {
	f := fileOf(ctx)
	if f == nil || uint32(s[0]) != docFD {
		s[0] = wasiESPIPE
		return
	}
	off := int64(uint32(s[1])) | int64(int32(s[2]))<<32
	switch uint32(s[3]) {
	case 0: // SEEK_SET
	case 1: // SEEK_CUR
		off += f.pos
	case 2: // SEEK_END
		off += f.size
	default:
		s[0] = wasiEINVAL
		return
	}
	if off < 0 {
		s[0] = wasiEINVAL
		return
	}
	f.pos = off
	m.Memory().WriteUint64Le(uint32(s[4]), uint64(off))
	s[0] = 0
}
