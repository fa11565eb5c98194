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
// the next; letters[k] says whether gap k lies between a letter-spaced
// title's letters (spaced, the line's spacedGaps; nil for none).
func cellGaps(items []item, spaced []gapRule) (gaps [][2]float64, letters []bool) {
	var prev *item
	for i := range items {
		it := &items[i]
		if it.space {
			continue
		}
		if prev != nil && cellGap(*prev, *it) {
			gaps = append(gaps, [2]float64{prev.x1, it.x0})
			letters = append(letters, spaced != nil && spaced[i] == joinGap)
		}
		prev = it
	}
	return gaps, letters
}

// alignedGaps returns, line by line, the gaps that overlap one of
// partners' spans on the line before or after, or none where these are half
// of the line's gaps or fewer. Two letter-spaced titles (titles) are no
// partners: centred one under the other ("신 청 서" over "위 임 장"), their
// letters' gaps line up as a table's columns do. A gap between a title's
// letters (letters) that lines up with none is not counted against the
// line's other gaps: "구 분 내 용", a table's header of spaced labels,
// has its cells' gap under the rows' and its letters' gaps over their
// text; where the letters' gaps line up too ("갑 을 병" over a row of
// figures), the line is a table's row.
func alignedGaps(gaps, partners [][][2]float64, titles []bool, letters [][]bool) [][][2]float64 {
	out := make([][][2]float64, len(gaps))
	partner := func(i, j int) bool { return j >= 0 && j < len(gaps) && !(titles[i] && titles[j]) }
	for i := range gaps {
		var kept [][2]float64
		n := 0
		for k, g := range gaps[i] {
			if (partner(i, i-1) && overlapsAny(g, partners[i-1])) || (partner(i, i+1) && overlapsAny(g, partners[i+1])) {
				kept = append(kept, g)
			} else if letters[i][k] {
				continue
			}
			n++
		}
		if 2*len(kept) > n {
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
