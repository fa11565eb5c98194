package importer

import (
	"bufio"
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
	hwpTagParaHeader = hwpTagBegin + 50
	hwpTagParaText   = hwpTagBegin + 51
	hwpTagCtrlHeader = hwpTagBegin + 55
	hwpTagListHeader = hwpTagBegin + 56
	hwpTagTable      = hwpTagBegin + 61
)

// hwpTableID is a table control's id, "tbl " written as a little-endian
// 32-bit number.
const hwpTableID = uint32('t')<<24 | uint32('b')<<16 | uint32('l')<<8 | uint32(' ')

type hwpRecord struct {
	tag, level int
	size       int64
}

// recordReader reads the records of one stream.
type recordReader struct {
	r   *bufio.Reader
	buf []byte
}

func newRecordReader(r io.Reader) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 32<<10)}
}

// next reads a record's header; io.EOF at the end of the stream.
func (rr *recordReader) next() (hwpRecord, error) {
	var b [4]byte
	if _, err := io.ReadFull(rr.r, b[:]); err != nil {
		if errors.Is(err, io.EOF) {
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
		return nil, &OfficeLimitError{What: "record size"}
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
// its header, and, for a table, whether its rows have begun and the row
// of the cell being read.
type hwpControl struct {
	level        int
	table, began bool
	row          int
}

// hwpSection reads one section: paragraphs in order, headings from their
// style or shape, a table's cells joined on their row's line.
func (w *mdWriter) hwpSection(ctx context.Context, r io.Reader, styles *hwpStyles) error {
	var (
		rr       = newRecordReader(r)
		tbl      = &tables{w: w}
		controls []hwpControl
		heading  int  // the level of the paragraph being read
		byShape  bool // made a heading only by its shape (hwpStyles.level)
	)
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		h, err := rr.next()
		if errors.Is(err, io.EOF) {
			return tbl.close()
		}
		if err != nil {
			return err
		}
		// A record at or above a control's level ends it.
		for len(controls) > 0 && h.level <= controls[len(controls)-1].level {
			if controls[len(controls)-1].began {
				if err := tbl.pop(); err != nil {
					return err
				}
			}
			controls = controls[:len(controls)-1]
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
			heading, byShape = 0, false
			if len(b) >= 11 {
				heading, byShape = styles.level(int(b[10]), int(binary.LittleEndian.Uint16(b[8:])))
			}
		case h.tag == hwpTagParaText:
			b, err := rr.body(h)
			if err != nil {
				return err
			}
			text, level := hwpText(b), heading
			if byShape && utf8.RuneCountInString(strings.TrimSpace(text)) > maxOutlineHeading {
				level = 0
			}
			if err := w.hwpParagraph(tbl, text, level); err != nil {
				return err
			}
		case h.tag == hwpTagCtrlHeader:
			b, err := rr.prefix(h, 4)
			if err != nil {
				return err
			}
			c := hwpControl{level: h.level}
			c.table = len(b) == 4 && binary.LittleEndian.Uint32(b) == hwpTableID
			controls = append(controls, c) // at most 1,024 deep: a level is 10 bits
		case h.tag == hwpTagTable && top != nil && top.table && !top.began && h.level == top.level+1:
			// The table's caption (a list before this record) was read as
			// paragraphs; its cells follow.
			if err := rr.skip(h); err != nil {
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
		default: // 1–8, 11–12, 14–23: eight codes
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
