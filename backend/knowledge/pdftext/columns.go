package pdftext

// Columns: where a page's lines are split into columns at a white gutter
// that runs down several lines, and where such white space is only the
// space between a table's cells and must not split it.

import (
	"math"
	"slices"
	"sort"
	"unicode"
)

// gutter is white space between x0 and x1 on lines [from, to).
type gutter struct {
	x0, x1   float64
	from, to int
}

// findGutter finds the gutter that runs down the most lines and separates
// two columns of full lines.
func findGutter(bands []band, stop *halt) (gutter, bool) {
	if len(bands) < minGutterRows {
		return gutter{}, false
	}
	left, right := math.Inf(1), math.Inf(-1)
	var hs, ts []float64
	for _, b := range bands {
		left = min(left, b.items[0].x0)
		for _, it := range b.items {
			right = max(right, it.x1)
		}
		hs, ts = append(hs, b.h), append(ts, textSize(b.items))
	}
	h := median(hs)
	minW, narrowW := minGutter*h, minNarrowGutter*h
	// A gutter is as wide as a font size of most lines' text: LaTeX sets
	// columns 1 em apart, and lines of Hangul with a few digits in Latin
	// Modern, whose boxes are 1.4 font sizes tall, would measure it
	// against their digits.
	wide := func(g gutter) bool { return g.x1-g.x0 >= min(minW, minGutter*median(ts)) }
	// Collect the white strips that run down enough lines and leave room
	// for a column on either side, then test the longest (then widest)
	// first: testing is the costly part.
	var strips []gutter
	var cuts []sectionCut // section breaks found in the strips tested so far
	sp := &splitter{stop: stop}
	keep := func(c cand, to int) {
		g := gutter{x0: c.x0, x1: c.x1, from: c.from, to: to}
		// One side may be as narrow as a menu's column (minSide) beside a
		// column of prose; columnsApart asks more of it.
		lw, rw := c.x0-left, right-c.x1
		if to-c.from >= minGutterRows && min(lw, rw) >= minSide*h && max(lw, rw) >= minColumn*h &&
			(wide(g) || flushRight(sp, bands[g.from:g.to], g, h)) {
			strips = append(strips, g)
		}
	}
	var active []cand
	for k, b := range bands {
		stop.check()
		free := freeSpans(b, left, right, narrowW)
		var next []cand
		for _, c := range active {
			alive := false
			for _, f := range free {
				x0, x1 := max(c.x0, f[0]), min(c.x1, f[1])
				if x1-x0 >= narrowW {
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
		stop.check()
		s := strips[0]
		strips = strips[1:]
		if min(s.x0-left, right-s.x1) < minColumn*h && !apartFlows(sp, bands[s.from:s.to], s, h) {
			continue // a narrow side sharing its baselines: no menu (a table's first column)
		}
		g := trimmed(sp, bands, s, left, right, minW, h)
		if g.to-g.from < minGutterRows || !wide(g) && !flushRight(sp, bands[g.from:g.to], g, h) ||
			evenlySpaced(sp, bands[g.from:g.to], g, h) {
			continue
		}
		parts := withoutTableRows(sp, bands, g, minW, minColumn*h, &cuts)
		if len(parts) == 1 && parts[0] == g {
			if columnsApart(sp, bands[g.from:g.to], g, minW, h) {
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

// flushRight says whether the lines on the right of a strip start where
// a column does: at one place, give or take a sixth of a font size, on two
// lines in three (a first line's indent, a centred heading do not). A strip
// narrower than a gutter is a column's edge only so: the wide spaces of
// justified prose line up down a few lines too, but the words after them
// start at a different place on each line.
func flushRight(sp *splitter, bands []band, g gutter, h float64) bool {
	var starts []float64
	for _, b := range bands {
		if _, r := sp.sides(b, g); len(r) > 0 {
			starts = append(starts, r[0].x0)
		}
	}
	if len(starts) < minGutterRows {
		return false
	}
	m := median(starts)
	at := 0
	for _, x := range starts {
		if math.Abs(x-m) <= h/6 {
			at++
		}
	}
	return 3*at >= 2*len(starts)
}

// evenlySpaced says whether a strip is only one of the gaps that space
// out its lines evenly: on most lines with text on both sides, the gap
// across the strip is no wider than evenGap times the line's other
// spaces (the gaps between its glyphs wider than a word space and
// narrower than twice the strip's: a table's cells are further apart). A
// gutter parts two columns more widely than their words are apart; the
// letters of a line spaced out (a title or a notice set with wide
// character spacing, "신 청 서 를  제 출 합 니 다", left-aligned one under
// another) sit at the same places on every line, and the gaps of loosely
// justified lines may meet down a few lines by chance, the words after
// them flush. Either way every gap on the line is as wide as the strip's,
// and the lines read whole. So it is on a line spaced out letter by
// letter (most of its letters spacedOut apart), where the strip may
// cross a word gap, two letter gaps and a space wide, on some lines and a
// letter gap on others.
func evenlySpaced(sp *splitter, bands []band, g gutter, h float64) bool {
	both, even := 0, 0
	var gaps, all []float64
	for _, b := range bands {
		l, r := sp.sides(b, g)
		if len(l) == 0 || len(r) == 0 {
			continue
		}
		both++
		across := r[0].x0 - lastEnd(l)
		gaps, all = gaps[:0], all[:0]
		for _, side := range [][]item{l, r} {
			end := side[0].x1
			for _, it := range side[1:] {
				d := it.x0 - end
				all = append(all, d)
				// Gaps twice as wide are a table's between its cells.
				if d > wordGap*h && d < 2*across {
					gaps = append(gaps, d)
				}
				end = max(end, it.x1)
			}
		}
		if len(gaps) > 0 && across <= evenGap*median(gaps) || len(all) > 0 && median(all) >= spacedOut*h {
			even++
		}
	}
	return both >= minGutterRows && 2*even > both
}

// spacedOut is the gap, in font sizes, between most of a line's letters
// that spaces it out letter by letter: a title's or a notice's, whose
// word gaps (a letter gap, a space, a letter gap) line up down the lines
// at the places its letters share. Justification spaces out syllables
// by 0.08 to 0.12 (LibreOffice's) and is no such line.
const spacedOut = 0.3

// evenGap is how many times a line's other spaces the gap across a
// gutter must be: LibreOffice's narrowest gutter, 0.6 font sizes, beside
// Korean word spaces of 0.25 to 0.45.
const evenGap = 1.25

// withoutTableRows cuts a strip at the rows of a table: minTableRows lines
// or more in a row with only narrow cells on both of its sides (see
// cells). There the strip is the white space between two of the table's
// columns, whose rows read across, not a gutter: a table set above a page's
// two columns of prose leaves one strip down both. It also cuts it at a
// heading between two sections set in two columns (see sectionBreaks),
// and at a heading found so in an earlier strip that runs down the same
// white space (cuts, to which it adds the ones it finds): a strip that
// starts below the first section's top, where its one column has ended
// (the white beside a short last line is wider, and a strip of it starts
// there), does not see the heading's column above it, and would read the
// first section's longer column with the second section.
func withoutTableRows(sp *splitter, bands []band, g gutter, minW, narrow float64, cuts *[]sectionCut) []gutter {
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
	breaks := sectionBreaks(sp, bands, g)
	for k, b := range breaks {
		if b {
			*cuts = append(*cuts, sectionCut{band: g.from + k, x0: g.x0, x1: g.x1})
		}
	}
	for _, c := range *cuts {
		if c.band >= g.from && c.band < g.to && c.x0 < g.x1 && g.x0 < c.x1 {
			breaks[c.band-g.from] = true
		}
	}
	for k := g.from; k < g.to; k++ {
		if breaks[k-g.from] {
			cut(k)
			if k > from {
				parts = append(parts, gutter{x0: g.x0, x1: g.x1, from: from, to: k})
			}
			from = k + 1
			continue
		}
		if l, r := sp.sides(bands[k], g); onlyCells(l, minW, narrow) && onlyCells(r, minW, narrow) && !(numbered(l, minW) && numbered(r, minW)) {
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

// sectionCut is a line found to stand between two sections in two
// columns (see sectionBreaks), and the white strip it was found in.
type sectionCut struct {
	band   int
	x0, x1 float64
}

// sectionBreaks marks the lines of a strip (by their index from g.from)
// that stand between two sections set in two columns: a heading short
// enough to leave the gutter white ("제2절 학적" between two blocks of two
// columns), which would otherwise be read inside the left column, the
// second section's left column before the first one's right. Such a line
// (or two) is alone on its side and apart from that side's lines above and
// below by more than a paragraph gap (1.6 line pitches); the other side has
// a hole around it (no line within 1.2 of its pitches above or below, as
// two columns of prose always have beside a line, even at a paragraph
// gap) whose edges line up with the line's own side: both
// columns end above it, the other one at most maxLonger pitches higher
// than the line's own (balanced columns end a line apart; a paragraph a
// producer does not split leaves the left column lines longer) or any way
// lower (the line's column ended first: WeasyPrint balances columns by
// whole paragraphs, and the left one may end three lines short), and start
// again below it (within one), with lines of prose a column wide. A heading in one column beside a figure in the other has
// the hole, but the figure's edges rarely line up with both; a figure's
// labels and a subheading beside a paragraph gap fail the widths and the
// gaps. A heading set larger than the lines below it may sit close above
// them (LibreOffice's headings keep a small space below) when both columns
// start again on one line under it.
// maxLonger is how many line pitches a heading's own column may run on
// below the other column's end and the heading still part two sections:
// a paragraph left whole. Further, the white beside the column's tail is
// more likely a figure in the other column, beside a subheading whose
// text below happens to start level with the other column's.
const maxLonger = 5.5

func sectionBreaks(sp *splitter, bands []band, g gutter) []bool {
	n := g.to - g.from
	breaks := make([]bool, n)
	side := make([]int8, n) // 1 left only, 2 right only, 3 both, 0 none
	base, size := make([][2]float64, n), make([][2]float64, n)
	wide := make([][2]bool, n) // a line of prose: a column wide
	for i := range n {
		b := bands[g.from+i]
		l, r := sp.sides(b, g)
		if len(l) > 0 {
			side[i] |= 1
			lb := rebanded(b, l)
			base[i][0], size[i][0] = lb.base, lb.h
			wide[i][0] = lastEnd(l)-l[0].x0 >= minColumn*b.h
		}
		if len(r) > 0 {
			side[i] |= 2
			rb := rebanded(b, r)
			base[i][1], size[i][1] = rb.base, rb.h
			wide[i][1] = lastEnd(r)-r[0].x0 >= minColumn*b.h
		}
	}
	var pitch [2]float64
	for s := range 2 {
		var ps []float64
		prev := -1
		for i := range n {
			if side[i]&(1<<s) != 0 {
				if prev >= 0 {
					ps = append(ps, base[prev][s]-base[i][s])
				}
				prev = i
			}
		}
		if len(ps) == 0 {
			return breaks
		}
		pitch[s] = quantile(ps, 0.25)
	}
	// prev[s][i] and next[s][i]: the nearest line before and after i with
	// glyphs on side s (-1 and n where there is none).
	var prev, next [2][]int
	for s := range 2 {
		prev[s], next[s] = make([]int, n), make([]int, n)
		last := -1
		for i := range n {
			prev[s][i] = last
			if side[i]&(1<<s) != 0 {
				last = i
			}
		}
		last = n
		for i := n - 1; i >= 0; i-- {
			next[s][i] = last
			if side[i]&(1<<s) != 0 {
				last = i
			}
		}
	}
	for i := 0; i < n; {
		if side[i] != 1 && side[i] != 2 {
			i++
			continue
		}
		s := int(side[i]) - 1
		o := 1 - s
		j := i // the run of lines alone on side s, a line pitch apart: i..j
		for j+1 < n && side[j+1] == side[i] && base[j][s]-base[j+1][s] <= 1.3*pitch[s] {
			j++
		}
		ps, ns, po, no := prev[s][i], next[s][j], prev[o][i], next[o][j]
		if j-i >= 2 || ps < 0 || ns >= n || po < 0 || no >= n {
			i = j + 1
			continue
		}
		apartBelow := base[j][s]-base[ns][s] > 1.6*pitch[s] && base[j][s]-base[no][o] > 1.2*pitch[o]
		headingAbove := size[j][s] >= 1.1*size[ns][s] && math.Abs(base[no][o]-base[ns][s]) <= 0.25*pitch[s]
		if wide[ns][s] && wide[no][o] && (apartBelow || headingAbove) &&
			base[ps][s]-base[i][s] > 1.6*pitch[s] && base[po][o]-base[i][s] > 1.2*pitch[o] &&
			base[po][o]-base[ps][s] <= maxLonger*pitch[s] && math.Abs(base[no][o]-base[ns][s]) <= pitch[s] {
			for k := i; k <= j; k++ {
				breaks[k] = true
			}
		}
		i = j + 1
	}
	return breaks
}

func onlyCells(items []item, minW, narrow float64) bool {
	if len(items) == 0 {
		return false
	}
	_, all := cells(items, minW, narrow)
	return all
}

// splitter splits lines at a gutter into buffers of its own, reused from
// line to line: a page of tables has thousands of white strips to test,
// and a fresh pair of slices per line and strip took most of the time.
type splitter struct {
	l, r []item
	stop *halt // checked at each line split: the costly tests split every line of a strip
}

// sides splits a line's inked glyphs at a gutter. They are good until the
// next call.
func (sp *splitter) sides(b band, g gutter) (l, r []item) {
	sp.stop.often()
	l, r = sp.l[:0], sp.r[:0]
	for _, it := range b.items {
		if it.space || it.r == 0 {
			continue
		}
		if g.leftOf(it) {
			l = append(l, it)
		} else {
			r = append(r, it)
		}
	}
	sp.l, sp.r = l, r
	return l, r
}

// leaderGap is the widest space between two dots of a leader, in font
// sizes: TeX's are half a font size apart, LibreOffice's and Word's closer.
const leaderGap = 1.0

// leaderDot says whether a glyph is one a leader is made of: full stops,
// middle dots (Hancom's "·····"), ellipses.
func leaderDot(r rune) bool {
	switch r {
	case '.', '·', '…', '‥', '⋯', '・', '∙':
		return true
	}
	return false
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

// leftOf says on which side of the gutter a glyph is read: a full stop
// hung past the left column's edge into the gutter (LibreOffice hangs
// Korean punctuation by default) is still the left column's.
func (g gutter) leftOf(it item) bool {
	return it.x0+it.x1 <= g.x0+g.x1
}

// freeSpans lists the white spans of a line at least minW wide, including
// the margins up to the region's edges. A punctuation mark takes up only
// its start: one hung past the column's edge must not close the gutter.
// An opening bracket or quote is not hung and takes up its whole box: a
// full-width "「" before a law's name, its ink on its right, opened a
// white strip an em wide in the middle of a line.
// The white between the dots of a leader (a contents line's ". . . . 12")
// is no white: TeX sets every line's leader dots at the same places, so
// the spaces between them line up down a table of contents and were taken
// for a gutter, its entries read apart from their page numbers. Nor is the
// white between two cells of a ruled row (ruled.go): a wide first column
// of cells would otherwise pass for a column of prose.
func freeSpans(b band, left, right, minW float64) [][2]float64 {
	var out [][2]float64
	edge := left
	var prev *item
	for i := range b.items {
		it := &b.items[i]
		if it.space || it.r == 0 {
			continue
		}
		if prev != nil && leaderDot(prev.r) && leaderDot(it.r) && it.x0-prev.x1 <= leaderGap*max(it.h, prev.h) {
			edge = max(edge, it.x0)
		}
		if prev != nil && prev.text != "" && it.text != "" {
			edge = max(edge, it.x0) // between two cells of a ruled row: its rules say it is one row
		}
		prev = it
		if it.x0-edge >= minW {
			out = append(out, [2]float64{edge, it.x0})
		}
		if unicode.IsPunct(it.r) && !unicode.In(it.r, unicode.Ps, unicode.Pi) {
			edge = max(edge, it.x0)
		} else {
			edge = max(edge, it.x1)
		}
	}
	if right-edge >= minW {
		out = append(out, [2]float64{edge, right})
	}
	return out
}

// columnsApart tells a gutter between two columns of text (or a column of
// text and a table beside it) from the white space between the cells of a
// table. Both sides must be columns of prose:
// at least minColumn wide, with lines that cover most of that width in ink
// (gaps wider than a gutter do not count). A table's cells leave such gaps
// or are narrow, so its rows read across. Edges are medians, so a footer or
// a page number on the strip's lines does not count.
func columnsApart(sp *splitter, bands []band, g gutter, minW, h float64) bool {
	var lcov, rcov, l0s, r1s []float64
	lcells, rcells, both, answers, parted := 0, 0, 0, 0, 0
	for _, b := range bands {
		l, r := sp.sides(b, g)
		if len(l) > 0 && len(r) > 0 {
			both++
			if boxed(r) {
				answers++
			}
			if options(l, r) {
				parted++
			}
		}
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
	if answers == len(rcov) {
		return false // a form's questions, each beside its check boxes
	}
	if both > 0 && parted == both && g.x1-g.x0 <= maxOptionGap*h {
		// A strip between a question's options on every line ("질문 ☐ 예",
		// then "☑ 아니오"): Chromium's check box, taller than an 8-point
		// line, sets the options' baseline apart from the question's, and
		// the two sides passed for separate flows.
		return false
	}
	lspan, rspan := g.x0-median(l0s), median(r1s)-g.x1
	lprose, rprose := prose(lcov, lspan), prose(rcov, rspan)
	switch {
	case lspan >= minColumn*h && rspan >= minColumn*h:
	case lspan >= minSide*h && rspan >= minColumn*h && rprose, rspan >= minSide*h && lspan >= minColumn*h && lprose:
		// A narrow column beside prose (a web page's menu, a list of
		// labels): apart only where the two are separate flows of text,
		// whose lines fall at different heights; a table's label column
		// shares its rows' baselines.
		return apartFlows(sp, bands, g, h)
	default:
		return false
	}
	if lprose && rprose {
		return true
	}
	// A table beside prose (a slide's text and its table): its rows and
	// the prose's lines share a line on a third of them at most, by chance,
	// where a table's columns share every row.
	return (lprose && 2*rcells > len(rcov) || rprose && 2*lcells > len(lcov)) && 3*both <= len(bands)
}

// boxed says whether a line's piece is a form's answer: a set of check
// box options, two at least, the boxes all before or all after their
// labels and every label maxOption glyphs at most ("□ 예   □ 아니오",
// "예 □   아니오 □"). A column of them, each beside a line of the other
// side, is the answers to the questions beside them, read across as a
// table's rows. One box heading a line is a bullet (Korean official
// documents' "○ 추진 배경 …", an English list's "● Background …"): a
// column of such lines beside prose is a column, not a form.
func boxed(its []item) bool { // sides holds no spaces
	var at, width []int // each box's first glyph and its glyphs
	for i := 0; i < len(its); i++ {
		if n := boxAt(its, i); n > 0 {
			at, width = append(at, i), append(width, n)
			i += n - 1
		}
	}
	if len(at) < 2 {
		return false
	}
	short := func(n int) bool { return n >= 1 && n <= maxOption }
	first, last := at[0] == 0, at[len(at)-1]+width[len(at)-1] == len(its)
	for k := range at {
		if first { // a label after each box, up to the next box
			end := len(its)
			if k+1 < len(at) {
				end = at[k+1]
			}
			first = short(end - at[k] - width[k])
		}
		if last { // a label before each box, from the box before
			start := 0
			if k > 0 {
				start = at[k-1] + width[k-1]
			}
			last = short(at[k] - start)
		}
	}
	return first || last
}

// minSide is the narrowest column, in font sizes, read apart from a column
// of prose beside it (a menu of three syllables), when it is a flow of
// its own (see apartFlows).
const minSide = 3

// apartFlows says whether the lines on the two sides of a strip are two
// flows of text, each at its own line pitch: of the lines with glyphs on
// both sides, most (and minGutterRows at least) have their two sides'
// baselines more than a tenth of a font size apart. A table's cells and a
// listing's line numbers sit on their row's baseline. A glyph's baseline
// is known from its box, so only boxes of one height (one font) are
// compared: a column of formulas beside text has other boxes.
func apartFlows(sp *splitter, bands []band, g gutter, h float64) bool {
	shared, apart := 0, 0
	for _, b := range bands {
		l, r := sp.sides(b, g)
		if len(l) == 0 || len(r) == 0 {
			continue
		}
		a, c := sideGlyph(l), sideGlyph(r)
		if math.Abs((a.hi-a.lo)-(c.hi-c.lo)) > 0.02*max(a.hi-a.lo, c.hi-c.lo) {
			continue
		}
		shared++
		if math.Abs(a.base-c.base) > 0.1*h {
			apart++
		}
	}
	return apart >= minGutterRows && 2*apart > shared
}

// sideGlyph is a glyph of most of a line's text on one side: its first
// glyph in its text size.
func sideGlyph(its []item) item {
	size := textSize(its)
	for _, it := range its {
		if math.Abs(it.h-size) <= 0.01*size {
			return it
		}
	}
	return its[0]
}

// prose says whether the lines of one side, covering cov of a column span
// wide, are a column of prose: most of them fill the column, or a third of
// them at least (a column that holds a table or a list, whose rows and
// items are short, between its paragraphs).
func prose(cov []float64, span float64) bool {
	if median(cov) >= fullLine*span {
		return true
	}
	full := 0
	for _, c := range cov {
		if c >= fullLine*span {
			full++
		}
	}
	return full >= minGutterRows && 3*full >= len(cov)
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

// quantile is the value a share q of v lies below: the lower quartile of
// a column's line pitches is its line pitch even where most of its
// paragraphs are two lines long, and half the pitches are paragraph gaps.
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
