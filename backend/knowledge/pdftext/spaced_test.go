package pdftext

import "testing"

// spacedLine lays syllables of 10 pt on one baseline, each a full em wide
// and gaps[i] points after syllable i, and draws n space glyphs of spaceW
// points each at the start of every gap when n > 0 (PDFium's generated
// space otherwise, as for a gap it reads as a word's).
func spacedLine(text string, gaps []float64, n int, spaceW float64) []glyph {
	var out []glyph
	x := 72.0
	for i, r := range []rune(text) {
		if i > 0 {
			g := gaps[i-1]
			if n == 0 {
				out = append(out, glyph{r: ' ', gen: true})
			}
			for k := range n {
				s := x + float64(k)*spaceW
				out = append(out, glyph{r: ' ', x0: s, x1: s + spaceW, lo: 698, hi: 708, h: 10})
			}
			x += g
		}
		out = append(out, glyph{r: r, x0: x, x1: x + 10, lo: 698, hi: 708, h: 10})
		x += 10
	}
	return out
}

// spacedAt lays text out on one baseline from x, 10 pt per syllable or
// Han character and 5 pt per other glyph, gaps[i] points after glyph i;
// PDFium's generated space marks every gap (no space glyphs are drawn).
func spacedAt(text string, x, base float64, gaps []float64) []glyph {
	var out []glyph
	for i, r := range []rune(text) {
		if i > 0 {
			if gaps[i-1] > 0 {
				out = append(out, glyph{r: ' ', gen: true})
			}
			x += gaps[i-1]
		}
		w := 5.0
		if titleLetter(r) {
			w = 10
		}
		out = append(out, glyph{r: r, x0: x, x1: x + w, lo: base - 2, hi: base + 8, h: 10})
		x += w
	}
	return out
}

// bigTitle lays syllables of size pt from x, each size wide and size
// apart, PDFium's generated space in every gap.
func bigTitle(text string, x, base, size float64) []glyph {
	var out []glyph
	for i, r := range []rune(text) {
		if i > 0 {
			out = append(out, glyph{r: ' ', gen: true})
		}
		out = append(out, glyph{r: r, x0: x, x1: x + size, lo: base - 0.2*size, hi: base + 0.8*size, h: size})
		x += 2 * size
	}
	return out
}

// lines joins lines of glyphs with PDFium's line breaks.
func linesOf(ls ...[]glyph) []glyph {
	var out []glyph
	for i, l := range ls {
		if i > 0 {
			out = append(out, brk())
		}
		out = append(out, l...)
	}
	return out
}

func even(n int, g float64) []float64 {
	gaps := make([]float64, n)
	for i := range gaps {
		gaps[i] = g
	}
	return gaps
}

func TestPageTextLetterSpacedTitle(t *testing.T) {
	tests := []struct {
		name  string
		in    []glyph
		want  string
		title bool // spacedGaps reads the (first) line as a letter-spaced title
	}{
		{"three syllables a letter-spacing of one em apart", spacedLine("신청서", even(2, 10), 0, 0), "신 청 서", true},
		{"two syllables far apart", spacedLine("목차", even(1, 25), 0, 0), "목 차", true},
		{"four syllables, two space glyphs in each gap", spacedLine("제출서류", even(3, 6), 2, 3), "제 출 서 류", true},
		{"one space glyph widened by character spacing", spacedLine("위임장", even(2, 8), 1, 3), "위 임 장", true},
		{"five syllables spaced out", spacedLine("점검한다", even(3, 7), 0, 0), "점 검 한 다", true},
		// The gaps a word space wide are words of one syllable.
		{"one-syllable words, space glyphs", spacedLine("그집앞", even(2, 3), 1, 3), "그 집 앞", false},
		{"one-syllable words, gaps of a half-em space and no space glyphs", spacedLine("그집앞", even(2, 5), 0, 0), "그 집 앞", false},
		{"unequal gaps keep their spaces", spacedLine("신청서", []float64{10, 16}, 0, 0), "신 청 서", false},
		{"a table row's cells keep their spaces", spacedLine("상중하", even(2, 60), 0, 0), "상 중 하", false},
		// After a heading's number or a list's mark, whose own gaps
		// are written as drawn unless the heading is spaced as a whole.
		{"a list's number, then the title", spacedAt("1.신청서", 72, 700, []float64{0, 3, 10, 10}), "1. 신 청 서", true},
		{"a list's number set close to the title", spacedAt("1.신청서", 72, 700, []float64{0, 0, 10, 10}), "1.신 청 서", true},
		{"a list's number spaced with the title", spacedAt("1.신청서", 72, 700, []float64{10, 23, 10, 10}), "1 . 신 청 서", true},
		{"a list's syllable, then the title", spacedAt("가.위임장", 72, 700, []float64{0, 3, 8, 8}), "가. 위 임 장", true},
		{"a bracketed number, then the title", spacedAt("(2)목차", 72, 700, []float64{0, 0, 3, 15}), "(2) 목 차", true},
		{"a circled number, then the title", spacedAt("①신청서", 72, 700, []float64{3, 10, 10}), "① 신 청 서", true},
		{"a number in a Latin font's boxes, 1.4 font sizes tall", tallDigits(spacedAt("1.신청서", 72, 700, []float64{0, 3, 10, 10})), "1. 신 청 서", true},
		{"a chapter typed with word spaces, its title spaced", spacedAt("제1장총칙", 72, 700, []float64{3, 3, 3, 10}), "제 1 장 총 칙", true},
		{"a chapter spaced as a whole", spacedAt("제1장총칙", 72, 700, []float64{10, 10, 23, 10}), "제 1 장 총 칙", true},
		{"a title of two words spaced by CSS", spacedAt("개인정보동의서", 72, 700, []float64{8, 8, 8, 19, 8, 8}), "개 인 정 보 동 의 서", true},
		{"a title of two words spaced by TeX's quad and qquad", spacedAt("사업계획", 72, 700, []float64{11, 22, 11}), "사 업 계 획", true},
		{"a middle dot spaced as the letters", spacedAt("수집·이용동의서", 72, 700, []float64{8, 8, 8, 8, 19, 8, 8}), "수 집 · 이 용 동 의 서", true},
		{"a middle dot in a short title", spacedAt("수집·이용", 72, 700, []float64{8, 8, 8, 8}), "수 집 · 이 용", true},
		{"a note in brackets spaced as the letters", spacedAt("신청서(갑)", 72, 700, []float64{10, 10, 23, 10, 10}), "신 청 서 ( 갑 )", true},
		{"a middle dot as a list's bullet", spacedAt("·신청서", 72, 700, []float64{3, 10, 10}), "· 신 청 서", true},
		{"a dash as a list's bullet", spacedAt("-신청서", 72, 700, []float64{3, 10, 10}), "- 신 청 서", true},
		{"Han characters", spacedAt("申請書", 72, 700, []float64{10, 10}), "申 請 書", true},
		{"Han characters after a number", spacedAt("1.申請書", 72, 700, []float64{0, 3, 12, 12}), "1. 申 請 書", true},
		{"a chapter and its title in word spaces", spacedAt("제1장총칙", 72, 700, []float64{3, 3, 3, 3}), "제 1 장 총 칙", false},
		{"a list's number, then one-syllable words", spacedAt("1.그집앞", 72, 700, []float64{0, 3, 3, 3}), "1. 그 집 앞", false},
		{"a word gap neither one nor two letter gaps", spacedAt("신청서류", 72, 700, []float64{10, 15, 10}), "신 청 서 류", false},
		{"a figure after the title", spacedAt("신청서2", 72, 700, []float64{10, 10, 3}), "신 청 서 2", false},
		// Titles stacked on centred lines: their gaps line up as a
		// table's columns do, and no bar goes between their letters.
		{"two titles stacked", linesOf(spacedAt("신청서", 100, 700, even(2, 10)), spacedAt("위임장", 100, 680, even(2, 10))), "신 청 서\n위 임 장", true},
		{"three titles stacked, centred", linesOf(spacedAt("사업계획서", 90, 700, even(4, 10)), spacedAt("신청서", 110, 680, even(2, 10)), spacedAt("1.목차", 115, 660, []float64{0, 3, 10})), "사 업 계 획 서\n신 청 서\n1. 목 차", true},
		{"single syllables over figures are a table", linesOf(spacedAt("갑을병", 72, 700, even(2, 15)), spacedAt("123", 74, 686, even(2, 20))), "갑 | 을 | 병\n1 | 2 | 3", true},
		{"a title over a table whose column gap meets one of its letters' gaps", linesOf(spacedAt("신청서", 100, 720, even(2, 10)), spacedAt("가나다라마바사아", 70, 700, []float64{0, 0, 0, 0, 0, 10, 0}), spacedAt("자차카타파하거너", 70, 686, []float64{0, 0, 0, 0, 0, 10, 0})), "신 청 서\n가나다라마바 | 사아\n자차카타파하 | 거너", true},
		{"a table's header of spaced labels", linesOf(spacedAt("구분내용", 72, 700, []float64{10, 25, 10}), spacedAt("전기적합", 72, 686, []float64{0, 35, 0})), "구 분 | 내 용\n전기 | 적합", true},
		// A form's labels spaced out to the width of the longest, one
		// under the other beside their values: each label whole, a bar
		// before its value.
		{"a form's labels beside their values", linesOf(spacedAt("성명홍길동", 30, 700, []float64{20, 40, 0, 0}), spacedAt("주소서울시", 30, 680, []float64{20, 40, 0, 0}), spacedAt("생년월일1990", 30, 660, []float64{0, 0, 0, 30, 0, 0, 0})), "성 명 | 홍길동\n주 소 | 서울시\n생년월일 | 1990", true},
		{"a title, then a note in brackets far apart", spacedAt("신청서(갑)", 72, 700, []float64{10, 10, 40, 0, 0}), "신 청 서 (갑)", true},
		{"a note in brackets set close after the title", spacedAt("신청서(갑)", 72, 700, []float64{10, 10, 0, 0, 0}), "신 청 서(갑)", true},
		{"a note in brackets a word space after the title", spacedAt("신청서(갑)", 72, 700, []float64{10, 10, 3, 0, 0}), "신 청 서 (갑)", true},
		{"a form's number in brackets after the title", spacedAt("위임장[별지제1호서식]", 72, 700, []float64{10, 10, 0, 0, 0, 3, 0, 0, 3, 0, 0}), "위 임 장[별지 제1호 서식]", true},
		{"a bracket left open after the title", spacedAt("신청서(갑", 72, 700, []float64{10, 10, 0, 0}), "신 청 서(갑", false},
		{"two notes after the title", spacedAt("신청서(갑)(을)", 72, 700, []float64{10, 10, 0, 0, 0, 0, 0, 0}), "신 청 서(갑)(을)", false},
		{"a four-level number, then twelve syllables", spacedAt("1.2.3.4.개인정보수집이용동의서류", 72, 700, append([]float64{0, 0, 0, 0, 0, 0, 0, 3}, even(11, 10)...)), "1.2.3.4. 개 인 정 보 수 집 이 용 동 의 서 류", true},
		{"a title under a running header's wide gap", linesOf(spacedAt("업무편람대외비", 72, 720, []float64{0, 0, 0, 200, 0, 0}), spacedAt("위임장(갑)", 150, 700, []float64{10, 10, 0, 0, 0})), "업무편람 대외비\n위 임 장(갑)", false},
		{"a title set larger over a row whose gaps meet all its letters'", linesOf(bigTitle("신청서", 100, 730, 16), spacedAt("102030", 100, 700, []float64{0, 26, 0, 22, 0})), "신 청 서\n10 20 30", true},
		{"a justified line of one-syllable words, then a word", spacedAt("그집앞에서", 72, 700, []float64{7, 7, 0, 0}), "그 집 앞에서", false},
		{"a word of two syllables among single ones", append(spacedLine("신청", even(1, 10), 0, 0), append([]glyph{{r: ' ', gen: true}}, glyphLine("서류", 102, 700, nil)...)...), "신 청 서류", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			// A title's gaps and a line's read as drawn write the same
			// spaces on one line: what the rule keeps shows in its cells.
			if title := spacedGaps(firstLineItems(tt.in), nil) != nil; title != tt.title {
				t.Errorf("read as a letter-spaced title: %v, want %v", title, tt.title)
			}
		})
	}
}

// firstLineItems is the items of a test's first line, in order, PDFium's
// generated spaces marked on the glyph after them as pageText marks them.
func firstLineItems(gs []glyph) []item {
	var items []item
	spaceB4 := false
	for _, g := range gs {
		switch {
		case g.gen && (g.r == '\r' || g.r == '\n'):
			return items
		case g.gen:
			spaceB4 = true
			continue
		}
		_, it := toItem(g)
		it.seq, it.spaceB4 = len(items), spaceB4
		spaceB4 = it.space
		items = append(items, it)
	}
	return items
}

// latinSpaced lays Latin text on one baseline, 5 pt a letter at 10 pt,
// each glyph followed by track points (CSS letter-spacing: a space too,
// 2.5 pt wide, drawn when drawSpaces, PDFium's generated space
// otherwise), and PDFium's generated space between every two letters
// more than a tenth of the size apart, as it reads a letter-spaced line.
func latinSpaced(text string, track float64, drawSpaces bool) []glyph {
	var out []glyph
	x := 72.0
	for i, r := range text {
		if r == ' ' {
			if drawSpaces {
				out = append(out, glyph{r: ' ', x0: x, x1: x + 2.5, lo: 698, hi: 708, h: 10})
			}
			x += 2.5 + track
			continue
		}
		if after := i > 0 && text[i-1] == ' '; i > 0 && (after && !drawSpaces || !after && track > 1) {
			out = append(out, glyph{r: ' ', gen: true})
		}
		out = append(out, glyph{r: r, x0: x, x1: x + 5, lo: 698, hi: 708, h: 10})
		x += 5 + track
	}
	return out
}

// latinAt lays Latin letters 5 pt wide at 10 pt, gaps[i] points after
// letter i, PDFium's generated space in every gap.
func latinAt(text string, gaps []float64) []glyph {
	var out []glyph
	x := 72.0
	for i, r := range []rune(text) {
		if i > 0 {
			out = append(out, glyph{r: ' ', gen: true})
			x += gaps[i-1]
		}
		out = append(out, glyph{r: r, x0: x, x1: x + 5, lo: 698, hi: 708, h: 10})
		x += 5
	}
	return out
}

func TestPageTextLetterSpacedLatin(t *testing.T) {
	tests := []struct {
		name string
		in   []glyph
		want string
	}{
		{"capitals spaced 0.3 em", latinSpaced("THE ANNUAL REPORT", 3, false), "THE ANNUAL REPORT"},
		{"a word spaced 0.2 em", latinSpaced("Contents", 2, false), "Contents"},
		{"spaced 0.5 em, spaces drawn", latinSpaced("Table of Contents", 5, true), "Table of Contents"},
		{"letters set close, words apart", latinSpaced("The cat sat", 0, false), "The cat sat"},
		{"one-letter words, spaces drawn", latinSpaced("a b c d e", 0, true), "a b c d e"},
		{"one-letter words, spaces drawn, then a word a space apart", append(latinSpaced("a b c d e", 0, true), glyph{r: ' ', gen: true},
			glyph{r: 'f', x0: 109.5, x1: 114.5, lo: 698, hi: 708, h: 10}, glyph{r: 'i', x0: 114.5, x1: 119.5, lo: 698, hi: 708, h: 10}), "a b c d e fi"},
		{"spacing under 0.15 em reads as pdftotext reads it", latinSpaced("Title", 1.2, false), "T i t l e"},
		{"one-letter words at unequal gaps", latinAt("xyzwv", []float64{2, 4, 3, 5}), "x y z w v"},
		{"0.2 em, kerned closer in places", latinAt("Tables", []float64{1.5, 2, 1.8, 2, 1.8}), "Tables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
