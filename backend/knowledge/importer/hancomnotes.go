package importer

import (
	"encoding/xml"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Hancom keeps a note's text where it is referred to: HWPX's
// hp:footNote and hp:endNote sit in the paragraph's run, their own
// paragraphs inside; HWP 5.0's note is a control of the paragraph whose
// paragraphs follow the paragraph's text. Either way the note is read
// where it stands, the paragraph keeps its mark ("[^1]") and the note
// comes after the paragraph, "[^1] text", as Word's do (notes.go), with
// the same bounds. Hancom numbers footnotes and endnotes apart, each in
// the shape, from the start and with the restart its section says
// (hp:footNotePr and hp:endNotePr; the FOOTNOTE_SHAPE records of the
// section's definition): per section, or on through the document. A
// numbering restarted on each page is counted on through the document,
// which has no pages here.

// newHancomNotes is the notes of a Hancom document: digits from 1 until
// a section says otherwise.
func newHancomNotes() *wordNotes {
	return &wordNotes{text: map[noteKey]string{}, label: map[noteKey]string{}, custom: map[noteKey]bool{},
		format: [2]string{"DIGIT", "DIGIT"}, start: [2]int{1, 1}, hancom: true, shapeOf: -1}
}

// open begins a note of a kind read where it stands and says its mark;
// "" for a note inside a note (which is read as part of it). Past
// maxNotes a note keeps its mark and its text is left out.
func (n *wordNotes) open(end bool) string {
	if n == nil || n.at != nil {
		return ""
	}
	kind := kindIndex(end)
	n.counted[kind]++
	l := n.number(kind, n.counted[kind])
	n.seq++
	key := noteKey{end: end, id: "#" + strconv.Itoa(n.seq)}
	n.at, n.cut, n.drop = &key, false, n.kept[kind] >= maxNotes
	if !n.drop {
		n.label[key] = l
	}
	n.buf.Reset()
	return "[^" + l + "]"
}

// reading says whether a note is being read where it stands.
func (n *wordNotes) reading() bool { return n != nil && n.at != nil }

// write adds text to the note being read, up to maxNoteText.
func (n *wordNotes) write(s string) {
	if n == nil || n.at == nil || n.drop || n.cut || s == "" {
		return
	}
	if n.buf.Len()+len(s) > maxNoteText {
		c := maxNoteText - n.buf.Len()
		for c > 0 && !utf8.RuneStart(s[c]) {
			c--
		}
		s, n.cut = s[:c], true
	}
	n.buf.WriteString(s)
}

// abandon forgets the note being read and the notes waiting for their
// paragraph: the part they were in could not be read to its end, and is
// left out whole.
func (n *wordNotes) abandon() {
	if n == nil {
		return
	}
	n.at, n.pending, n.marking = nil, nil, nil
	n.buf.Reset()
}

// close ends the note being read: it waits to come after its paragraph.
func (n *wordNotes) close() {
	if n == nil || n.at == nil {
		return
	}
	key := *n.at
	n.at = nil
	if n.drop {
		return
	}
	s := strings.Join(strings.Fields(n.buf.String()), " ")
	n.buf.Reset()
	if n.cut {
		s += "…"
	}
	if n.held+len(s) > maxNotesText {
		return
	}
	n.text[key] = s
	n.kept[kindIndex(key.end)]++
	n.held += len(s)
	n.pending = append(n.pending, key)
}

// shape sets how a kind of note is numbered from here on: its number
// shape (hancomShapes), the character of USER_CHAR, its start, and
// whether the count starts again here (a section that restarts it). A
// start below 1 (a damaged file's) is 1.
func (n *wordNotes) shape(end bool, shape, user string, start int, restart bool) {
	if n == nil {
		return
	}
	kind := kindIndex(end)
	n.format[kind], n.user[kind], n.start[kind] = shape, user, min(max(start, 1), maxHancomCount)
	if restart {
		n.counted[kind] = 0
	}
}

// renumber gives the next note of a kind the number num (새 번호 지정:
// HWPX's hp:newNum, HWP's "nwno" control); numbers past maxHancomCount
// are a damaged file's and change nothing.
func (n *wordNotes) renumber(end bool, num int) {
	if n == nil || num < 1 || num > maxHancomCount {
		return
	}
	kind := kindIndex(end)
	n.counted[kind] = num - n.start[kind]
}

// prop reads what an element of HWPX's section properties says of the
// notes: hp:footNotePr and hp:endNotePr hold an hp:autoNumFormat (the
// shape) and an hp:numbering (CONTINUOUS, ON_SECTION or ON_PAGE, and the
// start, newNum); an hp:newNum in the text numbers the next note anew.
func (n *wordNotes) prop(e xml.StartElement) {
	if n == nil || !n.hancom {
		return
	}
	switch qname(e.Name) {
	case "hp:footNotePr":
		n.shapeOf = 0
	case "hp:endNotePr":
		n.shapeOf = 1
	case "hp:autoNumFormat":
		if n.shapeOf >= 0 {
			if s := attr(e, "type"); s != "" {
				n.format[n.shapeOf] = s
			}
			n.user[n.shapeOf] = attr(e, "userChar")
		}
	case "hp:numbering":
		if k := n.shapeOf; k >= 0 {
			n.shape(k == 1, n.format[k], n.user[k], atoiOr(attr(e, "newNum"), 1), attr(e, "type") == "ON_SECTION")
		}
	case "hp:noteLine", "hp:noteSpacing", "hp:placement":
	case "hp:newNum":
		if t := attr(e, "numType"); t == "FOOTNOTE" || t == "ENDNOTE" {
			n.renumber(t == "ENDNOTE", atoiOr(attr(e, "num"), 0))
		}
		n.shapeOf = -1
	default:
		n.shapeOf = -1
	}
}
