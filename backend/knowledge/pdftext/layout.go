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
	text    string  // a ruled cell's text, written as it is (ruled.go); r is cellRune
}

// Thresholds, in units of the font size unless said otherwise.
const (
	wordGap       = 0.1 // wider gaps between glyphs are spaces (pdftotext's minWordBreakSpace)
	lineOverlap   = 0.5 // share of the smaller vertical extent two glyphs must share to be on one line
	minGutter     = 0.9 // narrowest white strip between two columns
	minGutterRows = 3   // lines a gutter must run down
	// A narrower strip is a gutter only where the lines on its right start
	// flush (see flushRight): LibreOffice sets columns 0.8 font sizes
	// apart at 0.3 cm, and an HTML page's column-gap is lost on import.
	minNarrowGutter = 0.6
	fullLine        = 0.6 // a column's typical line fills this share of its width
	minColumn       = 8   // narrowest column of prose
	paraGap         = 1.6 // a vertical gap this many times the usual line pitch starts a paragraph
	minTableRows    = 2   // rows of cells in a row that make a table (one is a fluke: a wide space, a figure's labels)
)

// pageText returns a page's text in reading order.
func pageText(gs []glyph) string { return ruledPageText(gs, nil) }

// ruledPageText returns a page's text in reading order, the rows of its
// ruled tables read cell by cell (ruled.go).
func ruledPageText(gs []glyph, rules []rule) string { return layOut(nil, gs, rules) }

// layOut is ruledPageText, stopped by stop (halt.go).
func layOut(stop *halt, gs []glyph, rules []rule) string {
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
	if len(rules) > 0 && groups[0] != nil {
		groups[0] = openRows(ruledRows(groups[0], rules), rules)
	}
	for _, q := range order {
		bands := bandsWithin(stop, groups[q])
		stop.check()
		w := textWriter{notes: noteMarks(bands), stop: stop}
		w.region(bands)
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
//
// A mark much smaller than its text (a footnote's number, a superscript)
// that PDFium read right after or before a glyph it is raised beside
// joins that glyph's line once the lines are there. Taken top to bottom
// with the rest, a raised mark came before its own line and joined
// whatever line it touched above (a note in a frame beside the
// paragraph), and was read apart from its word when the frame turned out
// to be a column of its own ("학사 운영에 / 1 / 필요한 사항을").
func bandsOf(items []item) []band { return bandsWithin(nil, items) }

// bandsWithin is bandsOf, stopped by stop (halt.go): a band that grows by
// many runs is merged again at each.
func bandsWithin(stop *halt, items []item) []band {
	runs := runsOf(items) // in PDFium's order
	marks := markRuns(runs)
	if marks != nil {
		order := make([]int, len(runs))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return runs[order[i]].base > runs[order[j]].base })
		sr, sm := make([]band, len(runs)), make([]int, len(runs))
		for i, o := range order {
			sr[i], sm[i] = runs[o], marks[o]
		}
		runs, marks = sr, sm
	} else {
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].base > runs[j].base })
	}
	var bands []band
	for i, r := range runs {
		stop.check()
		if marks != nil && marks[i] != 0 {
			continue
		}
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
			bands = append(bands, r)
			continue
		}
		joinBand(&bands[best], r)
	}
	if marks == nil {
		return bands
	}
	lineOf := map[int]int{} // the line of each glyph, by its place in PDFium's order
	for k, b := range bands {
		for _, it := range b.items {
			lineOf[it.seq] = k
		}
	}
	n := len(bands)
	for i, r := range runs {
		stop.check()
		if marks[i] == 0 {
			continue
		}
		if k, ok := lineOf[marks[i]-1]; ok && !collides(bands[k].items, r.items) {
			joinBand(&bands[k], r)
		} else {
			bands = append(bands, r) // a line of its own, put in place below
		}
	}
	if len(bands) > n {
		sort.SliceStable(bands, func(i, j int) bool { return bands[i].base > bands[j].base })
	}
	return bands
}

// maxMark is the most glyphs a mark has ("12)", "*", "†").
const maxMark = 3

// smallMark is the share of a line's text size under which a run beside
// it is a mark on the line (a superscript is about 0.6 of its text, LaTeX's
// 0.7), not text of its own.
const smallMark = 0.75

// sameMark is the share of a line's text size up to which a run that
// touches a glyph of the line, raised beside it, is a mark on it.
const sameMark = 1.05

// markRuns finds the runs (in PDFium's order) that are marks on another
// run's line: maxMark glyphs at most, smaller than smallMark of the text
// of the run PDFium read just before or after it (a line's text, longer
// than a mark; a lone math symbol's box is no measure), raised beside that
// run's glyph next to it (a subscript, a bullet drawn after the line
// above, is left to the usual rule); or up to the text's size (sameMark)
// and touching that glyph: wkhtmltopdf's <sup>, raised by half its
// height, shares less than half of it with its line. marks[i] is one more than that
// glyph's place in PDFium's order (seq), 0 for any other run; nil when
// there is none.
func markRuns(runs []band) []int {
	var marks []int
	for i, r := range runs {
		if len(r.items) > maxMark {
			continue
		}
		lo, hi := seqSpan(r.items)
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(runs) || len(runs[j].items) <= maxMark {
				continue // no neighbour, or not a line's text
			}
			// The glyph read just before or just after r.
			nlo, nhi := seqSpan(runs[j].items)
			s := nhi
			if j > i {
				s = nlo
			}
			if s != lo-1 && s != hi+1 {
				continue
			}
			var g item
			for _, it := range runs[j].items {
				if it.seq == s {
					g = it
				}
			}
			size := textSize(runs[j].items)
			if g.space || g.r == 0 || r.h > sameMark*size {
				continue
			}
			// Raised beside the glyph: its foot within the glyph's height,
			// and no further from it than a third of the glyph's size; a
			// mark in the text's own size (wkhtmltopdf sets <sup> so,
			// raised by half its height) touches the glyph.
			gap := r.items[0].x0 - g.x1
			if j > i {
				gap = g.x0 - lastEnd(r.items)
			}
			near := g.h / 3
			if r.h >= smallMark*size {
				near = wordGap * g.h
			}
			if r.lo > g.lo && r.lo < g.hi && math.Abs(gap) <= near {
				if marks == nil {
					marks = make([]int, len(runs))
				}
				marks[i] = s + 1
				break
			}
		}
	}
	return marks
}

// seqSpan is the first and the last place in PDFium's order of a run's
// glyphs (sorted along the line, not in that order).
func seqSpan(items []item) (lo, hi int) {
	lo, hi = items[0].seq, items[0].seq
	for _, it := range items[1:] {
		lo, hi = min(lo, it.seq), max(hi, it.seq)
	}
	return lo, hi
}

func joinBand(b *band, r band) {
	b.items = mergeAlong(b.items, r.items)
	if r.h > b.h {
		b.lo, b.hi, b.h, b.base = r.lo, r.hi, r.h, r.base
	}
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
	sb    strings.Builder
	notes []noteMark // the page's notes' marks
	stop  *halt      // ends the layout when the page's time is up
}

// region writes lines, split first at the gutter that runs down the most of
// them: the lines above it, the columns on either side, the lines below.
func (w *textWriter) region(bands []band) {
	if len(bands) == 0 {
		return
	}
	w.stop.check()
	g, ok := findGutter(bands, w.stop)
	if !ok {
		w.lines(bands)
		return
	}
	w.region(bands[:g.from])
	var left, right []band
	for _, b := range bands[g.from:g.to] {
		var l, r []item
		for _, it := range b.items {
			if g.leftOf(it) {
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
	kinds := make([][]gapRule, len(bands))
	sizes := make([]float64, len(bands))
	opts := make([][]bool, len(bands))
	for i, b := range bands {
		w.stop.check()
		gaps[i], kinds[i], opts[i] = cellGaps(b.items, spacedGaps(b.items, nil))
		sizes[i] = textSize(b.items)
	}
	dropOptions(gaps, kinds, opts, sizes)
	bars, barKinds := alignedGaps(gaps, kinds, sizes, gaps, kinds)
	bars, _ = alignedGaps(gaps, kinds, sizes, bars, barKinds)
	notes := noteLines(bands, bars, sizes, w.notes)
	for i, b := range bands {
		if len(bars[i]) == 1 && lineNumber(b.items, bars[i][0]) || notes[i] {
			bars[i] = nil
		}
	}
	joined := false
	for i, b := range bands {
		w.stop.check()
		if i > 0 && !joined {
			w.sb.WriteByte('\n')
			if d := (bands[i-1].base - b.base) / b.h; pitch > 0 && d > paraGap*pitch && !(rowBand(bands[i-1]) && rowBand(b)) {
				w.sb.WriteByte('\n')
			}
		}
		// A word hyphenated across lines is joined, as pdftotext does, so
		// that a search for it finds it.
		hyphen := w.line(b.items, bars[i])
		joined = hyphen && i+1 < len(bands) ||
			i+1 < len(bands) && bars[i] == nil && bars[i+1] == nil && numberBreak(b.items, bands[i+1].items)
		if hyphen && !joined {
			w.sb.WriteByte('-')
		}
	}
}

// numberBreak says whether a line ends inside a number at one of its
// hyphens and the next line goes on with its digits: a telephone number
// or a code wrapped after its hyphen ("044-205-" over "1234)로"), which
// LibreOffice and Hancom do; the hyphen stays, the line end goes, and a
// search finds "044-205-1234".
func numberBreak(items, next []item) bool {
	last := len(items) - 1
	for last >= 0 && items[last].space {
		last--
	}
	first := 0
	for first < len(next) && next[first].space {
		first++
	}
	if last < 1 || first == len(next) {
		return false
	}
	d, p := items[last], items[last-1]
	// Set close to its digit: "- 1 -", a page's number, is no number broken.
	return d.r == '-' && !d.hyphen && isDigit(p.r) && isDigit(next[first].r) && !p.space && d.x0-p.x1 < wordGap*d.h
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

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
	track := tracking(items)
	spaced := spacedGaps(items, bars) // a letter-spaced title's gaps
	if spaced != nil {
		track = 0 // the title's spacing is no tracking of its mark
	}
	lead := leadingMark(items)
	var join []bool // a number's unit set apart in a cell ("3년")
	if spaced == nil {
		join = unitJoins(items, bars, track, lead)
	}
	var prev *item
	var recent [4]*item // the last glyphs written, to drop copies of them
	pendingSpace := false
	wrote := false
	for i := range items {
		it := &items[i]
		if it.text != "" { // a ruled row, beside text outside its table
			if wrote {
				w.sb.WriteString(cellSep)
			}
			w.sb.WriteString(it.text)
			wrote, pendingSpace, prev = true, false, it
			continue
		}
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
		switch {
		case spaced != nil && spaced[i] != asDrawn:
			pendingSpace = true // a title's gaps are one space each, however wide
		case join != nil && join[i]:
			pendingSpace = false
		case prev != nil && !pendingSpace && wrote:
			pendingSpace = i == lead || spaceBetween(*prev, *it, track)
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

// leadingMark is the place of the first glyph after a note's mark that
// starts a line, 0 when the line starts otherwise: up to maxMark digits or
// note signs ("1", "1)", "*", "†"; a bracket or a minus sign is math's), each smaller than leadMark of that glyph
// and raised above its baseline by a fifth of its size (pdfLaTeX's 6-point
// mark before 8-point notes measures 0.79 of them). LaTeX sets a
// footnote's number against its text ("¹우기 점검에는"), where pdftotext
// writes them apart and a search looks for the word; a superscript after
// a word ("45th", "한다.¹") stays on it.
func leadingMark(items []item) int {
	sign := func(k int) bool {
		r := items[k].r
		return !items[k].space && (unicode.IsDigit(r) || strings.ContainsRune("*∗†‡§", r) || k > 0 && r == ')')
	}
	for j := 1; j < len(items) && j <= maxMark; j++ {
		it := items[j]
		if !sign(j-1) || it.space || it.r == 0 {
			return 0
		}
		mark := true
		for _, m := range items[:j] {
			mark = mark && m.h < leadMark*it.h && m.base > it.base+0.2*it.h
		}
		if mark {
			return j
		}
	}
	return 0
}

// leadMark is the share of the text's size under which a raised sign
// that starts a line is a note's mark before the text.
const leadMark = 0.9

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

// latinLetter says whether r is a letter or digit of an alphabet that
// spaces its words (not CJK).
func latinLetter(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !cjk(r)
}

// cjk says whether a letter is Hangul, a Han character or kana: the
// full-width letters that CJK justification spaces out.
func cjk(r rune) bool {
	return unicode.In(r, unicode.Hangul, unicode.Han, unicode.Hiragana, unicode.Katakana)
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
