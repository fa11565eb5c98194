package importer

import "encoding/binary"

// HWP 5.0 keeps what hancomnumbering.go counts with in DocInfo: each
// HWPTAG_NUMBERING record is a numbering, named by its place among them
// from 1 (0 names none); each PARA_SHAPE names its head's kind and level
// in its first property word and the numbering in a 16-bit id. The
// section's definition (the "secd" control) names the outline's.

// hwpShape notes the head of paragraph shape number id from the shape's
// record: bits 23–24 of its first word the kind, 25–27 the level (0–6),
// and its numbering's id at byte 30 (after the margins, the spacing and
// the tab definition's id).
func (h *hancomNumbering) hwpShape(id int, b []byte) {
	if len(b) < 32 || id >= maxHancomShapes {
		return
	}
	p := binary.LittleEndian.Uint32(b)
	kind := int(p>>23) & 3
	if kind == headNone {
		return
	}
	h.shapes[id] = paraHead{kind: kind, id: int(binary.LittleEndian.Uint16(b[30:])), level: int(p>>25) & 7}
}

// hwpNumbering reads a NUMBERING record as the next numbering: levels 1
// to 7, each a paragraph head (a property word whose bits 5–9 are the
// number shape, two 16-bit sizes, a character shape's id) and its text (a
// 16-bit length, UTF-16LE); a 16-bit start; from 5.0.2.5 each level's
// start (32 bits); from 한글 2010 levels 8 to 10 the same way, and
// their starts. What is cut short keeps a start of 1 and digits.
func (h *hancomNumbering) hwpNumbering(b []byte) {
	list := defaultLevels()
	h.lists[len(h.lists)+1] = list
	head := func(i int) bool {
		if len(b) < 14 {
			return false
		}
		l := &list.levels[i]
		l.shape = hwpShape(int(binary.LittleEndian.Uint32(b)>>5) & 0x1F)
		n := int(binary.LittleEndian.Uint16(b[12:])) * 2
		if len(b) < 14+n {
			return false
		}
		if t := []rune(hwpString(b[14 : 14+n])); len(t) <= maxNumberLabel {
			l.text = string(t)
		}
		b = b[14+n:]
		return true
	}
	starts := func(from, to int) {
		for i := from; i < to && len(b) >= 4; i++ {
			list.levels[i].start = int(min(binary.LittleEndian.Uint32(b), maxHancomCount))
			b = b[4:]
		}
	}
	for i := range 7 {
		if !head(i) {
			return
		}
	}
	if len(b) < 2 {
		return
	}
	b = b[2:] // the numbering's start, which the levels' own starts say again
	if len(b) < 7*4 {
		return
	}
	starts(0, 7)
	for i := 7; i < hancomLevels; i++ {
		if !head(i) {
			return
		}
	}
	starts(7, hancomLevels)
}

// setOutline notes the numbering of the section's outline.
func (h *hancomNumbering) setOutline(id int) {
	if h != nil {
		h.outline = id
	}
}
