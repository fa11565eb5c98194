// Package chunk cuts documents into overlapping passages for search.
//
// A passage is what retrieval returns and what a citation points at, so a
// chunk never spans two pages or two headings: every chunk carries exactly
// one source, page and heading. Inside a section, cuts prefer a paragraph
// break, then a line break, then the end of a sentence, then a space, so
// words stay whole; the overlap repeats the end of the previous chunk so a
// sentence cut in two is still found in one piece.
package chunk

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Defaults sized for embedding models with 512-token windows and for
// passages that fit several at a time into a chat prompt.
const (
	DefaultSize    = 1000
	DefaultOverlap = 150
)

// Options control chunk sizes, counted in runes (characters), not bytes, so
// Korean and English text get the same amount of content.
type Options struct {
	Size     int  // maximum runes per chunk; DefaultSize when <= 0
	Overlap  int  // runes repeated from the previous chunk; DefaultOverlap when 0, none when < 0; at most Size/4
	Markdown bool // treat "#" lines as headings (outside fenced code)
}

// MaxOverlap is the most runes a chunk repeats of the one before it in
// the same section: the overlap these options give.
func (o Options) MaxOverlap() int { return o.normalised().Overlap }

func (o Options) normalised() Options {
	if o.Size <= 0 {
		o.Size = DefaultSize
	}
	if o.Size < 16 {
		o.Size = 16
	}
	switch {
	case o.Overlap == 0:
		o.Overlap = DefaultOverlap
	case o.Overlap < 0:
		o.Overlap = 0
	}
	o.Overlap = min(o.Overlap, o.Size/4)
	return o
}

// Input is one unit of text from an importer: a PDF page, a whole Markdown
// or text file, or one JSON record.
type Input struct {
	Page    int    // 1-based PDF page; 0 when the source has no pages
	Heading string // heading known from the source (e.g. a JSON title)
	Text    string
}

// Chunk is one passage. Index counts chunks within the document from 0.
type Chunk struct {
	Index   int    `json:"index"`
	Page    int    `json:"page,omitempty"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

// Split cuts the inputs into chunks, in order. Consecutive inputs with the
// same page and heading are one text, as if they had come in one piece.
func Split(inputs []Input, opt Options) []Chunk {
	var out []Chunk
	s := NewSplitter(opt, func(c Chunk) error {
		out = append(out, c)
		return nil
	})
	for _, in := range inputs {
		_ = s.Write(in) // emit never fails here
	}
	_ = s.Close()
	return out
}

// maxHeadingLine is the longest Markdown line still read as a heading: the
// splitter holds a line until it knows whether it is one, and a file of one
// enormous line must not be held whole.
const maxHeadingLine = 4096

// Splitter makes the chunks Split would make of text that arrives in
// pieces, holding no more than about two chunks of it: a large file is
// chunked while it is read. Write the inputs in order, then Close.
type Splitter struct {
	opt  Options
	emit func(Chunk) error
	n    int // chunks emitted

	started  bool
	page     int
	base     string   // the input's own heading (e.g. a JSON title)
	trail    []string // trail[i] is the current Markdown heading of level i+1
	heading  string   // heading of the current section
	inFence  bool
	line     []byte // Markdown: the start of a line not yet complete
	longLine bool   // Markdown: the current line is too long to be a heading and went to the text already

	// A Markdown input whose only text is headings ("# 회의록 2026-11-27",
	// a page of only an <h1>) has those headings as its text: a heading is
	// text a person wrote, and without this such a note had no chunk and
	// failed as empty. body says the input has text other than headings;
	// bare holds its headings until then (bareRunes long), and once they
	// pass a chunk's worth they go to the text as they come (bareText), so
	// a file of nothing but headings is held no more than other text.
	body      bool
	bare      []string
	bareRunes int
	bareText  bool

	text textSplitter
}

// NewSplitter returns a Splitter that hands each chunk to emit, in order; an
// error from emit stops the splitter and is returned by Write or Close.
func NewSplitter(opt Options, emit func(Chunk) error) *Splitter {
	opt = opt.normalised()
	s := &Splitter{opt: opt, emit: emit}
	s.text = textSplitter{size: opt.Size, overlap: opt.Overlap, emit: s.emitPiece}
	return s
}

// Count is the number of chunks emitted so far.
func (s *Splitter) Count() int { return s.n }

func (s *Splitter) emitPiece(piece string) error {
	c := Chunk{Index: s.n, Page: s.page, Heading: s.heading, Text: piece}
	s.n++
	return s.emit(c)
}

// Write adds text. An input with the page and heading of the one before
// continues it; another starts a new section.
func (s *Splitter) Write(in Input) error {
	if !s.started || in.Page != s.page || strings.TrimSpace(in.Heading) != s.base {
		if err := s.endInput(); err != nil {
			return err
		}
		s.started = true
		s.page, s.base = in.Page, strings.TrimSpace(in.Heading)
		s.heading, s.trail, s.inFence = s.base, s.trail[:0], false
	}
	if !s.opt.Markdown {
		return s.text.write(in.Text)
	}
	for text := in.Text; text != ""; {
		part, complete := text, false
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			part, complete = text[:i+1], true
		}
		text = text[len(part):]
		var err error
		switch {
		case s.longLine:
			s.longLine = !complete
			s.sawBody(part)
			err = s.text.write(part)
		case !complete:
			s.line = append(s.line, part...)
			if len(s.line) > maxHeadingLine {
				s.longLine = true
				err = s.bodyLine(string(s.line))
				s.line = s.line[:0]
			}
		default:
			if len(s.line) > 0 {
				part = string(append(s.line, part...))
				s.line = s.line[:0]
			}
			err = s.markdownLine(part)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// bodyLine adds a line that is not a heading, opening or closing a fence.
func (s *Splitter) bodyLine(line string) error {
	trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
	if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
		s.inFence = !s.inFence
	}
	s.sawBody(line)
	return s.text.write(line)
}

// sawBody notes text that is not a heading: the input's headings are
// headings then, not its text.
func (s *Splitter) sawBody(text string) {
	if !s.body && strings.TrimSpace(text) != "" {
		s.body, s.bare, s.bareRunes = true, s.bare[:0], 0
	}
}

// bareHeading keeps the title of a heading met before any other text of
// the input; it says whether the heading went to the text (the input's
// headings, so far, are more than a chunk).
func (s *Splitter) bareHeading(title string) (bool, error) {
	if s.body || title == "" {
		return false, nil
	}
	if s.bareText {
		return true, s.text.write(title + "\n")
	}
	s.bare = append(s.bare, title)
	if s.bareRunes += utf8.RuneCountInString(title) + 1; s.bareRunes <= s.opt.Size {
		return false, nil
	}
	if err := s.text.end(); err != nil {
		return true, err
	}
	s.heading, s.bareText = s.base, true
	return true, s.writeBare()
}

// writeBare writes the headings kept in bare as the input's text.
func (s *Splitter) writeBare() error {
	err := s.text.write(strings.Join(s.bare, "\n") + "\n")
	s.bare, s.bareRunes = s.bare[:0], 0
	return err
}

// markdownLine handles one whole line: a heading starts a new section.
func (s *Splitter) markdownLine(line string) error {
	if s.inFence || len(line) > maxHeadingLine {
		return s.bodyLine(line)
	}
	level, title, ok := atxHeading(line)
	if !ok {
		return s.bodyLine(line)
	}
	if text, err := s.bareHeading(title); text || err != nil {
		return err
	}
	if err := s.text.end(); err != nil {
		return err
	}
	if level > len(s.trail) {
		s.trail = append(s.trail, make([]string, level-len(s.trail))...)
	}
	s.trail = append(s.trail[:level-1], title)
	s.heading = joinHeading(s.base, s.trail)
	return nil
}

func (s *Splitter) endInput() error {
	var err error
	if len(s.line) > 0 {
		err = s.markdownLine(string(s.line))
	}
	if err == nil && !s.body && len(s.bare) > 0 {
		if err = s.text.end(); err == nil {
			s.heading = s.base
			err = s.writeBare()
		}
	}
	s.line, s.longLine = s.line[:0], false
	s.body, s.bare, s.bareRunes, s.bareText = false, s.bare[:0], 0, false
	return errors.Join(err, s.text.end())
}

// Close emits the last chunks.
func (s *Splitter) Close() error { return s.endInput() }

// headingSep joins nested Markdown headings, e.g. "Guide › Install".
const headingSep = " › "

// joinHeading is the trail of enclosing headings, so a chunk under
// "Install" in a "Guide" still says where it belongs.
func joinHeading(base string, trail []string) string {
	parts := []string{}
	if base != "" {
		parts = append(parts, base)
	}
	for _, t := range trail {
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, headingSep)
}

// atxHeading recognises "# Title" to "###### Title" (up to three leading
// spaces, closing #s removed), as CommonMark does.
func atxHeading(line string) (level int, title string, ok bool) {
	s := strings.TrimRight(line, "\r\n")
	indent := len(s) - len(strings.TrimLeft(s, " "))
	if indent > 3 {
		return 0, "", false
	}
	s = s[indent:]
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := s[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	rest = strings.TrimSpace(rest)
	if t := strings.TrimRight(rest, "#"); t == "" || strings.HasSuffix(t, " ") {
		rest = strings.TrimSpace(t)
	}
	return level, rest, true
}

// textSplitter cuts one section's text into pieces of at most size runes
// with the given overlap, as the text arrives. Words shorter than size/2
// are never cut. It makes the same pieces whether the text comes whole or
// in parts: a cut is only made once the text after it is known to hold
// more than whitespace, which is what cutting the whole text decides on.
type textSplitter struct {
	size, overlap int
	emit          func(piece string) error

	buf       []rune // the section's text from the start of the next piece
	lastText  int    // index in buf of the last rune that is not a space; -1: none
	skipSpace bool   // drop spaces before the next piece (after a cut, or at the start)
	begun     bool
	moved     int // runes moved to the front of buf, in all
}

func (t *textSplitter) write(text string) error {
	if !t.begun {
		t.begun, t.skipSpace, t.lastText = true, true, -1
	}
	for _, r := range text {
		space := unicode.IsSpace(r)
		if t.skipSpace && space {
			continue
		}
		t.skipSpace = false
		t.buf = append(t.buf, r)
		if !space {
			t.lastText = len(t.buf) - 1
		} else if len(t.buf)-1-t.lastText > t.size+1 {
			// A run of spaces longer than a chunk changes no cut:
			// keep just enough of it to decide the same ones.
			t.buf = t.buf[:len(t.buf)-1]
		}
	}
	return t.cut(false)
}

// cut emits every piece that is decided: all of them at the end. The
// text left is moved to the front of buf once, after the pieces: moved
// after each piece, a long write (a JSON record of one 30 MB string) moved
// its whole rest once a chunk, and took minutes (moved counts it, for the
// test).
func (t *textSplitter) cut(final bool) error {
	start := 0 // where the next piece begins in buf
	defer func() {
		if start > 0 && start <= len(t.buf) {
			n := copy(t.buf, t.buf[start:])
			t.buf = t.buf[:n]
			t.lastText -= start
			t.moved += n
		}
	}()
	for {
		r := t.buf[start:]
		last := t.lastText - start
		if final {
			r = r[:last+1]
		} else if last <= t.size {
			// Not yet known whether the text goes on past this chunk.
			return nil
		}
		if len(r) == 0 {
			return nil
		}
		end := min(t.size, len(r))
		cut := end
		if end < len(r) {
			cut = bestBreak(r, t.size/2, end)
		}
		if piece := strings.TrimSpace(string(r[:cut])); piece != "" {
			if err := t.emit(piece); err != nil {
				return err
			}
		}
		if cut >= len(r) {
			t.buf, t.lastText, start = t.buf[:0], -1, 0
			return nil
		}
		start += overlapStart(r, 0, cut, t.overlap)
	}
}

// end emits the rest of the section and readies the splitter for the next.
func (t *textSplitter) end() error {
	if !t.begun {
		return nil
	}
	err := t.cut(true)
	t.buf, t.begun = t.buf[:0], false
	if cap(t.buf) > 1<<16 {
		t.buf = nil // one long write: don't keep its buffer
	}
	return err
}

// bestBreak picks where to end a chunk in r[lo:hi]: after a paragraph
// break, else a line break, else a sentence end, else a space; else hi.
func bestBreak(r []rune, lo, hi int) int {
	for _, ok := range []func(i int) bool{
		func(i int) bool { return r[i] == '\n' && i > 0 && r[i-1] == '\n' },
		func(i int) bool { return r[i] == '\n' },
		func(i int) bool { return unicode.IsSpace(r[i]) && i > 0 && isSentenceEnd(r[i-1]) },
		func(i int) bool { return unicode.IsSpace(r[i]) },
	} {
		for i := hi; i > lo; i-- {
			if i < len(r) && ok(i) {
				return i
			}
		}
	}
	return hi
}

func isSentenceEnd(c rune) bool {
	switch c {
	case '.', '!', '?', '。', '！', '？', ':', ';':
		return true
	}
	return false
}

// overlapStart returns where the next chunk starts: about overlap runes
// before cut, moved forward to the start of a word. It always moves forward
// from the previous start so splitting terminates.
func overlapStart(r []rune, prevStart, cut, overlap int) int {
	next := cut
	if overlap > 0 {
		next = max(cut-overlap, prevStart+1)
		for next < cut && !unicode.IsSpace(r[next-1]) {
			next++
		}
	}
	for next < len(r) && unicode.IsSpace(r[next]) {
		next++
	}
	if next <= prevStart {
		next = cut
	}
	return next
}
