package importer

import (
	"encoding/xml"
	"strings"
	"unicode/utf8"
)

// A Hancom paragraph is numbered by its paragraph shape (HWPX's
// hh:paraPr, HWP's PARA_SHAPE): its head (hh:heading, bits 23–24 of the
// shape's properties) is none, an outline number (개요 번호: the
// numbering the section names for its outline), a paragraph number (문단
// 번호: the numbering the shape names) or a bullet (글머리표, left out
// as Word's bullets are), at a level from 0. A numbering (hh:numbering,
// HWPTAG_NUMBERING) gives each level a number shape, a start and a text
// where "^1" to "^7" stand for the numbers of levels 1 to 7 ("^1.",
// "(^5)", "^1.^2."), "^n" for the path of levels down to this one
// ("1.1.1", in digits) and "^N" for the path and a full stop.
//
// Hancom counts each numbering on through the document: an item of a
// level counts that level on and restarts every level under it, as
// Word's lists do; the outline counts apart from the paragraph numbers
// of the same numbering.

const (
	// hancomLevels is how many levels a numbering has (7 before 한글
	// 2010's 10).
	hancomLevels = 10
	// maxHancomNumberings and maxHancomShapes bound the numberings and
	// the paragraph shapes kept from a file's header.
	maxHancomNumberings = 10_000
	maxHancomShapes     = 1 << 16
	// maxHancomCount bounds a number (a start of 4 billion is a damaged
	// file's, and would only be written as digits).
	maxHancomCount = 1_000_000
)

// Paragraph heads.
const (
	headNone = iota
	headOutline
	headNumber
	headBullet
)

type hancomLevel struct {
	shape string // a number shape's name (hancomShapes)
	text  string // "^1."; "" shows no number
	start int
}

type hancomList struct {
	levels [hancomLevels]hancomLevel
}

// paraHead is what a paragraph shape says of its paragraphs' head.
type paraHead struct {
	kind, id, level int
}

// hancomNumbering counts a Hancom document's numbered paragraphs. Its
// methods do nothing on nil: a file without numberings.
type hancomNumbering struct {
	lists  map[int]*hancomList
	shapes map[int]paraHead
	// outline is the numbering the section being read numbers its
	// outline with (hp:secPr outlineShapeIDRef, the section definition's
	// numbering id).
	outline int
	// counts of each numbering: [0] for its paragraph numbers, [1] for
	// the outline.
	counts map[int]*[2]listCount10
	// at is the head of the paragraph being read.
	at paraHead
}

type listCount10 struct {
	n       [hancomLevels]int
	started [hancomLevels]bool
}

func newHancomNumbering() *hancomNumbering {
	return &hancomNumbering{lists: map[int]*hancomList{}, shapes: map[int]paraHead{}, counts: map[int]*[2]listCount10{}}
}

// defaultLevels are a numbering's levels before the file says otherwise:
// a start of 1, digits.
func defaultLevels() *hancomList {
	l := &hancomList{}
	for i := range l.levels {
		l.levels[i] = hancomLevel{shape: "DIGIT", start: 1}
	}
	return l
}

// shape notes that the paragraph being read has paragraph shape id.
func (h *hancomNumbering) shape(id int) {
	if h != nil {
		h.at = h.shapes[id]
	}
}

// outlineLevel is the heading level of the paragraph being read when its
// shape makes it an outline paragraph of level N (from 0): N+1, at most
// 6, as HWP 5.0's outlineLevel; 0 for any other. It is asked before
// number, which forgets the shape.
func (h *hancomNumbering) outlineLevel() int {
	if h == nil || h.at.kind != headOutline {
		return 0
	}
	return min(max(h.at.level, 0)+1, 6)
}

// number counts the paragraph being read, if its shape numbers it, and
// says its number as Hancom shows it ("1.", "가)", "(1)", "①", "1.2.");
// "" for none, a bullet, or a level whose text is empty.
func (h *hancomNumbering) number() string {
	if h == nil {
		return ""
	}
	head := h.at
	h.at = paraHead{}
	which := 0
	switch head.kind {
	case headOutline:
		head.id, which = h.outline, 1
	case headNumber:
	default:
		return ""
	}
	list := h.lists[head.id]
	if list == nil || head.level < 0 || head.level >= hancomLevels {
		return ""
	}
	counts := h.counts[head.id]
	if counts == nil {
		counts = &[2]listCount10{}
		h.counts[head.id] = counts
	}
	c := &counts[which]
	lvl := head.level
	if c.started[lvl] {
		c.n[lvl] = min(c.n[lvl]+1, maxHancomCount)
	} else {
		c.n[lvl], c.started[lvl] = list.levels[lvl].start, true
	}
	for i := lvl + 1; i < hancomLevels; i++ { // a new item restarts the levels under it
		c.started[i] = false
	}
	numberOf := func(i int, shape string) string {
		v := c.n[i]
		if !c.started[i] {
			v = list.levels[i].start
		}
		return hancomNumber(v, shape, "")
	}
	var b strings.Builder
	text := list.levels[lvl].text
	for i := 0; i < len(text); i++ {
		if text[i] != '^' || i+1 == len(text) {
			b.WriteByte(text[i])
			continue
		}
		switch k := text[i+1]; {
		case k >= '1' && k <= '9':
			b.WriteString(numberOf(int(k-'1'), list.levels[k-'1'].shape))
		case k == 'n' || k == 'N':
			for j := 0; j <= lvl; j++ {
				if j > 0 {
					b.WriteByte('.')
				}
				b.WriteString(numberOf(j, "DIGIT"))
			}
			if k == 'N' {
				b.WriteByte('.')
			}
		default:
			b.WriteByte('^')
			continue
		}
		i++
	}
	return strings.TrimSpace(b.String())
}

// readHWPXNumbering reads the numberings and the paragraph shapes' heads
// from an HWPX file's Contents/header.xml; none without it.
func readHWPXNumbering(d *xml.Decoder) (*hancomNumbering, error) {
	h := newHancomNumbering()
	var (
		list  *hancomList
		level = -1
		shape = -1
	)
	err := eachToken(d, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			switch qname(t.Name) {
			case "hh:numbering":
				list, level = nil, -1
				if id := atoiOr(attr(t, "id"), -1); id >= 0 && len(h.lists) < maxHancomNumberings {
					list = defaultLevels()
					h.lists[id] = list
				}
			case "hh:paraHead":
				level = atoiOr(attr(t, "level"), 0) - 1
				if list == nil || level < 0 || level >= hancomLevels {
					level = -1
					return
				}
				l := &list.levels[level]
				l.start = min(atoiOr(attr(t, "start"), 1), maxHancomCount)
				if f := attr(t, "numFormat"); f != "" {
					l.shape = f
				}
			case "hh:bullet":
				list, level = nil, -1 // a bullet's paraHead numbers nothing
			case "hh:paraPr":
				shape = atoiOr(attr(t, "id"), -1)
			case "hh:heading":
				if shape >= 0 && len(h.shapes) < maxHancomShapes {
					h.shapes[shape] = paraHead{kind: headKind(attr(t, "type")), id: atoiOr(attr(t, "idRef"), 0), level: atoiOr(attr(t, "level"), 0)}
				}
			}
		case xml.CharData:
			if list != nil && level >= 0 {
				l := &list.levels[level]
				if len(l.text) < maxNumberLabel {
					l.text = cutLabel(l.text + string(t[:min(len(t), utf8.UTFMax*maxNumberLabel)]))
				}
			}
		case xml.EndElement:
			switch qname(t.Name) {
			case "hh:paraHead":
				level = -1
			case "hh:paraPr":
				shape = -1
			}
		}
	})
	return h, err
}

func headKind(s string) int {
	switch s {
	case "OUTLINE":
		return headOutline
	case "NUMBER":
		return headNumber
	case "BULLET":
		return headBullet
	}
	return headNone
}

// hwpxNumbers is the numberer of an HWPX body: a paragraph's shape is its
// hp:p's paraPrIDRef, the outline's numbering its section's hp:secPr.
type hwpxNumbers struct{ *hancomNumbering }

func (n hwpxNumbers) paragraph(e xml.StartElement) {
	n.shape(atoiOr(attr(e, "paraPrIDRef"), -1))
}

func (n hwpxNumbers) see(e xml.StartElement) {
	if qname(e.Name) == "hp:secPr" {
		n.outline = atoiOr(attr(e, "outlineShapeIDRef"), 0)
	}
}

func (hwpxNumbers) end(string) {}

func (n hwpxNumbers) label() string { return n.number() }
