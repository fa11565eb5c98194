package pdftext

// Table cells: which wide gaps of a line are the space between a table's
// cells, written as cellSep, and which are only wide spaces of prose.

import "unicode"

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
