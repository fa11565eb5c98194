package app

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"
)

// echoColumns is how much of a person's own words (a search query) a
// sentence echoes: a pasted page of text said back whole filled the
// terminal with it under "Nothing found for".
const echoColumns = 60

// clipped is s on one line, at most cols columns wide (shownWidth), its
// end cut off and marked with "…" when it is wider.
func clipped(s string, cols int) string {
	s = oneLine(s)
	if shownWidth(s) <= cols {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := shownWidth(string(r))
		if w+rw > cols-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	return strings.TrimRight(b.String(), " ") + "…"
}

// wrapped is text broken at spaces into lines of at most width columns
// (shownWidth, so a Hangul syllable counts two), the first line after
// first and the others after indent, so that a terminal of 80 columns
// does not cut a word in two at its edge ("sc" / "ientific"). A word wider
// than a line has a line of its own, whole: a path is not cut either, nor
// a command in backquotes ("`wayfinder doctor`로"), which a person copies
// and which broken across lines copies broken.
// Width 0 (not a terminal: a pipe, a file) leaves text on one line, as a
// script reads it.
func wrapped(text string, width int, first, indent string) string {
	if width <= 0 {
		return first + text
	}
	var b strings.Builder
	// A line break in text is kept: each line is wrapped on its own, the
	// ones after the first indented too.
	for i, line := range strings.Split(text, "\n") {
		lead := first
		if i > 0 {
			b.WriteByte('\n')
			lead = indent
		}
		b.WriteString(lead)
		at, empty := shownWidth(lead), true
		for _, word := range words(line) {
			ww := shownWidth(word)
			if !empty && at+1+ww > width {
				b.WriteString("\n" + indent)
				at, empty = shownWidth(indent), true
			}
			if !empty {
				b.WriteByte(' ')
				at++
			}
			b.WriteString(word)
			at += ww
			empty = false
		}
	}
	return b.String()
}

// sayLine prints text on w as one sentence: on a terminal wrapped at
// spaces to its width, the lines after the first indented under it
// (wrapped), where a sentence that ran past the edge of a 60- or
// 80-column terminal was cut in the middle of a word ("wayfin" / "der
// folders add"); elsewhere on one line, as before.
func sayLine(w io.Writer, first, indent, text string) {
	fmt.Fprintln(w, wrapped(text, columns(w), first, indent))
}

// words is line split at spaces as strings.Fields does, but for a
// backquoted span, which stays within its word whole, spaces and all. A
// backquote with no other after it on the line is a mark like another.
func words(line string) []string {
	var out []string
	start := -1
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		if r == '`' {
			if j := strings.IndexByte(line[i+1:], '`'); j >= 0 {
				n = j + 2
			}
		}
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, line[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		out = append(out, line[start:])
	}
	return out
}

// columns is the width of the terminal w writes to, 0 when it is not one.
func columns(w io.Writer) int {
	if c, ok := w.(interface{ columns() int }); ok {
		return c.columns()
	}
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}

// columns is the width of the terminal behind t.
func (t *termSafe) columns() int { return columns(t.w) }
