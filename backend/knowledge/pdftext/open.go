package pdftext

// Open tables: ruled only horizontally.
//
// LaTeX's booktabs (\toprule, \midrule, \bottomrule: the usual style of
// Korean theses and journal papers), Word's and Hancom's "open" table
// styles and HTML tables with only row borders draw no vertical rule, so
// ruled.go finds no box to read cell by cell, and a row whose first cell
// wraps reads line by line across the row, its cells mixed. Here the rows
// come from the rules and the columns from the glyphs. Rules of one
// length, one under the other, bound slabs: a row each (HTML), or a
// header and a body of rows (booktabs), whose rows are told apart by
// their lines: a line continues the row above when it lies a line's pitch
// under the line above, has text only in columns where that line has
// text, and lacks text in a column the row's first line has (a cell's
// wrapped line). The columns are the
// x-ranges between the gutters: strips at least minGutter wide left white
// by every line between the rules. A table is read cell by cell, as a
// ruled row is (appendRow), only where the evidence is strong: two
// columns or more, two rows or more, every row with text in two columns,
// a row that wraps, no cell taller than maxCellLines, each slab's lines
// close under and above its rules. Any doubt, and the table reads as
// before, as does all text outside it.

import (
	"math"
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
		for _, run := range slabRuns(items, chain, g.v) {
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
// it, and leaves a gutter.
func slabRuns(items []item, chain []rule, v []rule) [][]slab {
	if len(chain) < 2 {
		return nil
	}
	lo, hi := chain[0].lo-ruleSlack, chain[0].hi+ruleSlack
	var runs [][]slab
	var cur []slab
	flush := func() {
		if len(cur) > 0 {
			runs = append(runs, cur)
		}
		cur = nil
	}
	for k := 1; k < len(chain); k++ {
		s := slab{top: chain[k-1].at, bottom: chain[k].at}
		ok := !crossed(v, lo, hi, s.bottom, s.top)
		for i, it := range items {
			cx, cy := (it.x0+it.x1)/2, (it.lo+it.hi)/2
			if cx < lo || cx > hi || cy <= s.bottom || cy >= s.top {
				continue
			}
			ok = ok && it.text == ""
			s.idx = append(s.idx, i)
		}
		if !ok || len(s.idx) == 0 || len(gutters(items, s.idx)) == 0 {
			flush()
			continue
		}
		cur = append(cur, s)
	}
	flush()
	return runs
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
	var spans [][2]float64
	var hs []float64
	for _, i := range idx {
		it := items[i]
		if it.space {
			continue
		}
		spans = append(spans, [2]float64{it.x0, it.x1})
		hs = append(hs, it.h)
	}
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

// openRow is a row of an open table: its lines and its columns with text.
type openRow struct {
	lines []band
	cols  []bool
}

// readOpenTable reads a run of slabs as a table when the evidence holds
// (see above), marking its glyphs used and appending its rows' items.
func readOpenTable(items []item, run []slab, used []bool, out []item, seq *int) []item {
	var all []int
	for _, s := range run {
		all = append(all, s.idx...)
	}
	gs := gutters(items, all)
	if len(gs) == 0 {
		return out
	}
	colOf := func(it item) int {
		cx := (it.x0 + it.x1) / 2
		return sort.Search(len(gs), func(k int) bool { return gs[k][0] >= cx })
	}
	var rows []openRow
	wraps := false
	for _, s := range run {
		sub := make([]item, len(s.idx))
		for k, i := range s.idx {
			sub[k] = items[i]
		}
		bands := bandsOf(sub)
		if len(bands) == 0 {
			return out
		}
		h := medianH(sub)
		if s.top-bands[0].hi > openRuleGap*h || bands[len(bands)-1].lo-s.bottom > openRuleGap*h {
			return out
		}
		rs, ok := splitRows(bands, len(gs)+1, colOf)
		if !ok {
			return out
		}
		for _, r := range rs {
			wraps = wraps || len(r.lines) > 1
		}
		rows = append(rows, rs...)
	}
	if len(rows) < minTableRows || !wraps {
		return out
	}
	// Each row's items by column; no cell taller than maxCellLines.
	cells := make([][][]item, len(rows))
	for r, row := range rows {
		cells[r] = make([][]item, len(gs)+1)
		lines := make([]int, len(gs)+1)
		for _, b := range row.lines {
			seen := make([]bool, len(gs)+1)
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
		for c := range cells[r] {
			sort.Slice(cells[r][c], func(a, b int) bool { return cells[r][c][a].seq < cells[r][c][b].seq })
		}
		out = appendRow(out, cols, cells[r], first, seq)
	}
	for _, s := range run {
		for _, i := range s.idx {
			used[i] = true
		}
	}
	return out
}

// splitRows tells a slab's rows apart by their lines (see above). A slab
// one of whose rows would have text in one column only is one row when
// one line of it has text in two columns (an HTML row whose one-line
// cells are centred beside a wrapped one), and no table otherwise.
func splitRows(bands []band, ncols int, colOf func(item) int) ([]openRow, bool) {
	colsOf := func(b band) []bool {
		cs := make([]bool, ncols)
		for _, it := range b.items {
			if !it.space && it.r != 0 {
				cs[colOf(it)] = true
			}
		}
		return cs
	}
	count := func(cs []bool) int {
		n := 0
		for _, c := range cs {
			if c {
				n++
			}
		}
		return n
	}
	var rows []openRow
	var prev []bool
	multi := 0
	for i, b := range bands {
		cs := colsOf(b)
		if count(cs) > 1 {
			multi++
		}
		if n := len(rows); n > 0 && bands[i-1].base-b.base <= openPitch*max(b.h, bands[i-1].h) && continues(prev, rows[n-1].lines[0], cs, colsOf) {
			rows[n-1].lines = append(rows[n-1].lines, b)
			for c, has := range cs {
				rows[n-1].cols[c] = rows[n-1].cols[c] || has
			}
		} else {
			rows = append(rows, openRow{lines: []band{b}, cols: cs})
		}
		prev = cs
	}
	for _, r := range rows {
		if count(r.cols) > 1 {
			continue
		}
		if multi != 1 {
			return nil, false
		}
		one := openRow{lines: bands, cols: make([]bool, ncols)}
		for _, r := range rows {
			for c, has := range r.cols {
				one.cols[c] = one.cols[c] || has
			}
		}
		return []openRow{one}, true
	}
	return rows, true
}

// continues says whether a line with text in columns cs continues the row
// whose first line is first, prev being the columns of the line above: it
// has text only where the line above has, and lacks some column of the
// row's first line.
func continues(prev []bool, first band, cs []bool, colsOf func(band) []bool) bool {
	lacks := false
	for c, has := range colsOf(first) {
		if has && !cs[c] {
			lacks = true
		}
	}
	for c, has := range cs {
		if has && !prev[c] {
			return false
		}
	}
	return lacks
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
