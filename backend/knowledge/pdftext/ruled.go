package pdftext

// Ruled tables: a row read cell by cell.
//
// Forms, regulations and inspection reports set tables with borders whose
// cells wrap onto two or three lines while the cells beside them are one
// line, centred. Read line by line across the row, as pdftotext does, such
// a row mixes its cells ("전기 설비 절연 저항, 누전 차단기 작동 여부, 비상 /
// 본관 적합 - / 조명 점등 상태"). The glyphs cannot tell where a cell ends;
// the table's rules can. A glyph lies in a cell when vertical rules stand
// on its left and right and horizontal rules above and below it that
// enclose one box (each pair runs the other pair's length). A row of a
// table — the cells that share a top rule — that holds text in two cells
// or more is written as one line: each cell's lines together, the cells
// left to right with cellSep between them. A box of one cell with text (a
// framed note, a row across the table) is read as before, as is all text
// outside ruled boxes.

import (
	"math"
	"sort"
	"strings"
)

// ruleSlack is how far, in points, a rule may stop short of the rule it
// meets (a border's width, a producer's rounding).
const ruleSlack = 3.0

// cellRune stands for a cell's text among glyphs: ink to the column rules
// (which pass over glyphs without text), and neither a letter, a digit nor
// punctuation to the rules that look at those.
const cellRune = '\ue000'

// cellKey names a cell by its rules: indexes into the horizontal and the
// vertical rules.
type cellKey struct{ top, bottom, left, right int }

// grid is a page's rules, split by direction and sorted by where they lie.
type grid struct {
	h, v []rule
}

func newGrid(rules []rule) grid {
	var g grid
	for _, r := range rules {
		if r.vertical {
			g.v = append(g.v, r)
		} else {
			g.h = append(g.h, r)
		}
	}
	sort.Slice(g.h, func(i, j int) bool { return g.h[i].at < g.h[j].at })
	sort.Slice(g.v, func(i, j int) bool { return g.v[i].at < g.v[j].at })
	return g
}

// spans says whether a rule runs from lo to hi along its direction.
func spans(r rule, lo, hi float64) bool {
	return r.lo <= lo+ruleSlack && r.hi >= hi-ruleSlack
}

// cellOf finds the cell a point of the page lies in.
func (g grid) cellOf(x, y float64) (cellKey, bool) {
	// The nearest vertical rules on either side that cross y.
	i := sort.Search(len(g.v), func(i int) bool { return g.v[i].at >= x })
	left, right := -1, -1
	for k := i - 1; k >= 0; k-- {
		if g.v[k].lo <= y && g.v[k].hi >= y {
			left = k
			break
		}
	}
	for k := i; k < len(g.v); k++ {
		if g.v[k].at > x && g.v[k].lo <= y && g.v[k].hi >= y {
			right = k
			break
		}
	}
	if left < 0 || right < 0 {
		return cellKey{}, false
	}
	x0, x1 := g.v[left].at, g.v[right].at
	// The nearest horizontal rules above and below that run from one to
	// the other (an underline in the cell does not).
	j := sort.Search(len(g.h), func(j int) bool { return g.h[j].at >= y })
	top, bottom := -1, -1
	for k := j; k < len(g.h); k++ {
		if g.h[k].at > y && spans(g.h[k], x0, x1) {
			top = k
			break
		}
	}
	for k := j - 1; k >= 0; k-- {
		if spans(g.h[k], x0, x1) {
			bottom = k
			break
		}
	}
	if top < 0 || bottom < 0 {
		return cellKey{}, false
	}
	y0, y1 := g.h[bottom].at, g.h[top].at
	if !spans(g.v[left], y0, y1) || !spans(g.v[right], y0, y1) {
		return cellKey{}, false
	}
	return cellKey{top: top, bottom: bottom, left: left, right: right}, true
}

// ruledRows takes the glyphs of ruled rows (see above) out of items (upright
// glyphs in PDFium's order) and puts in their place one item per row that
// carries the row's text, at the place of the row's first line. Without
// rules, or without such a row, items come back as they are.
func ruledRows(items []item, rules []rule) []item {
	g := newGrid(rules)
	if len(g.h) < 2 || len(g.v) < 3 {
		return items // not one box of two cells
	}
	x0, x1 := g.v[0].at, g.v[len(g.v)-1].at
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, r := range g.v {
		y0, y1 = min(y0, r.lo), max(y1, r.hi)
	}
	cellOf := make([]int, len(items)) // one more than the cell's index; 0 outside
	var cells []cellKey
	index := map[cellKey]int{}
	for i, it := range items {
		cx, cy := (it.x0+it.x1)/2, (it.lo+it.hi)/2
		if cx < x0 || cx > x1 || cy < y0 || cy > y1 {
			continue
		}
		k, ok := g.cellOf(cx, cy)
		if !ok {
			continue
		}
		n, seen := index[k]
		if !seen {
			n = len(cells)
			index[k] = n
			cells = append(cells, k)
		}
		cellOf[i] = n + 1
	}
	if len(cells) < 2 {
		return items
	}
	// The cells with text, by cell, in PDFium's order.
	byCell := make([][]item, len(cells))
	hasText := make([]bool, len(cells))
	for i, it := range items {
		if c := cellOf[i]; c > 0 {
			byCell[c-1] = append(byCell[c-1], it)
			hasText[c-1] = hasText[c-1] || (!it.space && it.r != 0)
		}
	}
	rows := map[int][]int{} // top rule: its cells with text
	for c, k := range cells {
		if hasText[c] {
			rows[k.top] = append(rows[k.top], c)
		}
	}
	inRow := make([]bool, len(cells))
	var out []item
	seq := -2 // apart from PDFium's order (0 on), so no glyph is read next to a row
	tops := make([]int, 0, len(rows))
	for top := range rows {
		tops = append(tops, top)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(tops)))
	// The lines of the rows' cells, and the right edge of each cell's
	// text: its right rule, less the white its text leaves at its left
	// rule (a cell's padding is the same on both sides).
	bands := make([][]band, len(cells))
	left, right := make([]float64, len(cells)), make([]float64, len(cells))
	column := make([]int, len(cells))
	for c := range left {
		left[c], right[c], column[c] = math.NaN(), math.NaN(), -1
	}
	for _, row := range rows {
		if len(row) < 2 {
			continue
		}
		for _, c := range row {
			bands[c] = bandsOf(byCell[c])
			start := math.Inf(1)
			for _, b := range bands[c] {
				if first, _, ok := ends(b); ok {
					start = min(start, first.x0)
				}
			}
			k := cells[c]
			pad := start - g.v[k.left].at
			left[c], right[c] = start, g.v[k.right].at-pad
			column[c] = int(math.Round(g.v[k.left].at))<<16 | int(math.Round(g.v[k.right].at))&0xffff
		}
	}
	wrap := newCellWrap(bands, left, right, column)
	var rowItems []item
	for _, top := range tops {
		row := rows[top]
		if len(row) < 2 {
			continue
		}
		sort.Slice(row, func(a, b int) bool { return cells[row[a]].left < cells[row[b]].left })
		var first item // the row's highest glyph: its first line
		for _, c := range row {
			inRow[c] = true
			for _, it := range byCell[c] {
				if !it.space && it.r != 0 && (first.h == 0 || it.hi > first.hi) {
					first = it
				}
			}
		}
		rowItems = appendRow(rowItems, row, byCell, bands, wrap, first, &seq)
	}
	if rowItems == nil {
		return items
	}
	for i, it := range items {
		if c := cellOf[i]; c > 0 && inRow[c-1] {
			continue
		}
		out = append(out, it)
	}
	if len(out) > 0 {
		out[0].breakB4 = true
	}
	return append(out, rowItems...)
}

// maxCellLines is the most lines a cell of a row read as one line has.
// A row with a taller cell is a layout drawn as a table (a page framed in
// two boxes, a box of paragraphs beside a label): its cells are read one
// after the other, each with its lines and paragraphs, not as one line.
const maxCellLines = 8

// appendRow appends a ruled row's items: one per cell, as wide as its
// text, so that the row keeps the look of a row of cells to the column
// rules (colends.go); or, when a cell is taller than maxCellLines, one for
// the whole row, its cells as blocks. first is the row's first line; seq
// counts down the places given to rows. bands are the cells' lines, wrap
// what the table says of its wrapping, both by the cells' indexes in row.
func appendRow(out []item, row []int, byCell [][]item, bands [][]band, wrap cellWrap, first item, seq *int) []item {
	tall := false
	for _, c := range row {
		tall = tall || len(bands[c]) > maxCellLines
	}
	extent := func(items []item) (float64, float64) {
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, it := range items {
			if !it.space && it.r != 0 {
				x0, x1 = min(x0, it.x0), max(x1, it.x1)
			}
		}
		return x0, x1
	}
	add := func(text string, x0, x1 float64) {
		out = append(out, item{
			r: cellRune, text: text, x0: x0, x1: x1,
			lo: first.lo, hi: first.hi, h: first.h, base: first.base,
			seq: *seq, breakB4: true,
		})
		*seq--
	}
	if tall {
		var blocks []string
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, c := range row {
			var w textWriter
			w.region(bands[c])
			if t := strings.TrimSpace(w.sb.String()); t != "" {
				blocks = append(blocks, t)
			}
			a, b := extent(byCell[c])
			x0, x1 = min(x0, a), max(x1, b)
		}
		if len(blocks) > 0 {
			add(strings.Join(blocks, "\n\n"), x0, x1)
		}
		return out
	}
	for _, c := range row {
		if t := cellText(bands[c], wrap, c); t != "" {
			x0, x1 := extent(byCell[c])
			add(t, x0, x1)
		}
	}
	return out
}

// cellText is a cell's lines, top to bottom, joined by a space (a word
// hyphenated at the cell's edge is joined whole, and so is Korean broken
// inside a word at its edge, c being its index in wrap: wrap.go).
func cellText(bands []band, wrap cellWrap, c int) string {
	var sb strings.Builder
	joined := false
	var prev band
	for _, b := range bands {
		var w textWriter
		hyphen := w.line(b.items, nil)
		s := strings.TrimSpace(w.sb.String())
		if s == "" {
			continue
		}
		if sb.Len() > 0 && !joined && !wrap.insideWord(c, prev, b) {
			sb.WriteByte(' ')
		}
		sb.WriteString(s)
		joined, prev = hyphen, b
	}
	if joined {
		sb.WriteByte('-')
	}
	return sb.String()
}

// rowBand says whether a line is a ruled row (written as its cells).
func rowBand(b band) bool {
	for _, it := range b.items {
		if it.text == "" {
			return false
		}
	}
	return len(b.items) > 0
}
