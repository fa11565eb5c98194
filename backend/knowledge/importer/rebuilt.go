package importer

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
)

// rebuilt is the archive salvage rebuilds from a damaged file's parts:
// each part stored, behind a local header, then a directory of them, as
// archive/zip reads it. A part the file stores uncompressed is not copied
// into it but read from the file where it is (a section of the file), so
// that one whose end cannot be found (its descriptor lost, junk after it)
// may run to the budget of text without that much memory held; only
// what is inflated, the headers and the directory are kept, in blocks.
// No checksum is written (archive/zip then checks none): the parts were
// checked, as far as they could be, when they were read.
type rebuilt struct {
	mem   blocks    // headers, inflated text and the directory
	segs  []segment // the archive in order
	size  int64
	dir   []rebuiltEntry
	open  int    // the index in dir of the part being written, or -1
	local []byte // its local header, whose sizes end fills in
}

// segment is a run of the rebuilt archive: n bytes of src from off, at
// offset at in the archive.
type segment struct {
	at, off, n int64
	src        io.ReaderAt
}

type rebuiltEntry struct {
	name      string
	header, n int64 // where its local header is; its data's size
	local     []byte
}

func newRebuilt() *rebuilt { return &rebuilt{open: -1} }

// add appends n bytes of src from off to the archive, joining them to the
// segment before when they continue it.
func (r *rebuilt) add(src io.ReaderAt, off, n int64) {
	if n <= 0 {
		return
	}
	if k := len(r.segs); k > 0 {
		if last := &r.segs[k-1]; last.src == src && last.off+last.n == off {
			last.n += n
			r.size += n
			return
		}
	}
	r.segs = append(r.segs, segment{at: r.size, off: off, n: n, src: src})
	r.size += n
}

// keep appends p, held in memory.
func (r *rebuilt) keep(p []byte) {
	off := r.mem.size
	r.mem.Write(p)
	r.add(&r.mem, off, int64(len(p)))
}

// begin starts a part named name; its data follows (Write, section) until
// end.
func (r *rebuilt) begin(name string) {
	h := make([]byte, 30+len(name))
	le := binary.LittleEndian
	le.PutUint32(h, sigLocal)
	le.PutUint16(h[4:], 20)                 // version needed: 2.0
	le.PutUint16(h[26:], uint16(len(name))) // names come from a 16-bit field
	copy(h[30:], name)
	r.dir = append(r.dir, rebuiltEntry{name: name, header: r.size, local: h})
	r.open = len(r.dir) - 1
	r.add(bytes.NewReader(h), 0, int64(len(h)))
}

// Write appends inflated data to the open part.
func (r *rebuilt) Write(p []byte) (int, error) {
	r.keep(p)
	r.dir[r.open].n += int64(len(p))
	return len(p), nil
}

// section appends n bytes of the file from off to the open part, read
// from the file when the part is read.
func (r *rebuilt) section(file io.ReaderAt, off, n int64) {
	r.add(file, off, n)
	r.dir[r.open].n += max(n, 0)
}

// end closes the open part, its sizes now known.
func (r *rebuilt) end() {
	e := &r.dir[r.open]
	binary.LittleEndian.PutUint32(e.local[18:], uint32(e.n))
	binary.LittleEndian.PutUint32(e.local[22:], uint32(e.n))
	r.open = -1
}

// reader writes the directory and opens the archive.
func (r *rebuilt) reader() (*zip.Reader, error) {
	le := binary.LittleEndian
	start := r.size
	for _, e := range r.dir {
		c := make([]byte, 46+len(e.name))
		le.PutUint32(c, sigCentral)
		le.PutUint16(c[4:], 20)
		le.PutUint16(c[6:], 20)
		le.PutUint32(c[20:], uint32(e.n))
		le.PutUint32(c[24:], uint32(e.n))
		le.PutUint16(c[28:], uint16(len(e.name)))
		le.PutUint32(c[42:], uint32(e.header))
		copy(c[46:], e.name)
		r.keep(c)
	}
	var end [22]byte
	le.PutUint32(end[:], sigEnd)
	le.PutUint16(end[8:], uint16(len(r.dir)))
	le.PutUint16(end[10:], uint16(len(r.dir)))
	le.PutUint32(end[12:], uint32(r.size-start))
	le.PutUint32(end[16:], uint32(start))
	r.keep(end[:])
	z, err := zip.NewReader(r, r.size)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	return z, nil
}

// ReadAt reads the archive from its segments.
func (r *rebuilt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := 0
	i := sort.Search(len(r.segs), func(i int) bool { return r.segs[i].at+r.segs[i].n > off })
	for ; n < len(p) && i < len(r.segs); i++ {
		s := r.segs[i]
		from := off + int64(n) - s.at
		want := min(int64(len(p)-n), s.n-from)
		m, err := s.src.ReadAt(p[n:n+int(want)], s.off+from)
		n += m
		if int64(m) < want {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF // the file changed under it
			}
			return n, err
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
