// Package importer turns a person's files into documents ready for
// chunking: PDF (one part per page, for citations), Word, HWPX and
// OpenDocument (their body as Markdown, office.go), Hancom's binary HWP
// (hwp.go), PowerPoint (a part per
// slide, slides.go), web pages (html.go) and EPUB books (epub.go),
// Markdown (headings kept for the chunker), plain text, and JSON or JSON
// Lines (one document per record, keeping the record's own id).
//
// It reads a stream and hands on text as it goes (a file of any size is
// read in blocks, in any of the encodings decode.go tells apart); storing,
// hashing and indexing belong to the caller, so every format can be tested
// without a database.
package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/korean"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
)

// Kind names a supported format.
type Kind string

// Supported formats.
const (
	KindPDF      Kind = "pdf"
	KindMarkdown Kind = "markdown"
	KindText     Kind = "text"
	KindJSON     Kind = "json"
	KindWord     Kind = "docx" // Word 2007 and later
	KindHWPX     Kind = "hwpx" // Hancom Office 2014 and later
	KindODT      Kind = "odt"  // OpenDocument text (LibreOffice Writer)
	KindHTML     Kind = "html" // a saved web page
	KindEPUB     Kind = "epub" // an e-book
	KindSlides   Kind = "pptx" // PowerPoint 2007 and later, a slide a page
	KindHWP      Kind = "hwp"  // Hancom Office's binary HWP 5.0 (한글 2002 and later)
	KindXLSX     Kind = "xlsx" // Excel 2007 and later, a sheet a section
	KindODS      Kind = "ods"  // OpenDocument spreadsheet (LibreOffice Calc)
	KindCSV      Kind = "csv"  // comma- or tab-separated values, read as a sheet
	KindRTF      Kind = "rtf"  // Rich Text Format (TextEdit, WordPad, Word's export)
	KindODP      Kind = "odp"  // OpenDocument presentation (LibreOffice Impress), a slide a page
)

// ErrUnsupported marks a file whose extension names no supported format.
var ErrUnsupported = errors.New("unsupported file type")

// ErrEmpty marks a file that holds no text at all.
var ErrEmpty = errors.New("file has no text")

// Document is one imported unit: a whole file, or one record of a JSON file.
type Document struct {
	ID       string        // the record's own id (JSON `_id`/`id`); "" when the file has none
	Title    string        // JSON `title`, Markdown's first heading, else the file name
	Source   string        // the file's path as given
	Kind     Kind          //
	Pages    int           // PDF page or slide count; 0 for other kinds
	Unit     Unit          // what Pages counts: UnitSlide for a presentation; "" is UnitPage
	Markdown bool          // whether the chunker should treat "#" lines as headings
	Parts    []chunk.Input // text in order, one per PDF page
}

// PDFExtractor is the part of pdftext.Extractor the importer needs. It
// reads the document through r as it needs it, so a PDF on disk is never
// held whole in memory.
type PDFExtractor interface {
	ExtractReader(ctx context.Context, r io.ReaderAt, size int64) ([]pdftext.Page, error)
}

// Importer reads files of every supported kind. PDF may be nil, in which
// case PDF files fail with ErrUnsupported.
type Importer struct {
	PDF PDFExtractor
}

// kinds maps each file extension Wayfinder reads to its format.
var kinds = map[string]Kind{
	".pdf": KindPDF,
	".md":  KindMarkdown, ".markdown": KindMarkdown, ".mdown": KindMarkdown, ".mkd": KindMarkdown,
	".txt": KindText, ".text": KindText, ".log": KindText, ".csv": KindCSV, ".tsv": KindCSV,
	".json": KindJSON, ".jsonl": KindJSON, ".ndjson": KindJSON,
	".docx": KindWord, ".hwpx": KindHWPX, ".hwp": KindHWP, ".odt": KindODT, ".pptx": KindSlides,
	".html": KindHTML, ".htm": KindHTML, ".xhtml": KindHTML, ".epub": KindEPUB,
	".xlsx": KindXLSX, ".ods": KindODS, ".rtf": KindRTF, ".odp": KindODP,
}

// KindOf tells the format from the file name.
func KindOf(path string) (Kind, bool) {
	k, ok := kinds[strings.ToLower(filepath.Ext(path))]
	return k, ok
}

// Extensions lists the file extensions Wayfinder reads, sorted: the
// window's file pickers offer the same (a test holds them equal).
func Extensions() []string {
	return slices.Sorted(maps.Keys(kinds))
}

// Sink receives a file's documents while the importer reads it, so that a
// large file is never held whole: Begin, any number of Text, End, for each
// document in turn.
type Sink interface {
	// Begin starts a document; d.Parts (possibly none) is its first text.
	Begin(d Document) error
	// Text continues the current document's last part (a long text file
	// arrives in blocks).
	Text(text string) error
	// End finishes the document; d is final, with what was learnt while
	// reading (a Markdown title from its first heading). d.Parts is unused.
	End(d Document) error
}

// Read reads the content of the file at path from r (the path only names
// the source and the format) and hands its documents to sink as it goes.
// It returns warnings about what was imported but not as the file had it
// (warnings.go): invalid bytes replaced, with their lines (*Replaced);
// parts a container names that it lacks (*MissingParts); a file that ends
// before its document does (*CutShort). A failure may come after some documents were handed over; the
// caller discards them.
func (im Importer) Read(ctx context.Context, path string, r io.Reader, sink Sink) ([]error, error) {
	kind, ok := KindOf(path)
	if !ok {
		return nil, Unsupported(path)
	}
	var tr *TextReader
	var warn warnings
	sink = oneLineTitles{sink}
	err := func() error {
		switch kind {
		case KindPDF:
			docs, err := im.importPDF(ctx, path, r)
			if err != nil {
				return err
			}
			return emitAll(sink, docs)
		case KindWord, KindHWPX, KindODT:
			return readOffice(ctx, path, kind, r, sink, &warn)
		case KindEPUB:
			return readEPUB(ctx, path, r, sink, &warn)
		case KindSlides:
			return readSlides(ctx, path, r, sink, &warn)
		case KindHWP:
			return readHWP(ctx, path, r, sink, &warn)
		case KindXLSX:
			return readXLSX(ctx, path, r, sink, &warn)
		case KindODS:
			return readODS(ctx, path, r, sink, &warn)
		case KindRTF:
			return readRTF(ctx, path, r, sink, &warn)
		case KindODP:
			return readODP(ctx, path, r, sink, &warn)
		}
		var err error
		if tr, err = NewTextReader(r); err != nil {
			return err
		}
		switch kind {
		case KindMarkdown:
			return readMarkdown(ctx, path, tr, sink)
		case KindJSON:
			return readJSONWarned(ctx, path, tr, sink, &warn)
		case KindHTML:
			return readHTML(ctx, path, tr, sink)
		case KindCSV:
			return readCSV(ctx, path, tr, sink)
		default:
			return readText(ctx, path, tr, sink)
		}
	}()
	if err != nil {
		return nil, fmt.Errorf("import %q: %w", path, err)
	}
	if tr != nil {
		if rep := tr.Replacement(); rep != nil {
			warn.add(rep)
		}
	}
	return warn.list, nil
}

func emitAll(sink Sink, docs []Document) error {
	for _, d := range docs {
		if err := sink.Begin(d); err != nil {
			return err
		}
		if err := sink.End(d); err != nil {
			return err
		}
	}
	return nil
}

// Import parses a whole file held in memory, for callers that want the
// documents rather than a stream (tests, fuzzing, small records).
func (im Importer) Import(ctx context.Context, path string, data []byte) ([]Document, error) {
	var c collector
	if _, err := im.Read(ctx, path, bytes.NewReader(data), &c); err != nil {
		return nil, err
	}
	return c.docs, nil
}

// collector is a Sink that keeps everything.
type collector struct {
	docs []Document
	// more is the text handed on since Begin, joined to the last part at
	// End: appended to it a block at a time, a slide of 60 MB of text was
	// copied over and over (41 s, 985 MiB).
	more strings.Builder
}

func (c *collector) Begin(d Document) error {
	d.Parts = slices.Clone(d.Parts)
	c.docs = append(c.docs, d)
	c.more.Reset()
	return nil
}

func (c *collector) Text(text string) error {
	c.more.WriteString(text)
	return nil
}

func (c *collector) End(d Document) error {
	last := &c.docs[len(c.docs)-1]
	if c.more.Len() > 0 {
		if len(last.Parts) == 0 {
			last.Parts = append(last.Parts, chunk.Input{})
		}
		last.Parts[len(last.Parts)-1].Text += c.more.String()
		c.more.Reset()
	}
	d.Parts = last.Parts
	*last = d
	return nil
}

// sizedReaderAt is what a PDF can be read from in place: a file, or
// bytes.Reader and strings.Reader.
type sizedReaderAt interface {
	io.ReaderAt
	Size() int64
}

// readerAt gives r as an io.ReaderAt and its size: a file or a sized
// reader as it is, anything else (a network stream) read into memory.
func readerAt(r io.Reader) (io.ReaderAt, int64, error) {
	switch r := r.(type) {
	case *os.File:
		info, err := r.Stat()
		if err != nil {
			return nil, 0, err
		}
		if info.Mode().IsRegular() {
			return r, info.Size(), nil
		}
	case sizedReaderAt:
		return r, r.Size(), nil
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, err
	}
	return bytes.NewReader(data), int64(len(data)), nil
}

func (im Importer) importPDF(ctx context.Context, path string, r io.Reader) ([]Document, error) {
	if im.PDF == nil {
		return nil, fmt.Errorf("no pdf extractor: %w", ErrUnsupported)
	}
	ra, size, err := readerAt(r)
	if err != nil {
		return nil, err
	}
	pages, err := im.PDF.ExtractReader(ctx, ra, size)
	if err != nil {
		return nil, err
	}
	doc := Document{Title: baseName(path), Source: path, Kind: KindPDF, Pages: len(pages)}
	for _, p := range pages {
		doc.Parts = append(doc.Parts, chunk.Input{Page: p.Number, Text: p.Text})
	}
	return []Document{doc}, nil
}

// ParseText imports a plain text file; paragraphs are blank-line separated.
func ParseText(path string, data []byte) ([]Document, error) {
	return parse(path, data, readText)
}

// ParseMarkdown imports a Markdown file. A YAML front matter block is
// dropped from the text, its `title:` kept; otherwise the first level-1
// heading names the document.
func ParseMarkdown(path string, data []byte) ([]Document, error) {
	return parse(path, data, readMarkdown)
}

func parse(path string, data []byte, read func(context.Context, string, *TextReader, Sink) error) ([]Document, error) {
	tr, err := NewTextReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var c collector
	if err := read(context.Background(), path, tr, &c); err != nil {
		return nil, err
	}
	return c.docs, nil
}

// readText streams a text file as one document.
func readText(ctx context.Context, path string, tr *TextReader, sink Sink) error {
	doc := Document{Title: baseName(path), Source: path, Kind: KindText}
	return streamBody(ctx, tr, "", doc, sink, nil)
}

// streamBody hands first and then the rest of tr to sink as one document,
// once it holds more than spaces (ErrEmpty otherwise). see, if set, looks
// at each block, and at the end (end true), and may change the document
// before it ends.
func streamBody(ctx context.Context, tr *TextReader, first string, doc Document, sink Sink, see func(text string, end bool, d *Document)) error {
	begun := false
	for text := first; ; {
		if text != "" {
			if see != nil {
				see(text, false, &doc)
			}
			var err error
			switch {
			case begun:
				err = sink.Text(text)
			case strings.TrimSpace(text) != "":
				begun = true
				err = sink.Begin(doc)
				if err == nil {
					err = sink.Text(text)
				}
			}
			if err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		text, err = tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	if !begun {
		return ErrEmpty
	}
	if see != nil {
		see("", true, &doc)
	}
	return sink.End(doc)
}

// maxFrontMatter bounds the block read to find a front matter's end.
const maxFrontMatter = 64 << 10

// readMarkdown streams a Markdown file: the front matter is read first (it
// names the document), the body in blocks, watching for the first level-1
// heading to name the document when the front matter did not.
func readMarkdown(ctx context.Context, path string, tr *TextReader, sink Sink) error {
	var head strings.Builder
	for head.Len() < maxFrontMatter {
		block, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		head.WriteString(block)
		if !strings.HasPrefix(head.String(), "---") || closedFrontMatter(head.String()) {
			break
		}
	}
	title, body := frontMatter(head.String())
	doc := Document{Title: title, Source: path, Kind: KindMarkdown, Markdown: true}
	var h headingScan
	see := func(text string, end bool, d *Document) {
		if d.Title == "" {
			d.Title = h.scan(text, end)
		}
	}
	return streamBody(ctx, tr, body, doc, &titled{Sink: sink, path: path}, see)
}

// titled names a Markdown document after its file when neither its front
// matter nor a heading did.
type titled struct {
	Sink
	path string
}

func (t *titled) Begin(d Document) error { return t.Sink.Begin(t.name(d)) }
func (t *titled) End(d Document) error   { return t.Sink.End(t.name(d)) }

func (t *titled) name(d Document) Document {
	if d.Title == "" {
		d.Title = baseName(t.path)
	}
	return d
}

// closedFrontMatter reports whether text, which opens front matter, has
// its closing line.
func closedFrontMatter(text string) bool {
	_, rest, ok := strings.Cut(text, "\n")
	if !ok {
		return false
	}
	for line := range strings.Lines(rest) {
		if strings.TrimSpace(line) == "---" && strings.HasSuffix(line, "\n") {
			return true
		}
	}
	return false
}

// frontMatter splits "---\n...\n---\n" off the start of a Markdown file.
func frontMatter(text string) (title, body string) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text
	}
	rest := text[strings.Index(text, "\n")+1:]
	end := -1
	off := 0
	for line := range strings.Lines(rest) {
		if strings.TrimSpace(line) == "---" {
			end = off
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "title" {
			title = strings.Trim(strings.TrimSpace(v), `"'`)
		}
		off += len(line)
	}
	if end < 0 {
		return "", text // no closing line: not front matter
	}
	after := rest[end:]
	if i := strings.Index(after, "\n"); i >= 0 {
		after = after[i+1:]
	} else {
		after = ""
	}
	return title, after
}

// headingScan finds the first level-1 heading ("# Title", outside fenced
// code) in text that arrives in blocks.
type headingScan struct {
	line    []byte
	skip    bool // the current line is too long to be a heading
	inFence bool
	found   string
}

// scan reads one more block (the last line too at the end) and returns
// the heading once found.
func (h *headingScan) scan(text string, end bool) string {
	for h.found == "" && text != "" {
		if len(h.line) == 0 && !h.skip {
			// Blank lines hold no heading and no fence: passed over in
			// one run, where a line at a time cost a file of 65 MB of
			// them 2.8 s against 0.4 s as plain text.
			if n := blankLines(text); n > 0 {
				text = text[n:]
				continue
			}
		}
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			if !h.skip {
				h.line = append(h.line, text...)
				h.skip = len(h.line) > 4096
			}
			break
		}
		if !h.skip {
			h.line = append(h.line, text[:i]...)
			h.check(string(h.line))
		}
		h.line, h.skip = h.line[:0], false
		text = text[i+1:]
	}
	if end && h.found == "" && !h.skip {
		h.check(string(h.line))
	}
	return h.found
}

// blankLines is the length of the whole lines at the start of text that
// hold nothing but spaces, tabs and carriage returns.
func blankLines(text string) int {
	n := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			n = i + 1
		case ' ', '\t', '\r':
		default:
			return n
		}
	}
	return n
}

func (h *headingScan) check(line string) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		h.inFence = !h.inFence
	}
	if !h.inFence && strings.HasPrefix(t, "# ") {
		h.found = strings.TrimSpace(strings.TrimRight(t[2:], "#"))
	}
}

// baseName is the file's name without its extension, the title of a
// document that names none.
//
// A name that is not UTF-8 is most often Korean in CP949: a ZIP archive
// made on Korean Windows and unpacked here keeps its names' bytes
// ("한글.txt" is C7 D1 B1 DB .txt), which named the document "\uFFFDѱ\uFFFD"
// in lists and search results. It is read as CP949 when it reads as
// Korean (koreanName), else as Windows-1252, the Latin-1 of Western
// Windows, where "Größe.txt" (F6 DF) read as CP949 is "Gr秤e" and
// "ÄÖÜäöü" "켯俸琢": its ASCII is kept whatever the bytes, and the five
// bytes Windows-1252 leaves undefined are U+FFFD.
func baseName(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if utf8.ValidString(name) {
		return name
	}
	if ko, ok := koreanName(name); ok {
		return ko
	}
	if latin, err := charmap.Windows1252.NewDecoder().String(name); err == nil {
		return latin
	}
	return name // oneLine replaces what is not UTF-8
}

// koreanName is name read as CP949 when it reads as a Korean name: rule 5
// of decode.go, at least one Hangul syllable, and no Hanja, kana, Greek,
// Cyrillic or other letter CP949 has rows of. Latin-1 letters read as
// CP949 make Hanja as often as Hangul (most pairs of them land in the
// Hanja rows C9-FD), a name in Korean rarely mixes them.
func koreanName(name string) (string, bool) {
	if !cp949([]byte(name), true) {
		return "", false
	}
	ko, err := korean.EUCKR.NewDecoder().String(name)
	if err != nil {
		return "", false
	}
	hangul := false
	for _, r := range ko {
		switch {
		case 0xAC00 <= r && r <= 0xD7A3:
			hangul = true
		case r < utf8.RuneSelf, 0x3130 <= r && r <= 0x318F, 0xFF01 <= r && r <= 0xFF5E:
		case r == utf8.RuneError, unicode.IsLetter(r):
			return "", false
		}
	}
	return ko, hangul
}

// oneLineTitles is a Sink whose documents' titles are one short line: a title
// comes from a file's name, a web page's <title>, a JSON record, a
// heading, all the file's to choose, and is shown in lists and in the
// terminal, where a newline or an escape sequence in it would forge lines
// or drive the terminal.
type oneLineTitles struct{ Sink }

func (t oneLineTitles) Begin(d Document) error {
	d.Title = oneLine(d.Title)
	// A part's heading is a title too: every chunk of it carries it (a
	// JSON record's title is its heading).
	cloned := false
	for i, p := range d.Parts {
		if h := oneLine(p.Heading); h != p.Heading {
			if !cloned { // the slice is the importer's
				d.Parts, cloned = slices.Clone(d.Parts), true
			}
			d.Parts[i].Heading = h
		}
	}
	return t.Sink.Begin(d)
}

func (t oneLineTitles) End(d Document) error {
	d.Title = oneLine(d.Title)
	return t.Sink.End(d)
}

// MaxTitle is the most characters a title keeps: a title is stored with
// every document, sent with every hit and list, and indexed; a file that
// chose a 30 MB one (a JSON record's "title") made `kb list` print 63 MB
// and a search hold 290 MB. The longest Korean statute names are under
// 100 characters.
const MaxTitle = 300

// oneLine is s with every control character (C0, DEL, C1), line or
// paragraph separator and bidirectional override a space, runs of spaces
// made one, cut to MaxTitle characters (the last an ellipsis).
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD") // a file's name need not be UTF-8
	cut := false
	if len(s) > 4*MaxTitle { // no need to look further than that
		s, cut = strings.ToValidUTF8(s[:4*MaxTitle], ""), true
	}
	if strings.ContainsFunc(s, unsafeInTitle) {
		s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
			if unsafeInTitle(r) {
				return ' '
			}
			return r
		}, s)), " ")
	}
	if r := []rune(s); cut || len(r) > MaxTitle {
		s = strings.TrimSpace(string(r[:min(len(r), MaxTitle-1)])) + "…"
	}
	return s
}

func unsafeInTitle(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
		(r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069')
}
