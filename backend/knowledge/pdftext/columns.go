package pdftext

// Columns: where a page's lines are split into columns at a white gutter
// that runs down several lines, and where such white space is only the
// space between a table's cells and must not split it.

import (
	"math"
	"slices"
	"sort"
)

// gutter is white space between x0 and x1 on lines [from, to).
type gutter struct {
	x0, x1   float64
	from, to int
}

// findGutter finds the gutter that runs down the most lines and separates
// two columns of full lines.
func findGutter(bands []band) (gutter, bool) {
	if len(bands) < minGutterRows {
		return gutter{}, false
	}
	left, right := math.Inf(1), math.Inf(-1)
	var hs []float64
	for _, b := range bands {
		left = min(left, b.items[0].x0)
		for _, it := range b.items {
			right = max(right, it.x1)
		}
		hs = append(hs, b.h)
	}
	h := median(hs)
	minW := minGutter * h
	// Collect the white strips that run down enough lines and leave room
	// for a column on either side, then test the longest (then widest)
	// first: testing is the costly part.
	var strips []gutter
	keep := func(c cand, to int) {
		if to-c.from >= minGutterRows && c.x0-left >= minColumn*h && right-c.x1 >= minColumn*h {
			strips = append(strips, gutter{x0: c.x0, x1: c.x1, from: c.from, to: to})
		}
	}
	var active []cand
	for k, b := range bands {
		free := freeSpans(b, left, right, minW)
		var next []cand
		for _, c := range active {
			alive := false
			for _, f := range free {
				x0, x1 := max(c.x0, f[0]), min(c.x1, f[1])
				if x1-x0 >= minW {
					next = appendCand(next, cand{x0, x1, c.from})
					alive = true
				}
			}
			if !alive {
				keep(c, k)
			}
		}
		for _, f := range free {
			next = appendCand(next, cand{f[0], f[1], k})
		}
		active = next
	}
	for _, c := range active {
		keep(c, len(bands))
	}
	longer := func(a, b gutter) bool {
		if a.to-a.from != b.to-b.from {
			return a.to-a.from > b.to-b.from
		}
		return a.x1-a.x0 > b.x1-b.x0
	}
	sort.SliceStable(strips, func(i, j int) bool { return longer(strips[i], strips[j]) })
	for len(strips) > 0 {
		g := strips[0]
		strips = strips[1:]
		parts := withoutTableRows(bands, g, minW, minColumn*h)
		if len(parts) == 1 && parts[0] == g {
			if columnsApart(bands[g.from:g.to], g, minW, h) {
				return g, true
			}
			continue
		}
		// The strip ran down a table too: its parts above and below the
		// table's rows compete again for the longest.
		for _, p := range parts {
			if p.to-p.from >= minGutterRows {
				i := sort.Search(len(strips), func(i int) bool { return longer(p, strips[i]) })
				strips = slices.Insert(strips, i, p)
			}
		}
	}
	return gutter{}, false
}

// withoutTableRows cuts a strip at the rows of a table: minTableRows lines
// or more in a row with only narrow cells on both of its sides (see
// cells). There the strip is the white space between two of the table's
// columns, whose rows read across, not a gutter: a table set above a page's
// two columns of prose leaves one strip down both.
func withoutTableRows(bands []band, g gutter, minW, narrow float64) []gutter {
	var parts []gutter
	from, run := g.from, 0 // start of the part being collected; table rows just before k
	cut := func(k int) {
		if run >= minTableRows {
			if k-run > from {
				parts = append(parts, gutter{x0: g.x0, x1: g.x1, from: from, to: k - run})
			}
			from = k
		}
		run = 0
	}
	for k := g.from; k < g.to; k++ {
		if l, r := sides(bands[k], g); onlyCells(l, minW, narrow) && onlyCells(r, minW, narrow) {
			run++
			continue
		}
		cut(k)
	}
	cut(g.to)
	if from == g.from {
		return []gutter{g}
	}
	if g.to > from {
		parts = append(parts, gutter{x0: g.x0, x1: g.x1, from: from, to: g.to})
	}
	return parts
}

func onlyCells(items []item, minW, narrow float64) bool {
	if len(items) == 0 {
		return false
	}
	_, all := cells(items, minW, narrow)
	return all
}

// sides splits a line's inked glyphs at a gutter.
func sides(b band, g gutter) (l, r []item) {
	for _, it := range b.items {
		if it.space || it.r == 0 {
			continue
		}
		if it.x1 <= g.x0+1e-6 {
			l = append(l, it)
		} else {
			r = append(r, it)
		}
	}
	return l, r
}

// cand is white space between x0 and x1 on every line since from.
type cand struct {
	x0, x1 float64
	from   int
}

// appendCand adds a candidate unless one with the same span (and an earlier
// start) is there.
func appendCand(cs []cand, c cand) []cand {
	for i, o := range cs {
		if o.x0 == c.x0 && o.x1 == c.x1 {
			if c.from < o.from {
				cs[i] = c
			}
			return cs
		}
	}
	return append(cs, c)
}

// freeSpans lists the white spans of a line at least minW wide, including
// the margins up to the region's edges.
func freeSpans(b band, left, right, minW float64) [][2]float64 {
	var out [][2]float64
	edge := left
	for _, it := range b.items {
		if it.space || it.r == 0 {
			continue
		}
		if it.x0-edge >= minW {
			out = append(out, [2]float64{edge, it.x0})
		}
		edge = max(edge, it.x1)
	}
	if right-edge >= minW {
		out = append(out, [2]float64{edge, right})
	}
	return out
}

// columnsApart tells a gutter between two columns of text from the white
// space between the cells of a table. Both sides must be columns of prose:
// at least minColumn wide, with lines that cover most of that width in ink
// (gaps wider than a gutter do not count). A table's cells leave such gaps
// or are narrow, so its rows read across. Edges are medians, so a footer or
// a page number on the strip's lines does not count.
func columnsApart(bands []band, g gutter, minW, h float64) bool {
	var lcov, rcov, l0s, r1s []float64
	lcells, rcells := 0, 0
	for _, b := range bands {
		l, r := sides(b, g)
		if len(l) > 0 {
			lcov, l0s = append(lcov, inked(l, minW)), append(l0s, l[0].x0)
			if several, _ := cells(l, minW, minColumn*h); several {
				lcells++
			}
		}
		if len(r) > 0 {
			rcov, r1s = append(rcov, inked(r, minW)), append(r1s, lastEnd(r))
			if several, _ := cells(r, minW, minColumn*h); several {
				rcells++
			}
		}
	}
	if len(lcov) < minGutterRows || len(rcov) < minGutterRows {
		return false
	}
	if 2*lcells > len(lcov) && 2*rcells > len(rcov) {
		return false // pieces apart on most lines of both sides: a table's rows
	}
	lspan, rspan := g.x0-median(l0s), median(r1s)-g.x1
	return lspan >= minColumn*h && rspan >= minColumn*h &&
		median(lcov) >= fullLine*lspan && median(rcov) >= fullLine*rspan
}

// cells cuts a line (its glyphs without spaces, sorted along it) into
// pieces apart by more than minW and says whether there are several of
// them (a row of table cells, or a line number before its line: a prose
// line is one piece, or one per column of prose) and whether they are all
// narrower than narrow (only cells: a prose piece is a column wide).
func cells(items []item, minW, narrow float64) (several, allNarrow bool) {
	pieces, start, end := 1, items[0].x0, items[0].x1
	allNarrow = true
	for _, it := range items[1:] {
		if it.x0-end > minW {
			pieces++
			allNarrow = allNarrow && end-start < narrow
			start = it.x0
		}
		end = max(end, it.x1)
	}
	allNarrow = allNarrow && end-start < narrow
	return pieces > 1, pieces > 1 && allNarrow
}

// inked is the length of a line less the gaps in it wider than minW.
func inked(items []item, minW float64) float64 {
	total, end := 0.0, items[0].x0
	for _, it := range items {
		if gap := it.x0 - end; gap > 0 && gap < minW {
			total += gap // a word space
		}
		if it.x1 > end {
			total += it.x1 - max(end, it.x0)
			end = it.x1
		}
	}
	return total
}

func lastEnd(items []item) float64 {
	e := items[0].x1
	for _, it := range items {
		e = max(e, it.x1)
	}
	return e
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
