package app

import (
	"bytes"
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// table lines up tab-separated columns as text/tabwriter does (each
// column as wide as its widest cell plus two spaces, the last cell of a
// line as it is), measuring cells by how wide a terminal shows them:
// Hangul, CJK and other wide characters take two columns, so that a
// Korean heading or title does not push the columns after it out of line
// (tabwriter counts every character as one). Write what would go to a
// tabwriter, then Flush.
type table struct {
	out io.Writer
	buf bytes.Buffer
}

func newTable(out io.Writer) *table { return &table{out: out} }

func (t *table) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes the lines with their columns padded.
func (t *table) Flush() error {
	text := strings.TrimSuffix(t.buf.String(), "\n")
	t.buf.Reset()
	if text == "" {
		return nil
	}
	var rows [][]string
	var widths []int
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "\t")
		for i, c := range cells[:len(cells)-1] {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], shownWidth(c))
		}
		rows = append(rows, cells)
	}
	var b strings.Builder
	for _, cells := range rows {
		for i, c := range cells {
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-shownWidth(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(t.out, b.String())
	return err
}

// shownWidth is how many columns a terminal gives s: two for each wide
// or full-width character (Hangul, CJK), none for combining marks (the
// vowel and final jamo of decomposed Hangul), one for the others — also
// for characters of ambiguous width (—, ·), as most terminals show them,
// whereas go-runewidth's default counts them two in a Korean locale.
func shownWidth(s string) int {
	narrow := runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}
	return narrow.StringWidth(s)
}
