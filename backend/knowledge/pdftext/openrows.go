package pdftext

// An open table's rows, told apart by their lines (see open.go): each
// line's text by column (columnEdges.cells), where each column's lines
// end (a cell's line that ran to its column's edge goes on below), and
// the lines that start a row of their own (a group's heading).

import (
	"strings"
	"unicode"
)

// lineCell is a line's text in one column of an open table: where it
// starts and ends, the width of its first word, its font size.
type lineCell struct {
	has          bool
	x0, x1, word float64
	h            float64
	base         float64 // the baseline of its first letter (a digit's box in another font may sit lower)
}

// columnEdges is what an open table's columns say about where their
// cells' lines end.
type columnEdges struct {
	ncols int
	colOf func(item) int
	// right is where the column's longest line ends; justified, whether
	// two of its lines end there (a justified column: LaTeX's p{} and
	// m{}, whose wrapped lines all run to the edge).
	right     []float64
	justified []bool
}

// newColumnEdges measures the columns of a table's lines.
func newColumnEdges(slabs [][]band, ncols int, colOf func(item) int) columnEdges {
	e := columnEdges{ncols: ncols, colOf: colOf, right: make([]float64, ncols), justified: make([]bool, ncols)}
	var ends [][]lineCell
	for _, bands := range slabs {
		for _, b := range bands {
			cs := e.cells(b)
			for c, lc := range cs {
				if lc.has {
					e.right[c] = max(e.right[c], lc.x1)
				}
			}
			ends = append(ends, cs)
		}
	}
	for c := range ncols {
		n := 0
		for _, cs := range ends {
			if cs[c].has && e.right[c]-cs[c].x1 < 0.05*cs[c].h {
				n++
			}
		}
		e.justified[c] = n >= 2
	}
	return e
}

// cells returns a line's text by column.
func (e columnEdges) cells(b band) []lineCell {
	cs := make([]lineCell, e.ncols)
	prev := make([]*item, e.ncols)    // the column's glyph before
	ended := make([]bool, e.ncols)    // the column's first word has ended
	lettered := make([]bool, e.ncols) // the column's base is a letter's
	for i := range b.items {
		it := &b.items[i]
		if it.r == 0 {
			continue
		}
		c := e.colOf(*it)
		lc := &cs[c]
		if it.space {
			ended[c] = ended[c] || lc.has
			continue
		}
		if !lc.has {
			lc.has, lc.x0, lc.x1, lc.word, lc.h, lc.base = true, it.x0, it.x1, it.x1-it.x0, it.h, it.base
			lettered[c] = unicode.IsLetter(it.r)
			prev[c] = it
			continue
		}
		if !lettered[c] && unicode.IsLetter(it.r) {
			lc.base, lettered[c] = it.base, true // "(본관)", "12 양호": the letter's
		}
		if p := prev[c]; !ended[c] && spaceBetween(*p, *it, 0) {
			ended[c] = true
		}
		lc.x0, lc.x1, lc.h = min(lc.x0, it.x0), max(lc.x1, it.x1), max(lc.h, it.h)
		if !ended[c] {
			lc.word = it.x1 - lc.x0
		}
		prev[c] = it
	}
	return cs
}

// ranToEdge says whether a cell's line q ran to its column's edge, so that
// the cell goes on on the next line, whose text in the column is n: in a
// justified column it ends at the edge; in a ragged one, n's first word
// would not have fitted after it.
func (e columnEdges) ranToEdge(c int, q, n lineCell) bool {
	room := e.right[c] - q.x1
	if e.justified[c] {
		return room < 0.1*q.h
	}
	return room < n.word+0.5*q.h
}

// openRow is a row of an open table: its lines, its columns with text, and
// the last line of its text in each column.
type openRow struct {
	lines []band
	cols  []bool
	last  []lineCell
	apart bool // a line in the first column set apart from the row above: a group's heading
}

// splitRows tells a slab's rows apart by their lines. A line continues the
// row above when it lies within openPitch of the line above and its text
// goes on the row's cells: in each column where both have text, the row's
// last line there ran to the column's edge (ranToEdge: a cell's wrapped
// line); in a column where the row has none yet, the row is still open
// (a vertically centred cell's one line beside a wrapped cell, LaTeX's
// m{}). A line with text in the same columns as the row is a row of its
// own (two columns of prose), and so is a line under a row that ended: a
// row whose right-hand cell is empty, under a row of one line, reads on
// its own. A slab one of whose rows would have text in one column only is
// one row when one line of it has text in two columns (an HTML row whose
// one-line cells are centred beside a wrapped one), and no table
// otherwise.
//
// A line that lies further below the row's last line in a column than a
// cell's wrapped lines lie apart (limit, in font sizes: a row's padding,
// \arraystretch, booktabs' \addlinespace before a group) starts a row: a
// group's heading without a list's mark ("전기 설비") under a row whose
// first cell it would otherwise go on. pitches, when not nil, gets the
// pitch of every line that goes on a row's cell by its edges.
func splitRows(bands []band, e columnEdges, limit float64, pitches *[]float64) ([]openRow, bool) {
	var rows []openRow
	var prev []bool // the columns of the line above
	multi := 0
	for i, b := range bands {
		lc := e.cells(b)
		cs := make([]bool, e.ncols)
		for c := range lc {
			cs[c] = lc[c].has
		}
		if countTrue(cs) > 1 {
			multi++
		}
		n := len(rows)
		near := n > 0 && bands[i-1].base-b.base <= openPitch*max(b.h, bands[i-1].h)
		// A line with text in one column only is no row of its own: where
		// it does not go on the row's cells by their edges (a line broken
		// by hand, \newline or <br>, or a column whose one-line cells are
		// all as long), it continues the row as a cell's line does, under
		// a line with text in its column, lacking one of the row's first
		// line's columns.
		edges := near && e.continues(rows[n-1], lc, limit)
		if edges && pitches != nil {
			for c, q := range rows[n-1].last {
				if q.has && lc[c].has {
					*pitches = append(*pitches, (q.base-lc[c].base)/max(q.h, lc[c].h))
				}
			}
		}
		cellLn := near && countTrue(cs) == 1 && !groupHeading(b, cs) && cellLine(prev, rows[n-1].lines[0], cs, e)
		if edges || cellLn && within(rows[n-1], lc, limit) {
			r := &rows[n-1]
			r.lines = append(r.lines, b)
			for c, has := range cs {
				r.cols[c] = r.cols[c] || has
				if has {
					r.last[c] = lc[c]
				}
			}
		} else {
			// A line in the first column only that starts a row where a
			// cell's line would have gone on it but for its distance, or
			// at the slab's top or far under the line above, may be a
			// group's heading.
			apart := countTrue(cs) == 1 && cs[0] && (n == 0 || !near || cellLn)
			rows = append(rows, openRow{lines: []band{b}, cols: cs, last: lc, apart: apart})
		}
		prev = cs
	}
	// A group's heading ("가. 전기 설비": a cell spanning the row, in its
	// first column, with a list's mark or set apart from the row above)
	// is a row of its own among rows of two columns or more, and so is a
	// slab of one line in the first column (an HTML row with a border
	// under it).
	for _, r := range rows {
		if countTrue(r.cols) > 1 || len(r.lines) == 1 && countTrue(r.cols) == 1 && r.cols[0] && (len(bands) == 1 || multi >= minTableRows && (r.apart || groupHeading(r.lines[0], r.cols))) {
			continue
		}
		if multi != 1 {
			return nil, false
		}
		one := openRow{lines: bands, cols: make([]bool, e.ncols)}
		for _, r := range rows {
			for c, has := range r.cols {
				one.cols[c] = one.cols[c] || has
			}
		}
		return []openRow{one}, true
	}
	return rows, true
}

// groupHeading says whether a line with text in columns cs is a group's
// heading in a table's first column: it starts with a list's mark ("가.",
// "1.", "(1)", "①", "Ⅰ.", "□", "○"), as Korean reports head a group
// of rows. A cell's line broken by hand rarely does.
func groupHeading(b band, cs []bool) bool {
	if len(cs) == 0 || !cs[0] {
		return false
	}
	var rs []rune
	for _, it := range b.items {
		if !it.space && it.r != 0 && it.r != cellRune {
			rs = append(rs, it.r)
		}
		if len(rs) == 4 {
			break
		}
	}
	if len(rs) < 2 {
		return false
	}
	switch r := rs[0]; {
	case strings.ContainsRune("□■○●◦▪◆◇※", r), r >= '①' && r <= '⑳', r >= 'Ⅰ' && r <= 'Ⅻ':
		return true
	case strings.ContainsRune("가나다라마바사아자차카타파하", r) || unicode.IsDigit(r):
		i := 1
		for i < len(rs)-1 && unicode.IsDigit(rs[i]) && unicode.IsDigit(r) {
			i++
		}
		return rs[i] == '.' || rs[i] == ')'
	case r == '(':
		return len(rs) >= 3 && rs[2] == ')' && (unicode.IsDigit(rs[1]) || strings.ContainsRune("가나다라마바사아자차카타파하", rs[1]))
	}
	return false
}

// cellLine says whether a line with text in columns cs lies under text in
// each of them (prev, the line above's columns) and lacks a column of the
// row's first line: a cell's line, not a row.
func cellLine(prev []bool, first band, cs []bool, e columnEdges) bool {
	lacks := false
	for c, lc := range e.cells(first) {
		if lc.has && !cs[c] {
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

// within says whether a line whose text by column is lc lies within limit
// font sizes under row r's last line in each column both have text in.
func within(r openRow, lc []lineCell, limit float64) bool {
	for c, n := range lc {
		if q := r.last[c]; q.has && n.has && q.base-n.base > limit*max(q.h, n.h) {
			return false
		}
	}
	return true
}

// continues says whether a line whose text by column is lc goes on row r
// (see splitRows), no further than limit under it.
func (e columnEdges) continues(r openRow, lc []lineCell, limit float64) bool {
	if !within(r, lc, limit) {
		return false
	}
	differs, goesOn := false, false
	for c, n := range lc {
		q := r.last[c]
		switch {
		case !n.has:
			differs = differs || q.has
		case !q.has:
			differs = true
		case !e.ranToEdge(c, q, n):
			return false
		default:
			goesOn = true
		}
	}
	if !differs {
		return false
	}
	if goesOn {
		return true
	}
	for c, q := range r.last { // only new columns: the row must be open
		if q.has && e.ranToEdge(c, q, lineCell{}) {
			return true
		}
	}
	return false
}

// countTrue counts the columns with text.
func countTrue(cs []bool) int {
	n := 0
	for _, c := range cs {
		if c {
			n++
		}
	}
	return n
}
