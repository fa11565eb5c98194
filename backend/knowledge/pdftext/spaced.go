package pdftext

import (
	"strings"
	"unicode"
)

// Korean forms and official documents set a short title letter-spaced,
// "신 청 서", "위 임 장", "목 차", "申 請 書": with space glyphs between the
// syllables or with wide character spacing and none, often after a
// heading's number ("1. 신 청 서", "제 1 장 총 칙"). Written as drawn, the
// title is not found as a word, and a model reads three syllables. Such a
// line is told from one-syllable words ("그 집 앞") by its gaps alone: the
// gaps between the title's letters are all equal and clearly wider than a
// word space, and a gap between two of its words spans two of them (the
// letter-spacing on both sides of a word space, or a doubled glue). A gap
// a space wide could be either, and keeps its space.
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
	// maxMarkGlyphs is the longest heading's number before a title
	// ("1.2.3.", "제12장").
	maxMarkGlyphs = 6
)

// gapRule is how the gap before a glyph of a letter-spaced line is
// written.
type gapRule int8

const (
	asDrawn  gapRule = iota // no rule: the usual space decision
	joinGap                 // letter-spacing inside a word: no space
	spaceGap                // between two words, or after a heading's number: one space
)

// spacedGaps says how a letter-spaced title's gaps are written, rule[i]
// for the gap before items[i]; nil when the line is no such title. The
// line is an optional heading's number or list mark (headingMark) and
// then two to maxSpacedSyllables Hangul syllables or Han characters of
// one size, nothing else but space glyphs; the gaps between the title's
// letters are all the same width L (within spacedSpread), at least
// minSpacedGap (or spacedOverSpace times the space glyphs drawn on the
// line) and at most maxSpacedGap, and a wider gap, between two of its
// words, spans two to three of them (CSS and Writer space the word space
// too: L, a space, L; TeX's \qquad is two \quad). The mark's own gaps are
// joined where they are L too (the heading spaced as a whole), and
// written as drawn otherwise ("제 1 장" typed with word spaces keeps
// them); the gap after it is a space where one is drawn or seen. A gap
// across a table's column (bars) parts two cells of spaced labels ("구 분
// | 내 용"); a letter's or the mark's gap across one is a table's.
func spacedGaps(items []item, bars [][2]float64) []gapRule {
	var idx []int // the glyphs, spaces aside
	var spaces []float64
	for i := range items {
		it := &items[i]
		switch {
		case it.text != "" || it.r == 0:
			return nil
		case it.space:
			spaces = append(spaces, it.x1-it.x0)
		case len(idx) == maxSpacedSyllables+maxMarkGlyphs:
			return nil // prose
		default:
			idx = append(idx, i)
		}
	}
	if len(idx) < 2 {
		return nil
	}
	rs := make([]rune, len(idx))
	for k, i := range idx {
		rs[k] = items[i].r
	}
	mark := headingMark(rs)
	title := idx[mark:]
	if len(title) < 2 || len(title) > maxSpacedSyllables {
		return nil
	}
	h := items[title[0]].h
	if h <= 0 {
		return nil
	}
	for k, i := range idx {
		// The mark may be set in a Latin font whose boxes are taller
		// (Latin Modern's digits beside ko.TeX's Hangul: 1.4 font sizes).
		lo, hi := 0.9, 1.1
		if k < mark {
			lo, hi = 0.6, 1.6
		}
		if it := items[i]; it.h < lo*h || it.h > hi*h {
			return nil
		}
	}
	for _, i := range title {
		if !titleLetter(items[i].r) {
			return nil
		}
	}
	least := minSpacedGap * h
	if len(spaces) > 0 {
		w := median(spaces)
		if w < wordGap*h {
			return nil // spaces of no width say nothing about the gaps
		}
		least = spacedOverSpace * w
	}
	gap := func(k int) float64 { return items[idx[k]].x0 - items[idx[k-1]].x1 }
	// L is the narrowest gap between the title's letters.
	l := gap(mark + 1)
	for k := mark + 2; k < len(idx); k++ {
		l = min(l, gap(k))
	}
	if l < least || l > maxSpacedGap*h {
		return nil
	}
	letterGap := func(g float64) bool { return g-l <= spacedSpread*h }
	rule := make([]gapRule, len(items))
	for k := 1; k < len(idx); k++ {
		p, q := items[idx[k-1]], items[idx[k]]
		g := gap(k)
		barred := bars != nil && overlapsAny([2]float64{p.x1, q.x0}, bars)
		switch {
		case barred && (k <= mark || letterGap(g)):
			return nil // a table's cells, not a title's letters
		case barred:
			rule[idx[k]] = spaceGap // between two cells of spaced labels ("구 분 | 내 용")
		case k < mark:
			if letterGap(g) && g >= least {
				rule[idx[k]] = joinGap
			}
		case k == mark:
			if g > wordGap*h || q.spaceB4 || idx[k]-idx[k-1] > 1 {
				rule[idx[k]] = spaceGap
			} else {
				rule[idx[k]] = joinGap
			}
		case letterGap(g):
			rule[idx[k]] = joinGap
		case g >= 2*l-spacedSpread*h && g <= 3*l+spacedSpread*h:
			rule[idx[k]] = spaceGap
		default:
			return nil
		}
	}
	return rule
}

// titleLetter says whether a spaced title may hold r: a Hangul syllable
// or a Han character (申 請 書).
func titleLetter(r rune) bool {
	return hangulSyllable(r) || unicode.Is(unicode.Han, r)
}

// listSyllables are the syllables Korean lists count with ("가.", "나)").
const listSyllables = "가나다라마바사아자차카타파하"

// headingMark is how many of a line's glyphs (spaces aside) are a
// heading's number or a list's mark before its title: "1.", "1)",
// "1.2.", "(1)", "가.", "(가)", "①", "Ⅰ.", "□", "제1장" ("제 1 장", with
// 절, 조, 편, 관, 항, 부 too); 0 for none.
func headingMark(rs []rune) int {
	n := len(rs)
	digits := func(i int) int { // the end of the digits from i
		for i < n && unicode.IsDigit(rs[i]) {
			i++
		}
		return i
	}
	closing := func(i int) int { // an optional "." or ")" at i
		if i < n && (rs[i] == '.' || rs[i] == ')') {
			return i + 1
		}
		return i
	}
	switch r := rs[0]; {
	case strings.ContainsRune("□■○●◦▪◆◇※▶►•", r):
		return 1
	case r >= '①' && r <= '⑳', r >= 'Ⅰ' && r <= 'Ⅻ':
		return closing(1)
	case unicode.IsDigit(r):
		i := digits(0)
		for i+1 < n && rs[i] == '.' && unicode.IsDigit(rs[i+1]) {
			i = digits(i + 1)
		}
		return closing(i)
	case r == '제':
		if i := digits(1); i > 1 && i < n && strings.ContainsRune("장절조편관항부", rs[i]) {
			return closing(i + 1)
		}
	case strings.ContainsRune(listSyllables, r):
		if n > 1 && (rs[1] == '.' || rs[1] == ')') {
			return 2
		}
	case r == '(':
		if n > 2 && rs[2] == ')' && (unicode.IsDigit(rs[1]) || strings.ContainsRune(listSyllables, rs[1])) {
			return 3
		}
	}
	return 0
}
