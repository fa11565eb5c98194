package importer

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime/debug"
	"slices"
	"strings"
)

// openArchive opens the ZIP archive in r (office files, EPUB books),
// within the limits of its directory; an OLE compound file (what Word and
// LibreOffice write for a file saved with a password) is said to be one.
// An archive whose directory is missing or damaged (cut short) is read
// from its parts' own headers (salvage), and warn says so.
func openArchive(r io.Reader, warn *warnings) (*zip.Reader, error) {
	ra, size, err := readerAt(r)
	if err != nil {
		return nil, err
	}
	if err := checkDirectory(ra, size); err != nil {
		return nil, err
	}
	z, err := zip.NewReader(ra, size)
	if err != nil {
		var head [4]byte
		if n, _ := ra.ReadAt(head[:], 0); n == 4 && bytes.Equal(head[:], []byte{0xD0, 0xCF, 0x11, 0xE0}) {
			return nil, ErrOfficeEncrypted
		}
		if z, found, serr := salvage(ra, size); serr == nil {
			warn.add(found)
			return z, nil
		} else if !errors.Is(serr, ErrOfficeDamaged) {
			return nil, serr // a limit
		}
		return nil, fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	// A directory that gives a text part an offset where its local
	// header is not (damage, or a tool that rewrote the file and not its
	// directory) would lose the part: the parts are read from their own
	// headers instead, as for a file cut short, when that finds any.
	for _, f := range z.File {
		if !salvageable(f.Name) {
			continue
		}
		if _, err := f.DataOffset(); err != nil {
			if sz, found, serr := salvage(ra, size); serr == nil {
				warn.add(found)
				return sz, nil
			} else if !errors.Is(serr, ErrOfficeDamaged) {
				return nil, serr // a limit
			}
			break
		}
	}
	return z, nil
}

// checkDirectory refuses a ZIP archive whose directory of parts is too
// large to read (archive/zip holds every entry in memory: a hostile file
// can list millions in a few megabytes). Office files list tens of parts.
//
// The end-of-directory record cannot be believed: archive/zip compares
// only the low 16 bits of its count and reads entries until one is not
// an entry, to the end of the file, whatever size the record gives, so a
// 190 MB file whose record says 3 entries lists 4 million (+770 MB). It
// finds the directory as archive/zip does (the same record, its zip64
// form, the same base offset) and counts the entries there itself, up to
// the limit.
func checkDirectory(ra io.ReaderAt, size int64) error {
	const eocd = 22 // the record's size without its comment
	n := min(size, eocd+0xFFFF)
	tail := make([]byte, n)
	if _, err := ra.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	i := endRecord(tail)
	if i < 0 {
		return nil // not a ZIP archive: archive/zip says so
	}
	le := binary.LittleEndian
	end := size - n + int64(i) // where the directory's end record is
	records := uint64(le.Uint16(tail[i+10:]))
	dirSize := uint64(le.Uint32(tail[i+12:]))
	dirOffset := uint64(le.Uint32(tail[i+16:]))
	if records == 0xFFFF || dirSize == 0xFFFF || dirOffset == 0xFFFFFFFF {
		var loc [20]byte
		if end >= 20 {
			if _, err := ra.ReadAt(loc[:], end-20); err == nil && le.Uint32(loc[:]) == 0x07064b50 &&
				le.Uint32(loc[4:]) == 0 && le.Uint32(loc[16:]) == 1 {
				var rec [56]byte
				p := int64(le.Uint64(loc[8:]))
				if p < 0 || p > size-56 {
					return nil // archive/zip refuses it
				}
				if _, err := ra.ReadAt(rec[:], p); err != nil || le.Uint32(rec[:]) != 0x06064b50 {
					return nil
				}
				end, records, dirSize, dirOffset = p, le.Uint64(rec[32:]), le.Uint64(rec[40:]), le.Uint64(rec[48:])
			}
		}
	}
	if records > maxOfficeEntries || dirSize > maxOfficeDirectory {
		return &OfficeLimitError{What: "number of parts"}
	}
	// archive/zip starts at the base offset the record implies (data before
	// the archive), or at the record's offset when an entry is there: both
	// are counted rather than guessing which it takes.
	base := end - int64(dirSize) - int64(dirOffset)
	if err := countEntries(ra, size, base+int64(dirOffset)); err != nil {
		return err
	}
	if base > 0 {
		return countEntries(ra, size, int64(dirOffset))
	}
	return nil
}

// countEntries counts the directory's entries from start, as archive/zip
// reads them (until one is not an entry), and fails past the limit.
func countEntries(ra io.ReaderAt, size, start int64) error {
	if start < 0 || start >= size {
		return nil // archive/zip refuses it
	}
	le := binary.LittleEndian
	br := bufio.NewReader(io.NewSectionReader(ra, start, size-start))
	var h [46]byte
	for count := 0; ; count++ {
		if _, err := io.ReadFull(br, h[:]); err != nil || le.Uint32(h[:]) != 0x02014b50 {
			return nil
		}
		if count >= maxOfficeEntries {
			return &OfficeLimitError{What: "number of parts"}
		}
		skip := int(le.Uint16(h[28:])) + int(le.Uint16(h[30:])) + int(le.Uint16(h[32:]))
		if _, err := br.Discard(skip); err != nil {
			return nil
		}
	}
}

// endRecord is where the end-of-directory record is in tail, the end of
// the file, or -1: the last signature whose comment fits in the file, as
// archive/zip looks for it (a signature inside the comment is not taken).
func endRecord(tail []byte) int {
	const eocd = 22
	for i := len(tail) - eocd; i >= 0; i-- {
		if tail[i] == 'P' && tail[i+1] == 'K' && tail[i+2] == 5 && tail[i+3] == 6 &&
			int(binary.LittleEndian.Uint16(tail[i+20:]))+eocd+i <= len(tail) {
			return i
		}
	}
	return -1
}

// xmlBudget counts the unpacked XML read from a file's parts.
type xmlBudget struct{ left int64 }

func (b *xmlBudget) Read(r io.Reader, p []byte) (int, error) {
	if b.left <= 0 {
		return 0, b.spent()
	}
	n, err := r.Read(p[:min(int64(len(p)), b.left)])
	b.left -= int64(n)
	return n, err
}

// release gives the memory of a large read back to the system once the
// file is done: the decoder's buffers were Go heap, as large as the
// longest run of text, and are given back now, as a PDF's memory is,
// rather than whenever the heap shrinks.
func (b *xmlBudget) release() {
	if MaxOfficeXML-b.left > 16<<20 {
		debug.FreeOSMemory()
	}
}

func (b *xmlBudget) spent() error { return unpackedLimit() }

// judged is err, or the budget's limit when it is spent: the decoder may
// first trip over what the cut left (half a character, an open tag).
func (b *xmlBudget) judged(err error) error {
	if err != nil && b.left <= 0 {
		return b.spent()
	}
	return err
}

type budgetReader struct {
	r io.Reader
	b *xmlBudget
}

func (r budgetReader) Read(p []byte) (int, error) { return r.b.Read(r.r, p) }

// eachStart calls fn with each start element of d, to its end.
func eachStart(d *xml.Decoder, fn func(xml.StartElement)) error {
	return eachToken(d, func(tok xml.Token) {
		if e, ok := tok.(xml.StartElement); ok {
			fn(e)
		}
	})
}

// eachToken calls fn with each token of d, to its end.
func eachToken(d *xml.Decoder, fn func(xml.Token)) error {
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return xmlError(err)
		}
		fn(tok)
	}
}

// xmlError is a decoding error: a limit or cancellation as it is, any
// other a damaged document.
func xmlError(err error) error {
	var le *OfficeLimitError
	if errors.As(err, &le) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
}

// opfItem is an entry of a package document's manifest.
type opfItem struct{ href, mediaType, properties string }

// opfPackage is what readPackage reads of a package document.
type opfPackage struct {
	title string
	items map[string]opfItem // the manifest, by id
	order []string           // the manifest's ids in its order
	spine []string           // the spine's ids in reading order
	// broken says the document could not be read to its end (its XML
	// damaged, or past the maxPackage read): its manifest and spine may
	// lack entries, which the reader then looks for in the archive
	// (recoverParts, an EPUB's archivePages).
	broken bool
}

// maxPackage bounds what is read of a package document. A megabyte was
// too little for a book of a few thousand chapters whose manifest lists
// its pictures first (calibre sorts images/ before text/: 10,000
// pictures and 4,000 chapters, 1.1 MB): the chapters past it were lost
// without a word. Eight megabytes hold a manifest of the 20,000 parts an
// archive may have, and the spine after it, as the presentation's and
// the workbook's lists are read (slides.go, sheets.go).
const maxPackage = 8 << 20

// readPackage reads an OPF package document (EPUB's, and HWPX's
// content.hpf): its title, its manifest by id and its spine's ids in
// reading order. A part that cannot be opened gives nothing.
func readPackage(z *zip.Reader, name string) opfPackage {
	pkg := opfPackage{items: map[string]opfItem{}}
	f, err := z.Open(name)
	if err != nil {
		return pkg
	}
	defer f.Close()
	d := newDecoder(io.LimitReader(f, maxPackage))
	for {
		tok, err := d.Token()
		if err != nil {
			pkg.title, pkg.broken = strings.TrimSpace(pkg.title), !errors.Is(err, io.EOF)
			return pkg
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "item":
			id := attr(e, "id")
			if _, seen := pkg.items[id]; !seen {
				if len(pkg.order) >= maxOfficeEntries {
					continue // more than the archive may hold: names of nothing
				}
				pkg.order = append(pkg.order, id)
			}
			pkg.items[id] = opfItem{href: attr(e, "href"), mediaType: attr(e, "media-type"), properties: attr(e, "properties")}
		case "itemref":
			pkg.spine = append(pkg.spine, attr(e, "idref"))
		case "title":
			if pkg.title == "" {
				var t string
				if d.DecodeElement(&t, &e) == nil {
					pkg.title = t
				}
			}
		}
	}
}

// recoverParts is listed, then the parts of z that are (in names' order,
// or by by's order when it is set) and that listed lacks: what a damaged
// index (a package document, a presentation's or workbook's list) did not
// get to name is read all the same, rather than lost without a word.
func recoverParts(z *zip.Reader, listed []string, is func(name string) bool, by func(a, b string) int) []string {
	seen := make(map[string]bool, len(listed))
	for _, l := range listed {
		seen[l] = true
	}
	var more []string
	for _, f := range z.File {
		if name := entryName(f.Name); is(name) && !seen[name] {
			seen[name] = true
			more = append(more, name)
		}
	}
	if by == nil {
		by = strings.Compare
	}
	slices.SortFunc(more, by)
	return append(listed, more...)
}

// entryName is the name z.Open knows an archive's entry by: a tool that
// wrote `Contents\section0.xml` (Windows' separator) or `/word/x.xml`
// (an absolute path) meant the part archive/zip opens as
// Contents/section0.xml and word/x.xml, and a part looked for in z.File
// by its raw name was not found (an HWPX file of such names had "no
// body"). As archive/zip's own cleaning, "../" is taken off too: nothing
// is written to disk, a part's name only finds it.
func entryName(name string) string {
	p := strings.TrimPrefix(path.Clean(strings.ReplaceAll(name, `\`, "/")), "/")
	for strings.HasPrefix(p, "../") {
		p = p[len("../"):]
	}
	return p
}
