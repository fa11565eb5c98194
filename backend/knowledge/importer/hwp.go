package importer

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/richardlehane/mscfb"
)

// Hancom's binary .hwp (HWP 5.0, 한글 2002 and later; still what most
// Korean notices, regulations and forms are sent as) is an OLE compound
// file, read with mscfb (excelize's reader of the same container): a
// FileHeader stream says whether the others are compressed or protected,
// DocInfo holds the paragraph styles and shapes, and BodyText/Section0…N
// hold the body as records in reading order (hwpbody.go); a distribution
// document's are ViewText/Section0…N, encrypted (hwpdist.go). No Go library
// reads HWP's records, and the text is a small part of them, so they are
// read here, within the same budget of unpacked bytes as the XML formats:
// every stream is untrusted, its sizes, counts and nesting bounded.
//
// An HWP 3.x file (한글 97 and before: "HWP Document File V3.00", not an
// OLE file) is refused with the advice to save it as .hwpx.

const (
	hwpSignature  = "HWP Document File"
	hwp3Signature = "HWP Document File V3.00"
	// maxHWPRecord bounds a record read whole (a paragraph's text: 8
	// million characters in one paragraph is none a person wrote); larger
	// ones that are not read are skipped without being held.
	maxHWPRecord = 16 << 20
	// maxHWPStyles and maxHWPShapes bound the styles and paragraph shapes
	// kept from DocInfo: a paragraph names them by a byte and a 16-bit id.
	maxHWPStyles = 256
	maxHWPShapes = 1 << 16
)

// FileHeader property flags (HWP 5.0 spec, table 3).
const (
	hwpCompressed   = 1 << 0
	hwpPassword     = 1 << 1
	hwpDistribution = 1 << 2  // 배포용 문서: the body is in encrypted ViewText
	hwpDRM          = 1 << 4  //
	hwpCertCrypt    = 1 << 8  // encrypted with a public certificate
	hwpCertDRM      = 1 << 10 //
)

// DocInfo record tags.
const (
	hwpTagBegin     = 0x10
	hwpTagNumbering = hwpTagBegin + 7
	hwpTagParaShape = hwpTagBegin + 9
	hwpTagStyle     = hwpTagBegin + 10
)

var oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// readHWP hands the body of the HWP 5.0 file in r to sink as one Markdown
// document, as readOffice does for the XML formats. Its sections are
// numbered from 0 without gaps (BodyText/Section0, Section1, …, or
// ViewText's): one missing between them, or one whose records cannot be
// read, is named in a warning (*MissingParts), the others read; a file
// none of whose sections can be read is damaged.
func readHWP(ctx context.Context, path string, r io.Reader, sink Sink, warn *warnings) error {
	ra, size, err := readerAt(r)
	if err != nil {
		return err
	}
	var head [32]byte
	n, _ := ra.ReadAt(head[:], 0)
	switch {
	case bytes.HasPrefix(head[:n], []byte(hwp3Signature)):
		return &LegacyError{Ext: ".hwp"}
	case !bytes.HasPrefix(head[:n], oleMagic):
		return fmt.Errorf("%w: not an HWP 5.0 file", ErrOfficeDamaged)
	}
	if err := checkCompoundDirectory(ra, size); err != nil {
		return err
	}
	c, err := mscfb.New(ra)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
	}
	s, err := hwpStreamsOf(c)
	if err != nil {
		return err
	}
	flags, err := hwpFlags(s.header, size)
	if err != nil {
		return err
	}
	// A distribution document's body is its ViewText, encrypted
	// (hwpdist.go); what BodyText it has is not the text. A file whose
	// only body is ViewText is read from it whatever its flags say.
	distributed := len(s.view) > 0 && (flags&hwpDistribution != 0 || len(s.body) == 0)
	s.padded = distributed && flags&hwpCompressed == 0
	if s.order(distributed); len(s.sections) == 0 {
		return fmt.Errorf("%w: no body", ErrOfficeDamaged)
	}
	budget := &xmlBudget{left: MaxOfficeXML}
	open := func(f *mscfb.File) io.Reader {
		// A stream can claim any size and its chain of sectors can loop:
		// none holds more than the file.
		var in io.Reader = io.LimitReader(f, min(f.Size, size))
		if distributed && f != s.docInfo {
			in = newHWPDistReader(in)
		}
		if flags&hwpCompressed != 0 {
			in = flate.NewReader(in)
		}
		return budgetReader{r: in, b: budget}
	}
	var styles hwpStyles
	if s.docInfo != nil {
		styles, err = readHWPStyles(ctx, open(s.docInfo))
		if err = budget.judged(err); err != nil && !errors.Is(err, ErrOfficeDamaged) {
			return err // a limit, or the context; damaged styles only cost the headings
		}
	}
	w := &mdWriter{sink: sink, doc: Document{Title: baseName(path), Source: path, Kind: KindHWP, Markdown: true}}
	notes := newHancomNotes()
	w.untitled = notes.unmark // a paper's title often has a note
	broke, err := w.hwpSections(ctx, s, open, &styles, notes, budget)
	budget.release()
	if err != nil {
		return err
	}
	if s.missing.all() {
		return s.missing.damaged()
	}
	s.missing.report(warn)
	if broke != nil {
		warn.add(broke)
	}
	return w.end()
}

// hwpSections reads the sections in order. One whose records cannot be
// read to their end (cut short, deflate data that does not inflate, a
// broken chain of sectors) is left out whole and counted in s.missing,
// as a missing one is; a file of one section keeps the paragraphs read
// before the damage and says where it broke (broke), as an HWPX file of
// one section does.
func (w *mdWriter) hwpSections(ctx context.Context, s hwpStreams, open func(*mscfb.File) io.Reader, styles *hwpStyles, notes *wordNotes, budget *xmlBudget) (broke *BrokenOff, err error) {
	for _, sec := range s.sections {
		if len(s.sections) > 1 {
			w.beginPart()
		}
		err := budget.judged(w.hwpSection(ctx, open(sec), s.padded, styles, notes))
		if off := w.brokeOff(err, len(s.sections)); off != nil {
			notes.abandon()
			return off, nil
		}
		if unreadable(err) {
			w.dropPart()
			notes.abandon()
			s.missing.unreadable(s.storage+"/"+sec.Name, err)
			continue
		}
		if err == nil {
			err = w.endPart()
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// hwpStreams are the streams of an HWP file that are read.
type hwpStreams struct {
	header, docInfo *mscfb.File
	// body and view are the sections of BodyText and of ViewText (a
	// distribution document's encrypted copy) as the file lists them;
	// number holds each one's section number (Section3 → 3).
	body, view []*mscfb.File
	number     map[*mscfb.File]int
	// sections are the ones read (set by order), in order, of storage
	// (BodyText or ViewText); missing, the numbers missing between them.
	sections []*mscfb.File
	storage  string
	missing  *MissingParts
	// padded: the sections' records are followed by the encryption's
	// padding to whole blocks (ViewText's, not deflated).
	padded bool
}

func hwpStreamsOf(c *mscfb.Reader) (hwpStreams, error) {
	s := hwpStreams{number: map[*mscfb.File]int{}}
	for _, f := range c.File {
		switch {
		case len(f.Path) == 0 && f.Name == "FileHeader":
			s.header = f
		case len(f.Path) == 0 && f.Name == "DocInfo":
			s.docInfo = f
		case len(f.Path) == 1 && (f.Path[0] == "BodyText" || f.Path[0] == "ViewText"):
			n, ok := strings.CutPrefix(f.Name, "Section")
			k, err := strconv.Atoi(n)
			if !ok || err != nil || k < 0 {
				continue
			}
			list := &s.body
			if f.Path[0] == "ViewText" {
				list = &s.view
			}
			if len(*list) >= maxOfficeParts {
				return s, &OfficeLimitError{What: "number of sections"}
			}
			s.number[f] = k
			*list = append(*list, f)
		}
	}
	if s.header == nil {
		return s, fmt.Errorf("%w: no FileHeader: not an HWP file", ErrOfficeDamaged)
	}
	return s, nil
}

// order sets the sections read, ViewText's or BodyText's, in their
// number's order, and counts the numbers missing between them.
func (s *hwpStreams) order(view bool) {
	s.sections, s.storage = s.body, "BodyText"
	if view {
		s.sections, s.storage = s.view, "ViewText"
	}
	slices.SortStableFunc(s.sections, func(a, b *mscfb.File) int { return s.number[a] - s.number[b] })
	s.missing = &MissingParts{Unit: "section"}
	next := 0 // the section number expected next
	for _, f := range s.sections {
		k := s.number[f]
		for ; next < k && len(s.missing.Names) < maxNamed; next++ {
			s.missing.missing(s.storage + "/Section" + strconv.Itoa(next))
		}
		s.missing.Count += max(k-next, 0) // a gap of millions is counted, not walked
		next = max(next, k+1)
	}
	s.missing.Total = next
}

// hwpFlags reads the FileHeader stream: the signature, version 5, and
// the property flags, refusing a file whose body is protected by a
// password, DRM or a certificate (a distribution document's is not: its
// key is in the file, hwpdist.go).
func hwpFlags(f *mscfb.File, size int64) (uint32, error) {
	var b [40]byte
	if _, err := io.ReadFull(io.LimitReader(f, min(f.Size, size)), b[:]); err != nil {
		return 0, fmt.Errorf("%w: FileHeader: %v", ErrOfficeDamaged, err)
	}
	if !bytes.HasPrefix(b[:], []byte(hwpSignature)) {
		return 0, fmt.Errorf("%w: not an HWP file", ErrOfficeDamaged)
	}
	if major := b[35]; major != 5 { // the version is 0xMMnnPPrr, little-endian
		return 0, fmt.Errorf("%w: HWP version %d", ErrOfficeDamaged, major)
	}
	flags := binary.LittleEndian.Uint32(b[36:])
	switch {
	case flags&hwpPassword != 0:
		return 0, fmt.Errorf("%w (HWP)", ErrOfficeEncrypted)
	case flags&(hwpDRM|hwpCertCrypt|hwpCertDRM) != 0:
		return 0, fmt.Errorf("%w: DRM or a certificate (HWP)", ErrOfficeEncrypted)
	}
	return flags, nil
}

// hwpStyles is what DocInfo says about headings: the heading level each
// paragraph style gives (개요 N / Outline N), and each paragraph shape
// (an outline paragraph, 개요 문단, of level N); and about numbers: the
// numberings and the paragraph shapes' heads (hwpnumbering.go).
type hwpStyles struct {
	style []int
	shape []int
	nums  *hancomNumbering
}

// maxOutlineHeading is the longest text (in characters) an outline
// paragraph of a style that is not a heading's is taken to be a heading
// with: templates make their body and list styles outline paragraphs too,
// for the numbering, and a heading is short.
const maxOutlineHeading = 100

// level is the heading level of a paragraph of style and shape; 0: body.
// byShape says that only the paragraph's shape made it one (the outline
// paragraph of a style not named for a heading), which a long text
// overrules (maxOutlineHeading).
func (s *hwpStyles) level(style, shape int) (level int, byShape bool) {
	if style < len(s.style) && s.style[style] > 0 {
		return s.style[style], false
	}
	if shape < len(s.shape) && s.shape[shape] > 0 {
		return s.shape[shape], true
	}
	return 0, false
}

// readHWPStyles reads the paragraph shapes and styles of DocInfo, each
// numbered by its place among the records of its kind.
func readHWPStyles(ctx context.Context, r io.Reader) (hwpStyles, error) {
	s := hwpStyles{nums: newHancomNumbering()}
	rr := newRecordReader(r)
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return s, ctx.Err()
		}
		h, err := rr.next()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		switch {
		case h.tag == hwpTagParaShape && len(s.shape) < maxHWPShapes:
			b, err := rr.body(h)
			if err != nil {
				return s, err
			}
			s.nums.hwpShape(len(s.shape), b)
			s.shape = append(s.shape, outlineLevel(b))
		case h.tag == hwpTagNumbering && len(s.nums.lists) < maxHancomNumberings:
			b, err := rr.body(h)
			if err != nil {
				return s, err
			}
			s.nums.hwpNumbering(b)
		case h.tag == hwpTagStyle && len(s.style) < maxHWPStyles:
			b, err := rr.body(h)
			if err != nil {
				return s, err
			}
			s.style = append(s.style, styleLevel(b))
		default:
			if err := rr.skip(h); err != nil {
				return s, err
			}
		}
	}
}

// outlineLevel is the heading level a paragraph shape gives: its first
// property word's bits 23–24 are the kind of paragraph head (1: outline)
// and bits 25–27 its level, from 0.
func outlineLevel(b []byte) int {
	if len(b) < 4 {
		return 0
	}
	p := binary.LittleEndian.Uint32(b)
	if (p>>23)&3 != 1 {
		return 0
	}
	return min(int((p>>25)&7)+1, 6)
}

// styleLevel is the heading level of a style record: its local name, then
// its English one, each a 16-bit length and UTF-16 characters.
func styleLevel(b []byte) int {
	for range 2 {
		if len(b) < 2 {
			return 0
		}
		n := int(binary.LittleEndian.Uint16(b)) * 2
		if len(b) < 2+n {
			return 0
		}
		if l := namedLevel(hwpString(b[2 : 2+n])); l > 0 {
			return l
		}
		b = b[2+n:]
	}
	return 0
}
