package pdftext

// Open tables: ruled only horizontally.
//
// LaTeX's booktabs (\toprule, \midrule, \bottomrule: the usual style of
// Korean theses and journal papers), Word's and Hancom's "open" table
// styles and HTML tables with only row borders draw no vertical rule, so
// ruled.go finds no box to read cell by cell, and a row whose first cell
// wraps reads line by line across the row, its cells mixed. Here the rows
// come from the rules and the columns from the glyphs. Rules of one
// length, one under the other, bound slabs (and a \cmidrule that parts
// rows inside one: partRules): a row each (HTML), or a
// header and a body of rows (booktabs), whose rows are told apart by
// their lines: a line continues the row above when it lies a line's pitch
// under the line above and goes on the row's cells, each of its cells
// under a line that ran to its column's edge (a justified column's edge
// exactly; in a ragged one, so close that the line's first word would
// not have fitted), or in a column where the row has no text yet (a cell
// centred vertically beside a wrapped one); see splitRows. The columns
// are the x-ranges between the gutters: strips at least minGutter wide
// left white by every line between the rules, the lines in one piece that
// span them aside (a header cell over two columns, a group's heading
// across the table: read as before, lines of their own). A table is read cell by cell, as
// a ruled row is (appendRow), only where the evidence is strong: two
// columns or more, two rows or more, every row with text in two columns,
// a row that wraps, no cell taller than maxCellLines, each slab's lines
// close under and above its rules. Any doubt, and the table reads as
// before, as does all text outside it.

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// openRuleGap is how far, in font sizes, a slab's first line may lie under
// its top rule and its last line above its bottom rule: a page's header
// rule and footer rule, of one length too, lie farther from the body.
const openRuleGap = 2.0

// openPitch is the widest line pitch, in font sizes, of a cell's wrapped
// lines (LaTeX sets 1.2, Chromium's Noto CJK 1.45): a line farther under
// the line above starts a row of its own (a chart's labels above the
// next chart's figures, between its gridlines).
const openPitch = 1.8

// rowLead is how much further, in font sizes, than a cell's wrapped
// lines lie apart a line must lie under the line above to start a row of
// its own: a row's padding, \arraystretch of 1.2 at least, booktabs'
// \addlinespace; the boxes of a line's letters vary by less.
const rowLead = 0.2

// openRows reads the open tables (see above) among items (upright glyphs
// in PDFium's order, ruled rows already read) and puts in place of each
// of their rows one item per cell, as ruledRows does. Without such a
// table, items come back as they are.
func openRows(items []item, rules []rule) []item {
	g := newGrid(rules)
	if len(g.h) < 2 {
		return items
	}
	seq := -2
	for _, it := range items {
		seq = min(seq, it.seq-1)
	}
	used := make([]bool, len(items))
	var rowItems []item
	for _, chain := range ruleChains(g.h) {
		for _, run := range slabRuns(items, chain, g) {
			rowItems = readOpenTable(items, run, used, rowItems, &seq)
		}
	}
	if rowItems == nil {
		return items
	}
	out := make([]item, 0, len(items))
	for i, it := range items {
		if !used[i] {
			out = append(out, it)
		}
	}
	if len(out) > 0 {
		out[0].breakB4 = true
	}
	return append(out, rowItems...)
}

// ruleChains groups horizontal rules (sorted bottom to top) by their
// extent: the rules of one length at one place, top to bottom. Rules
// closer than ruleSlack (a double rule) count once.
func ruleChains(h []rule) [][]rule {
	var chains [][]rule
	for i := len(h) - 1; i >= 0; i-- {
		r := h[i]
		k := 0
		for ; k < len(chains); k++ {
			c := chains[k][0]
			if math.Abs(c.lo-r.lo) <= ruleSlack && math.Abs(c.hi-r.hi) <= ruleSlack {
				break
			}
		}
		if k == len(chains) {
			chains = append(chains, nil)
		}
		if n := len(chains[k]); n > 0 && chains[k][n-1].at-r.at < ruleSlack {
			continue
		}
		chains[k] = append(chains[k], r)
	}
	return chains
}

// slab is the space between two rules of a chain and the glyphs in it.
type slab struct {
	top, bottom float64
	idx         []int // indexes into items, in PDFium's order
}

// slabRuns returns the runs of consecutive slabs of chain that may be one
// table: each holds text, no cell already read, no vertical rule across
// it nor another table's rule inside it, and leaves a gutter where the
// run's other slabs leave white.
func slabRuns(items []item, chain []rule, g grid) [][]slab {
	v := g.v
	if len(chain) < 2 {
		return nil
	}
	lo, hi := chain[0].lo-ruleSlack, chain[0].hi+ruleSlack
	var runs [][]slab
	var cur []slab
	var curGs [][2]float64 // the white every slab of cur leaves
	flush := func() {
		if len(cur) > 0 {
			runs = append(runs, cur)
		}
		cur, curGs = nil, nil
	}
	consider := func(s slab) {
		ok := !crossed(v, lo, hi, s.bottom, s.top) && !ruledWithin(g.h, lo, hi, s.bottom, s.top)
		for _, i := range s.idx {
			ok = ok && items[i].text == ""
		}
		var gs [][2]float64
		if ok && len(s.idx) > 0 {
			gs = slabGutters(items, s.idx)
		}
		if len(gs) == 0 {
			flush()
			return
		}
		// A slab whose white meets none of the run's is another table
		// (the next table of one width, its caption between them).
		if len(cur) > 0 {
			if gs = meet(curGs, gs); len(gs) == 0 {
				flush()
				gs = slabGutters(items, s.idx)
			}
		}
		cur, curGs = append(cur, s), gs
	}
	for k := 1; k < len(chain); k++ {
		s := slab{top: chain[k-1].at, bottom: chain[k].at}
		for i, it := range items {
			cx, cy := (it.x0+it.x1)/2, (it.lo+it.hi)/2
			if cx < lo || cx > hi || cy <= s.bottom || cy >= s.top {
				continue
			}
			s.idx = append(s.idx, i)
		}
		// A \cmidrule parts the slab into slabs of its own, as a
		// \midrule does.
		top := s.top
		for _, at := range append(partRules(items, s.idx, g.h, lo, hi, s.top, s.bottom), s.bottom) {
			sub := slab{top: top, bottom: at}
			for _, i := range s.idx {
				if cy := (items[i].lo + items[i].hi) / 2; cy > at && cy < top {
					sub.idx = append(sub.idx, i)
				}
			}
			consider(sub)
			top = at
		}
	}
	flush()
	return runs
}

// cmidTrim is how far, in font sizes, a \cmidrule across the whole table
// may stop short of its \toprule's ends: (lr) trims half an em.
const cmidTrim = 1.2

// partRules returns the heights, top to bottom, of the rules inside a
// slab (between top and bottom, its glyphs idx) that part its rows as
// \cmidrule does: across the table (its ends within cmidTrim of lo and
// hi), or under some of its columns with text of another column beside
// it on the lines just above and just below it ({2-3} between two groups
// of rows). A rule whose lines above or below lie within its ends (a
// \cmidrule under a header cell spanning two columns, the rules of a
// narrower table set between two tables of this width, a caption over
// it) parts nothing.
func partRules(items []item, idx []int, h []rule, lo, hi, top, bottom float64) []float64 {
	if len(idx) == 0 {
		return nil
	}
	fs := medianH(pick(items, idx))
	var ats []float64
	for _, r := range h {
		if r.at <= bottom+ruleSlack || r.at >= top-ruleSlack || r.hi <= lo || r.lo >= hi {
			continue
		}
		across := r.lo-lo <= cmidTrim*fs && hi-r.hi <= cmidTrim*fs
		side := func(above bool) bool {
			return besideRule(items, idx, r, fs, above) || cellsAtRule(items, idx, r, fs, above)
		}
		if across || side(true) && side(false) {
			ats = append(ats, r.at)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(ats)))
	var out []float64
	for _, at := range ats {
		if len(out) == 0 || out[len(out)-1]-at >= ruleSlack { // {1-2} and {3-4} at one height
			out = append(out, at)
		}
	}
	return out
}

// cellsAtRule says whether the slab's glyphs above (or below) rule r and
// within its ends leave a gutter's width of white between them, all of
// their lines together: cells of two columns over (or under) the rule. A
// \cmidrule(lr){2-4} between two rows whose first column is empty beside
// it has no text beyond its ends, but cells along it on both sides (the
// row above may end in a wrapped cell's line, its other cells on its
// first); a header cell spanning the rule's columns is one piece, and a
// caption or prose over another table's rule covers its gutters.
func cellsAtRule(items []item, idx []int, r rule, fs float64, above bool) bool {
	var spans [][2]float64
	for _, i := range idx {
		it := items[i]
		d := (it.lo+it.hi)/2 - r.at
		if !above {
			d = -d
		}
		if cx := (it.x0 + it.x1) / 2; !it.space && d > 0 && cx >= r.lo && cx <= r.hi {
			spans = append(spans, [2]float64{it.x0, it.x1})
		}
	}
	slices.SortFunc(spans, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	for k := 1; k < len(spans); k++ {
		if spans[k][0]-spans[k-1][1] >= minGutter*fs {
			return true
		}
		spans[k][1] = max(spans[k][1], spans[k-1][1])
	}
	return false
}

// besideRule says whether a glyph within openRuleGap font sizes above
// (or below) rule r lies beyond its ends.
func besideRule(items []item, idx []int, r rule, fs float64, above bool) bool {
	for _, i := range idx {
		it := items[i]
		d := (it.lo+it.hi)/2 - r.at
		if !above {
			d = -d
		}
		if !it.space && d > 0 && d <= openRuleGap*fs && (it.x1 < r.lo || it.x0 > r.hi) {
			return true
		}
	}
	return false
}

// slabGutters returns the gutters the glyphs idx of a slab leave, the
// lines that span them (a group's heading across the table) aside.
func slabGutters(items []item, idx []int) [][2]float64 {
	if gs := gutters(items, idx); len(gs) > 0 {
		return gs
	}
	skip := spanning([][]band{bandsOf(pick(items, idx))})
	if len(skip) == 0 {
		return nil
	}
	return gutters(items, unskipped(items, idx, skip))
}

// pick returns the items at idx.
func pick(items []item, idx []int) []item {
	sub := make([]item, len(idx))
	for j, i := range idx {
		sub[j] = items[i]
	}
	return sub
}

// unskipped returns the indices among idx of the glyphs not in skip (by
// their places in PDFium's order, as spanning returns them).
func unskipped(items []item, idx []int, skip map[int]bool) []int {
	var kept []int
	for _, i := range idx {
		if !skip[items[i].seq] {
			kept = append(kept, i)
		}
	}
	return kept
}

// slabsIdx returns the glyphs of a run of slabs, slab by slab.
func slabsIdx(run []slab) []int {
	var all []int
	for _, s := range run {
		all = append(all, s.idx...)
	}
	return all
}

// meet returns the white two lists of gutters share (sorted, as gutters
// returns them).
func meet(a, b [][2]float64) [][2]float64 {
	var out [][2]float64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		if lo, hi := max(a[i][0], b[j][0]), min(a[i][1], b[j][1]); hi > lo {
			out = append(out, [2]float64{lo, hi})
		}
		if a[i][1] < b[j][1] {
			i++
		} else {
			j++
		}
	}
	return out
}

// ruledWithin says whether a horizontal rule at least half as long as
// x0..x1 lies inside it between y0 and y1: another table's (one of
// another width, set between two of this width); a \cmidrule under a
// spanning header is shorter, and one that parts rows parts the slab
// first (partRules).
func ruledWithin(h []rule, x0, x1, y0, y1 float64) bool {
	for _, r := range h {
		if r.at > y0+ruleSlack && r.at < y1-ruleSlack && min(r.hi, x1)-max(r.lo, x0) >= (x1-x0)/2 {
			return true
		}
	}
	return false
}

// crossed says whether a vertical rule stands inside x0..x1 across more
// than half of y0..y1 (a bordered table, ruled.go's).
func crossed(v []rule, x0, x1, y0, y1 float64) bool {
	for _, r := range v {
		if r.at > x0+ruleSlack && r.at < x1-ruleSlack && min(r.hi, y1)-max(r.lo, y0) > (y1-y0)/2 {
			return true
		}
	}
	return false
}

// gutters returns the strips, sorted left to right, at least minGutter
// font sizes wide that no glyph among idx covers, between the first
// glyph and the last.
func gutters(items []item, idx []int) [][2]float64 {
	spans := make([][2]float64, 0, len(idx))
	hs := make([]float64, 0, len(idx))
	for _, i := range idx {
		it := items[i]
		if it.space {
			continue
		}
		spans = append(spans, [2]float64{it.x0, it.x1})
		hs = append(hs, it.h)
	}
	return gutterSpans(spans, hs)
}

// gutterSpans is gutters of glyphs' extents along the line and their font
// sizes (both reordered).
func gutterSpans(spans [][2]float64, hs []float64) [][2]float64 {
	if len(spans) == 0 {
		return nil
	}
	sort.Float64s(hs)
	width := minGutter * hs[len(hs)/2]
	sort.Slice(spans, func(a, b int) bool { return spans[a][0] < spans[b][0] })
	var out [][2]float64
	end := spans[0][1]
	for _, s := range spans[1:] {
		if s[0]-end >= width {
			out = append(out, [2]float64{end, s[0]})
		}
		end = max(end, s[1])
	}
	return out
}

// readOpenTable reads a run of slabs as a table when the evidence holds
// (see above), marking its glyphs used and appending its rows' items.
func readOpenTable(items []item, run []slab, used []bool, out []item, seq *int) []item {
	for _, i := range slabsIdx(run) {
		if used[i] {
			return out // read already, as another chain's table
		}
	}
	// Each slab's lines, close under and above its rules.
	lines := make([][]band, len(run))
	for k, s := range run {
		sub := pick(items, s.idx)
		bands := bandsOf(sub)
		if len(bands) == 0 {
			return out
		}
		h := medianH(sub)
		if s.top-bands[0].hi > openRuleGap*h || bands[len(bands)-1].lo-s.bottom > openRuleGap*h {
			return out
		}
		lines[k] = bands
	}
	// A line in one piece across a gutter that the other lines leave
	// white (a header cell spanning columns, a group's heading across
	// the table) is read as before, not as the table's row.
	skip := spanning(lines)
	gs := gutters(items, unskipped(items, slabsIdx(run), skip))
	if len(skip) > 0 {
		for k := range lines {
			var bs []band
			for _, b := range lines[k] {
				if len(b.items) == 0 || !skip[b.items[0].seq] {
					bs = append(bs, b)
				}
			}
			lines[k] = bs
		}
	}
	// A header cell spanning columns (\multicolumn, a merged header) in
	// pieces that covers a gutter the body leaves white: the header slab
	// is read as before, the body as the table.
	if len(run) > 1 {
		if bg := gutters(items, unskipped(items, slabsIdx(run[1:]), skip)); len(bg) > len(gs) {
			run, gs, lines = run[1:], bg, lines[1:]
		}
	}
	if len(gs) == 0 {
		return out
	}
	colOf := func(it item) int {
		cx := (it.x0 + it.x1) / 2
		return sort.Search(len(gs), func(k int) bool { return gs[k][0] >= cx })
	}
	ncols := len(gs) + 1
	geo := newColumnEdges(lines, ncols, colOf)
	// How far apart a cell's wrapped lines lie, for the lines that lie
	// further (splitRows): measured on the rows as told without it.
	var pitches []float64
	for _, bands := range lines {
		if len(bands) > 0 {
			splitRows(bands, geo, math.Inf(1), &pitches)
		}
	}
	limit := math.Inf(1)
	if len(pitches) > 0 {
		limit = median(pitches) + rowLead
	}
	var rows []openRow
	wraps := false
	for _, bands := range lines {
		if len(bands) == 0 {
			continue // a slab of a spanning line only
		}
		rs, ok := splitRows(bands, geo, limit, nil)
		if !ok {
			return out
		}
		for _, r := range rs {
			wraps = wraps || len(r.lines) > 1
		}
		rows = append(rows, rs...)
	}
	full := 0 // rows with text in two columns or more, group headings aside
	for _, r := range rows {
		if countTrue(r.cols) > 1 {
			full++
		}
	}
	if full < minTableRows || !wraps {
		return out
	}
	// Each row's items by column; no cell taller than maxCellLines.
	cells := make([][][]item, len(rows))
	for r, row := range rows {
		cells[r] = make([][]item, ncols)
		lines := make([]int, ncols)
		for _, b := range row.lines {
			seen := make([]bool, ncols)
			for _, it := range b.items {
				c := colOf(it)
				cells[r][c] = append(cells[r][c], it)
				if !it.space && !seen[c] {
					seen[c] = true
					lines[c]++
				}
			}
		}
		for _, n := range lines {
			if n > maxCellLines {
				return out
			}
		}
	}
	bands, rowWraps := openCellWraps(cells, ncols)
	for r, row := range rows {
		var cols []int
		var first item
		for c, has := range row.cols {
			if !has {
				continue
			}
			cols = append(cols, c)
			for _, it := range cells[r][c] {
				if !it.space && it.r != 0 && (first.h == 0 || it.hi > first.hi) {
					first = it
				}
			}
		}
		out = appendRow(out, cols, cells[r], bands[r], rowWraps[r], first, seq)
	}
	for _, s := range run {
		for _, i := range s.idx {
			used[i] = !skip[items[i].seq]
		}
	}
	return out
}

// openCellWraps returns each cell's lines (cells by row and column, each
// cell's glyphs sorted in PDFium's order in place) and what each row's
// cells say about their wrapping (cellWrap), measured by the edges of
// each column's text: where its lines start, and where its cells' wrapped
// lines end, two of them at least (one alone may have ended anywhere).
func openCellWraps(cells [][][]item, ncols int) ([][][]band, []cellWrap) {
	bands := make([][][]band, len(cells))
	colLeft, colRight := make([]float64, ncols), make([]float64, ncols)
	nwrapped := make([]int, ncols)
	for c := range colLeft {
		colLeft[c] = math.Inf(1)
	}
	for r := range cells {
		bands[r] = make([][]band, ncols)
		for c := range cells[r] {
			sort.Slice(cells[r][c], func(a, b int) bool { return cells[r][c][a].seq < cells[r][c][b].seq })
			bands[r][c] = bandsOf(cells[r][c])
			for i, b := range bands[r][c] {
				first, last, ok := ends(b)
				if !ok {
					continue
				}
				colLeft[c] = min(colLeft[c], first.x0)
				if i+1 < len(bands[r][c]) {
					colRight[c] = max(colRight[c], last.x1)
					nwrapped[c]++
				}
			}
		}
	}
	for c := range colRight {
		if nwrapped[c] < 2 {
			colLeft[c], colRight[c] = math.NaN(), math.NaN()
		}
	}
	var flat [][]band
	var left, right []float64
	var column []int
	for r := range cells {
		flat = append(flat, bands[r]...)
		left = append(left, colLeft...)
		right = append(right, colRight...)
		for c := range ncols {
			column = append(column, c)
		}
	}
	measured := newCellWrap(flat, left, right, column)
	rowWraps := make([]cellWrap, len(cells))
	for r := range cells {
		rowWraps[r] = cellWrap{left: colLeft, right: colRight, syl: measured.syl[r*ncols : (r+1)*ncols]}
	}
	return bands, rowWraps
}

// spanning returns the lines (by their glyphs' places in PDFium's order)
// that are one piece, no white of a gutter's width inside, across the
// middle of a gutter that the other lines leave white (a wrapped cell's
// line in one piece may run into the white beside its column's shorter
// lines, not across it).
func spanning(slabs [][]band) map[int]bool {
	var pieces []band
	var spans [][2]float64
	var hs []float64
	for _, bands := range slabs {
		for _, b := range bands {
			if onePiece(b) {
				pieces = append(pieces, b)
				continue
			}
			for _, it := range b.items {
				if !it.space {
					spans = append(spans, [2]float64{it.x0, it.x1})
					hs = append(hs, it.h)
				}
			}
		}
	}
	if len(pieces) == 0 || len(spans) == 0 {
		return nil
	}
	gs := gutterSpans(spans, hs)
	var skip map[int]bool
	for _, b := range pieces {
		first, last, ok := ends(b)
		if !ok {
			continue
		}
		for _, g := range gs {
			if mid := (g[0] + g[1]) / 2; first.x0 < mid && last.x1 > mid {
				if skip == nil {
					skip = map[int]bool{}
				}
				for _, it := range b.items {
					skip[it.seq] = true
				}
				break
			}
		}
	}
	return skip
}

// onePiece says whether a line's glyphs leave no white of a gutter's
// width between them.
func onePiece(b band) bool {
	var prev *item
	for i := range b.items {
		it := &b.items[i]
		if it.space || it.r == 0 {
			continue
		}
		if prev != nil && it.x0-prev.x1 >= minGutter*max(it.h, prev.h) {
			return false
		}
		if prev == nil || it.x1 > prev.x1 {
			prev = it
		}
	}
	return prev != nil
}

// medianH is the median font size of items' glyphs.
func medianH(items []item) float64 {
	var hs []float64
	for _, it := range items {
		if !it.space {
			hs = append(hs, it.h)
		}
	}
	if len(hs) == 0 {
		return 0
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}
