package importer

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
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

// salvage is the archive rebuilt from the local headers of ra, or an
// error when it holds none with text.
func salvage(ra io.ReaderAt, size int64) (*zip.Reader, *ArchiveSalvaged, error) {
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	found := &ArchiveSalvaged{}
	// left bounds the text kept, skipLeft what is inflated only to find
	// where a part ends: a deflate bomb behind a local header costs no
	// more than the budget, in memory or time.
	left, skipLeft := int64(MaxOfficeXML), int64(4*MaxOfficeXML)
	le := binary.LittleEndian
	var h [30]byte
	for off, entries := int64(0), 0; off+30 <= size; entries++ {
		if entries >= maxOfficeEntries {
			return nil, nil, &OfficeLimitError{What: "number of parts"}
		}
		if _, err := ra.ReadAt(h[:], off); err != nil || le.Uint32(h[:]) != 0x04034b50 {
			break // the directory, or damage: what follows cannot be found
		}
		flags, method := le.Uint16(h[6:]), le.Uint16(h[8:])
		csize := int64(le.Uint32(h[18:]))
		nameLen, extraLen := int64(le.Uint16(h[26:])), int64(le.Uint16(h[28:]))
		nameBytes := make([]byte, nameLen)
		if _, err := ra.ReadAt(nameBytes, off+30); err != nil {
			break
		}
		name := entryName(string(nameBytes))
		data := off + 30 + nameLen + extraLen
		described := flags&8 != 0 // sizes in a descriptor after the data
		keep := salvageable(name)
		var text []byte
		var used int64 // compressed bytes
		cut := false
		switch {
		case method == zip.Store && !described:
			used = csize
			if data+csize > size {
				used, cut = size-data, true
			}
			if keep {
				if left -= used; left < 0 {
					return nil, nil, &OfficeLimitError{What: "unpacked size (" + fmt.Sprint(MaxOfficeXML>>20) + " MB)"}
				}
				text = make([]byte, max(used, 0))
				ra.ReadAt(text, data)
			}
		case !keep && !described && data+csize <= size:
			used = csize // a picture: passed over by its size
		case method == zip.Deflate:
			cr := &inflateCounter{r: bufio.NewReader(io.NewSectionReader(ra, data, max(size-data, 0)))}
			fr := flate.NewReader(cr)
			var sink io.Writer = io.Discard
			var b bytes.Buffer
			budget := &skipLeft // a picture whose size is only after it is inflated to find its end
			if keep {
				sink, budget = &b, &left
			}
			n, err := io.Copy(sink, io.LimitReader(fr, *budget+1))
			if *budget -= n; *budget < 0 {
				return nil, nil, &OfficeLimitError{What: "unpacked size (" + fmt.Sprint(MaxOfficeXML>>20) + " MB)"}
			}
			text, used, cut = b.Bytes(), cr.n, err != nil
			if !described && !cut {
				used = csize
			}
		default:
			cut = true // stored with a descriptor, or another method: its end cannot be found
		}
		if keep && (len(text) > 0 || !cut) {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
			if err != nil {
				return nil, nil, err
			}
			w.Write(text)
			found.Parts++
			if cut {
				found.Cut = name
			}
		}
		if cut {
			break
		}
		off = data + used
		if described { // the descriptor: an optional signature, the checksum and both sizes
			var sig [4]byte
			if _, err := ra.ReadAt(sig[:], off); err == nil && le.Uint32(sig[:]) == 0x08074b50 {
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
	z, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	return z, found, nil
}
