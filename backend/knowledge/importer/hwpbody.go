package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// An HWP section is a sequence of records, each a 32-bit header (tag: 10
// bits, level: 10 bits, size: 12 bits, 0xFFF meaning that a 32-bit size
// follows) and its data. The level nests them: a paragraph's header, then
// at the next level its text, its shapes and its controls; a control's
// own paragraphs (a table's cells, a footnote, a text box) one level
// further, after the paragraph's text. So the records' order is reading
// order, and a table is a control whose cells each open with a list
// header naming the cell's row.

// BodyText record tags.
const (
	hwpTagParaHeader    = hwpTagBegin + 50
	hwpTagParaText      = hwpTagBegin + 51
	hwpTagCtrlHeader    = hwpTagBegin + 55
	hwpTagListHeader    = hwpTagBegin + 56
	hwpTagFootnoteShape = hwpTagBegin + 58
	hwpTagTable         = hwpTagBegin + 61
)

// Control ids: four characters written as a little-endian 32-bit number,
// so "tbl " is stored " lbt".
const (
	hwpTableID    = " lbt"
	hwpSectionID  = "dces" // the section's definition: its page, notes, outline
	hwpFootnoteID = "  nf"
	hwpEndnoteID  = "  ne"
	hwpNewNumber  = "onwn" // 새 번호 지정: a page's, a note's, a table's number from here
)

// Marks hwpText leaves where a footnote or an endnote stands, for the
// note's number: no character of the text is below 32.
const (
	footnoteMark = "\x01"
	endnoteMark  = "\x02"
)

// unmarked is text without the marks of notes that never came.
var unmarked = strings.NewReplacer(footnoteMark, "", endnoteMark, "")

// sectionDef is the section's definition's control in a paragraph's text:
// its code (2) and id.
const sectionDef = "\x02\x00" + hwpSectionID

type hwpRecord struct {
	tag, level int
	size       int64
}

// recordReader reads the records of one stream.
type recordReader struct {
	r   *bufio.Reader
	buf []byte
	// padded: the stream may end in fewer bytes than a record's header,
	// which are no record (the padding of an encrypted section to whole
	// AES blocks; whole headers of padding are empty records of tag 0).
	padded bool
}

func newRecordReader(r io.Reader) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 32<<10)}
}

// next reads a record's header; io.EOF at the end of the stream.
func (rr *recordReader) next() (hwpRecord, error) {
	var b [4]byte
	if _, err := io.ReadFull(rr.r, b[:]); err != nil {
		if errors.Is(err, io.EOF) || rr.padded && errors.Is(err, io.ErrUnexpectedEOF) {
			return hwpRecord{}, io.EOF
		}
		return hwpRecord{}, streamError(err)
	}
	v := binary.LittleEndian.Uint32(b[:])
	h := hwpRecord{tag: int(v & 0x3FF), level: int(v >> 10 & 0x3FF), size: int64(v >> 20)}
	if h.size == 0xFFF {
		if _, err := io.ReadFull(rr.r, b[:]); err != nil {
			return h, streamError(err)
		}
		h.size = int64(binary.LittleEndian.Uint32(b[:]))
	}
	return h, nil
}

// body reads the data of h whole.
func (rr *recordReader) body(h hwpRecord) ([]byte, error) {
	if h.size > maxHWPRecord {
		// No record holds so much (a paragraph of 8 million characters):
		// its size is damage, and the section cannot be read past it.
		return nil, fmt.Errorf("%w: a record claims %d bytes, more than any record holds (%d MB)", ErrOfficeDamaged, h.size, maxHWPRecord>>20)
	}
	if int64(cap(rr.buf)) < h.size {
		rr.buf = make([]byte, h.size)
	}
	b := rr.buf[:h.size]
	if _, err := io.ReadFull(rr.r, b); err != nil {
		return nil, streamError(err)
	}
	return b, nil
}

// skip passes over the data of h.
func (rr *recordReader) skip(h hwpRecord) error {
	if _, err := rr.r.Discard(int(min(h.size, 1<<40))); err != nil {
		return streamError(err)
	}
	return nil
}

// prefix reads the first n bytes of h's data (fewer if it is shorter)
// and skips the rest.
func (rr *recordReader) prefix(h hwpRecord, n int64) ([]byte, error) {
	b, err := rr.body(hwpRecord{size: min(h.size, n)})
	if err != nil {
		return nil, err
	}
	b = append([]byte(nil), b...)
	return b, rr.skip(hwpRecord{size: h.size - int64(len(b))})
}

// streamError is a failure reading a stream: a limit or cancellation as
// it is, anything else (a stream cut short, deflate data that does not
// inflate, a broken chain of sectors) a damaged file.
func streamError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: a record is cut short", ErrOfficeDamaged)
	}
	return xmlError(err)
}

// hwpControl is a control whose records are being read: the level of
// its header; for a table, whether its rows have begun and the row of
// the cell being read; for a section's definition, how many note shapes
// it has given; whether it is a note.
type hwpControl struct {
	level        int
	table, began bool
	row          int
	section      bool
	noteShapes   int
	note         bool
}

// hwpPara is the paragraph being read: its shape, and whether it has
// been counted (numbered: hancomNumbering) yet. Its text is held (held:
// the text, its heading level) while what numbers it is still to come:
// its notes' marks (footnoteMark, endnoteMark) wait for the note
// controls that follow the text, in the section's note shapes, and the
// first paragraph of a section for the section's definition, which
// names the outline's numbering.
type hwpPara struct {
	open, counted bool
	shape         int
	text          string
	level         int
	held          bool
}

// hwpSection reads one section: paragraphs in order, headings from their
// style or shape, after their numbers; a table's cells joined on their
// row's line; a note where it stands, after its paragraph (or row).
//
// padded says that the section is a distribution document's, not
// deflated: its records are followed by padding (recordReader.padded).
func (w *mdWriter) hwpSection(ctx context.Context, r io.Reader, padded bool, styles *hwpStyles, notes *wordNotes) error {
	var (
		rr       = newRecordReader(r)
		tbl      = &tables{w: w}
		controls []hwpControl
		inNote   int  // notes among controls
		heading  int  // the level of the paragraph being read
		byShape  bool // made a heading only by its shape (hwpStyles.level)
		para     hwpPara
	)
	rr.padded = padded
	// number counts the paragraph, once, and says its number.
	number := func() string {
		if !para.open || para.counted {
			return ""
		}
		para.counted = true
		styles.nums.shape(para.shape)
		return styles.nums.number()
	}
	// flush counts the paragraph (with or without text, as Hancom counts)
	// and writes it if it was held (a mark whose note never came left
	// out), then the notes, unless a table's row is open: they follow the
	// row.
	flush := func() error {
		label := number()
		if para.held {
			para.held = false
			t := unmarked.Replace(para.text)
			if label != "" && strings.TrimSpace(t) != "" {
				t = label + " " + t
			}
			if err := w.hwpParagraph(tbl, t, para.level); err != nil {
				return err
			}
		}
		if len(tbl.rows) > 0 {
			return nil
		}
		return notes.flush(w)
	}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		h, err := rr.next()
		if errors.Is(err, io.EOF) {
			notes.close()
			if err := flush(); err != nil {
				return err
			}
			if err := tbl.close(); err != nil {
				return err
			}
			return notes.flush(w)
		}
		if err != nil {
			return err
		}
		// A record at or above a control's level ends it.
		for len(controls) > 0 && h.level <= controls[len(controls)-1].level {
			c := controls[len(controls)-1]
			controls = controls[:len(controls)-1]
			switch {
			case c.note:
				inNote--
				notes.close()
			case c.began:
				if err := flush(); err != nil {
					return err
				}
				if err := tbl.pop(); err != nil {
					return err
				}
				if len(tbl.rows) == 0 { // the notes of a table's cells follow it
					if err := notes.flush(w); err != nil {
						return err
					}
				}
			}
		}
		var top *hwpControl
		if len(controls) > 0 {
			top = &controls[len(controls)-1]
		}
		switch {
		case h.tag == hwpTagParaHeader:
			b, err := rr.prefix(h, 11)
			if err != nil {
				return err
			}
			if inNote > 0 { // a note's paragraphs on one line
				notes.write(" ")
				continue
			}
			if err := flush(); err != nil {
				return err
			}
			heading, byShape = 0, false
			para = hwpPara{open: true, shape: -1}
			if len(b) >= 11 {
				para.shape = int(binary.LittleEndian.Uint16(b[8:]))
				heading, byShape = styles.level(int(b[10]), para.shape)
			}
		case h.tag == hwpTagParaText:
			b, err := rr.body(h)
			if err != nil {
				return err
			}
			text, level := hwpText(b), heading
			if inNote > 0 {
				notes.write(unmarked.Replace(text))
				continue
			}
			if byShape && utf8.RuneCountInString(strings.TrimSpace(text)) > maxOutlineHeading {
				level = 0
			}
			if strings.ContainsAny(text, footnoteMark+endnoteMark) || bytes.Contains(b, []byte(sectionDef)) {
				para.text, para.level, para.held = text, level, true
				continue
			}
			if label := number(); label != "" && strings.TrimSpace(text) != "" {
				text = label + " " + text
			}
			if err := w.hwpParagraph(tbl, text, level); err != nil {
				return err
			}
		case h.tag == hwpTagCtrlHeader:
			b, err := rr.prefix(h, 20)
			if err != nil {
				return err
			}
			c := hwpControl{level: h.level} // at most 1,024 deep: a level is 10 bits
			id := ""
			if len(b) >= 4 {
				id = string(b[:4])
			}
			switch {
			case inNote > 0: // a note's table or picture: its text joins the note
			case id == hwpTableID:
				c.table = true
			case id == hwpSectionID:
				c.section = true
				if len(b) >= 20 { // the outline's numbering, after the columns' gap, lines and tab stop
					styles.nums.setOutline(int(binary.LittleEndian.Uint16(b[18:])))
				}
			case id == hwpNewNumber && len(b) >= 10:
				// What it numbers (bits 0–3 of its property word: 1
				// footnotes, 2 endnotes), then the number.
				if kind := binary.LittleEndian.Uint32(b[4:]) & 0xF; kind == 1 || kind == 2 {
					notes.renumber(kind == 2, int(binary.LittleEndian.Uint16(b[8:])))
				}
			case id == hwpFootnoteID || id == hwpEndnoteID:
				end := id == hwpEndnoteID
				mark := notes.open(end)
				if notes.reading() {
					c.note = true
					inNote++
				}
				if para.held { // the note's mark is the first of its kind left
					at := footnoteMark
					if end {
						at = endnoteMark
					}
					para.text = strings.Replace(para.text, at, mark, 1)
				}
			}
			controls = append(controls, c)
		case h.tag == hwpTagFootnoteShape && top != nil && top.section && h.level == top.level+1 && top.noteShapes < 2:
			// The section's footnotes', then its endnotes': a property
			// word (bits 0–7 the number shape, bits 10–11 the numbering,
			// 1 restarting it in the section), the user's character and
			// those around the number, then the start.
			b, err := rr.prefix(h, 12)
			if err != nil {
				return err
			}
			if len(b) >= 12 {
				p := binary.LittleEndian.Uint32(b)
				user := hwpString(b[4:6])
				if user == "\x00" {
					user = ""
				}
				notes.shape(top.noteShapes == 1, hwpShape(int(p&0xFF)), user, int(binary.LittleEndian.Uint16(b[10:])), (p>>10)&3 == 1)
			}
			top.noteShapes++
		case h.tag == hwpTagTable && top != nil && top.table && !top.began && h.level == top.level+1:
			// The table's caption (a list before this record) was read as
			// paragraphs; its cells follow.
			if err := rr.skip(h); err != nil {
				return err
			}
			if err := flush(); err != nil {
				return err
			}
			top.began, top.row = true, -1
			tbl.push()
		case h.tag == hwpTagListHeader && top != nil && top.began && h.level == top.level+1:
			// A cell: the paragraph count and properties (8 bytes), then
			// its column and row.
			b, err := rr.prefix(h, 12)
			if err != nil {
				return err
			}
			if err := flush(); err != nil {
				return err
			}
			row := top.row
			if len(b) >= 12 {
				row = int(binary.LittleEndian.Uint16(b[10:]))
			}
			if row != top.row || top.row < 0 {
				if err := tbl.openRow(); err != nil {
					return err
				}
				top.row = max(row, 0)
			}
			tbl.cell()
		default:
			if err := rr.skip(h); err != nil {
				return err
			}
		}
	}
}

// hwpParagraph adds a paragraph's text to the open table cell, or to the
// page.
func (w *mdWriter) hwpParagraph(tbl *tables, text string, heading int) error {
	if inCell, err := tbl.add(text); inCell || err != nil {
		return err
	}
	for len(text) > maxHeld { // a paragraph without end, in pieces
		cut := maxHeld
		for cut > 0 && text[cut]&0xC0 == 0x80 {
			cut--
		}
		if err := w.paragraph(text[:cut], 0); err != nil {
			return err
		}
		text = text[cut:]
	}
	return w.paragraph(text, heading)
}

// hwpText is the text of a PARA_TEXT record: UTF-16LE characters, among
// which codes below 32 are controls. A character control (a line break,
// the paragraph's end, a hyphen, a fixed-width space) is one code; an
// inline or extended control (a tab, a field's start, a table, a
// footnote, a picture) is eight, its code, its id and parameters, then
// its code again.
func hwpText(b []byte) string {
	var (
		sb   strings.Builder
		run  []uint16
		emit = func() {
			if len(run) > 0 {
				sb.WriteString(string(utf16.Decode(run)))
				run = run[:0]
			}
		}
	)
	for i := 0; i+1 < len(b); {
		c := binary.LittleEndian.Uint16(b[i:])
		if c >= 32 {
			run = append(run, c)
			i += 2
			continue
		}
		emit()
		switch c {
		case 0, 13, 25, 26, 27, 28, 29:
			// unused, the paragraph's end, reserved
		case 10:
			sb.WriteByte('\n')
		case 24:
			sb.WriteByte('-')
		case 30, 31: // a non-breaking space, a fixed-width space
			sb.WriteByte(' ')
		case 9:
			sb.WriteByte('\t')
			i += 14
		case 17: // a footnote or an endnote: its mark
			if i+6 <= len(b) {
				switch string(b[i+2 : i+6]) {
				case hwpFootnoteID:
					sb.WriteString(footnoteMark)
				case hwpEndnoteID:
					sb.WriteString(endnoteMark)
				}
			}
			i += 14
		default: // 1–8, 11–12, 14–16, 18–23: eight codes
			i += 14
		}
		i += 2
	}
	emit()
	return sb.String()
}

// hwpString is UTF-16LE text without controls (a style's name).
func hwpString(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, binary.LittleEndian.Uint16(b[i:]))
	}
	return string(utf16.Decode(u))
}
