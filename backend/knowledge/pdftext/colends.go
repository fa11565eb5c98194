package pdftext

// Where two columns end: a white strip runs on through whatever does not
// cross it (a heading above the columns, a table or a footnote under the
// shorter one), so its ends are trimmed to the lines that belong to a
// column, and the longer column's tail is told from what is set under it
// (backend/knowledge/pdftext/README.md, "Where two columns end").

import (
	"math"
	"unicode"
)

// trimmed takes off a strip's ends what lies above or below both columns
// rather than in one of them. A white strip runs on through whatever does
// not cross it: a running header or a heading above the columns, a table,
// a footnote or a closing line under the shorter column. Left in the strip,
// these are read at the end of one column, before the other ("구분 | 기간"
// of a table under the left column, then the right column).
//
// At the top, lines go until one belongs to a column: a line on both
// sides (lines beside a figure that the columns wrap around are narrow),
// or a left line alone that reaches the gutter or a right line alone that
// starts at it, not a row of cells. At the bottom, rows of cells on both
// sides go (a table's first row, whose column gap meets the gutter); then,
// below the shorter column's last line, the longer column's lines stay as
// long as they continue it (see continues), and the rest goes: a table, a
// figure's caption, a footnote or a closing line set under the longer
// column.
func trimmed(sp *splitter, bands []band, g gutter, left, right, minW, h float64) gutter {
	c := colsOf(sp, bands[g.from:g.to], g, left, right, minW, h)
	columnLine := func(b band) bool {
		l, r := sp.sides(b, g)
		switch {
		case len(l) > 0 && len(r) > 0:
			// Two headings whose numbers are set a quad apart ("8   방법",
			// "11   결과") start both columns: they look like rows of
			// cells, but a table's row is no heading.
			return !c.cellRow(l, true) || !c.cellRow(r, false) || numbered(l, c.minW) && numbered(r, c.minW)
		case len(l) > 0:
			return !c.cellRow(l, true) && lastEnd(l) >= g.x0-(1-fullLine)*(g.x0-c.l0)
		case len(r) > 0:
			return !c.cellRow(r, false) && r[0].x0 <= g.x1+(1-fullLine)*(c.r1-g.x1)
		}
		return false // no ink: spaces, or glyphs without text
	}
	for g.from < g.to && !columnLine(bands[g.from]) {
		g.from++
	}
	for g.to > g.from {
		l, r := sp.sides(bands[g.to-1], g)
		if len(l) == 0 || len(r) == 0 || !c.cellRow(l, true) || !c.cellRow(r, false) {
			break
		}
		g.to--
	}
	lastL, lastR := -1, -1
	for k := g.from; k < g.to; k++ {
		l, r := sp.sides(bands[k], g)
		if len(l) > 0 {
			lastL = k
		}
		if len(r) > 0 {
			lastR = k
		}
	}
	if lastL < 0 || lastR < 0 {
		return g
	}
	leftSide := lastL > lastR
	side := func(k int) []item {
		l, r := sp.sides(bands[k], g)
		if leftSide {
			return l
		}
		return r
	}
	// The longer column's lines beside the shorter one give its size and
	// line pitch (the lower quartile of its pitches: where most paragraphs
	// are two lines long, half the pitches are paragraph gaps). A line is
	// measured by its glyphs on that side alone: the other side's may be
	// larger or lower.
	var hs, pitches []float64
	var prev band
	seen := false
	for k := g.from; k <= min(lastL, lastR); k++ {
		if its := side(k); len(its) > 0 {
			b := rebanded(bands[k], its)
			hs = append(hs, textSize(its))
			if seen {
				pitches = append(pitches, prev.base-b.base)
			}
			prev, seen = b, true
		}
	}
	if len(pitches) == 0 {
		return g
	}
	col := colLines{h: median(hs), pitch: quantile(pitches, 0.25), last: pitches[len(pitches)-1]}
	// A line that does not continue the column (a display equation, a
	// figure or a subheading in it) is still the column's when a line
	// further down does, and everything between lies within the column.
	x0, x1 := c.edges(g, leftSide)
	inside := func(its []item) bool { return its[0].x0 >= x0-col.h && lastEnd(its) <= x1+col.h }
	// The first line since the last one that continued the column, and how
	// many lines since.
	stop, skipped := -1, 0
	for k := min(lastL, lastR) + 1; k <= max(lastL, lastR); k++ {
		its := side(k)
		if len(its) == 0 {
			continue
		}
		b := rebanded(bands[k], its)
		// After an interruption only a line of prose across the column
		// takes it up again: a table's second row is at its pitch too.
		if c.continues(col, prev, b, its, g, leftSide) && (stop < 0 || c.resumes(col, its, g, leftSide)) {
			stop, skipped = -1, 0
		} else {
			if stop < 0 {
				stop = k
			}
			skipped++
		}
		// A table's row is not the column's: its rows may fill it as
		// prose does. A heading's number set apart ("3   결과") is.
		if stop >= 0 && (!inside(its) || skipped > maxSkipped || c.cellRow(its, leftSide) && !numbered(its, c.minW)) {
			g.to = stop
			return g
		}
		col.last, prev = prev.base-b.base, b
	}
	if stop >= 0 {
		g.to = stop
	}
	return g
}

// maxSkipped is how many lines in a row may interrupt a column's tail (a
// display equation of two lines, a subheading): more are something else,
// set under the column.
const maxSkipped = 3

// textSize is the size of most of a line's glyphs: a line of Hangul with a
// few digits or a formula in a Latin font whose boxes are taller (Latin
// Modern's are 1.4 font sizes) is the size of its Hangul. It counts the
// first few sizes met, without allocating: it runs for every line of every
// white strip tested.
func textSize(its []item) float64 {
	var sizes [4]float64
	var counts [4]int
	n, best, most := 0, its[0].h, 0
	for _, it := range its {
		if it.space || it.r == 0 {
			continue
		}
		k := 0
		for k < n && math.Abs(sizes[k]-it.h) > 0.01*it.h {
			k++
		}
		if k == n {
			if n == len(sizes) {
				continue
			}
			sizes[n] = it.h
			n++
		}
		if counts[k]++; counts[k] > most {
			best, most = sizes[k], counts[k]
		}
	}
	return best
}

// cols is what a strip's two columns look like: where the left one starts
// and the right one ends (medians, past a header or a page number), the
// width of a gutter and the font size.
type cols struct {
	g      gutter
	l0, r1 float64
	minW   float64
	h      float64
}

func colsOf(sp *splitter, bands []band, g gutter, left, right, minW, h float64) cols {
	var l0s, r1s []float64
	for _, b := range bands {
		l, r := sp.sides(b, g)
		if len(l) > 0 {
			l0s = append(l0s, l[0].x0)
		}
		if len(r) > 0 {
			r1s = append(r1s, lastEnd(r))
		}
	}
	c := cols{g: g, l0: left, r1: right, minW: minW, h: h}
	if len(l0s) > 0 {
		c.l0 = median(l0s)
	}
	if len(r1s) > 0 {
		c.r1 = quantile(r1s, 0.75)
	}
	return c
}

// edges are the edges of the left or the right column.
func (c cols) edges(g gutter, leftSide bool) (float64, float64) {
	if leftSide {
		return c.l0, g.x0
	}
	return g.x1, c.r1
}

// across says whether a line runs from its column's start (within indent)
// to its end (within ragged).
func (c cols) across(its []item, g gutter, leftSide bool, indent, ragged float64) bool {
	x0, x1 := c.edges(g, leftSide)
	return its[0].x0 <= x0+indent && lastEnd(its) >= x1-ragged
}

// cellRow says whether a line on one side of the gutter is a row of a
// table's cells: pieces narrower than a column, apart by more than a
// gutter, not a justified line of prose whose spaces are that wide (which
// runs from its column's edge to its other edge).
func (c cols) cellRow(its []item, leftSide bool) bool {
	return onlyCells(its, c.minW, minColumn*c.h) && !c.across(its, c.g, leftSide, c.h, 0.5*c.h)
}

// colLines is the size and line pitch of a column's lines, and the pitch
// between its last two lines so far.
type colLines struct{ h, pitch, last float64 }

// continues says whether line b (its glyphs on the column's side are its),
// alone on its side of the gutter below the other column's end, goes on
// with the column whose line above it is prev: in the column's size, and
// either at the column's line pitch from prev or a new paragraph of it,
// across the column's width and not a row of cells (a table as wide as
// the column).
func (c cols) continues(col colLines, prev, b band, its []item, g gutter, leftSide bool) bool {
	if math.Abs(textSize(its)-col.h) > 0.15*col.h {
		return false
	}
	// At the column's pitch, or at the pitch of the two lines above (a
	// caption or a quote set looser than the rest of the column).
	if d := prev.base - b.base; d <= 1.3*col.pitch || d <= 1.05*col.last {
		return true
	}
	return c.across(its, g, leftSide, 2*col.h, 2*col.h) && !c.cellRow(its, leftSide)
}

// numbered says whether a line is a heading's number and its title, set
// apart by more than a gutter ("3   결과", "2.1   자료").
func numbered(its []item, minW float64) bool {
	for i, it := range its {
		if it.space {
			continue
		}
		if i > 0 && it.x0-its[i-1].x1 > minW {
			return numberLike(its[:i]) && !hasGap(its[i:], minW)
		}
	}
	return false
}

func numberLike(its []item) bool {
	for _, it := range its {
		if !it.space && !unicode.IsDigit(it.r) && it.r != '.' {
			return false
		}
	}
	return true
}

func hasGap(its []item, minW float64) bool {
	several, _ := cells(its, minW, math.Inf(1))
	return several
}

// resumes says whether a line below an interruption of the column (see
// trimmed) is its prose again: in its own size (within 5 %: footnotes a
// point or two smaller, under a section of three columns, lined up at
// their own pitch and were taken for the column), from its start (or a
// paragraph's indent), in one piece (a table's row, however wide, is in
// cells).
func (c cols) resumes(col colLines, its []item, g gutter, leftSide bool) bool {
	x0, _ := c.edges(g, leftSide)
	return math.Abs(textSize(its)-col.h) <= 0.05*col.h && its[0].x0 <= x0+2*col.h && !hasGap(its, c.minW)
}
