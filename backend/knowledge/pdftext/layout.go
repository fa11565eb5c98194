package pdftext

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Reading order.
//
// PDFium's own text (FPDFText_GetText) follows the order in which the file
// draws its glyphs. Most writers draw in reading order, but Hancom Office
// exports (through macOS) draw each line's Hangul first and its digits and
// punctuation afterwards as another text object, so "제1조(목적)" came out as
// "제 조 목적 … 1 ( )". pageText rebuilds the order from the glyphs'
// positions instead, the way a person reads:
//
//  1. glyphs are grouped by writing direction (rotated text is read in its
//     own frame, so a page or a table turned by 90° still reads line by line);
//  2. glyphs whose vertical extents overlap by half form a line, so a
//     superscript or a digit drawn a little off the baseline stays on it;
//  3. a vertical strip of white space that runs down several lines between
//     two columns of prose (each at least minColumn wide, its lines covering
//     most of that width) is a gutter: the left column is read to its end
//     before the right one. A table's cells fail that test, so its rows
//     read across;
//  4. within a line, glyphs go left to right; a space is written where the
//     file drew one, where PDFium inferred one between glyphs that it also
//     read one after the other, and where the gap between two glyphs is
//     wider than a tenth of the font size (pdftotext's rule).
//
// Lines are separated by "\n", paragraphs and columns by a blank line.

// item is a glyph in the reading frame of its writing direction: x grows
// along the line, y upwards.
type item struct {
	r       rune    // 0 for a glyph that has no text but takes up room
	x0, x1  float64 // extent along the line
	base    float64 // about the baseline: a fifth of the font size above lo
	lo, hi  float64 // vertical extent used to group glyphs into lines
	h       float64 // font size in points (after the text matrix)
	seq     int     // position in PDFium's order
	space   bool    // a space glyph drawn by the file
	hyphen  bool    // a hyphen PDFium found ending a line inside a word
	spaceB4 bool    // PDFium read a space between this and the glyph before it
	breakB4 bool    // PDFium started a line before this glyph
}

// Thresholds, in units of the font size unless said otherwise.
const (
	wordGap       = 0.1 // wider gaps between glyphs are spaces (pdftotext's minWordBreakSpace)
	lineOverlap   = 0.5 // share of the smaller vertical extent two glyphs must share to be on one line
	minGutter     = 0.9 // narrowest white strip between two columns
	minGutterRows = 3   // lines a gutter must run down
	fullLine      = 0.6 // a column's typical line fills this share of its width
	minColumn     = 8   // narrowest column of prose
	paraGap       = 1.6 // a vertical gap this many times the usual line pitch starts a paragraph
	minTableRows  = 2   // rows of cells in a row that make a table (one is a fluke: a wide space, a figure's labels)
)

// pageText returns a page's text in reading order.
func pageText(gs []glyph) string {
	gs = shown(gs)
	groups := map[int][]item{}
	var order []int
	seq := 0
	spaceB4, breakB4 := false, false
	for _, g := range gs {
		switch {
		case g.gen && (g.r == '\r' || g.r == '\n'):
			breakB4 = true
			continue
		case g.gen:
			spaceB4 = true
			continue
		}
		q, it := toItem(g)
		it.seq, it.spaceB4, it.breakB4 = seq, spaceB4, breakB4
		seq++
		spaceB4, breakB4 = it.space, false
		if _, ok := groups[q]; !ok {
			order = append(order, q)
		}
		groups[q] = append(groups[q], it)
	}
	var sb strings.Builder
	for _, q := range order {
		var w textWriter
		w.region(bandsOf(groups[q]))
		if sb.Len() > 0 && w.sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(w.sb.String())
	}
	return sb.String()
}

// shown drops the glyphs outside the page's visible box, unless that is
// all of them (a page whose boxes are wrong still has its text).
func shown(gs []glyph) []glyph {
	in := slices.IndexFunc(gs, func(g glyph) bool { return !g.gen && !g.off })
	if in < 0 || !slices.ContainsFunc(gs, func(g glyph) bool { return g.off }) {
		return gs
	}
	out := make([]glyph, 0, len(gs))
	for _, g := range gs {
		if !g.off {
			out = append(out, g)
		}
	}
	return out
}

// toItem turns a glyph into a layout item, returning its writing direction.
func toItem(g glyph) (int, item) {
	x0, x1 := g.x0, max(g.x1, g.x0+1e-3)
	it := item{r: g.r, x0: x0, x1: x1, lo: g.lo, hi: g.hi, h: g.h, base: g.lo + 0.2*g.h}
	switch {
	case g.r == 2: // PDFium's mark for a hyphen that ends a line inside a word
		it.r, it.hyphen = '-', true
	case g.r == 0xfffe || g.r == 0xffff || g.r == unicode.ReplacementChar || (unicode.IsControl(g.r) && !unicode.IsSpace(g.r)):
		it.r = 0
	case unicode.IsSpace(g.r):
		it.r, it.space = ' ', true
	}
	return g.q, it
}

// band is one line: glyphs sharing a vertical extent, sorted along the line.
type band struct {
	items  []item
	lo, hi float64 // extent of its largest glyph
	h      float64
	base   float64
}

// bandsOf groups glyphs into lines, top to bottom. It works on runs —
// glyphs PDFium read one after the other along one baseline — so that a
// line is never torn apart, and it never puts two glyphs at the same place
// on one line: two lines of small type beside a large heading overlap the
// heading, not each other.
func bandsOf(items []item) []band {
	runs := runsOf(items)
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].base > runs[j].base })
	var bands []band
	for _, r := range runs {
		best, bestOv := -1, 0.0
		for k := len(bands) - 1; k >= 0 && k >= len(bands)-8; k-- {
			b := &bands[k]
			if b.lo > r.hi {
				break
			}
			ov := (min(b.hi, r.hi) - max(b.lo, r.lo)) / min(b.hi-b.lo, r.hi-r.lo)
			if ov >= lineOverlap && ov > bestOv && !collides(b.items, r.items) {
				best, bestOv = k, ov
			}
		}
		if best < 0 {
			bands = append(bands, band{items: r.items, lo: r.lo, hi: r.hi, h: r.h, base: r.base})
			continue
		}
		b := &bands[best]
		b.items = mergeAlong(b.items, r.items)
		if r.h > b.h {
			b.lo, b.hi, b.h, b.base = r.lo, r.hi, r.h, r.base
		}
	}
	return bands
}

// runsOf cuts glyphs (in PDFium's order) into runs, each sorted along its
// line and carrying the extent of its largest glyph.
func runsOf(items []item) []band {
	var runs []band
	start := 0
	flush := func(end int) {
		if end > start {
			r := rebanded(band{}, slices.Clone(items[start:end]))
			sortAlong(r.items)
			runs = append(runs, r)
		}
		start = end
	}
	for i := 1; i < len(items); i++ {
		p, q := items[i-1], items[i]
		h := min(p.h, q.h)
		if q.breakB4 || math.Abs(q.base-p.base) > 0.25*h || q.x0 < p.x0-0.5*h {
			flush(i)
		}
	}
	flush(len(items))
	return runs
}

// collides says whether a glyph of b sits on a glyph of a: then b belongs
// to another line. The same letter at the same place is text drawn twice,
// and an accent sits on its letter: neither is a collision. Both slices are sorted along the line.
func collides(a, b []item) bool {
	j := 0
	for _, g := range b {
		if g.space || g.r == 0 || accents[g.r] != 0 {
			continue
		}
		for j < len(a) && a[j].x1 <= g.x0 {
			j++
		}
		for k := j; k < len(a) && a[k].x0 < g.x1; k++ {
			o := a[k]
			if o.space || o.r == 0 || accents[o.r] != 0 || (o.r == g.r && math.Abs(o.base-g.base) < 0.3*g.h) || samePlace(o, g) {
				continue
			}
			// Half the narrower glyph, and a quarter em: a full stop tucked
			// under the letter before it (tight tracking) is no collision.
			ov := min(o.x1, g.x1) - max(o.x0, g.x0)
			if ov > 0.5*min(o.x1-o.x0, g.x1-g.x0) && ov > 0.25*min(o.h, g.h) {
				return true
			}
		}
	}
	return false
}

// samePlace says whether two glyphs have the same box: the pieces of one
// ligature ("ﬂ" read as f and l), or a copy of them, never another line.
func samePlace(a, b item) bool {
	e := 0.01 * min(a.h, b.h)
	return math.Abs(a.x0-b.x0) < e && math.Abs(a.x1-b.x1) < e && math.Abs(a.lo-b.lo) < e
}

// mergeAlong merges two slices sorted along the line.
func mergeAlong(a, b []item) []item {
	out := make([]item, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	sortAlong(out)
	return out
}

// sortAlong orders a line's glyphs left to right, keeping PDFium's order
// for glyphs that start at the same place (the pieces of a ligature).
func sortAlong(items []item) {
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].x0 != items[j].x0 {
			return items[i].x0 < items[j].x0
		}
		return items[i].seq < items[j].seq
	})
}

// textWriter writes regions of lines as text.
type textWriter struct {
	sb strings.Builder
}

// region writes lines, split first at the gutter that runs down the most of
// them: the lines above it, the columns on either side, the lines below.
func (w *textWriter) region(bands []band) {
	if len(bands) == 0 {
		return
	}
	g, ok := findGutter(bands)
	if !ok {
		w.lines(bands)
		return
	}
	w.region(bands[:g.from])
	var left, right []band
	for _, b := range bands[g.from:g.to] {
		var l, r []item
		for _, it := range b.items {
			if it.x1 <= g.x0+1e-6 {
				l = append(l, it)
			} else {
				r = append(r, it)
			}
		}
		if len(l) > 0 {
			left = append(left, rebanded(b, l))
		}
		if len(r) > 0 {
			right = append(right, rebanded(b, r))
		}
	}
	w.region(left)
	w.region(right)
	w.region(bands[g.to:])
}

func rebanded(b band, items []item) band {
	nb := band{items: items, lo: items[0].lo, hi: items[0].hi, h: items[0].h, base: items[0].base}
	for _, it := range items[1:] {
		if it.h > nb.h {
			nb.lo, nb.hi, nb.h, nb.base = it.lo, it.hi, it.h, it.base
		}
	}
	return nb
}

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

// lines writes lines top to bottom; a larger gap than usual between two
// lines starts a paragraph.
func (w *textWriter) lines(bands []band) {
	var pitches []float64
	for i := 1; i < len(bands); i++ {
		if d := bands[i-1].base - bands[i].base; d > 0 {
			pitches = append(pitches, d/bands[i].h)
		}
	}
	pitch := median(pitches)
	if w.sb.Len() > 0 {
		w.sb.WriteString("\n\n")
	}
	// A gap between cells gets a separator only where the line before or
	// after has a gap at the same place: a table's columns line up down
	// its rows, the wide spaces of loosely justified prose fall at
	// different places on each line, and one wide space (after a full stop)
	// has no partner at all. Most of a row's gaps line up; when half or
	// fewer of a line's gaps do, the rest met by chance and the line is
	// prose. Partners are sought twice, the second time only among the
	// gaps that passed the first, so that a line of prose does not lend
	// its chance partners to the next one.
	gaps := make([][][2]float64, len(bands))
	for i, b := range bands {
		gaps[i] = cellGaps(b.items)
	}
	bars := alignedGaps(gaps, gaps)
	bars = alignedGaps(gaps, bars)
	for i, b := range bands {
		if len(bars[i]) == 1 && lineNumber(b.items, bars[i][0]) {
			bars[i] = nil
		}
	}
	joined := false
	for i, b := range bands {
		if i > 0 && !joined {
			w.sb.WriteByte('\n')
			if d := (bands[i-1].base - b.base) / b.h; pitch > 0 && d > paraGap*pitch {
				w.sb.WriteByte('\n')
			}
		}
		// A word hyphenated across lines is joined, as pdftotext does, so
		// that a search for it finds it.
		hyphen := w.line(b.items, bars[i])
		joined = hyphen && i+1 < len(bands)
		if hyphen && !joined {
			w.sb.WriteByte('-')
		}
	}
}

// cellSep is written between the cells of a table's row, so that a row
// reads as one line of cells for the model and in a search snippet, where
// runs of spaces are collapsed. Searches tokenize on letters and digits and
// do not see it.
const cellSep = " | "

// cellGap says whether the white space between two glyphs of a line is as
// wide as a gutter: the space between two cells of a table.
func cellGap(p, q item) bool {
	return q.x0-p.x1 > minGutter*max(p.h, q.h)
}

// cellGaps returns the cell gaps of a line (sorted along it), spaces
// aside: the white between two glyphs, from the end of one to the start of
// the next.
func cellGaps(items []item) [][2]float64 {
	var gaps [][2]float64
	var prev *item
	for i := range items {
		it := &items[i]
		if it.space {
			continue
		}
		if prev != nil && cellGap(*prev, *it) {
			gaps = append(gaps, [2]float64{prev.x1, it.x0})
		}
		prev = it
	}
	return gaps
}

// alignedGaps returns, line by line, the gaps that overlap one of
// partners' spans on the line before or after, or none where these are half
// of the line's gaps or fewer.
func alignedGaps(gaps, partners [][][2]float64) [][][2]float64 {
	out := make([][][2]float64, len(gaps))
	for i := range gaps {
		var kept [][2]float64
		for _, g := range gaps[i] {
			if (i > 0 && overlapsAny(g, partners[i-1])) || (i+1 < len(gaps) && overlapsAny(g, partners[i+1])) {
				kept = append(kept, g)
			}
		}
		if 2*len(kept) > len(gaps[i]) {
			out[i] = kept
		}
	}
	return out
}

// overlapsAny says whether the white span g overlaps one of spans.
func overlapsAny(g [2]float64, spans [][2]float64) bool {
	for _, s := range spans {
		if min(g[1], s[1]) > max(g[0], s[0]) {
			return true
		}
	}
	return false
}

// lineNumber says whether the white span g follows a line's number and
// words follow it: "3   for σ ∈ P do" in a numbered listing, whose numbers
// line up like a table's column but are no cell of a table. A number
// before a number ("2019   42") still is.
func lineNumber(items []item, g [2]float64) bool {
	digits := false
	for _, it := range items {
		switch {
		case it.space:
		case it.x1 <= g[0]:
			if !unicode.IsDigit(it.r) {
				return false
			}
			digits = true
		default:
			return digits && !unicode.IsDigit(it.r)
		}
	}
	return false
}

// line writes one line's glyphs, left to right, with spaces between words
// and cellSep between cells where a gap overlaps one of bars. A hyphen that
// PDFium found ending the line inside a word is left out and reported.
func (w *textWriter) line(items []item, bars [][2]float64) (hyphen bool) {
	last := len(items) - 1
	for last >= 0 && items[last].space {
		last--
	}
	if last >= 0 && items[last].hyphen {
		items, hyphen = items[:last], true
	}
	marks := attachAccents(items)
	var prev *item
	var recent [4]*item // the last glyphs written, to drop copies of them
	pendingSpace := false
	wrote := false
	for i := range items {
		it := &items[i]
		if marks != nil && marks[i] < 0 {
			continue // an accent written with its letter
		}
		if it.space {
			pendingSpace = wrote
			continue
		}
		if copied(recent[:], *it) {
			continue
		}
		sep := bars != nil && prev != nil && wrote && cellGap(*prev, *it) && overlapsAny([2]float64{prev.x1, it.x0}, bars)
		if prev != nil && !pendingSpace && wrote {
			pendingSpace = spaceBetween(*prev, *it)
		}
		if it.r != 0 {
			switch {
			case sep:
				w.sb.WriteString(cellSep)
			case pendingSpace:
				w.sb.WriteByte(' ')
			}
			if marks != nil && marks[i] > 0 {
				w.sb.WriteString(norm.NFC.String(string([]rune{it.r, marks[i]})))
			} else {
				w.sb.WriteRune(it.r)
			}
			wrote = true
			pendingSpace = false
		}
		prev = it
		copy(recent[1:], recent[:len(recent)-1])
		recent[0] = it
	}
	return hyphen
}

// copied says whether q repeats one of the glyphs just written.
func copied(recent []*item, q item) bool {
	for _, p := range recent {
		if p != nil && duplicate(*p, q) {
			return true
		}
	}
	return false
}

// accents maps the spacing diacritics that TeX and other typesetters draw
// over a letter as glyphs of their own to the combining marks that join
// them to it ("Almaz´an" is "Almazán").
var accents = map[rune]rune{
	'´': '\u0301', '`': '\u0300', '¨': '\u0308', 'ˆ': '\u0302', '˜': '\u0303',
	'¸': '\u0327', 'ˇ': '\u030c', '˘': '\u0306', '˙': '\u0307', '˚': '\u030a',
	'¯': '\u0304', '˝': '\u030b', '˛': '\u0328',
}

// attachAccents finds the accents of a line that sit on a neighbouring
// letter: marks[i] is the combining mark to write after letter i, or -1 for
// an accent that goes with its letter; nil when the line has none.
func attachAccents(items []item) []rune {
	var marks []rune
	for i, a := range items {
		mark := accents[a.r]
		if mark == 0 {
			continue
		}
		for _, j := range []int{i - 1, i + 1, i - 2, i + 2} {
			if j < 0 || j >= len(items) || !unicode.IsLetter(items[j].r) {
				continue
			}
			l := items[j]
			if min(a.x1, l.x1)-max(a.x0, l.x0) >= 0.5*(a.x1-a.x0) {
				if marks == nil {
					marks = make([]rune, len(items))
				}
				if marks[j] == 0 {
					marks[i], marks[j] = -1, mark
				}
				break
			}
		}
	}
	return marks
}

// spaceBetween decides whether a word ends between two neighbouring glyphs:
// where the gap between them is wider than a tenth of the font size
// (pdftotext's rule), and where PDFium, reading the two one after the
// other on one line, inferred a space (from the font's space width and the
// text's kerning). PDFium's own judgement counts only for glyphs it read in
// a row: glyphs that meet only after reordering have no PDFium judgement.
func spaceBetween(p, q item) bool {
	gap := q.x0-p.x1 > wordGap*max(p.h, q.h)
	if q.seq == p.seq+1 && !q.breakB4 {
		return q.spaceB4 || gap
	}
	return gap
}

// duplicate says whether q repeats p at the same place (text drawn twice
// for a bold or shadow effect).
func duplicate(p, q item) bool {
	// Consecutive glyphs at one place are the pieces of a ligature ("ﬀ"),
	// and a piece is as wide as its whole ligature, unlike the letter itself
	// ("i" before "ﬁ"); a letter written twice ("ll") lies a whole advance
	// further.
	wp, wq := p.x1-p.x0, q.x1-q.x0
	return q.seq != p.seq+1 && p.r == q.r && math.Abs(wp-wq) < 0.2*max(wp, wq) &&
		math.Abs(p.x0-q.x0) < 0.5*min(wp, wq) && math.Abs(p.base-q.base) < 0.3*p.h
}
