package pdftext

// Table cells: which wide gaps of a line are the space between a table's
// cells, written as cellSep, and which are only wide spaces of prose.

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

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
// the next; kinds[k] is how a letter-spaced title writes gap k (spaced,
// the line's spacedGaps; asDrawn on any other line); opts[k] says
// whether gap k parts two options of one check box question ("□ 예   □
// 아니오", options), which is no cell gap where every line with a gap
// there parts options too (dropOptions).
//
// On a line spaced out letter by letter that is no title (a notice set
// with wide character spacing, its letters spacedOut apart or more), a
// word's gap is two letter gaps and a space wide, as wide as a table's
// between its cells; two such lines whose words are as long ("제 출 된
// 서 류 는" over "자 세 한 사 항 은") read as a table's rows. There a cell's
// gap is measured without the two letter gaps.
func cellGaps(items []item, spaced []gapRule) (gaps [][2]float64, kinds []gapRule, opts []bool) {
	var prev *item
	var after []int     // the glyph after each gap
	var sizes []float64 // the larger of the two glyphs' sizes beside each gap
	spread := 0.0
	if spaced == nil {
		if t := tracking(items); t >= spacedOut {
			spread = 2 * t
		}
	}
	for i := range items {
		it := &items[i]
		if it.space {
			continue
		}
		if prev != nil && it.x0-prev.x1-spread*max(prev.h, it.h) > minGutter*max(prev.h, it.h) {
			gaps, after = append(gaps, [2]float64{prev.x1, it.x0}), append(after, i)
			sizes = append(sizes, max(prev.h, it.h))
			k := asDrawn
			if spaced != nil {
				k = spaced[i]
			}
			kinds = append(kinds, k)
		}
		prev = it
	}
	if len(gaps) == 0 {
		return gaps, kinds, nil
	}
	// The runs of glyphs between the gaps: run k ends at gap k.
	starts := append([]int{0}, after...)
	ends := append(slices.Clone(after), len(items))
	opts = make([]bool, len(gaps))
	for k := range gaps {
		opts[k] = gaps[k][1]-gaps[k][0] <= maxOptionGap*sizes[k] && options(items[starts[k]:ends[k]], items[starts[k+1]:ends[k+1]])
	}
	return gaps, kinds, opts
}

// dropOptions takes out of the lines' cell gaps (top to bottom, with
// their kinds and opts from cellGaps, and the lines' text sizes) those
// between the options of a check box question, column by column: a gap
// goes unless a gap in its column that parts no options ends where it
// ends (within optionAlign font sizes), the cells after both starting at
// one place. A column is the gaps that overlap one another on lines one
// under the other (a letter-spaced title's letter gaps aside). A form's
// options line up down its rows and are one answer's choices; a
// comparison table's cells that each start with a bullet ("구분 | 현행 |
// 개선안" over "지원 대상 | ○ 저소득층 가구 | ○ 전체 가구") line up under
// a header whose gap there parts no options, and are its columns. A
// question set in a paragraph under a form's table ("동의합니까? ☐ 예
// ☐ 아니오") has its options' gap under the table's gap between its
// questions and their options, which ends elsewhere, and is no column
// of that table.
func dropOptions(gaps [][][2]float64, kinds [][]gapRule, opts [][]bool, sizes []float64) {
	type at struct{ i, k int }
	parent := map[at]at{}
	var find func(a at) at
	find = func(a at) at {
		p, ok := parent[a]
		if !ok || p == a {
			return a
		}
		r := find(p)
		parent[a] = r
		return r
	}
	for i := 1; i < len(gaps); i++ {
		for k, g := range gaps[i] {
			for m, p := range gaps[i-1] {
				if kinds[i][k] != letterGap && kinds[i-1][m] != letterGap && min(g[1], p[1]) > max(g[0], p[0]) {
					parent[find(at{i, k})] = find(at{i - 1, m})
				}
			}
		}
	}
	cellEnds := map[at][]float64{} // where a column's gaps that part no options end
	for i := range gaps {
		for k, g := range gaps[i] {
			if !opts[i][k] {
				r := find(at{i, k})
				cellEnds[r] = append(cellEnds[r], g[1])
			}
		}
	}
	for i := range gaps {
		var kept [][2]float64
		var keptKinds []gapRule
		for k, g := range gaps[i] {
			if opts[i][k] && !slices.ContainsFunc(cellEnds[find(at{i, k})], func(e float64) bool {
				return math.Abs(e-g[1]) <= optionAlign*sizes[i]
			}) {
				continue
			}
			kept, keptKinds = append(kept, g), append(keptKinds, kinds[i][k])
		}
		gaps[i], kinds[i] = kept, keptKinds
	}
}

// options says whether two runs of a line, apart by a cell's gap, are two
// options of one check box question: each a box and its label, the boxes
// both before or both after their labels ("□ 예   □ 아니오", "☐ yes   ☐
// no", "예 □   아니오 □"). A form sets a question's options apart by a
// few spaces or an em in one cell (wkhtmltopdf, Chromium and Writer
// draw no rule between them), and the options of the rows under one
// another line their gaps up as a table's columns do, which read "□ 예 |
// □ 아니오" as if each option were a cell; the page shows one answer's
// choices. A box alone (a checklist's column of boxes under "적합",
// "부적합") is a cell, and so is a run whose label is longer than
// maxOption glyphs: "□" also heads a paragraph of an official document
// ("□ 추진 배경"), and two of those side by side are two cells. The
// first run may start with the question ("동의합니까? □ 예").
func options(a, b []item) bool {
	ra, rb := inkedItems(a), inkedItems(b)
	// A question set before its options on their line, a space apart
	// ("동의합니까? ☐ 예   ☐ 아니오", a paragraph's form): the first option
	// is the run from its last box on.
	if boxFirst(rb) {
		for i := len(ra) - 1; i > 0; i-- {
			if boxAt(ra, i) > 0 {
				ra = ra[i:]
				break
			}
		}
	}
	// A box and a label of one glyph at least; an empty pair of brackets
	// is a box of two.
	label := func(rs []item) bool {
		n := len(rs)
		if boxAt(rs, 0) == 2 || boxAt(rs, n-2) == 2 {
			n--
		}
		return n >= 2 && n <= maxOption+1
	}
	if !label(ra) || !label(rb) {
		return false
	}
	return boxFirst(ra) && boxFirst(rb) || boxLast(ra) && boxLast(rb)
}

// boxFirst and boxLast say whether a run (its glyphs with text) starts
// or ends with a check box.
func boxFirst(rs []item) bool { return boxAt(rs, 0) > 0 }
func boxLast(rs []item) bool  { return boxAt(rs, len(rs)-1) == 1 || boxAt(rs, len(rs)-2) == 2 }

// inkedItems is a run's glyphs with text, spaces aside.
func inkedItems(run []item) []item {
	var out []item
	for _, it := range run {
		if !it.space && it.r != 0 {
			out = append(out, it)
		}
	}
	return out
}

// boxAt is how many glyphs a check box at rs[i] takes: one for a box's
// sign, two for a pair of brackets with a space's white inside ("( )
// 예", "예 [ ]", as forms typed without a box's sign have it; "f()" has
// none), 0 where none is.
func boxAt(rs []item, i int) int {
	switch {
	case i < 0 || i >= len(rs):
		return 0
	case checkBox(rs[i].r):
		return 1
	case i+1 < len(rs) && (rs[i].r == '(' && rs[i+1].r == ')' || rs[i].r == '[' && rs[i+1].r == ']') &&
		rs[i+1].x0-rs[i].x1 > wordGap*max(rs[i].h, rs[i+1].h):
		return 2
	}
	return 0
}

// optionAlign is how far apart, in font sizes, the starts of two cells
// one under the other may be and still be one column's (dropOptions).
const optionAlign = 1.0

// maxOptionGap is the widest white between two options of one question,
// in font sizes: a form sets them an em or a few spaces apart (2 em at
// most in the forms wkhtmltopdf and Chromium print), where the columns of
// a table whose cells start with a bullet ("지원 대상 | ○ 저소득층 가구 |
// ○ 전체 가구", no header over them) are 5 em apart and more.
const maxOptionGap = 4

// maxOption is the most glyphs of a check box's label: "동의하지 않음",
// "I do not agree".
const maxOption = 16

// checkBox says whether r is drawn as a check box or a radio button, empty
// or marked.
func checkBox(r rune) bool {
	return strings.ContainsRune("□■☐☑☒▢▣◻◼❏❐❑❒○●◯◉◎", r)
}

// alignedGaps returns, line by line, the gaps that overlap one of
// partners' spans on the line before or after, or none where these are half
// of the line's gaps or fewer, with their kinds (kinds: the lines' gaps';
// partnerKinds: partners'; see cellGaps). Two letter-spaced titles' gaps
// are no partners, but for the gaps between a form's labels and their
// values: titles and labels centred or stacked one under the other ("신
// 청 서" over "위 임 장", "성 명" over "주 소") line their letters' gaps up
// as a table's columns do. A gap between a title's letters that lines up
// with none is not counted against the line's other gaps: "구 분 내 용",
// a table's header of spaced labels, has its cells' gap under the rows'
// and its letters' gaps over their text; where every one of the letters'
// gaps lines up with a line's that is no title ("갑 을 병" over a row of
// figures), the line is a table's row, and where only some do (a title
// over a table whose column gap falls under one of them), it is not.
//
// A title's letter gaps and a line's of another size (sizes: the lines'
// text sizes, apart by more than titleSize) are no partners either: a
// title set larger over a table's first row whose gaps fall under all of
// its letters' read as a row ("신 | 청 | 서"); a table's cells share
// their rows' size.
func alignedGaps(gaps [][][2]float64, kinds [][]gapRule, sizes []float64, partners [][][2]float64, partnerKinds [][]gapRule) ([][][2]float64, [][]gapRule) {
	out, outKinds := make([][][2]float64, len(gaps)), make([][]gapRule, len(gaps))
	// A white span over or under two of a title's letter gaps, across the
	// letter between them (a running header's tab before its right part,
	// a short line's end), is no column's edge lining up with one of them.
	across := func(p [2]float64, i, k int) bool {
		for m, o := range gaps[i] {
			if m != k && kinds[i][m] == letterGap && min(o[1], p[1]) > max(o[0], p[0]) {
				return true
			}
		}
		return false
	}
	partnered := func(g [2]float64, kind gapRule, i, k, j int) bool {
		if j < 0 || j >= len(gaps) {
			return false
		}
		for m, p := range partners[j] {
			pk := partnerKinds[j][m]
			if (kind == letterGap || pk == letterGap) && max(sizes[i], sizes[j]) > titleSize*min(sizes[i], sizes[j]) {
				continue
			}
			if min(g[1], p[1]) > max(g[0], p[0]) && (kind == asDrawn || pk == asDrawn || kind == valueGap && pk == valueGap) &&
				!(kind == letterGap && across(p, i, k)) {
				return true
			}
		}
		return false
	}
	for i := range gaps {
		aligned := make([]bool, len(gaps[i]))
		letters, alignedLetters := 0, 0
		for k, g := range gaps[i] {
			kind := kinds[i][k]
			aligned[k] = partnered(g, kind, i, k, i-1) || partnered(g, kind, i, k, i+1)
			if kind == letterGap {
				letters++
				if aligned[k] {
					alignedLetters++
				}
			}
		}
		var kept [][2]float64
		var keptKinds []gapRule
		n := 0
		for k, g := range gaps[i] {
			kind := kinds[i][k]
			if kind == letterGap && alignedLetters < letters {
				continue // some of its letters' gaps line up with a table's by chance
			}
			if aligned[k] {
				kept, keptKinds = append(kept, g), append(keptKinds, kind)
			} else if kind == letterGap {
				continue
			}
			n++
		}
		if 2*len(kept) > n {
			out[i], outKinds[i] = kept, keptKinds
		}
	}
	return out, outKinds
}

// titleSize is how much larger than a line's text a title's is set
// apart from it: a form's 16-point title over 10-point cells; a table's
// header is its rows' size, or a point larger in bold.
const titleSize = 1.2

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
// before a number ("2019   42") still is, unless the first is a note's or
// a list's small number (noteDigits at most) and words follow the second:
// LibreOffice sets a footnote's number a tab before its text, and a note
// that starts with a date ("2   2022. 6. 30. 이전에 …") under another
// note lines its gap up with the other's.
func lineNumber(items []item, g [2]float64) bool {
	digits := 0
	for i, it := range items {
		switch {
		case it.space:
		case it.x1 <= g[0]:
			if !unicode.IsDigit(it.r) {
				return false
			}
			digits++
		case !unicode.IsDigit(it.r):
			return digits > 0
		default:
			return digits > 0 && digits <= noteDigits && slices.ContainsFunc(items[i:], func(q item) bool { return unicode.IsLetter(q.r) })
		}
	}
	return false
}

// noteDigits is the most digits of a note's or a list's number.
const noteDigits = 2

// unitJoins says, glyph by glyph, where a line writes no space before a
// glyph although its gap is a word's: between a number and the Hangul or
// Han unit after it ("3년", "2건") in a cell, or on a line, whose words are
// all one glyph long. LibreOffice sets a fifth of a font size between
// Latin or digits and Korean (its Asian and Western autospacing), wider
// than a word's gap, and pdftotext writes that gap as a space on a line
// of longer words ("통산 3 년을") but not where every word is one glyph:
// there it joins gaps up to 1.3 times the line's narrowest, and at most
// 0.4 font sizes (poppler's maxWideCharSpacingMul and maxWideCharSpacing),
// so a table's cell reads "3년" and a search for it finds the cell; "10
// 년" stays apart, as pdftotext writes it. Cells are split where the line
// writes cellSep (a gap over one of bars); a drawn space is a word's, which
// stays but, as every word's gap, counts towards the narrowest: "3년 6월",
// two periods of one digit typed with a space, are two words, as in
// pdftotext. nil when no gap is joined.
func unitJoins(items []item, bars [][2]float64, track float64, lead int) []bool {
	var join []bool
	type gap struct {
		q     int // the glyph after the gap
		width float64
		unit  bool // between a number and its unit, none drawn: may join
	}
	var gaps []gap
	single := true // every word of the cell so far is one glyph
	flush := func() {
		if single && len(gaps) > 0 {
			least := gaps[0].width
			for _, g := range gaps[1:] {
				least = min(least, g.width)
			}
			// Where poppler would join a word's gap too ("제 1 장 총
			// 칙" typed with narrow spaces reads "제1장총칙" there),
			// the line is written as drawn.
			if slices.ContainsFunc(gaps, func(g gap) bool { return !g.unit && g.width <= maxWideJoin*least }) {
				gaps, single = gaps[:0], true
				return
			}
			for _, g := range gaps {
				if g.unit && g.width <= maxWideJoin*least {
					if join == nil {
						join = make([]bool, len(items))
					}
					join[g.q] = true
				}
			}
		}
		gaps, single = gaps[:0], true
	}
	prev := -1
	drawn := false // a space drawn since prev
	for i, it := range items {
		switch {
		case it.space:
			drawn = true
			continue
		case it.r == 0 || it.text != "":
			flush()
			prev, drawn = -1, false
			continue
		}
		if prev >= 0 {
			p := items[prev]
			h := max(p.h, it.h)
			switch {
			case bars != nil && cellGap(p, it) && overlapsAny([2]float64{p.x1, it.x0}, bars):
				flush()
			case i == lead:
				single = false // a note's mark before its text
			case drawn || it.x0-p.x1 > maxWideGap*h || spaceBetween(p, it, track):
				// A word's gap: it counts towards the narrowest, as
				// poppler's do, and only a number's unit set apart by
				// autospacing joins ("3년 6월", the typed space kept).
				gaps = append(gaps, gap{i, it.x0 - p.x1, !drawn && it.x0-p.x1 <= maxWideGap*h && unicode.IsDigit(p.r) && cjk(it.r)})
			default:
				single = false // two glyphs of one word
			}
		}
		prev, drawn = i, false
	}
	flush()
	return join
}

// Poppler's spacing of a line whose words are one glyph each: a gap up to
// maxWideJoin times the narrowest and maxWideGap font sizes at most is
// inside a word.
const (
	maxWideJoin = 1.3
	maxWideGap  = 0.4
)
