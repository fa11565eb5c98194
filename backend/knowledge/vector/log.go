package vector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
)

// The index file is an append-only log of records, so adding one memory or
// one imported file costs one small append instead of rewriting the whole
// index (chromem-go's own persistence writes one gob file per document,
// which takes 2.6 s to reload at 10k documents). Loading reads the file
// once, sequentially; when more than half of it is dead records (replaced
// or deleted documents) it is rewritten.
//
//	file   = magic record*
//	record = u32 payload length | u32 CRC-32 (IEEE) of payload | payload
//	put    = 0x01 | str id | str model | str text | uvarint n | (str key | str value)*n
//	         | uvarint dim | dim × float32, little-endian
//	delete = 0x02 | str id
//	str    = uvarint length | bytes
//
// A put with dim 0 is a document waiting for its embedding. The model name
// travels with every vector, so a vector made by another model is never
// compared with the current one. A record cut short by a crash fails its
// length or CRC check; loading keeps everything before it and truncates the
// rest.
const fileMagic = "WFVEC\x00\x01\n"

const (
	opPut    byte = 1
	opDelete byte = 2
)

// maxRecord bounds one record so a corrupt length cannot allocate gigabytes.
const maxRecord = 64 << 20

var errCorrupt = errors.New("corrupt record")

type record struct {
	op    byte
	id    string
	model string
	text  string
	meta  map[string]string
	vec   []float32
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encode appends the framed record to b.
func (r *record) encode(b []byte) []byte {
	start := len(b)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0) // length and CRC, filled in below
	b = append(b, r.op)
	b = appendString(b, r.id)
	if r.op == opPut {
		b = appendString(b, r.model)
		b = appendString(b, r.text)
		b = binary.AppendUvarint(b, uint64(len(r.meta)))
		for k, v := range r.meta {
			b = appendString(b, k)
			b = appendString(b, v)
		}
		b = binary.AppendUvarint(b, uint64(len(r.vec)))
		for _, f := range r.vec {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	payload := b[start+8:]
	binary.LittleEndian.PutUint32(b[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[start+4:], crc32.ChecksumIEEE(payload))
	return b
}

// decoder reads payloads. A decoded vector lives in a buffer reused by the
// next record, so loading allocates nothing per vector; callers copy it.
type decoder struct {
	p    []byte
	slab []float32
}

func (d *decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.p)
	if n <= 0 {
		return 0, errCorrupt
	}
	d.p = d.p[n:]
	return v, nil
}

func (d *decoder) str() (string, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.p)) {
		return "", errCorrupt
	}
	s := string(d.p[:n])
	d.p = d.p[n:]
	return s, nil
}

func (d *decoder) vector(dim int) []float32 {
	if cap(d.slab) < dim {
		d.slab = make([]float32, dim)
	}
	v := d.slab[:dim]
	if littleEndian() {
		// The file's byte order is the machine's: one memmove.
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*dim), d.p)
	} else {
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.p[4*i:]))
		}
	}
	d.p = d.p[4*dim:]
	return v
}

func (d *decoder) record(payload []byte) (record, error) {
	d.p = payload
	var r record
	if len(d.p) == 0 {
		return r, errCorrupt
	}
	r.op, d.p = d.p[0], d.p[1:]
	var err error
	if r.id, err = d.str(); err != nil {
		return r, err
	}
	switch r.op {
	case opDelete:
		return r, nil
	case opPut:
	default:
		return r, errCorrupt
	}
	if r.model, err = d.str(); err != nil {
		return r, err
	}
	if r.text, err = d.str(); err != nil {
		return r, err
	}
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.p)) {
		return r, errCorrupt
	}
	if n > 0 {
		r.meta = make(map[string]string, n)
	}
	for range n {
		k, err := d.str()
		if err != nil {
			return r, err
		}
		v, err := d.str()
		if err != nil {
			return r, err
		}
		r.meta[k] = v
	}
	dim, err := d.uvarint()
	if err != nil || dim*4 != uint64(len(d.p)) {
		return r, errCorrupt
	}
	if dim > 0 {
		r.vec = d.vector(int(dim))
	}
	return r, nil
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// readLog calls fn for every intact record of the file at path and returns
// the offset just after the last intact one. The record's vector is only
// valid during the call. A missing file is an empty log.
func readLog(path string, fn func(record)) (good int64, records int, err error) {
	return scanLog(path, func(r record, _ int64, _ int) { fn(r) })
}

// scanLog is readLog telling fn where each record is in the file: its
// offset and its length, frame included (what OpenKept reads back).
func scanLog(path string, fn func(r record, off int64, size int)) (good int64, records int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("open vector index %q: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	head := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(r, head); err != nil {
		// Shorter than the magic: a file created but never written.
		return 0, 0, nil
	}
	if string(head) != fileMagic {
		return 0, 0, fmt.Errorf("read vector index %q: not a Wayfinder vector index", path)
	}
	good = int64(len(fileMagic))
	var (
		frame [8]byte
		buf   []byte
		dec   decoder
	)
	for {
		if _, err := io.ReadFull(r, frame[:]); err != nil {
			return good, records, nil // clean end, or a frame cut short
		}
		n := binary.LittleEndian.Uint32(frame[:4])
		if n == 0 || n > maxRecord {
			return good, records, nil
		}
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return good, records, nil
		}
		if crc32.ChecksumIEEE(buf) != binary.LittleEndian.Uint32(frame[4:]) {
			return good, records, nil
		}
		rec, err := dec.record(buf)
		if err != nil {
			return good, records, nil
		}
		fn(rec, good, 8+int(n))
		records++
		good += 8 + int64(n)
	}
}

// writeLog writes recs as a fresh log to path, atomically: a crash leaves
// either the old file or the new one.
func writeLog(path string, recs func(yield func(*record) bool)) error {
	err := atomicfile.WriteWith(path, 0o600, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<20)
		if _, err := w.WriteString(fileMagic); err != nil {
			return err
		}
		var b []byte
		for r := range recs {
			b = r.encode(b[:0])
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return w.Flush()
	})
	if err != nil {
		return fmt.Errorf("rewrite vector index %q: %w", path, err)
	}
	return nil
}

// openAppend opens the log for appending, first cutting off a torn tail
// (everything after good) and writing the magic into a new file.
func openAppend(path string, good int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open vector index %q: %w", path, err)
	}
	if good == 0 {
		if err = f.Truncate(0); err == nil {
			_, err = f.WriteString(fileMagic)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("start vector index %q: %w", path, err)
		}
		good = int64(len(fileMagic))
	} else if err = f.Truncate(good); err != nil {
		f.Close()
		return nil, fmt.Errorf("truncate vector index %q: %w", path, err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("seek vector index %q: %w", path, err)
	}
	return f, nil
}
