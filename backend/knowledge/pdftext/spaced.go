package pdftext

import (
	"math"
	"strings"
	"unicode"
)

// Korean forms and official documents set a short title letter-spaced,
// "신 청 서", "위 임 장", "목 차", "申 請 書": with space glyphs between the
// syllables or with wide character spacing and none, often after a
// heading's number ("1. 신 청 서", "제 1 장 총 칙"). The title is written
// as the page shows it and pdftotext writes it, a syllable a word with one
// space between ("신 청 서"), however wide the drawn gap: a keyword search
// still finds "신청서" there, its Hangul bigrams read across single spaces
// (keyword/spacing.go). What the rule keeps is the line's structure: its
// wide gaps are a title's letters, not a table's cells or a page's
// columns, so the title stays one line and one cell, and a form's label
// stays apart from its value. Such a line is told from one-syllable words
// ("그 집 앞") by its gaps alone: the gaps between the title's letters are
// all equal and clearly wider than a word space, and a gap between two of
// its words spans two of them (the letter-spacing on both sides of a word
// space, or a doubled glue). A gap a space wide could be either, and keeps
// its space.
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
	// maxScanGlyphs is how many glyphs of a line are read for a mark, a
	// title and a value's first glyph; a heading's number is much shorter
	// ("1.2.3.4.", "제12장"), and a longer run of digits is no mark.
	maxScanGlyphs = 48
	// maxNoteGlyphs is the longest note in brackets set close after a
	// title, brackets included: "(갑)", "(제1호 서식)".
	maxNoteGlyphs = 12
)

// gapRule is how the gap before a glyph of a letter-spaced line is
// written.
type gapRule int8

const (
	asDrawn   gapRule = iota // no rule: the usual space decision
	letterGap                // letter-spacing inside a word: one space, as pdftotext writes it
	spaceGap                 // between two words, or after a heading's number: one space
	valueGap                 // between a form's label and its value: one space
)

// spacedGaps says how a letter-spaced title's gaps are written, rule[i]
// for the gap before items[i]; nil when the line is no such title. The
// line is an optional heading's number or list mark (headingMark), then
// two to maxSpacedSyllables Hangul syllables or Han characters of one
// size (after the first two, titleSigns too: "수집·이용", "(갑)"),
// nothing else but space glyphs, and optionally after a cell's gap
// whatever a form writes beside its label ("성 명" then "홍길동"). The
// gaps between the title's letters are all the same width L (within
// spacedSpread; the first two letters set it), at least minSpacedGap (or
// spacedOverSpace times the space glyphs drawn before the value) and at
// most maxSpacedGap; a wider gap before a letter that goes on spaced
// (or ends the line) parts two of the title's words and spans two to
// three of them (CSS and Writer space the word space too: L, a space, L;
// TeX's \qquad is two \quad); a gap wider than L and a gutter's width
// after two letters or more, before text not so spaced (or wider than
// a word's gap), starts the value, whose own gaps are written as drawn. The mark's own gaps are the
// title's letters' where they are L too (the heading spaced as a whole,
// "제 2 장 학 적"), and written as drawn otherwise ("제 1 장" typed with
// word spaces keeps them, "제1장" set close stays whole); the gap after it
// is a space where one is drawn or seen, and as drawn otherwise. A gap across a table's
// column (bars) parts two cells of spaced labels ("구 분 | 내 용") or the
// label from its value; a letter's or the mark's gap across one is a
// table's.
func spacedGaps(items []item, bars [][2]float64) []gapRule {
	// The glyphs, spaces aside, as far as a mark and a title reach, and
	// the first of a value after them: the mark's length sets how far
	// that is, so the glyphs are read up to maxScanGlyphs first (the
	// spaces with how many glyphs came before each), up to the first
	// that no title holds (a ruled cell's text, a glyph without text).
	var idx, spaceAt []int
	var spaceW []float64
	stopped := false // a glyph no title holds, or more than maxScanGlyphs, after idx
	for i := range items {
		it := &items[i]
		if it.text != "" || it.r == 0 || !it.space && len(idx) == maxScanGlyphs {
			stopped = true
			break
		}
		if it.space {
			spaceAt, spaceW = append(spaceAt, len(idx)), append(spaceW, it.x1-it.x0)
			continue
		}
		idx = append(idx, i)
	}
	if len(idx) < 2 {
		return nil
	}
	rs := make([]rune, len(idx))
	for k, i := range idx {
		rs[k] = items[i].r
	}
	mark := headingMark(rs)
	head := mark + maxSpacedSyllables + 1
	if len(idx)-mark < 2 || head > maxScanGlyphs || stopped && len(idx) < head {
		return nil
	}
	more := stopped || len(idx) > head // the line goes on past the head
	idx = idx[:min(len(idx), head)]
	var spaces []float64
	for k, at := range spaceAt {
		if at < head {
			spaces = append(spaces, spaceW[k])
		}
	}
	h := items[idx[mark]].h
	if h <= 0 {
		return nil
	}
	letter := func(k int) bool { // a title's letter of the title's size
		it := items[idx[k]]
		in := titleLetter(it.r) || k > mark+1 && strings.ContainsRune(titleSigns, it.r)
		return in && it.h >= 0.9*h && it.h <= 1.1*h
	}
	for k := range mark {
		// The mark may be set in a Latin font whose boxes are taller
		// (Latin Modern's digits beside ko.TeX's Hangul: 1.4 font sizes).
		if it := items[idx[k]]; it.h < 0.6*h || it.h > 1.6*h {
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
	l := gap(mark + 1) // L: the first two letters' gap
	if !letter(mark) || !letter(mark+1) || l < least || l > maxSpacedGap*h {
		return nil
	}
	evenGap := func(k int) bool { return k < len(idx) && math.Abs(gap(k)-l) <= spacedSpread*h && letter(k) }
	rule := make([]gapRule, len(items))
	for k := 1; k < len(idx); k++ {
		p, q := items[idx[k-1]], items[idx[k]]
		g := gap(k)
		barred := bars != nil && overlapsAny([2]float64{p.x1, q.x0}, bars)
		last := k == len(idx)-1 && !more
		switch {
		case k <= mark:
			if barred {
				return nil
			}
			switch {
			case k < mark && math.Abs(g-l) <= spacedSpread*h && g >= least:
				rule[idx[k]] = letterGap
			case k == mark && (g > wordGap*h || q.spaceB4 || idx[k]-idx[k-1] > 1):
				rule[idx[k]] = spaceGap
			}
		case k-mark >= maxSpacedSyllables:
			return nil
		case evenGap(k):
			if barred {
				return nil // a table's cells, not a title's letters
			}
			rule[idx[k]] = letterGap
		case letter(k) && g >= 2*l-spacedSpread*h && g <= 3*l+spacedSpread*h && (last || evenGap(k+1)):
			rule[idx[k]] = spaceGap // between two words, or two cells of spaced labels
		case k-mark >= 2 && g > l+spacedSpread*h && g >= minGutter*h && (g > 3*l+spacedSpread*h || k+1 < len(idx) && gap(k+1) < least):
			rule[idx[k]] = valueGap // a form's value beside its label
			return rule
		case k-mark >= 2 && g < l-spacedSpread*h && !more && closeNote(rs[k:len(idx)]):
			return rule // a note in brackets set close after it, "신 청 서(갑)": as drawn
		default:
			return nil
		}
	}
	if more {
		return nil
	}
	return rule
}

// closeNote says whether a line's last glyphs are one note in brackets,
// "(갑)", "[별지 제1호 서식]" (its spaces aside), set after a spaced title
// closer than the title's letters: Hancom and Writer space out a title's
// letters and leave the note after it as typed.
func closeNote(rs []rune) bool {
	n := len(rs)
	if n < 3 || n > maxNoteGlyphs {
		return false
	}
	i := strings.IndexRune(noteOpen, rs[0])
	if i < 0 || rs[n-1] != []rune(noteClose)[i] {
		return false
	}
	for _, r := range rs[1 : n-1] {
		if strings.ContainsRune(noteOpen, r) || strings.ContainsRune(noteClose, r) {
			return false
		}
	}
	return true
}

// noteOpen and noteClose are the brackets of a note after a title, a
// closing one at the same place as its opening one.
const (
	noteOpen  = "([〈《「『【"
	noteClose = ")]〉》」』】"
)

// titleLetter says whether a spaced title may hold r: a Hangul syllable
// or a Han character (申 請 書).
func titleLetter(r rune) bool {
	return hangulSyllable(r) || unicode.Is(unicode.Han, r)
}

// titleSigns are the signs a spaced title may hold after its first two
// letters, spaced out as its letters are: middle dots between words
// ("개인정보 수집·이용 동의서", with Hangul's ㆍ and the full-width one) and
// brackets ("신 청 서 ( 갑 )").
const titleSigns = "·ㆍ・‧()[]〈〉《》「」『』"

// listSyllables are the syllables Korean lists count with ("가.", "나)").
const listSyllables = "가나다라마바사아자차카타파하"

// headingMark is how many of a line's glyphs (spaces aside) are a
// heading's number or a list's mark before its title: "1.", "1)",
// "1.2.", "(1)", "가.", "(가)", "①", "Ⅰ.", "□", "·", "-", "제1장" ("제 1 장", with
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
	case strings.ContainsRune("□■○●◦▪◆◇※▶►•·ㆍ-–", r):
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
