package pdftext

// Korean broken inside a word at a cell's edge.
//
// A table cell's lines are read as one line, joined by a space (cellText).
// Korean set without keep-all (Chromium's and wkhtmltopdf's default,
// ko.TeX, Hancom's "글자 단위" wrapping) breaks a line at any syllable, so
// the space went inside a word ("누전 차 단기"), and a phrase search or a
// model saw two words. PDFium cannot say whether a space stood at the
// break; the geometry can, most of the time. A wrapper that breaks by
// syllable fills each line to its edge, leaving less than a syllable's
// width; one that breaks at spaces leaves whatever the next word needed.
// So a break is taken as inside a word when both sides are Hangul and the
// line above runs to the cell's edge (less than a syllable left), unless
// the table shows that it breaks at spaces: a line that left room for the
// next line's first syllable, and a space before it, where a wrapper by
// syllable would have put that syllable (wordWrapped). What geometry
// cannot tell: a wrapper by syllable that met a space just at the edge
// ("방수 / 시험") looks the same, and that space is lost ("방수시험"), a
// smaller harm to a Korean reader and to search (which joins bigrams
// across spaces) than a space inside most broken words; the words
// themselves tell where a line ends in a particle that ends its word
// ("저항을 / 누전", particleBreak), and the space is kept there.
//
// Paragraphs outside tables keep their line ends as "\n": a line end
// claims no space, the keyword index reads a Hangul bigram across it
// (keyword/spacing.go, oneBreak), and pdftotext, the recall reference,
// keeps it too.

import (
	"math"
	"sort"
	"strings"
)

// wrapRoom is how many syllables' widths a line may leave at its cell's
// edge and still run to it: a wrapper by syllable leaves less than one.
const wrapRoom = 1.0

// wordRoom is how many syllables' widths a line must leave before a line
// that starts with two Hangul syllables to show a wrapper by words: one
// by syllable would have set the next syllable there, after a space if
// one stood before it (a quarter of a syllable or so).
const wordRoom = 1.5

// cellWrap is what a table's cells say about their wrapping, by the index
// its rows give a cell: where the cell's text starts and ends (NaN where
// unknown), and the width of a Hangul syllable, 0 where a break is never
// taken as inside a word.
type cellWrap struct {
	left, right []float64
	syl         []float64
}

// room is the white a line of cell c leaves between its text and the
// cell's edges: at the right of a left-aligned line, on both sides of a
// centred one. NaN where the edges are unknown.
func (w cellWrap) room(c int, b band) float64 {
	if c >= len(w.left) {
		return math.NaN()
	}
	first, last, ok := ends(b)
	if !ok {
		return math.NaN()
	}
	return w.right[c] - last.x1 + max(0, first.x0-w.left[c])
}

// hangulSyllable says whether r is a precomposed Hangul syllable.
func hangulSyllable(r rune) bool { return r >= 0xac00 && r <= 0xd7a3 }

// ends returns a line's first and last glyphs with text.
func ends(b band) (first, last item, ok bool) {
	for _, it := range b.items {
		if it.space || it.r == 0 {
			continue
		}
		if !ok || it.x0 < first.x0 {
			first = it
		}
		if !ok || it.x1 > last.x1 {
			last = it
		}
		ok = true
	}
	return first, last, ok
}

// syllableWidth is the median width of the Hangul syllables among cells'
// lines, 0 when they have none.
func syllableWidth(cells [][]band) float64 {
	var ws []float64
	for _, bands := range cells {
		for _, b := range bands {
			for _, it := range b.items {
				if !it.space && hangulSyllable(it.r) && it.x1 > it.x0 {
					ws = append(ws, it.x1-it.x0)
				}
			}
		}
	}
	if len(ws) == 0 {
		return 0
	}
	sort.Float64s(ws)
	return ws[len(ws)/2]
}

// wordWrapped says whether cells (lines by cell, measured by w) show a
// wrapper by words: a line that left wordRoom syllables before a line
// that starts with two syllables, or a line justified by widening its
// word spaces by wordRoom syllables in all (justifiedRoom).
func wordWrapped(cells [][]band, idx []int, w cellWrap, syl float64) bool {
	for _, c := range idx {
		bands := cells[c]
		for i := 0; i+1 < len(bands); i++ {
			if r := w.room(c, bands[i]); r >= wordRoom*syl && twoSyllables(bands[i+1]) {
				return true
			}
		}
	}
	return justifiedRoom(cells, idx) >= wordRoom*syl
}

// justifiedRoom is the most white a line of the cells idx spreads over its
// word spaces: the line's typical word gap (the median) less the lower
// quartile of all their lines' typical gaps (paragraphs' last lines, set
// as typed; the quartile, not the least, as a line of Latin or figures
// may set its spaces narrower), times its gaps. Hancom justifies a cell's
// lines by default and wraps Korean at spaces (어절 단위), so every line
// but a paragraph's last runs to the cell's edge, as a wrapper by
// syllable's lines do, and the room the next word needed is spread over
// the spaces; a wrapper by syllable spreads less than a syllable. 0 where
// no line has word gaps.
func justifiedRoom(cells [][]band, idx []int) float64 {
	type line struct {
		gap float64
		n   int
	}
	var lines []line
	var gaps []float64
	for _, c := range idx {
		for _, b := range cells[c] {
			var gs []float64
			var prev *item
			for k := range b.items {
				it := &b.items[k]
				if it.space || it.r == 0 {
					continue
				}
				if prev != nil {
					if g := it.x0 - prev.x1; g > wordGap*max(it.h, prev.h) {
						gs = append(gs, g)
					}
				}
				prev = it
			}
			if len(gs) == 0 {
				continue
			}
			sort.Float64s(gs)
			l := line{gs[len(gs)/2], len(gs)}
			gaps = append(gaps, l.gap)
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return 0
	}
	sort.Float64s(gaps)
	least := gaps[len(gaps)/4]
	most := 0.0
	for _, l := range lines {
		most = max(most, (l.gap-least)*float64(l.n))
	}
	return most
}

// twoSyllables says whether a line starts with two Hangul syllables, so
// that a wrapper by syllable could have moved the first up.
func twoSyllables(b band) bool {
	var rs []item
	for _, it := range b.items {
		if !it.space && it.r != 0 {
			rs = append(rs, it)
		}
	}
	if len(rs) < 2 {
		return false
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].x0 < rs[j].x0 })
	return hangulSyllable(rs[0].r) && hangulSyllable(rs[1].r) && !rs[0].spaceB4Of(rs[1])
}

// spaceB4Of says whether a space stands between it and the next glyph q
// of its line: a drawn space, one PDFium read, or a gap of a word space.
func (it item) spaceB4Of(q item) bool {
	return q.spaceB4 || q.x0-it.x1 > wordGap*max(it.h, q.h)
}

// newCellWrap measures a table's cells: lines by cell, their text's
// edges, and the column each is in. Broken words are joined only in
// cells with Hangul, and in none of a column that shows a wrapper by
// words (a column of centred labels wrapped at spaces beside one of
// sentences wrapped by syllable).
func newCellWrap(cells [][]band, left, right []float64, column []int) cellWrap {
	w := cellWrap{left: left, right: right, syl: make([]float64, len(cells))}
	syl := syllableWidth(cells)
	if syl == 0 {
		return w
	}
	byCol := map[int][]int{}
	for c, col := range column {
		byCol[col] = append(byCol[col], c)
	}
	for _, idx := range byCol {
		if wordWrapped(cells, idx, w, syl) {
			continue
		}
		for _, c := range idx {
			w.syl[c] = syl
		}
	}
	return w
}

// insideWord says whether the break between lines p and n of cell c was
// inside a word: both sides Hangul, no space drawn at p's end, and p run
// to the cell's edges (less than wrapRoom syllables left).
func (w cellWrap) insideWord(c int, p, n band) bool {
	if c >= len(w.syl) || w.syl[c] == 0 {
		return false
	}
	pFirst, last, ok := ends(p)
	first, _, ok2 := ends(n)
	if !ok || !ok2 || !hangulSyllable(last.r) || !hangulSyllable(first.r) {
		return false
	}
	if pFirst == last {
		// A line of one syllable: a label written down its cell ("신" over
		// "청" over "인"), which pdftotext writes a syllable a word, as
		// the page shows it; the keyword index reads "신 청 인" as the
		// word (keyword/spacing.go).
		return false
	}
	if k := len(p.items) - 1; k >= 0 && p.items[k].space && p.items[k].x0 >= last.x1 {
		return false
	}
	if particleBreak(last.r, first.r, afterKoreanWord(p, last)) {
		return false
	}
	return w.room(c, p) < wrapRoom*w.syl[c]
}

// particleBreak says whether a line that ends in syllable last before a
// line that starts with first broke at a space although it ran to the
// cell's edge: last ends a word ("을", "를", "은", "는", "및", and "할",
// "될" before "수", "것", …) and first does not go on with it ("하는지",
// "있는데", "않는다", "있는가", "장단점", "할당", "할인"). In the Korean
// of testdata/ko/corpus.jsonl a space follows such a pair 99.8 % of the
// time (19,569 of 19,617). A wrapper by syllable meets a space at the
// edge about one break in three (a space and the syllable after it fit
// a wider place than a syllable alone); joined there, the space was lost
// (tables.md).
//
// Three more pairs keep their space on the same evidence, measured on
// the corpus and checked on Korean of other kinds (the question set
// testdata/ko/queries.jsonl, the window's words in ko.json, the
// evaluation PDFs' Korean as pdftotext reads it): "된" ending a word
// (a space follows 834 times in 835 in the corpus, 64 in 64 in the
// others), "수" before "있" or "없" ("할 수 / 있다": 2,193 in 2,194, 232
// in 232) and "야" before "하", "한", "합" or "할" ("해야 / 한다": 311
// in 314, 57 in 57). "의", "한" and "로" end words as often but also
// start them ("의미", "한다", "로그"): with the corpus's commonest such
// pairs set aside, the other Korean still joined them inside words
// about one time in ten ("질의응답", "한꺼번에") for "의" and "한", and
// one in a hundred for "로", so their breaks are still joined
// (tables.md).
//
// "된" also begins nouns ("된장", "된서리", "된소리", "된바람", "된밥",
// "된비알", "된통"), none of them in the corpus, the question set, ko.json
// or the evaluation PDFs, where "된" ending a word is followed by a space
// and "장" 0 times in 1,033, by "서", "소" or "바" 23 times ("제공된
// 서비스", "배포된 소프트웨어", "기술된 바와"), and "된" alone after a
// Korean word (23 times) by none of doenNouns. So "된" before "장" joins
// ("국산 된 / 장", "집된 / 장"), and "된" standing as a word of its own
// after a Korean word, which is where those nouns begin, joins before
// any of doenNouns ("지난 된 / 서리"); "확인된 / 서비스" keeps its
// space, as does "freeze 된 / 소프트웨어", "된" there a Latin verb's
// ending (twice in the corpus). alone says last is a word
// of its own after a Korean word on its line (afterKoreanWord).
func particleBreak(last, first rune, alone bool) bool {
	switch {
	case last == '된' && (first == '장' || alone && strings.ContainsRune(doenNouns, first)):
		return false
	case strings.ContainsRune("을를은는및할될된", last):
		return !strings.ContainsRune("지데다가점당인", first)
	case last == '수':
		return first == '있' || first == '없'
	case last == '야':
		return strings.ContainsRune("하한합할", first)
	}
	return false
}

// doenNouns are the second syllables of the nouns that begin with "된"
// (된장, 된서리 and 된서방, 된소리, 된바람, 된밥, 된비알, 된통).
const doenNouns = "장서소바밥비통"

// afterKoreanWord says whether item last begins a word of its own that
// follows a Korean word on line b: the glyph before it is a Hangul
// syllable, parted from it by a space glyph or a gap of a fifth of its
// font size ("지난 된", not "확인된", nor "freeze 된").
func afterKoreanWord(b band, last item) bool {
	var prev item
	found := false
	for _, it := range b.items {
		if !it.space && it.r != 0 && it.x0 < last.x0 && (!found || it.x1 > prev.x1) {
			prev, found = it, true
		}
	}
	if !found || !hangulSyllable(prev.r) {
		return false
	}
	if last.x0-prev.x1 > 0.2*last.h {
		return true
	}
	for _, it := range b.items {
		if it.space && it.x0 >= prev.x1-0.1*last.h && it.x1 <= last.x0+0.1*last.h {
			return true
		}
	}
	return false
}
