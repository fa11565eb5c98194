package app

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/term"
)

// forTerminal is w, made safe to print untrusted text on when it is a
// terminal: what the command line prints includes file names, titles and
// text from documents, and a model's replies, all of which may hold escape
// sequences that recolour, retitle or clear the terminal, or a carriage
// return that overwrites a line. Output to a file or a pipe is left as it
// is (an extracted text keeps its form feeds).
func forTerminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &termSafe{w: w}
	}
	return w
}

// termSafe writes every control character but newline and tab as a
// visible escape (\x1b, \r, \u009b): C0, DEL, and C1 in UTF-8.
type termSafe struct {
	w     io.Writer
	carry bool // the last write ended in 0xC2, which may begin a C1 character
}

func (t *termSafe) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p)+8)
	i := 0
	if t.carry {
		t.carry = false
		if len(p) > 0 && p[0] >= 0x80 && p[0] <= 0x9F {
			out = append(out, `\u00`+strconv.FormatInt(int64(p[0]), 16)...)
			i = 1
		} else {
			out = append(out, 0xC2)
		}
	}
	for ; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\n' || c == '\t':
			out = append(out, c)
		case c < 0x20 || c == 0x7F:
			out = append(out, `\x`...)
			out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		case c == 0xC2 && i+1 == len(p):
			t.carry = true
		case c == 0xC2 && p[i+1] >= 0x80 && p[i+1] <= 0x9F:
			out = append(out, `\u00`+strconv.FormatInt(int64(p[i+1]), 16)...)
			i++
		default:
			out = append(out, c)
		}
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// shownPath is a file's path as the command line prints it among its
// lines: quoted, with its control characters escaped, when it has any (a
// newline in a file name would otherwise print a line of its own, one
// that could read "Imported 100 files"); as it is otherwise.
func shownPath(p string) string {
	if strings.ContainsFunc(p, unicode.IsControl) {
		return strconv.Quote(p)
	}
	return p
}

// oneLine is untrusted text (a tool's result, an MCP server's own words)
// as one line among the command line's own: its runs of spaces, tabs and
// newlines are one space, and its other control characters are escaped as
// termSafe escapes them, on a pipe too, so that it can neither start a
// line of its own (one that could read "Ran once") nor move the cursor.
func oneLine(s string) string {
	var b strings.Builder
	t := &termSafe{w: &b}
	t.Write([]byte(strings.Join(strings.Fields(s), " ")))
	if t.carry { // a lone 0xC2 at the end, not a C1 character
		b.WriteByte(0xC2)
	}
	return b.String()
}
