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
	// Short says the file ends before any directory: it is cut short,
	// and what an index named after the parts found went with the cut.
	// Not when the directory was reached, or junk stopped the looking.
	Short bool
}

func (a *ArchiveSalvaged) Error() string {
	s := fmt.Sprintf("the file's directory of parts is missing or damaged (a download or copy cut short?): %d parts were read from what remains", a.Parts)
	if a.Cut != "" {
		s += fmt.Sprintf(", the last, %s, up to where the file ends or its end could be looked for", shortened(a.Cut, maxNameChars))
	}
	return s
}

// salvaged is the warning that the archive was read from its parts' own
// headers, or nil.
func (w *warnings) salvaged() *ArchiveSalvaged {
	if w == nil {
		return nil
	}
	for _, e := range w.list {
		if as, ok := e.(*ArchiveSalvaged); ok {
			return as
		}
	}
	return nil
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
	out := newRebuilt()
	found := &ArchiveSalvaged{Short: true}
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
				found.Short = false
				break // the directory: every part was read
			}
			next := nextHeader(ra, off+1, size, &skipLeft)
			if next < 0 {
				found.Short = found.Short && next == -1
				break // none, or none within the budget: what was read is kept
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
		// or stored the size of one kept uncompressed, which the rebuilt
		// archive reads from the file: neither is held in a buffer of its
		// own, and the stored one is not copied at all.
		var inflated *lazyPart
		stored := int64(-1)
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
				if used > left {
					// Its header gives it more than the budget (a size
					// that lies, junk kept as its data): it is kept to
					// the budget and read as cut there, as one whose
					// descriptor is lost, rather than the file refused.
					used, cut, found.Short = left, true, false
				}
				left -= used
				stored = max(used, 0)
			}
		case method == zip.Store:
			budget := &skipLeft
			if keep {
				budget = &left
			}
			n, d, ok, spent := storedEnd(ra, data, size, budget)
			// Its end not found within the budget (its descriptor lost,
			// junk after it), the part runs to where the looking stopped,
			// as if the file were cut there: a text part is then read by
			// the rule for a body that breaks, and nothing after it is
			// looked for.
			used, descLen, cut = n, d, spent || !ok && data+n >= size
			found.Short = found.Short && !spent
			if keep {
				stored = n
			}
		case !keep && !described && data+csize <= size:
			used = csize // a picture: passed over by its size
		case method == zip.Deflate:
			cr := &inflateCounter{r: bufio.NewReader(io.NewSectionReader(ra, data, max(size-data, 0)))}
			fr := flate.NewReader(cr)
			var sink io.Writer = io.Discard
			budget := &skipLeft // a picture whose size is only after it is inflated to find its end
			if keep {
				inflated = &lazyPart{out: out, name: name}
				sink, budget = inflated, &left
			}
			n, err := io.Copy(sink, io.LimitReader(fr, *budget+1))
			if *budget -= n; *budget < 0 {
				if keep {
					return nil, nil, unpackedLimit() // its text alone is past the budget: a bomb
				}
				// A picture inflated past the budget only to find its
				// end: nothing after it is looked for, what was read is
				// kept.
				*budget, cut, found.Short = 0, true, false
				break
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
		written := inflated != nil && inflated.begun
		if keep && (written || stored > 0 || !cut && !broken) {
			if !written {
				out.begin(name)
			}
			if stored > 0 {
				out.section(ra, data, stored)
			}
			out.end()
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
	if found.Parts == 0 {
		return nil, nil, fmt.Errorf("%w: its directory of parts is missing and no part could be found", ErrOfficeDamaged)
	}
	z, err := out.reader()
	if err != nil {
		return nil, nil, err
	}
	return z, found, nil
}

// scanBlock is how much of the file is looked through at a time for a
// record's signature.
const scanBlock = 64 << 10

// nextHeader is the offset of the next local header at or after from,
// looking through no more than budget allows (what it looks through is
// taken from it), or -1: none before the end of the file, -2: none
// within the budget. Past the budget the parts read are kept rather than the file
// refused: junk after them (hundreds of megabytes of it, without a
// signature) took the whole file with it.
func nextHeader(ra io.ReaderAt, from, size int64, budget *int64) int64 {
	buf := make([]byte, scanBlock+3)
	sig := binary.LittleEndian.AppendUint32(nil, sigLocal)
	for at := from; at+4 <= size; at += scanBlock {
		if *budget <= 0 {
			return -2
		}
		n, _ := ra.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if i := bytes.Index(buf[:n], sig); i >= 0 {
			*budget -= int64(i)
			return at + int64(i)
		}
		*budget -= scanBlock
	}
	return -1
}

// storedEnd finds where the data of a part stored uncompressed ends when
// its local header gives no size (flag 8): at the data descriptor after
// it whose sizes are the bytes since data (with its signature; or
// without, its checksum theirs too). It says how many bytes of data
// there are, the descriptor's length, and whether one was found; without
// one the data ends at the next local header or directory entry, or the
// end of the file. The data looked through counts in budget; with the
// budget spent before any of those, the data is said to end there
// (spent). Nothing is held: the rebuilt archive reads the data from the
// file.
func storedEnd(ra io.ReaderAt, data, size int64, budget *int64) (n, desc int64, ok, spent bool) {
	le := binary.LittleEndian
	buf := make([]byte, scanBlock+16)
	var crc uint32
	header := int64(-1) // the first local header or directory entry in the data
	// at ends the data i bytes into the block at at, the bytes looked
	// through counted; past the budget, where the budget ends.
	at := data
	end := func(i int, desc int64, found bool) (int64, int64, bool, bool) {
		if int64(i) > *budget {
			n := at - data + *budget
			*budget = 0
			return n, 0, false, true
		}
		*budget -= int64(i)
		return at - data + int64(i), desc, found, false
	}
	for at < size {
		m, _ := ra.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		b := buf[:m]
		last := min(m, scanBlock)
		for i := range last {
			sz := uint32(at + int64(i) - data)
			if i+16 <= m && le.Uint32(b[i:]) == sigDescriptor && le.Uint32(b[i+8:]) == sz && le.Uint32(b[i+12:]) == sz {
				return end(i, 16, true)
			}
			if i+12 <= m && le.Uint32(b[i+4:]) == sz && le.Uint32(b[i+8:]) == sz && crc32.Update(crc, crc32.IEEETable, b[:i]) == le.Uint32(b[i:]) {
				return end(i, 12, true)
			}
			if header < 0 && i+4 <= m && (le.Uint32(b[i:]) == sigLocal || le.Uint32(b[i:]) == sigCentral) {
				header = at + int64(i)
			}
		}
		if *budget < int64(last) {
			if header >= 0 {
				break // no descriptor found: it ends at the next header
			}
			return end(last, 0, false)
		}
		*budget -= int64(last)
		crc = crc32.Update(crc, crc32.IEEETable, b[:last])
		at += int64(last)
	}
	if header < 0 {
		return size - data, 0, false, false // the file ends in it
	}
	return header - data, 0, false, false
}

// unpackedLimit is the error of an archive whose parts unpack, or whose
// damage must be looked through, past the budget.
func unpackedLimit() error {
	return &OfficeLimitError{What: "unpacked size (" + fmt.Sprint(MaxOfficeXML>>20) + " MB)"}
}

// lazyPart is a part of the rebuilt archive begun at the first byte
// written to it, so that one of which nothing could be read is missing,
// not empty.
type lazyPart struct {
	out   *rebuilt
	name  string
	begun bool
}

func (l *lazyPart) Write(p []byte) (int, error) {
	if !l.begun {
		l.out.begin(l.name)
		l.begun = true
	}
	return l.out.Write(p)
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
