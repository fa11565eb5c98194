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

// Split cuts the inputs into chunks, in order.
func Split(inputs []Input, opt Options) []Chunk {
	opt = opt.normalised()
	var out []Chunk
	for _, in := range inputs {
		for _, s := range sections(in, opt.Markdown) {
			for _, piece := range splitText(s.text, opt.Size, opt.Overlap) {
				out = append(out, Chunk{Index: len(out), Page: in.Page, Heading: s.heading, Text: piece})
			}
		}
	}
	return out
}

type section struct {
	heading string
	text    string
}

// headingSep joins nested Markdown headings, e.g. "Guide › Install".
const headingSep = " › "

// sections splits one input at Markdown headings. The heading of a section
// is the trail of enclosing headings, so a chunk under "Install" in a
// "Guide" still says where it belongs.
func sections(in Input, markdown bool) []section {
	var out []section
	var trail []string // trail[i] is the current heading of level i+1
	base := strings.TrimSpace(in.Heading)
	heading := base
	var body strings.Builder
	flush := func() {
		if strings.TrimSpace(body.String()) != "" {
			out = append(out, section{heading: heading, text: body.String()})
		}
		body.Reset()
	}
	inFence := false
	for line := range strings.Lines(in.Text) {
		trimmed := strings.TrimSpace(line)
		if markdown && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			inFence = !inFence
		}
		if markdown && !inFence {
			if level, title, ok := atxHeading(line); ok {
				flush()
				if level > len(trail) {
					trail = append(trail, make([]string, level-len(trail))...)
				}
				trail = append(trail[:level-1], title)
				heading = joinHeading(base, trail)
				continue
			}
		}
		body.WriteString(line)
	}
	flush()
	return out
}

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

// splitText cuts text into pieces of at most size runes with the given
// overlap. Words shorter than size/2 are never cut.
func splitText(text string, size, overlap int) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if utf8.RuneCountInString(text) <= size {
		return []string{text}
	}
	r := []rune(text)
	var out []string
	start := 0
	for start < len(r) {
		end := min(start+size, len(r))
		cut := end
		if end < len(r) {
			cut = bestBreak(r, start+size/2, end)
		}
		if piece := strings.TrimSpace(string(r[start:cut])); piece != "" {
			out = append(out, piece)
		}
		if cut >= len(r) {
			break
		}
		start = overlapStart(r, start, cut, overlap)
	}
	return out
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
