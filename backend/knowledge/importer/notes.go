package importer

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Word keeps a footnote's and an endnote's text apart from the body, in
// word/footnotes.xml and word/endnotes.xml; the body holds only a
// reference (w:footnoteReference w:id) where the number is shown. Reports,
// theses and legal texts keep sources, definitions and exceptions there,
// so the notes are read before the body and each is put after the
// paragraph that refers to it, as its own block, "[^1] text", the way the
// HWP reader puts a footnote's paragraphs after its paragraph: the chunk
// that holds a sentence holds its note too. The paragraph keeps the mark
// ("…에 이르렀다.[^1]") so a reader sees which sentence it belongs to.
// The form is Markdown's footnote mark without the colon of a definition:
// "[^1]: 참조" would be a link reference definition to a Markdown
// renderer without footnotes (marked), and vanish from the page.
//
// Endnotes come after their paragraph too, not at the end of the
// document: the same rule for both, and a search for an endnote's source
// finds it beside the sentence that cites it rather than in a last chunk
// of sources cut off from their context.

// Bounds on the notes held while the body is read (they are read first);
// past them a note is cut or left out, the file is still read.
const (
	// maxNotes bounds the notes of one kind held: a thesis has hundreds,
	// a long commentary some thousands; an empty note costs a map entry
	// all the same.
	maxNotes = 10_000
	// maxNoteText bounds one note's text (a page of notes is about 4 KB);
	// a longer one is cut, with "…".
	maxNoteText = 32 << 10
	// maxNotesText bounds all the notes' text held at once.
	maxNotesText = 16 << 20
)

// noteKey is a note: footnotes and endnotes number their ids apart.
type noteKey struct {
	end bool
	id  string
}

// wordNotes holds a Word document's notes and numbers them as the body
// refers to them. Its methods do nothing on nil: a file without notes.
type wordNotes struct {
	text map[noteKey]string
	// label is the number given to a note at its first reference, in
	// reference order as Word numbers them: footnotes 1, 2, 3, endnotes
	// i, ii, iii (Word's default formats), or as settings.xml says
	// (format, start: w:footnotePr, w:endnotePr).
	label  map[noteKey]string
	format [2]string
	start  [2]int
	// counted are the notes of each kind numbered so far, kept those
	// held, and held the bytes of their text.
	counted, kept [2]int
	held          int
	// pending are the notes referred to by the paragraph (or table row)
	// being read, to come after it.
	pending []noteKey
	// custom are the notes whose reference is followed by a mark of its
	// own (w:customMarkFollows: "*", "†"), as Korean papers mark the
	// title's note on who funded the work: Word does not count them,
	// the mark is the text that follows, and the note repeats it. marking
	// is the one whose mark is awaited.
	custom  map[noteKey]bool
	marking *noteKey
	// hancom: a Hancom document's notes (hancomnotes.go), read where
	// they stand and numbered in Hancom's shapes (user: the character of
	// USER_CHAR); at is the one being read (drop: past maxNotes, its
	// text left out), buf its text so far; seq numbers their keys;
	// shapeOf is the kind whose HWPX properties are being read (-1: none).
	hancom  bool
	user    [2]string
	at      *noteKey
	drop    bool
	buf     strings.Builder
	cut     bool
	seq     int
	shapeOf int
	// unreadable are the notes parts that are there but could not be
	// read to their end: their notes are left out whole, as a missing
	// part's are, and the part named.
	unreadable []unreadablePart
}

// unreadablePart is a part that could not be read, and why.
type unreadablePart struct {
	name string
	err  error
}

// readWordNotes reads the footnotes and endnotes of the Word file z
// (format f) whose main part is main, and how they are numbered, within
// budget. Their parts are named in the main part's relationships
// (word/footnotes.xml, word/endnotes.xml, word/settings.xml when they
// are not). A file without notes gives nil; a notes part that cannot be
// read to its end gives none of its notes (their marks are left out of
// the body) and is named in n.unreadable.
func readWordNotes(ctx context.Context, z *zip.Reader, f *officeFormat, main string, budget *xmlBudget) (*wordNotes, error) {
	rels := path.Join(path.Dir(main), "_rels", path.Base(main)+".rels")
	var n *wordNotes
	for _, kind := range []struct {
		end       bool
		typ, name string
	}{{false, "/footnotes", "footnotes.xml"}, {true, "/endnotes", "endnotes.xml"}} {
		name := relPart(z, main, rels, kind.typ, kind.name)
		d, closer, err := openPart(z, name, budget)
		if err != nil {
			continue // no notes of this kind
		}
		if n == nil {
			n = &wordNotes{text: map[noteKey]string{}, label: map[noteKey]string{}, custom: map[noteKey]bool{},
				format: [2]string{"decimal", "lowerRoman"}, start: [2]int{1, 1}}
		}
		err = budget.judged(n.read(ctx, d, f, kind.end))
		closer.Close()
		if unreadable(err) {
			n.forget(kind.end)
			n.unreadable = append(n.unreadable, unreadablePart{name, err})
			continue
		}
		if err != nil {
			return n, err // a limit, or the context
		}
	}
	if n == nil {
		return nil, nil
	}
	return n, n.readSettings(z, relPart(z, main, rels, "/settings", "settings.xml"), budget)
}

// forget leaves out the notes of a kind read so far: their part could
// not be read to its end.
func (n *wordNotes) forget(end bool) {
	for key, s := range n.text {
		if key.end == end {
			delete(n.text, key)
			n.held -= len(s)
		}
	}
	n.kept[kindIndex(end)] = 0
}

// lostNotes is the warning about the Word file's notes parts that are
// missing (named by the main part's relationships, not in z) or
// unreadable (notes.unreadable); nil when none is.
func lostNotes(z *zip.Reader, main string, notes *wordNotes) *MissingParts {
	named, gone := notesParts(z, main)
	lost := &MissingParts{Unit: "notes part", Total: len(named)}
	for _, name := range gone {
		lost.missing(name)
	}
	if notes != nil {
		for _, u := range notes.unreadable {
			if !slices.Contains(named, u.name) {
				lost.Total++
			}
			lost.unreadable(u.name, u.err)
		}
	}
	if lost.Count == 0 {
		return nil
	}
	return lost
}

// notesParts lists the notes parts the relationships of the Word file's
// main part name, and those of them z lacks (or cannot open): their
// notes' text would be lost without a word, the marks in the body left
// out.
func notesParts(z *zip.Reader, main string) (named, missing []string) {
	rels := path.Join(path.Dir(main), "_rels", path.Base(main)+".rels")
	for _, typ := range []string{"/footnotes", "/endnotes"} {
		if relTarget(z, rels, typ) == "" {
			continue // no notes of this kind
		}
		name := relPart(z, main, rels, typ, "")
		named = append(named, name)
		f, err := z.Open(name)
		if err != nil {
			missing = append(missing, name)
			continue
		}
		f.Close()
	}
	return named, missing
}

// relPart is the part of z the main part's relationships rels name by
// type typ, else word/name.
func relPart(z *zip.Reader, main, rels, typ, name string) string {
	target := relTarget(z, rels, typ)
	switch {
	case target == "":
		return "word/" + name
	case strings.HasPrefix(target, "/"):
		return strings.TrimPrefix(target, "/")
	}
	return path.Join(path.Dir(main), target)
}

// readSettings reads how the notes are numbered (w:footnotePr and
// w:endnotePr: w:numFmt, w:numStart) from the settings part; without
// it, or damaged, Word's defaults stand.
func (n *wordNotes) readSettings(z *zip.Reader, name string, budget *xmlBudget) error {
	d, closer, err := openPart(z, name, budget)
	if err != nil {
		return nil //nolint:nilerr // no settings: Word's defaults
	}
	defer closer.Close()
	var (
		depth int
		in    = -1 // the kind whose properties are being read
		at    int
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if err = budget.judged(xmlError(err)); errors.Is(err, ErrOfficeDamaged) {
				return nil
			}
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxOfficeDepth {
				return &OfficeLimitError{What: "nesting of elements"}
			}
			switch name := qname(t.Name); {
			case name == "w:footnotePr" || name == "w:endnotePr":
				in, at = kindIndex(name == "w:endnotePr"), depth
			case in >= 0 && depth == at+1 && name == "w:numFmt":
				n.format[in] = attr(t, "val")
			case in >= 0 && depth == at+1 && name == "w:numStart":
				n.start[in] = atoiOr(attr(t, "val"), 1)
			}
		case xml.EndElement:
			if depth == at {
				in = -1
			}
			depth--
		}
	}
}

// number is the nth note of a kind written as its format says:
// "chicago" is Word's *, †, ‡, §, doubled after the fourth; others as
// the list numbers' (formatNumber).
func (n *wordNotes) number(kind, nth int) string {
	v := n.start[kind] + nth - 1
	if n.hancom {
		return hancomNumber(v, n.format[kind], n.user[kind])
	}
	if n.format[kind] == "chicago" && v >= 1 {
		sym := []string{"*", "†", "‡", "§"}[(v-1)%4]
		return strings.Repeat(sym, min((v-1)/4+1, 8))
	}
	return formatNumber(v, n.format[kind])
}

// read reads one notes part: each note's paragraphs joined on one line,
// the separators Word draws above the notes (w:type) left out.
func (n *wordNotes) read(ctx context.Context, d *xml.Decoder, f *officeFormat, end bool) error {
	var (
		depth, skip, text int
		in                bool // inside a note that is kept
		at                int  // depth of that note
		id                string
		b                 strings.Builder
		cut               bool
		kind              = kindIndex(end)
	)
	write := func(s string) {
		if cut || s == "" {
			return
		}
		if b.Len()+len(s) > maxNoteText {
			c := maxNoteText - b.Len()
			for c > 0 && !utf8.RuneStart(s[c]) {
				c--
			}
			s, cut = s[:c], true
		}
		b.WriteString(s)
	}
	for k := 0; ; k++ {
		if k%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxOfficeDepth {
				return &OfficeLimitError{What: "nesting of elements"}
			}
			name := qname(t.Name)
			switch {
			case skip > 0:
			case name == "w:footnote" || name == "w:endnote":
				switch attr(t, "type") {
				case "separator", "continuationSeparator", "continuationNotice":
					skip = depth
				default:
					in, at, id, cut = true, depth, attr(t, "id"), false
					b.Reset()
				}
			case !in:
			case f.skip[name] || name == "w:footnoteReference" || name == "w:endnoteReference":
				skip = depth
			default:
				if f.text[name] {
					text++
				}
				write(f.inline(t))
			}
		case xml.EndElement:
			name := qname(t.Name)
			switch {
			case skip > 0:
				if depth == skip {
					skip = 0
				}
			case in && depth == at:
				in = false
				s := strings.TrimSpace(b.String())
				if cut {
					s += "…"
				}
				key := noteKey{end: end, id: id}
				if _, dup := n.text[key]; !dup && n.kept[kind] < maxNotes && n.held+len(s) <= maxNotesText {
					n.text[key] = s
					n.kept[kind]++
					n.held += len(s)
				}
				b.Reset()
			case in:
				if f.text[name] {
					text--
				}
				if f.paragraph[name] || f.cell[name] {
					write(" ") // a note's paragraphs, and its table's cells, on one line
				}
			}
			depth--
		case xml.CharData:
			if in && skip == 0 && text > 0 && !cut { // past the cut, no copy of a hostile run
				write(string(t))
			}
		}
	}
}

func kindIndex(end bool) int {
	if end {
		return 1
	}
	return 0
}

// ref is the mark of the note a reference element e refers to ("[^1]"),
// which then waits to come after its paragraph; "" when e is no
// reference, or refers to a note the file does not have.
func (n *wordNotes) ref(e xml.StartElement) string {
	if n == nil {
		return ""
	}
	var key noteKey
	switch qname(e.Name) {
	case "w:footnoteReference":
	case "w:endnoteReference":
		key.end = true
	default:
		return ""
	}
	key.id = attr(e, "id")
	if _, ok := n.text[key]; !ok {
		return ""
	}
	l, seen := n.label[key]
	if v := attr(e, "customMarkFollows"); v == "1" || v == "true" || v == "on" {
		if !seen {
			n.label[key], n.custom[key], n.marking = "*", true, &key
			n.pending = append(n.pending, key)
		}
		return "" // the mark is the text that follows
	}
	if !seen {
		i := kindIndex(key.end)
		n.counted[i]++
		l = n.number(i, n.counted[i])
		n.label[key] = l
		n.pending = append(n.pending, key) // a note referred to again comes once
	}
	return "[^" + l + "]"
}

// see takes the text that follows a reference with a mark of its own as
// that mark (its first few characters).
func (n *wordNotes) see(text []byte) {
	if n == nil || n.marking == nil {
		return
	}
	if s := strings.TrimSpace(string(text)); s != "" {
		r := []rune(s)
		n.label[*n.marking] = string(r[:min(len(r), 8)])
		n.marking = nil
	}
}

// paragraphEnd ends a paragraph: a mark of a note's own is no further.
func (n *wordNotes) paragraphEnd() {
	if n != nil {
		n.marking = nil
	}
}

// unmark is a heading's text without the note marks given so far, for
// the document's title.
func (n *wordNotes) unmark(text string) string {
	if n == nil || !strings.Contains(text, "[^") {
		return text
	}
	for key, l := range n.label {
		if !n.custom[key] {
			text = strings.ReplaceAll(text, "[^"+l+"]", "")
		}
	}
	return strings.TrimSpace(text)
}

// flush writes the notes waiting for the paragraph just written.
func (n *wordNotes) flush(w *mdWriter) error {
	if n == nil {
		return nil
	}
	for len(n.pending) > 0 {
		key := n.pending[0]
		n.pending = n.pending[1:]
		t, l := n.text[key], n.label[key]
		if n.custom[key] {
			t = strings.TrimSpace(strings.TrimPrefix(t, l)) // the note repeats its mark
		}
		if t != "" {
			if err := w.paragraph("[^"+l+"] "+t, 0); err != nil {
				return err
			}
		}
	}
	n.pending, n.marking = nil, nil
	return nil
}
