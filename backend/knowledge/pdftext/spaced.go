package pdftext

import "slices"

// Korean forms and official documents set a short title letter-spaced,
// "신 청 서", "위 임 장", "목 차": with space glyphs between the syllables
// or with wide character spacing and none. Written as drawn, the title is
// not found as a word, and a model reads three syllables. Such a line is
// told from one-syllable words ("그 집 앞") by its gaps alone: all equal
// and clearly wider than a word space. A gap a space wide could be either,
// and keeps its space.
const (
	// minSpacedGap is the narrowest gap, in font sizes, that spaces out
	// letters on a line without space glyphs: a Korean font's word space
	// is 0.25 to 0.5 of its size (Batang and Gulim set half an em).
	minSpacedGap = 0.6
	// spacedOverSpace is how many space glyphs' widths the gap must span
	// on a line that draws them: two spaces between syllables, or one
	// widened by character spacing; a single space is a word's.
	spacedOverSpace = 1.5
	// maxSpacedGap is the widest gap, in font sizes, between the letters
	// of one title: wider ones part the cells of a table's row.
	maxSpacedGap = 4.0
	// spacedSpread is how far, in font sizes, the gaps of a letter-spaced
	// line may differ: the boxes are the advances, so they are equal but
	// for rounding.
	spacedSpread = 0.1
	// maxSpacedSyllables is the longest spaced-out title: longer lines of
	// single syllables are prose or tables that tracking handles.
	maxSpacedSyllables = 12
)

// letterSpaced says whether a line is one Korean word spaced out letter
// by letter: two to maxSpacedSyllables Hangul syllables of one size and
// nothing else but space glyphs, every gap between neighbours the same
// width, at least minSpacedGap wide (or spacedOverSpace times the space
// glyphs drawn in them) and at most maxSpacedGap, none across a table's
// column (bars).
func letterSpaced(items []item, bars [][2]float64) bool {
	var letters []*item
	var spaces []float64
	for i := range items {
		it := &items[i]
		switch {
		case it.space:
			spaces = append(spaces, it.x1-it.x0)
		case it.text != "" || it.r < 0xac00 || it.r > 0xd7a3:
			return false
		default:
			letters = append(letters, it)
		}
	}
	if len(letters) < 2 || len(letters) > maxSpacedSyllables {
		return false
	}
	h := letters[0].h
	if h <= 0 {
		return false
	}
	least := minSpacedGap * h
	if len(spaces) > 0 {
		w := median(spaces)
		if w < wordGap*h {
			return false // spaces of no width say nothing about the gaps
		}
		least = spacedOverSpace * w
	}
	gaps := make([]float64, 0, len(letters)-1)
	for k, it := range letters {
		if it.h < 0.9*h || it.h > 1.1*h {
			return false
		}
		if k == 0 {
			continue
		}
		p := letters[k-1]
		g := it.x0 - p.x1
		if g < least || g > maxSpacedGap*h || bars != nil && overlapsAny([2]float64{p.x1, it.x0}, bars) {
			return false
		}
		gaps = append(gaps, g)
	}
	return slices.Max(gaps)-slices.Min(gaps) <= spacedSpread*h
}
