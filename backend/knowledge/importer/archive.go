package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
)

// openArchive opens the ZIP archive in r (office files, EPUB books),
// within the limits of its directory; an OLE compound file (what Word and
// LibreOffice write for a file saved with a password) is said to be one.
func openArchive(r io.Reader) (*zip.Reader, error) {
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
		return nil, fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	return z, nil
}

// checkDirectory refuses a ZIP archive whose directory of parts is too
// large to read (archive/zip holds every entry in memory: a hostile file
// can list millions in a few megabytes). Office files list tens of parts.
// It looks only at the end-of-directory record; archive/zip judges the
// rest.
func checkDirectory(ra io.ReaderAt, size int64) error {
	const eocd = 22 // the record's size without its comment
	n := min(size, eocd+0xFFFF)
	tail := make([]byte, n)
	if _, err := ra.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	i := bytes.LastIndex(tail, []byte("PK\x05\x06"))
	if i < 0 || len(tail)-i < eocd {
		return nil // not a ZIP archive: archive/zip says so
	}
	entries := binary.LittleEndian.Uint16(tail[i+10:])
	dirSize := binary.LittleEndian.Uint32(tail[i+12:])
	if entries > maxOfficeEntries || dirSize > maxOfficeDirectory {
		return &OfficeLimitError{What: "number of parts"}
	}
	return nil
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

func (b *xmlBudget) spent() error {
	return &OfficeLimitError{What: "unpacked size (" + strconv.Itoa(MaxOfficeXML>>20) + " MB)"}
}

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
type opfItem struct{ href, mediaType string }

// readPackage reads an OPF package document (EPUB's, and HWPX's
// content.hpf): its title, its manifest by id and its spine's ids in
// reading order. A part that cannot be read gives nothing.
func readPackage(z *zip.Reader, name string) (title string, items map[string]opfItem, spine []string) {
	items = map[string]opfItem{}
	f, err := z.Open(name)
	if err != nil {
		return "", items, nil
	}
	defer f.Close()
	d := xml.NewDecoder(io.LimitReader(f, 1<<20))
	for {
		tok, err := d.Token()
		if err != nil {
			return strings.TrimSpace(title), items, spine
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "item":
			items[attr(e, "id")] = opfItem{href: attr(e, "href"), mediaType: attr(e, "media-type")}
		case "itemref":
			spine = append(spine, attr(e, "idref"))
		case "title":
			if title == "" {
				var t string
				if d.DecodeElement(&t, &e) == nil {
					title = t
				}
			}
		}
	}
}
