package importer

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Word (.docx), Hancom Office (.hwpx) and OpenDocument (.odt) files are
// ZIP archives of XML whose body text is stored in reading order:
// paragraphs, table cells row by row, headings marked by their style. No
// well-kept Go library reads their text (the full OOXML toolkits are
// commercial or archived, and none reads HWPX), and the text is a small
// part of each format, so it is read here with archive/zip and a streaming
// encoding/xml decoder: a paragraph at a time, within the limits below.
// encoding/xml expands no entities declared in a document (no "billion
// laughs"), and nothing is written to disk.

// Limits of one office file; past them it fails as damaged or hostile
// (*OfficeLimitError) instead of running the machine out of memory or time.
const (
	// MaxOfficeXML bounds the XML read from all of a file's parts, once
	// unpacked: a 1,000-page report is about 10 MB, and a ZIP bomb
	// declares sizes it does not keep to.
	MaxOfficeXML = 64 << 20
	// maxOfficeParts bounds the body parts (HWPX sections) read.
	maxOfficeParts = 10_000
	// maxOfficeEntries and maxOfficeDirectory bound the ZIP archive's
	// list of parts (a ZIP64 archive, with more than 65,535, is refused).
	maxOfficeEntries   = 20_000
	maxOfficeDirectory = 8 << 20
	// maxOfficeDepth bounds the nesting of XML elements (Word's deepest is
	// some tens: tables in tables in text boxes).
	maxOfficeDepth = 1_000
)

// ErrOfficeDamaged marks an office file that cannot be read: not a ZIP
// archive, its body part missing, or XML that does not parse.
var ErrOfficeDamaged = errors.New("the document is damaged or not really the kind of file its name says")

// ErrOfficeEncrypted marks an office file saved with a password: Word and
// LibreOffice then write an OLE compound file, not a ZIP archive.
var ErrOfficeEncrypted = errors.New("the document is protected by a password")

// OfficeLimitError is an office file past one of its limits.
type OfficeLimitError struct{ What string }

func (e *OfficeLimitError) Error() string {
	return fmt.Sprintf("the document's %s is past what Wayfinder reads from one file; it looks damaged or hostile", e.What)
}

// LegacyError is a file in the binary format an office suite wrote before
// its XML one (.doc, .ppt; and HWP 3, which 한글 97 and before wrote under
// the .hwp name HWP 5.0 kept): the person is told which to save it as.
type LegacyError struct{ Ext string }

func (e *LegacyError) Error() string {
	what := e.Ext + " files"
	if e.Ext == ".hwp" {
		what = "HWP 3 files (한글 97 and before)"
	}
	return fmt.Sprintf("%s are not read: save the document as %s (or PDF), then add that", what, legacyFormats[e.Ext])
}

func (e *LegacyError) Is(target error) bool { return target == ErrUnsupported }

// legacyFormats maps each old binary format to the XML one to save it as.
var legacyFormats = map[string]string{".doc": ".docx", ".hwp": ".hwpx", ".ppt": ".pptx", ".xls": ".xlsx"}

// unsupported is the error for a file whose kind is not read: a
// *LegacyError for an old office format, else ErrUnsupported.
func unsupported(path string) error {
	if ext := strings.ToLower(pathExt(path)); legacyFormats[ext] != "" {
		return &LegacyError{Ext: ext}
	}
	return ErrUnsupported
}

// Unsupported is the error for a file KindOf does not know.
func Unsupported(path string) error { return fmt.Errorf("import %q: %w", path, unsupported(path)) }

func pathExt(p string) string { return path.Ext(strings.ReplaceAll(p, "\\", "/")) }

// officeFormat is what tells one XML office format's body apart.
type officeFormat struct {
	// parts lists the body's parts in reading order.
	parts func(z *zip.Reader) ([]string, error)
	// styles, when set, names the part of paragraph styles and reads the
	// heading level of each style id from it.
	styles     string
	readStyles func(d *xml.Decoder) (map[string]int, error)
	// paragraph ends a paragraph (and a heading).
	paragraph map[string]bool
	// heading, when set, is the level (1–6) of a paragraph or heading
	// element that starts here, from its own attributes or its style; 0:
	// body text.
	heading func(e xml.StartElement, styles map[string]int) int
	// styleOf, when set, is the heading level a style set inside a
	// paragraph gives it, after it started (Word: w:pPr/w:pStyle,
	// w:outlineLvl); 0 when e sets none.
	styleOf func(e xml.StartElement, styles map[string]int) int
	// text says whether character data inside the element is text.
	text map[string]bool
	// skip drops an element and all inside it (comments, deleted text,
	// the copy of a drawing kept for old readers).
	skip map[string]bool
	// shape, when set, bounds a shape whose placeholder may make every
	// paragraph in it a heading (a slide's title): shapeHeading gives that
	// level for an element inside the shape, 0 for any other.
	shape        map[string]bool
	shapeHeading func(e xml.StartElement) int
	// cell ends a table cell, row a table row.
	cell, row map[string]bool
	// inline is the text an empty element stands for (tab, line break,
	// a run of spaces), given its attributes.
	inline func(e xml.StartElement) string
	// numbering, when set, gives the numbers the program puts before
	// paragraphs itself (Word's numbering.xml, OpenDocument's list styles).
	numbering func(z *zip.Reader, budget *xmlBudget) (numberer, error)
	// notes, when set, reads the footnotes and endnotes the body refers
	// to, kept apart from it (Word's footnotes.xml, endnotes.xml), given
	// the main part's name.
	notes func(ctx context.Context, z *zip.Reader, f *officeFormat, main string, budget *xmlBudget) (*wordNotes, error)
	// inlineNotes names the elements that hold a note where it is
	// referred to (HWPX's hp:footNote, hp:endNote: true for an endnote),
	// read into the notes rather than the paragraph.
	inlineNotes map[string]bool
}

// Element names are matched as "prefix:local" with the namespace's usual
// prefix, whatever prefix a file uses.
const (
	nsWord   = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsMC     = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsHP     = "http://www.hancom.co.kr/hwpml/2011/paragraph"
	nsHH     = "http://www.hancom.co.kr/hwpml/2011/head"
	nsText   = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	nsTable  = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	nsOff    = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	nsPres   = "http://schemas.openxmlformats.org/presentationml/2006/main"
	nsDraw   = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsRel    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsODDraw = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
	nsODPres = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
	nsSVG    = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
)

var prefixes = map[string]string{nsWord: "w", nsMC: "mc", nsHP: "hp", nsHH: "hh", nsText: "text", nsTable: "table", nsOff: "office",
	nsPres: "p", nsDraw: "a", nsODDraw: "draw", nsODPres: "presentation", nsSVG: "svg"}

func qname(n xml.Name) string {
	if p, ok := prefixes[n.Space]; ok {
		return p + ":" + n.Local
	}
	return n.Local
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// namedLevel is the heading level a style's name gives: "heading 2",
// "Heading2", "Outline 3", "개요 3", "제목 2" (Hancom's templates, and
// Korean Word's name of its heading styles) give their number (1–6);
// other names 0 ("제목 1 Char" and "제목 없음" too).
func namedLevel(name string) int {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range []string{"heading", "outline", "개요", "제목"} {
		if rest, ok := strings.CutPrefix(n, p); ok {
			return numberLevel(strings.TrimSpace(rest), 0)
		}
	}
	return 0
}

// numberLevel is the heading level of an outline number counted from
// base (Word counts from 0, where 9 is body text): 1–6, or 0.
func numberLevel(s string, base int) int {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v+base < 1 || v+base > 9 {
		return 0
	}
	return min(v+base, 6)
}

var docx = officeFormat{
	parts: func(z *zip.Reader) ([]string, error) {
		// The main part is named in _rels/.rels; Word always writes it
		// as word/document.xml, which is read when the part named is
		// not in the archive (relationships damaged or left stale by
		// another program) rather than the file refused.
		const main = "word/document.xml"
		if target := strings.TrimPrefix(relTarget(z, "_rels/.rels", "/officeDocument"), "/"); target != "" {
			if _, err := fs.Stat(z, target); err == nil || target == main {
				return []string{target}, nil
			}
			if _, err := fs.Stat(z, main); err != nil {
				return []string{target}, nil
			}
		}
		return []string{main}, nil
	},
	styles: "word/styles.xml",
	readStyles: func(d *xml.Decoder) (map[string]int, error) {
		levels := map[string]int{}
		id := ""
		return levels, eachStart(d, func(e xml.StartElement) {
			switch qname(e.Name) {
			case "w:style":
				id = attr(e, "styleId")
			case "w:name":
				if l := namedLevel(attr(e, "val")); l > 0 && id != "" {
					levels[id] = l
				} else if strings.EqualFold(attr(e, "val"), "title") && id != "" {
					levels[id] = 1
				}
			case "w:outlineLvl":
				if l := numberLevel(attr(e, "val"), 1); l > 0 && id != "" && levels[id] == 0 {
					levels[id] = l
				}
			}
		})
	},
	paragraph: set("w:p"),
	styleOf: func(e xml.StartElement, styles map[string]int) int {
		switch qname(e.Name) {
		case "w:pStyle":
			if l, ok := styles[attr(e, "val")]; ok {
				return l
			}
			return namedLevel(attr(e, "val")) // "Heading1" without styles.xml
		case "w:outlineLvl":
			return numberLevel(attr(e, "val"), 1)
		}
		return 0
	},
	text: set("w:t"),
	// w:pPrChange and w:rPrChange hold the properties before a tracked
	// change: an old style or number, not the one shown.
	skip: set("w:del", "w:delText", "w:instrText", "mc:Fallback", "w:commentReference", "w:pPrChange", "w:rPrChange"),
	cell: set("w:tc"), row: set("w:tr"),
	numbering: func(z *zip.Reader, budget *xmlBudget) (numberer, error) { return readWordNumbering(z, budget) },
	notes:     readWordNotes,
	inline: func(e xml.StartElement) string {
		switch qname(e.Name) {
		case "w:tab":
			return "\t"
		case "w:br", "w:cr":
			return "\n"
		case "w:noBreakHyphen":
			return "-"
		}
		return ""
	},
}

// outliner is a numberer that also knows the heading level the shape of
// the paragraph being read gives it: Hancom's outline paragraph (개요
// 문단), a heading whatever its style, as HWP 5.0's reader takes it
// (hwpStyles.level); a long one is body text (maxOutlineHeading).
type outliner interface {
	outlineLevel() int
}

var hwpx = officeFormat{
	parts: func(z *zip.Reader) ([]string, error) {
		// The spine of Contents/content.hpf lists the sections in order;
		// without it, Contents/section0.xml, section1.xml, … are taken.
		if spine := hpfSpine(z); len(spine) > 0 {
			return spine, nil
		}
		return recoverParts(z, nil, isSection, func(a, b string) int { return sectionNumber(a) - sectionNumber(b) }), nil
	},
	styles: "Contents/header.xml",
	readStyles: func(d *xml.Decoder) (map[string]int, error) {
		levels := map[string]int{}
		return levels, eachStart(d, func(e xml.StartElement) {
			if qname(e.Name) != "hh:style" {
				return
			}
			for _, n := range []string{attr(e, "engName"), attr(e, "name")} {
				if l := namedLevel(n); l > 0 {
					levels[attr(e, "id")] = l
					return
				}
			}
		})
	},
	paragraph: set("hp:p"),
	heading: func(e xml.StartElement, styles map[string]int) int {
		return styles[attr(e, "styleIDRef")]
	},
	text: set("hp:t"),
	skip: set("hp:fieldBegin", "hp:fieldEnd"),
	cell: set("hp:tc"), row: set("hp:tr"),
	numbering: func(z *zip.Reader, budget *xmlBudget) (numberer, error) {
		d, closer, err := openPart(z, "Contents/header.xml", budget)
		if err != nil {
			return hwpxNumbers{newHancomNumbering()}, nil //nolint:nilerr // no header: nothing is numbered
		}
		defer closer.Close()
		h, err := readHWPXNumbering(d)
		return hwpxNumbers{h}, budget.judged(err)
	},
	notes: func(context.Context, *zip.Reader, *officeFormat, string, *xmlBudget) (*wordNotes, error) {
		return newHancomNotes(), nil
	},
	inlineNotes: map[string]bool{"hp:footNote": false, "hp:endNote": true},
	inline: func(e xml.StartElement) string {
		switch qname(e.Name) {
		case "hp:tab":
			return "\t"
		case "hp:lineBreak":
			return "\n"
		case "hp:nbSpace", "hp:fwSpace":
			return " "
		case "hp:hyphen":
			return "-"
		}
		return ""
	},
}

var odt = officeFormat{
	parts:     func(*zip.Reader) ([]string, error) { return []string{"content.xml"}, nil },
	numbering: func(*zip.Reader, *xmlBudget) (numberer, error) { return newODTNumbering(), nil },
	paragraph: set("text:p", "text:h"),
	heading: func(e xml.StartElement, _ map[string]int) int {
		if qname(e.Name) != "text:h" {
			return 0
		}
		if l := numberLevel(attr(e, "outline-level"), 0); l > 0 {
			return l
		}
		return 1
	},
	text: set("text:p", "text:h"),
	skip: set("office:annotation", "text:tracked-changes", "text:note-citation", "office:forms"),
	cell: set("table:table-cell"), row: set("table:table-row"),
	inline: func(e xml.StartElement) string {
		switch qname(e.Name) {
		case "text:tab":
			return "\t"
		case "text:line-break":
			return "\n"
		case "text:s":
			n, err := strconv.Atoi(attr(e, "c"))
			if err != nil || n < 1 {
				n = 1
			}
			return strings.Repeat(" ", min(n, 100))
		}
		return ""
	},
}

var officeFormats = map[Kind]*officeFormat{KindWord: &docx, KindHWPX: &hwpx, KindODT: &odt, KindSlides: &pptx}

// readOffice hands the body of the office file in r to sink as one
// Markdown document: each paragraph a block, headings as "#" lines (so
// that every chunk knows its section), a table row on a line of its own
// with its cells between " | ".
//
// A section the index names that the archive lacks (HWPX's spine) is left
// out and named in a warning (*MissingParts); a file that holds none of
// its body parts (Word's and OpenDocument's one) is damaged.
func readOffice(ctx context.Context, path string, kind Kind, r io.Reader, sink Sink, warn *warnings) error {
	z, err := openArchive(r, warn)
	if err != nil {
		return err
	}
	f := officeFormats[kind]
	budget := &xmlBudget{left: MaxOfficeXML}
	var styles map[string]int
	if f.styles != "" {
		if d, closer, err := openPart(z, f.styles, budget); err == nil {
			styles, err = f.readStyles(d)
			err = budget.judged(err)
			closer.Close()
			if err != nil && !errors.Is(err, ErrOfficeDamaged) {
				return err // a limit, or the context
			}
		}
	}
	var nums numberer = noNumbers{}
	if f.numbering != nil {
		if nums, err = f.numbering(z, budget); err != nil && !errors.Is(err, ErrOfficeDamaged) {
			return err // a limit, or the context; damaged numbering numbers what it can
		}
	}
	parts, err := f.parts(z)
	if err != nil {
		return err
	}
	if len(parts) == 0 {
		return fmt.Errorf("%w: no body", ErrOfficeDamaged)
	}
	unit := "part"
	if kind == KindHWPX {
		unit = "section"
	}
	// A section the spine names again is read once, where it first comes
	// (RepeatedParts).
	again := newRepeats(unit)
	distinct := parts[:0]
	for _, name := range parts {
		if again.first(name, name) {
			distinct = append(distinct, name)
		}
	}
	parts = distinct
	if len(parts) > maxOfficeParts {
		return &OfficeLimitError{What: "number of sections"}
	}
	var notes *wordNotes
	if f.notes != nil {
		if notes, err = f.notes(ctx, z, f, parts[0], budget); err != nil {
			return err // a limit, or the context; a damaged notes part is left out (notes.unreadable)
		}
	}
	w := &mdWriter{sink: sink, doc: Document{Title: baseName(path), Source: path, Kind: kind, Markdown: true}}
	if notes != nil {
		w.untitled = notes.unmark // a thesis's title often has a note
	}
	lost := &MissingParts{Unit: unit, Total: len(parts)}
	broke, err := w.parts(ctx, z, f, parts, styles, nums, notes, budget, lost)
	budget.release()
	if err != nil {
		return err
	}
	if lost.all() {
		return lost.damaged()
	}
	lost.report(warn)
	if broke != nil {
		warn.add(broke)
	}
	again.report(warn)
	if kind == KindWord {
		if notesLost := lostNotes(z, parts[0], notes); notesLost != nil {
			notesLost.report(warn)
		}
	}
	return w.end()
}

// parts reads the body parts in order; one the archive lacks, or that
// cannot be read to its end (its XML or its compressed data damaged), is
// left out whole and counted in lost. A body of one part that breaks
// after some paragraphs keeps them, and says where it broke (broke): the
// paragraph it broke in is left out, as a container's broken part is.
func (w *mdWriter) parts(ctx context.Context, z *zip.Reader, f *officeFormat, parts []string, styles map[string]int, nums numberer, notes *wordNotes, budget *xmlBudget, lost *MissingParts) (broke *BrokenOff, err error) {
	for _, name := range parts {
		d, closer, err := openPart(z, name, budget)
		if errors.Is(err, errNoPart) {
			lost.missing(name)
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(parts) > 1 {
			w.beginPart()
		}
		err = budget.judged(w.body(ctx, f, d, styles, nums, notes))
		closer.Close()
		if off := w.brokeOff(err, len(parts)); off != nil {
			notes.abandon()
			return off, nil
		}
		if unreadable(err) {
			w.dropPart()
			notes.abandon()
			lost.unreadable(name, err)
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

// openPart opens the XML part name of z for decoding within budget; a
// part z lacks (or cannot open: an unknown compression method) is
// errNoPart, and damage.
func openPart(z *zip.Reader, name string, budget *xmlBudget) (*xml.Decoder, io.Closer, error) {
	f, err := z.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s %w (%v)", ErrOfficeDamaged, name, errNoPart, err)
	}
	d := newDecoder(budgetReader{r: f, b: budget})
	return d, f, nil
}

// body reads one body part: paragraphs in order, each after its number
// if it has one, and followed by the notes it refers to; a table's cells
// joined on their row's line, the notes of its cells after the row.
func (w *mdWriter) body(ctx context.Context, f *officeFormat, d *xml.Decoder, styles map[string]int, nums numberer, notes *wordNotes) error {
	var (
		stack []string // open elements
		skip  int      // depth of the element being skipped; 0: none
		para  strings.Builder
		level int
		tbl   = &tables{w: w}
		text  int // open elements whose character data is text
		open  int // open paragraphs
		// shapeAt is the depth of the shape being read (0: none), and
		// shapeLevel the heading level its placeholder gives its paragraphs.
		shapeAt, shapeLevel int
		// noteAt is the depth of the note being read where it stands
		// (f.inlineNotes; 0: none): its text goes to notes.
		noteAt int
		// outline is the heading level the paragraph's shape gives it
		// (outliner), when its style gives none.
		outline int
	)
	outlines, _ := nums.(outliner)
	endPara := func() error {
		t := para.String()
		para.Reset()
		notes.paragraphEnd()
		lvl := level
		if lvl == 0 && outline > 0 && utf8.RuneCountInString(strings.TrimSpace(t)) <= maxOutlineHeading {
			lvl = outline
		}
		level, outline = 0, 0
		if label := nums.label(); label != "" && strings.TrimSpace(t) != "" {
			t = label + " " + t
		}
		if inCell, err := tbl.add(t); inCell || err != nil { // a cell gathers its paragraphs
			return err
		}
		if err := w.paragraph(t, lvl); err != nil {
			return err
		}
		return notes.flush(w)
	}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if err := tbl.close(); err != nil {
				return err
			}
			return notes.flush(w)
		}
		if err != nil {
			return xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := qname(t.Name)
			stack = append(stack, name)
			if len(stack) > maxOfficeDepth {
				return &OfficeLimitError{What: "nesting of elements"}
			}
			if skip > 0 {
				continue
			}
			if noteAt > 0 { // a note's paragraphs, and its table's cells, on one line
				if f.text[name] {
					text++
				}
				if f.paragraph[name] || f.cell[name] {
					notes.write(" ")
				}
				notes.write(f.inline(t))
				continue
			}
			if end, ok := f.inlineNotes[name]; ok && notes != nil {
				para.WriteString(notes.open(end))
				if notes.reading() {
					noteAt = len(stack)
				}
				continue
			}
			if f.shape[name] {
				shapeAt, shapeLevel = len(stack), 0
			}
			switch {
			case f.skip[name]:
				skip = len(stack)
			case f.paragraph[name]:
				// A paragraph inside another (a text box, a note, HWPX's
				// tables, which sit in a paragraph) ends the outer one's
				// text so far, which keeps its place before it.
				if open > 0 {
					if err := endPara(); err != nil {
						return err
					}
				}
				open++
				nums.paragraph(t)
				level = shapeLevel
				if f.heading != nil {
					level = max(f.heading(t, styles), shapeLevel)
				}
				if outlines != nil {
					outline = outlines.outlineLevel()
				}
			case f.row[name]:
				if strings.TrimSpace(para.String()) != "" { // a caption before the table, in its paragraph
					if err := endPara(); err != nil {
						return err
					}
				}
				tbl.push()
				if err := tbl.openRow(); err != nil {
					return err
				}
			case f.cell[name]:
				tbl.cell()
			default:
				nums.see(t)
				notes.prop(t)
				if f.styleOf != nil {
					if l := f.styleOf(t, styles); l > 0 {
						level = l
					}
				}
				if f.shapeHeading != nil && shapeAt > 0 {
					shapeLevel = max(shapeLevel, f.shapeHeading(t))
				}
				para.WriteString(f.inline(t))
				para.WriteString(notes.ref(t))
			}
			if f.text[name] {
				text++
			}
		case xml.EndElement:
			if len(stack) == 0 {
				return fmt.Errorf("%w: unbalanced XML", ErrOfficeDamaged)
			}
			name := stack[len(stack)-1]
			if len(stack) == shapeAt {
				shapeAt, shapeLevel = 0, 0
			}
			stack = stack[:len(stack)-1]
			if skip > 0 {
				if len(stack) < skip {
					skip = 0
				}
				continue
			}
			if noteAt > 0 {
				if len(stack) < noteAt {
					notes.close()
					noteAt = 0
				} else if f.text[name] {
					text--
				}
				continue
			}
			if f.text[name] {
				text--
			}
			nums.end(name)
			switch {
			case f.paragraph[name]:
				open--
				if err := endPara(); err != nil {
					return err
				}
			case f.row[name]:
				if err := endPara(); err != nil {
					return err
				}
				if err := tbl.pop(); err != nil {
					return err
				}
				if len(tbl.rows) == 0 { // the notes of a row's cells follow it
					if err := notes.flush(w); err != nil {
						return err
					}
				}
			}
		case xml.CharData:
			if skip == 0 && text > 0 && noteAt > 0 {
				notes.write(string(t))
			} else if skip == 0 && text > 0 {
				notes.see(t)
				para.Write(t)
				if para.Len() > maxHeld {
					if err := endPara(); err != nil {
						return err
					}
				}
			}
		}
	}
}

// relTarget is the target of the first relationship in the part rels of
// z whose type ends with typ.
func relTarget(z *zip.Reader, rels, typ string) string {
	f, err := z.Open(rels)
	if err != nil {
		return ""
	}
	defer f.Close()
	target := ""
	d := newDecoder(io.LimitReader(f, 1<<20))
	_ = eachStart(d, func(e xml.StartElement) {
		if target == "" && e.Name.Local == "Relationship" && strings.HasSuffix(attr(e, "Type"), typ) {
			target = attr(e, "Target")
		}
	})
	return target
}

// hpfSpine lists the sections of Contents/content.hpf's spine, in order;
// when the package document is damaged, the sections it did not get to
// name follow, by their number.
func hpfSpine(z *zip.Reader) []string {
	pkg := readPackage(z, "Contents/content.hpf")
	var parts []string
	for _, id := range pkg.spine {
		href := pkg.items[id].href
		if !strings.HasPrefix(path.Base(href), "section") || !strings.HasSuffix(href, ".xml") {
			continue // the spine lists header.xml too
		}
		if !strings.Contains(href, "/") {
			href = "Contents/" + href
		}
		parts = append(parts, href)
	}
	if pkg.broken && len(parts) > 0 {
		parts = recoverParts(z, parts, isSection, func(a, b string) int { return sectionNumber(a) - sectionNumber(b) })
	}
	return parts
}

// isSection says whether name is an HWPX section's part.
func isSection(name string) bool {
	n, ok := strings.CutPrefix(name, "Contents/section")
	return ok && strings.HasSuffix(n, ".xml")
}

func sectionNumber(name string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "Contents/section"), ".xml"))
	return n
}
