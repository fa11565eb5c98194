package importer

import (
	"strings"
	"unicode/utf8"
)

// mdBlock is about how much text is handed to the sink at a time.
const mdBlock = 64 << 10

// mdWriter writes a document read element by element (office files,
// web pages) as Markdown, paragraphs gathered into blocks for the sink:
// headings as "#" lines, so that every chunk knows its section, the
// first naming the document unless it has a title of its own.
type mdWriter struct {
	sink   Sink
	doc    Document
	begun  bool
	titled bool
	// untitled, when set, takes out of a heading what is not part of the
	// document's title (Word's note marks).
	untitled func(string) string
	buf      strings.Builder
	// part is the part being held (beginPart), nil for none.
	part *heldPart
	// paras counts the paragraphs written, and last is the last of them:
	// where a body that breaks partway stopped (BrokenOff).
	paras int
	last  string
}

// maxPartHeld bounds the text of one part held back while it is read
// (beginPart): a part of more has its first maxPartHeld handed on before
// its end, and keeps them if it then turns out damaged.
const maxPartHeld = 8 << 20

// heldPart is where the part being read began in the writer's buffer,
// and the title as it was: what dropPart takes back.
type heldPart struct {
	at     int
	title  string
	titled bool
	handed bool // some of its text was handed on (past maxPartHeld)
	paras  int
	last   string
}

// beginPart starts one part of several (a chapter, a slide's text, a
// sheet, a section): its text is held, not handed on, until endPart, so
// that a part that turns out unreadable halfway can be left out whole,
// as a missing part is (dropPart), rather than half of it imported or
// the whole file refused.
func (w *mdWriter) beginPart() {
	w.part = &heldPart{at: w.buf.Len(), title: w.doc.Title, titled: w.titled, paras: w.paras, last: w.last}
}

// endPart ends the part begun: its text may be handed on.
func (w *mdWriter) endPart() error {
	w.part = nil
	if w.buf.Len() >= mdBlock {
		return w.flush()
	}
	return nil
}

// dropPart takes back the text of the part begun, which could not be
// read to its end: nothing of it is imported, and a title its heading
// gave the document is forgotten. It says false when the part was too
// long to hold (maxPartHeld) and what was handed on stays.
func (w *mdWriter) dropPart() bool {
	p := w.part
	w.part = nil
	if p == nil {
		return false
	}
	if p.handed {
		return false
	}
	kept := w.buf.String()[:p.at] // a copy only when a part is dropped
	w.buf.Reset()
	w.buf.WriteString(kept)
	w.doc.Title, w.titled = p.title, p.titled
	w.paras, w.last = p.paras, p.last
	return true
}

// paragraph adds one paragraph (level > 0: a heading).
func (w *mdWriter) paragraph(text string, level int) error {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\u00a0", " "))
	if text == "" {
		return nil
	}
	if level > 0 {
		text = strings.ReplaceAll(text, "\n", " ")
		if !w.titled {
			w.doc.Title, w.titled = text, true
			if w.untitled != nil {
				w.doc.Title = w.untitled(text)
			}
		}
		w.buf.WriteString(strings.Repeat("#", level) + " ")
	}
	w.buf.WriteString(text)
	w.buf.WriteString("\n\n")
	w.paras++
	w.last = text
	if cut := 4 * maxLastChars; len(text) > cut { // no more than a warning quotes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		w.last = text[:cut] + "…"
	}
	switch {
	case w.part == nil && w.buf.Len() >= mdBlock:
		return w.flush()
	case w.part != nil && w.buf.Len()-w.part.at >= maxPartHeld:
		w.part.handed, w.part.at = true, 0
		return w.flush()
	}
	return nil
}

func (w *mdWriter) flush() error {
	if w.buf.Len() == 0 {
		return nil
	}
	text := w.buf.String()
	w.buf.Reset()
	if !w.begun {
		w.begun = true
		if err := w.sink.Begin(w.doc); err != nil {
			return err
		}
	}
	// In blocks of about mdBlock, as a text file's arrive: the chunker
	// works through a block at a time, and one of 64 MB (a paragraph
	// without end) cost it a minute and 500 MB.
	for len(text) > mdBlock {
		cut := mdBlock
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		if err := w.sink.Text(text[:cut]); err != nil {
			return err
		}
		text = text[cut:]
	}
	return w.sink.Text(text)
}

func (w *mdWriter) end() error {
	if err := w.flush(); err != nil {
		return err
	}
	if !w.begun {
		return ErrEmpty
	}
	return w.sink.End(w.doc)
}

// cellSep is written between the cells of a table row.
const cellSep = " | "

// maxHeld bounds the text of one paragraph or table row a reader holds
// before handing it on: a hostile page of one endless line, or a table
// cell of endless paragraphs, is handed on in pieces.
const maxHeld = 1 << 20

// tables holds the rows being read of the tables open inside each other
// (nil: that table has no row open). A row is written as one line, its
// cells between " | "; a row of a table inside a cell joins that cell.
type tables struct {
	w    *mdWriter
	rows [][]*strings.Builder
	held int // bytes in the innermost row
}

// push opens a table inside the current one (or the page).
func (t *tables) push() { t.rows = append(t.rows, nil) }

// pop ends the innermost table and its open row.
func (t *tables) pop() error {
	if len(t.rows) == 0 {
		return nil
	}
	err := t.endRow()
	t.rows = t.rows[:len(t.rows)-1]
	return err
}

// openRow starts a row in the innermost table, ending the one open.
func (t *tables) openRow() error {
	if len(t.rows) == 0 {
		return nil
	}
	if err := t.endRow(); err != nil {
		return err
	}
	t.rows[len(t.rows)-1] = []*strings.Builder{}
	return nil
}

// cell starts a cell in the innermost table's row (opening one if none).
func (t *tables) cell() {
	if len(t.rows) == 0 {
		return
	}
	i := len(t.rows) - 1
	t.rows[i] = append(t.rows[i], &strings.Builder{})
}

// add puts a paragraph's text into the current cell; false when no table
// row is open (the text is the page's).
func (t *tables) add(text string) (bool, error) {
	if len(t.rows) == 0 || t.rows[len(t.rows)-1] == nil {
		return false, nil
	}
	s := strings.TrimSpace(text)
	if s == "" {
		return true, nil
	}
	i := len(t.rows) - 1
	if len(t.rows[i]) == 0 {
		t.cell()
	}
	c := t.rows[i][len(t.rows[i])-1]
	if c.Len() > 0 {
		c.WriteByte(' ')
	}
	c.WriteString(s)
	if t.held += len(s); t.held > maxHeld {
		cells := len(t.rows[i])
		if err := t.endRow(); err != nil {
			return true, err
		}
		t.rows[i] = make([]*strings.Builder, cells) // the row goes on, in the same cell
		for k := range t.rows[i] {
			t.rows[i][k] = &strings.Builder{}
		}
	}
	return true, nil
}

// endRow writes the innermost table's open row.
func (t *tables) endRow() error {
	if len(t.rows) == 0 || t.rows[len(t.rows)-1] == nil {
		return nil
	}
	i := len(t.rows) - 1
	var cells []string
	for _, c := range t.rows[i] {
		if c.Len() > 0 {
			cells = append(cells, c.String())
		}
	}
	t.rows[i], t.held = nil, 0
	line := strings.Join(cells, cellSep)
	if i > 0 && t.rows[i-1] != nil { // a table in a cell
		inner := t.rows
		t.rows = t.rows[:i]
		_, err := t.add(line)
		t.rows = inner[:i+1]
		return err
	}
	return t.w.paragraph(line, 0)
}

// close ends every table still open (a page cut short).
func (t *tables) close() error {
	for len(t.rows) > 0 {
		if err := t.pop(); err != nil {
			return err
		}
	}
	return nil
}
