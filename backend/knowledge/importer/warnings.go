package importer

import (
	"archive/zip"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// What the importer says about a file it imported, but not all as the
// file had it. One rule holds for every format: what can be read is
// imported, and what could not be is named in a warning, in words, rather
// than the whole file refused (a book that lacks a chapter still has the
// others) or the loss kept quiet. A file of which nothing can be read
// fails (ErrOfficeDamaged), and a limit passed fails the file as before.

// warnings gathers a reader's warnings as it reads.
type warnings struct{ list []error }

func (w *warnings) add(err error) {
	if w != nil && err != nil {
		w.list = append(w.list, err)
	}
}

// maxNamed bounds the parts a warning names (and the characters of each):
// the file chose the names, and a warning is one line.
const (
	maxNamed     = 5
	maxNameChars = 80
)

// errNoPart marks a part a container's index names that the archive does
// not hold, or that cannot be opened: left out with a warning
// (*MissingParts), as a part that is there but cannot be read to its end
// is (unreadable).
var errNoPart = errors.New("missing from the archive or unreadable")

// unreadable says whether err, from reading one part of a container,
// means that part is damaged (its XML or its records do not parse, its
// compressed data does not inflate or fails its checksum): the part is
// left out and named, and the file's other parts are read. A limit
// passed, a cancelled import or a failing sink is no damage of the part,
// and fails the file.
func unreadable(err error) bool {
	if err == nil {
		return false
	}
	var ol *OfficeLimitError
	var hl *HTMLLimitError
	switch {
	case errors.As(err, &ol), errors.As(err, &hl), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	case errors.Is(err, ErrOfficeDamaged):
		return true
	}
	// A ZIP part's own read errors (flate's, a checksum) reach the
	// readers of web pages as they are.
	var ce flate.CorruptInputError
	return errors.As(err, &ce) || errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// MissingParts is the warning about a container file (an EPUB book, a
// presentation, a workbook, a Hancom document) whose index names parts it
// does not hold or cannot read: its spine, its list of slides, sheets or
// sections names a part that is missing from the archive, outside it,
// cannot be opened, or is there but cannot be read to its end (its XML,
// its records or its compressed data damaged). The parts that can be
// read are imported.
type MissingParts struct {
	// Unit is what a part is to the person: "chapter", "slide",
	// "section", "sheet", "speaker's notes".
	Unit string
	// Names are the first few missing parts, as the person knows them:
	// slide numbers ("slide 3"), sheet names, chapter files.
	Names []string
	Count int // parts missing
	Total int // parts the index names
	// why is what made the first unreadable part unreadable, for the
	// message of a file none of whose parts could be read.
	why error
}

// unreadable notes that the part name is there but could not be read
// (err says why): it is left out as a missing one is.
func (m *MissingParts) unreadable(name string, err error) {
	if m.why == nil {
		m.why = fmt.Errorf("%s: %s", shortened(name, maxNameChars), shortened(damage(err), 3*maxNameChars))
	}
	m.missing(name)
}

// missing notes that the part name of the index could not be read.
func (m *MissingParts) missing(name string) {
	m.Count++
	if len(m.Names) < maxNamed {
		m.Names = append(m.Names, shortened(name, maxNameChars))
	}
}

// shortened is s on one line, cut to n characters: the file chose it (a
// part's name, an element's in a decoder's message), and a message is
// one line.
func shortened(s string, n int) string {
	s = oneLine(s)
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// all says whether none of the parts could be read: the file is damaged.
func (m *MissingParts) all() bool { return m.Total > 0 && m.Count >= m.Total }

// damaged is the error for a file none of whose parts could be read.
func (m *MissingParts) damaged() error {
	switch {
	case m.why != nil && m.Total == 1:
		return fmt.Errorf("%w: %v", ErrOfficeDamaged, m.why)
	case m.why != nil:
		return fmt.Errorf("%w: none of the %d %s the file names could be read (%s); %v", ErrOfficeDamaged, m.Total, m.noun(m.Total), m.named(), m.why)
	}
	return fmt.Errorf("%w: the file names %d %s and holds none of them (%s)", ErrOfficeDamaged, m.Total, m.noun(m.Total), m.named())
}

// report adds m to w when a part was missing.
func (m *MissingParts) report(w *warnings) {
	if m.Count > 0 {
		w.add(m)
	}
}

func (m *MissingParts) noun(n int) string {
	if n == 1 || strings.HasSuffix(m.Unit, "notes") {
		return m.Unit
	}
	return m.Unit + "s"
}

func (m *MissingParts) named() string {
	s := strings.Join(m.Names, ", ")
	if more := m.Count - len(m.Names); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

func (m *MissingParts) Error() string {
	verb := "were"
	if m.Count == 1 {
		verb = "was"
	}
	return fmt.Sprintf("%d of %d %s %s not imported: missing from the file or unreadable (%s)", m.Count, m.Total, m.noun(m.Total), verb, m.named())
}

// CutShort is the warning about a file that ends before its document does
// (an RTF file whose groups are still open, or whose binary data, \binN,
// runs past its end): a download or copy cut short, or a damaged file.
// The text up to the end is imported.
type CutShort struct {
	At     int64 // the byte where the file ends (its size)
	Open   int   // groups still open at the end
	Binary int64 // bytes of binary data announced at BinaryAt that the file lacks; 0: none
	// BinaryAt is where the binary data that runs past the end begins.
	BinaryAt int64
}

func (c *CutShort) Error() string {
	if c.Binary > 0 {
		return fmt.Sprintf("the file ends inside the binary data that begins at byte %d, %d bytes short of what it announces; it looks damaged or cut short, and only the text before it was imported", c.BinaryAt, c.Binary)
	}
	groups := "group is"
	if c.Open != 1 {
		groups = "groups are"
	}
	return fmt.Sprintf("the file ends at byte %d while %d %s still open; it looks cut short, and only the text up to there was imported", c.At, c.Open, groups)
}

// Trailing is the warning about a file that goes on after its document
// ends (an RTF file's last brace closes it early, or a second document
// was appended): what follows is not read.
type Trailing struct {
	At int64 // the byte where the document ends
}

func (t *Trailing) Error() string {
	return fmt.Sprintf("the document ends at byte %d but the file goes on; what follows was not imported (the file may be damaged, or two files joined)", t.At)
}

// BrokenOff is the warning about a file whose body is one part (a Word
// or OpenDocument file's document.xml or content.xml, an HWP or HWPX
// file of one section, a presentation of one slide, a workbook of one
// sheet, an EPUB book of one chapter) and breaks partway: its XML stops
// parsing or its compressed data stops inflating. The sheets, slides or paragraphs read whole
// before the break are imported and the one it broke in is left out, as
// a container leaves out a part that breaks (MissingParts): the one part
// is all the file has, so taking it back whole would lose everything
// that could be read. A file that breaks before any is read whole is
// damaged (ErrOfficeDamaged).
type BrokenOff struct {
	// Unit is what was read whole: "sheet", "slide", "paragraph", or
	// "row" (a workbook of one sheet).
	Unit string
	// Count is how many were read whole and imported: a slide's number
	// is its place, so the last imported is slide Count.
	Count int
	// Last names the last one imported as the person finds it: a sheet's
	// name, the beginning of a paragraph ("" for a slide).
	Last string
	// why is what the reader met, for the English line.
	why string
}

// brokenOff is the warning for a part that broke (err) after count
// units, the last of them last.
func brokenOff(unit string, count int, last string, err error) *BrokenOff {
	return &BrokenOff{Unit: unit, Count: count, Last: shortened(last, maxLastChars),
		why: shortened(damage(err), 3*maxNameChars)}
}

// brokeOff is the warning for a body of parts parts that could not be
// read to its end (err), when it is one part with paragraphs read whole
// before the break: they are kept, and the one it broke in left out. nil
// otherwise: a part of several is left out whole (MissingParts), and a
// part that broke before any paragraph is damaged.
func (w *mdWriter) brokeOff(err error, parts int) *BrokenOff {
	if !unreadable(err) || parts != 1 || w.paras == 0 {
		return nil
	}
	return brokenOff("paragraph", w.paras, w.last, err)
}

// maxLastChars bounds the beginning of a paragraph a warning quotes.
const maxLastChars = 40

func (b *BrokenOff) Error() string {
	at := fmt.Sprintf("%s %d", b.Unit, b.Count)
	if b.Last != "" {
		at = fmt.Sprintf("%s %d (%q)", b.Unit, b.Count, b.Last)
	}
	return fmt.Sprintf("the file breaks off after %s, damaged or cut short there (%s): what came before was imported, the rest was not", at, b.why)
}

// IndexLost is the warning about a container whose index of its parts is
// missing or cannot be read (an Excel workbook's relationships, an EPUB
// book's package document): its parts of that kind were read from the
// archive, as a damaged index's unnamed parts are (recoverParts), but
// what only the index knew is gone: the sheets' names (each is named by
// its part, sheet2), or the chapters' order (the archive's is taken).
type IndexLost struct {
	// Unit is the kind of part read from the archive: "sheet", "chapter".
	Unit string
	// Index is the part that should have listed them.
	Index string
	// Count is how many parts were read from the archive.
	Count int
}

func (l *IndexLost) Error() string {
	what := "named by their parts (sheet1, sheet2, …), as their names are only there"
	if l.Unit == "chapter" {
		what = "in the order the archive keeps them, which may not be the book's"
	}
	return fmt.Sprintf("the file's list of its %ss (%s) is missing or damaged: %d %ss were read from the archive, %s", l.Unit, shortened(l.Index, maxNameChars), l.Count, l.Unit, what)
}

// damage is what err says was damaged, without ErrOfficeDamaged's own
// words, for a warning or an error that says the file is damaged already.
func damage(err error) string {
	return strings.TrimPrefix(err.Error(), ErrOfficeDamaged.Error()+": ")
}

// RepeatedParts is the warning about a container whose index names one
// part more than once (an EPUB book's spine, a presentation's list of
// slides, an HWPX file's sections; an OpenDocument presentation's slide
// written again under its name): no program writes such an index, so the
// file is damaged or made to cost, as a 40 KB book whose spine named one
// chapter 200,000 times did, refused before on the limit of parts. Each
// part is read once, where the index first names it, and the repeats are
// left out: read again, they would spend the file's budget on no new
// text and fill the search with copies of one passage.
type RepeatedParts struct {
	// Unit is what a part is to the person: "chapter", "slide", "section", "part".
	Unit string
	// Names are the first few parts named more than once, as the person
	// knows them (a chapter's file, "slide 2", a section's part).
	Names []string
	Parts int // parts named more than once
	Count int // repeats left out
	// Stopped: past maxOfficeParts repeats the file was read no further
	// (an OpenDocument presentation's slides, a spreadsheet's tables), so
	// whatever came after them was not imported. The repeats are what
	// stopped it, not damage: no break-off warning is added, whose
	// "slides 1 to 10001 were imported" would count the repeats as read.
	Stopped bool
}

func (r *RepeatedParts) Error() string {
	names := strings.Join(r.Names, ", ")
	if more := r.Parts - len(r.Names); more > 0 {
		names += fmt.Sprintf(" and %d more", more)
	}
	repeats := fmt.Sprintf("the %d repeats were", r.Count)
	if r.Count == 1 {
		repeats = "the repeat was"
	}
	if r.Stopped {
		return fmt.Sprintf("the file writes the same %s again %d times (%s): each was imported once, where it first comes; past that many repeats the file was read no further", r.Unit, r.Count, names)
	}
	return fmt.Sprintf("the file's list of its %ss names the same %s more than once (%s): each was imported once, where it first comes, and %s left out", r.Unit, r.Unit, names, repeats)
}

// namedAgain finds the parts an index names again (RepeatedParts).
type namedAgain struct {
	seen map[string]*sighting
	r    RepeatedParts
}

// sighting is a part named: shown as the person knows it where it first
// came; again once it was named again.
type sighting struct {
	shown string
	again bool
}

func newRepeats(unit string) *namedAgain {
	return &namedAgain{seen: map[string]*sighting{}, r: RepeatedParts{Unit: unit}}
}

// first says whether the part key is named for the first time, there
// known as shown; a repeat is counted, and the part named as it first
// came ("slide 2", not the place of its repeat).
func (p *namedAgain) first(key, shown string) bool {
	s, ok := p.seen[key]
	if !ok {
		p.seen[key] = &sighting{shown: shown}
		return true
	}
	p.r.Count++
	if !s.again {
		s.again = true
		if p.r.Parts++; len(p.r.Names) < maxNamed {
			p.r.Names = append(p.r.Names, shortened(s.shown, maxNameChars))
		}
	}
	return false
}

// report adds the warning to w when a part was named again.
func (p *namedAgain) report(w *warnings) {
	if p.r.Count > 0 {
		w.add(&p.r)
	}
}

// CutInPart is the warning about a file cut short (its archive salvaged)
// inside a part that others follow in the file's own order: an EPUB book
// whose archive keeps its chapters in another order than its spine. The
// paragraphs of that part read whole before the cut are imported, and the
// parts after it too; the rest of that part is lost. Where the part cut is
// the last, the book simply breaks off there (BrokenOff).
type CutInPart struct {
	Unit  string // "chapter"
	Part  string // the part cut, as the person knows it (a chapter's file)
	Count int    // its paragraphs imported
	Last  string // the beginning of the last of them
}

func (c *CutInPart) Error() string {
	return fmt.Sprintf("the file is cut short in %s %s after its paragraph %d (%q): that %s was imported up to there, and the book's %ss after it as well", c.Unit, c.Part, c.Count, c.Last, c.Unit, c.Unit)
}
