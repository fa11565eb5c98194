package importer

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"strings"
)

// A ZIP archive keeps its directory of parts at its end: a download or
// copy cut short loses it, and archive/zip then opens nothing, though
// every part before the cut is there, each behind a local header of its
// own. salvage reads those headers in the archive's order, as `zip -FF`
// does, and rebuilds an archive of the text parts they hold, so that the
// readers read what remains by the rules for missing and broken parts
// (a part cut short is read up to the cut). Only the parts whose text is
// read are kept (XML, web pages, package documents), within the budget of
// unpacked XML every office file has; pictures are passed over.

// ArchiveSalvaged is the warning about a ZIP-based file whose directory
// of parts is missing or damaged (cut short, most often): its parts were
// read from their own headers, and those the cut took are missing.
type ArchiveSalvaged struct {
	Parts int    // the text parts found
	Cut   string // the part the file ends in, read up to there; "" none
}

func (a *ArchiveSalvaged) Error() string {
	s := fmt.Sprintf("the file's directory of parts is missing or damaged (a download or copy cut short?): %d parts were read from what remains", a.Parts)
	if a.Cut != "" {
		s += fmt.Sprintf(", the last, %s, up to where the file ends", shortened(a.Cut, maxNameChars))
	}
	return s
}

// salvageable says whether the part name holds text a reader reads.
func salvageable(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".xml", ".rels", ".xhtml", ".html", ".htm", ".opf", ".hpf", ".ncx":
		return true
	}
	return false
}

// inflateCounter counts the bytes flate takes, so that the part after a
// deflate stream whose size its header does not give is found.
type inflateCounter struct {
	r *bufio.Reader
	n int64
}

func (c *inflateCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *inflateCounter) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// Signatures of a ZIP archive's records.
const (
	sigLocal      = 0x04034b50 // a part's local header
	sigCentral    = 0x02014b50 // an entry of the directory
	sigEnd        = 0x06054b50 // the end of the directory
	sigDescriptor = 0x08074b50 // a data descriptor, after a part's data
)

// salvage is the archive rebuilt from the local headers of ra, or an
// error when it holds none with text.
//
// Damage in the middle (a header overwritten, bytes lost or put in, a
// part's compressed data garbled) does not end it: the next local header
// is looked for, and the parts after it are read; the damaged part is
// kept as far as it could be read, for the readers' rules on broken
// parts, or is missing. What is looked through so counts in the budget of
// what is inflated only to find a part's end, so a file of junk costs no
// more than that in time.
func salvage(ra io.ReaderAt, size int64) (*zip.Reader, *ArchiveSalvaged, error) {
	out := &blocks{}
	zw := zip.NewWriter(out)
	found := &ArchiveSalvaged{}
	// left bounds the text kept, skipLeft what is inflated or looked
	// through only to find where a part ends or the next begins: a
	// deflate bomb behind a local header, or a file of junk, costs no
	// more than the budget, in memory or time.
	left, skipLeft := int64(MaxOfficeXML), int64(4*MaxOfficeXML)
	le := binary.LittleEndian
	kept := map[string]bool{}
	var h [30]byte
	for off, entries := int64(0), 0; off+30 <= size; entries++ {
		if entries >= maxOfficeEntries {
			return nil, nil, &OfficeLimitError{What: "number of parts"}
		}
		if _, err := ra.ReadAt(h[:], off); err != nil {
			break
		}
		if sig := le.Uint32(h[:]); sig != sigLocal {
			if sig == sigCentral || sig == sigEnd {
				break // the directory: every part was read
			}
			next, err := nextHeader(ra, off+1, size, &skipLeft)
			if err != nil {
				return nil, nil, err
			}
			if next < 0 {
				break
			}
			off = next
			continue
		}
		flags, method := le.Uint16(h[6:]), le.Uint16(h[8:])
		csize := int64(le.Uint32(h[18:]))
		nameLen, extraLen := int64(le.Uint16(h[26:])), int64(le.Uint16(h[28:]))
		nameBytes := make([]byte, nameLen)
		if _, err := ra.ReadAt(nameBytes, off+30); err != nil {
			off++ // a header damaged past the file's end: another is looked for
			continue
		}
		name := entryName(string(nameBytes))
		data := off + 30 + nameLen + extraLen
		described := flags&8 != 0 // sizes in a descriptor after the data
		keep := salvageable(name) && !kept[name]
		// inflated is the part being inflated into the rebuilt archive,
		// or stored, when it was kept uncompressed, which is copied from
		// the file: neither is held in a buffer of its own.
		var inflated *lazyPart
		var stored *io.SectionReader
		var used int64  // compressed bytes
		cut := false    // the file ends in the part
		broken := false // the part is damaged; what follows it is looked for
		descLen := int64(0)
		switch {
		case method == zip.Store && !described:
			used = csize
			if data+csize > size {
				used, cut = size-data, true
			}
			if keep {
				if left -= used; left < 0 {
					return nil, nil, unpackedLimit()
				}
				stored = io.NewSectionReader(ra, data, max(used, 0))
			}
		case method == zip.Store:
			budget := &skipLeft
			if keep {
				budget = &left
			}
			n, d, ok, err := storedEnd(ra, data, size, budget)
			if err != nil {
				return nil, nil, err
			}
			used, descLen, cut = n, d, !ok && data+n >= size
			if keep {
				stored = io.NewSectionReader(ra, data, n)
			}
		case !keep && !described && data+csize <= size:
			used = csize // a picture: passed over by its size
		case method == zip.Deflate:
			cr := &inflateCounter{r: bufio.NewReader(io.NewSectionReader(ra, data, max(size-data, 0)))}
			fr := flate.NewReader(cr)
			var sink io.Writer = io.Discard
			budget := &skipLeft // a picture whose size is only after it is inflated to find its end
			if keep {
				inflated = &lazyPart{zw: zw, name: name}
				sink, budget = inflated, &left
			}
			n, err := io.Copy(sink, io.LimitReader(fr, *budget+1))
			if *budget -= n; *budget < 0 {
				return nil, nil, unpackedLimit()
			}
			used = cr.n
			switch {
			case err == nil && !described:
				used = csize
			case err == nil:
			case data+cr.n >= size: // it ran to the end of the file: cut there
				cut = true
			default: // its data is damaged: what it held to there is kept
				broken = true
			}
		default:
			broken = true // another method: its end cannot be found
		}
		written := inflated != nil && inflated.w != nil
		if keep && (written || stored != nil && stored.Size() > 0 || !cut && !broken) {
			var w io.Writer
			if written {
				w = inflated.w
			} else {
				var err error
				if w, err = zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store}); err != nil {
					return nil, nil, err
				}
			}
			if stored != nil {
				if _, err := io.Copy(w, stored); err != nil {
					return nil, nil, fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
				}
			}
			found.Parts++
			kept[name] = true
			if cut {
				found.Cut = name
			}
		}
		if cut {
			break
		}
		if broken {
			off++ // the next header is looked for past this one's signature
			continue
		}
		off = data + used + descLen
		if described && method != zip.Store { // the descriptor: an optional signature, the checksum and both sizes
			var sig [4]byte
			if _, err := ra.ReadAt(sig[:], off); err == nil && le.Uint32(sig[:]) == sigDescriptor {
				off += 4
			}
			off += 12
		}
	}
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	if found.Parts == 0 {
		return nil, nil, fmt.Errorf("%w: its directory of parts is missing and no part could be found", ErrOfficeDamaged)
	}
	z, err := zip.NewReader(out, out.size)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	return z, found, nil
}

// scanBlock is how much of the file is looked through at a time for a
// record's signature.
const scanBlock = 64 << 10

// nextHeader is the offset of the next local header at or after from
// (-1: none before the end), looking through no more than budget allows
// (what it looks through is taken from it; past it, the limit).
func nextHeader(ra io.ReaderAt, from, size int64, budget *int64) (int64, error) {
	buf := make([]byte, scanBlock+3)
	sig := binary.LittleEndian.AppendUint32(nil, sigLocal)
	for at := from; at+4 <= size; at += scanBlock {
		n, _ := ra.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if i := bytes.Index(buf[:n], sig); i >= 0 {
			*budget -= int64(i)
			return at + int64(i), nil
		}
		if *budget -= scanBlock; *budget < 0 {
			return 0, unpackedLimit()
		}
	}
	return -1, nil
}

// storedEnd finds where the data of a part stored uncompressed ends when
// its local header gives no size (flag 8): at the data descriptor after
// it whose sizes are the bytes since data (with its signature; or
// without, its checksum theirs too). It says how many bytes of data
// there are, the descriptor's length, and whether one was found; without
// one the data ends at the next local header or directory entry, or the
// end of the file. The data looked through counts in budget; past it,
// the limit. Nothing is held: the caller copies the data from the file.
func storedEnd(ra io.ReaderAt, data, size int64, budget *int64) (n, desc int64, ok bool, err error) {
	le := binary.LittleEndian
	buf := make([]byte, scanBlock+16)
	var crc uint32
	header := int64(-1) // the first local header or directory entry in the data
	for at := data; at < size; {
		m, _ := ra.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		b := buf[:m]
		end := min(m, scanBlock)
		for i := range end {
			sz := uint32(at + int64(i) - data)
			if i+16 <= m && le.Uint32(b[i:]) == sigDescriptor && le.Uint32(b[i+8:]) == sz && le.Uint32(b[i+12:]) == sz {
				return storedAt(at-data+int64(i), 16, i, budget)
			}
			if i+12 <= m && le.Uint32(b[i+4:]) == sz && le.Uint32(b[i+8:]) == sz && crc32.Update(crc, crc32.IEEETable, b[:i]) == le.Uint32(b[i:]) {
				return storedAt(at-data+int64(i), 12, i, budget)
			}
			if header < 0 && i+4 <= m && (le.Uint32(b[i:]) == sigLocal || le.Uint32(b[i:]) == sigCentral) {
				header = at + int64(i)
			}
		}
		if *budget < int64(end) {
			if header >= 0 {
				break
			}
			return 0, 0, false, unpackedLimit()
		}
		*budget -= int64(end)
		crc = crc32.Update(crc, crc32.IEEETable, b[:end])
		at += int64(end)
	}
	if header < 0 {
		return size - data, 0, false, nil // the file ends in it
	}
	return header - data, 0, false, nil
}

// storedAt ends storedEnd at a descriptor after n bytes of data, the
// last block's head of them counted.
func storedAt(n, desc int64, head int, budget *int64) (int64, int64, bool, error) {
	if *budget -= int64(head); *budget < 0 {
		return 0, 0, false, unpackedLimit()
	}
	return n, desc, true, nil
}

// unpackedLimit is the error of an archive whose parts unpack, or whose
// damage must be looked through, past the budget.
func unpackedLimit() error {
	return &OfficeLimitError{What: "unpacked size (" + fmt.Sprint(MaxOfficeXML>>20) + " MB)"}
}

// lazyPart is a part of the rebuilt archive created at the first byte
// written to it, so that one of which nothing could be read is missing,
// not empty.
type lazyPart struct {
	zw   *zip.Writer
	name string
	w    io.Writer
}

func (l *lazyPart) Write(p []byte) (int, error) {
	if l.w == nil {
		w, err := l.zw.CreateHeader(&zip.FileHeader{Name: l.name, Method: zip.Store})
		if err != nil {
			return 0, err
		}
		l.w = w
	}
	return l.w.Write(p)
}

// blockSize is the size of the blocks the rebuilt archive is kept in.
const blockSize = 1 << 20

// blocks holds the rebuilt archive in blocks of blockSize, written in
// order and read anywhere: one buffer grown as a part is written would
// double past what it holds and copy it each time (a 30 MB part peaked
// 20–40 MB higher).
type blocks struct {
	b    [][]byte
	size int64
}

func (k *blocks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(k.b) == 0 || len(k.b[len(k.b)-1]) == blockSize {
			k.b = append(k.b, make([]byte, 0, blockSize))
		}
		last := &k.b[len(k.b)-1]
		m := min(len(p), blockSize-len(*last))
		*last = append(*last, p[:m]...)
		p = p[m:]
	}
	k.size += int64(n)
	return n, nil
}

func (k *blocks) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := 0
	for n < len(p) && off < k.size {
		blk := k.b[off/blockSize][off%blockSize:]
		m := copy(p[n:], blk)
		if m == 0 {
			break
		}
		n += m
		off += int64(m)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
