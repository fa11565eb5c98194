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
//
// On a terminal narrower than the table (cols, columns(out)), the last
// column, the long one (a path, a title, a memory's text), goes on a line
// of its own under its row, indented, and leaves the heading: at 80
// columns the id and a path made every row of `kb list` two lines the
// terminal broke in the middle of a column.
type table struct {
	out  io.Writer
	buf  bytes.Buffer
	cols int
}

func newTable(out io.Writer) *table { return &table{out: out, cols: columns(out)} }

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
	under := false // the last column under each row
	if t.cols > 0 {
		for _, cells := range rows {
			w := shownWidth(cells[len(cells)-1])
			for i := range cells[:len(cells)-1] {
				w += widths[i] + 2
			}
			under = under || w > t.cols
		}
	}
	if under && t.tooNarrow(widths) {
		return t.stacked(rows, widths)
	}
	if under {
		t.clip(rows, widths)
	}
	var b strings.Builder
	for r, cells := range rows {
		last := len(cells) - 1
		if under && last > 0 {
			last--
		}
		for i, c := range cells[:last+1] {
			b.WriteString(c)
			if i < last {
				b.WriteString(strings.Repeat(" ", widths[i]-shownWidth(c)+2))
			}
		}
		if under && len(cells) > 1 && r > 0 {
			b.WriteString("\n    " + cells[len(cells)-1])
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(t.out, b.String())
	return err
}

// clip narrows the widest column but the first (the id a command takes)
// and the last (under its row) until a row fits t.cols, its cells cut with
// "…" (clipped), at 8 columns at least: a long title beside an id still
// ran past 80 columns with its path under it, and the path under it names
// the file whole.
func (t *table) clip(rows [][]string, widths []int) {
	n := len(widths) // the columns left on the row (widths has all but the last)
	if n < 2 {
		return
	}
	row := 0
	for _, w := range widths[:n] {
		row += w + 2
	}
	row -= 2
	k := 1
	for i := 2; i < n; i++ {
		if widths[i] > widths[k] {
			k = i
		}
	}
	over := row - t.cols
	if over <= 0 {
		return
	}
	widths[k] = max(widths[k]-over, 8)
	for _, cells := range rows {
		if k < len(cells)-1 {
			cells[k] = clipped(cells[k], widths[k])
		}
	}
}

// tooNarrow reports whether a row does not fit t.cols even with its
// widest column but the first cut to 8 (clip): at 60 columns the id
// alone takes 36, and `kb list` and `memory list` ran past the edge,
// the terminal breaking a heading in two ("분" / "량").
func (t *table) tooNarrow(widths []int) bool {
	n := len(widths)
	if n < 3 {
		return false
	}
	row, widest := -2, 0
	for i, w := range widths {
		row += w + 2
		if i > 0 {
			widest = max(widest, w)
		}
	}
	return row-widest+min(widest, 8) > t.cols
}

// stacked writes each row as the first cell (the id a command takes,
// whole) on a line of its own and the cells after it on the next,
// indented, lined up as a table of their own (cut as clip cuts them if
// they still do not fit), the last cell under them as before.
func (t *table) stacked(rows [][]string, widths []int) error {
	rest := make([][]string, len(rows))
	for r, cells := range rows {
		rest[r] = append([]string{""}, cells[1:]...)
	}
	// clip counts the empty first cell's two spaces: the indent is four.
	inner := &table{cols: t.cols - 4 + 2}
	w := append([]int{0}, widths[1:]...)
	inner.clip(rest, w)
	var b strings.Builder
	for r, cells := range rows {
		b.WriteString(cells[0])
		line := rest[r][1:]
		if len(line) == 0 {
			b.WriteByte('\n')
			continue
		}
		b.WriteString("\n    ")
		last := len(line) - 1 // the last cell: under the row, not in the heading
		for i, c := range line[:last] {
			b.WriteString(c)
			if i < last-1 {
				b.WriteString(strings.Repeat(" ", w[i+1]-shownWidth(c)+2))
			}
		}
		if r > 0 {
			b.WriteString("\n    " + line[last])
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
