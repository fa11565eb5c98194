package pdftext

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// glyphLine lays runes out on one upright baseline from x, one em (10 pt)
// per Hangul syllable and half an em for the rest, and returns them in the
// order given by draw: the indexes of text, as the file draws them. A
// generated space marks every gap and jump in drawing order, as PDFium's
// do.
func glyphLine(text string, x, base float64, draw []int) []glyph {
	runes := []rune(text)
	pos := make([]float64, len(runes)+1)
	pos[0] = x
	for i, r := range runes {
		w := 5.0
		if r >= 0xac00 && r <= 0xd7a3 {
			w = 10
		}
		pos[i+1] = pos[i] + w
	}
	if draw == nil {
		for i := range runes {
			draw = append(draw, i)
		}
	}
	var out []glyph
	gap := false
	for k, i := range draw {
		r := runes[i]
		if r == ' ' {
			gap = true // Hancom leaves gaps instead of drawing spaces
			continue
		}
		if len(out) > 0 && (gap || draw[k-1] != i-1) {
			out = append(out, glyph{r: ' ', gen: true})
		}
		gap = false
		out = append(out, glyph{r: r, x0: pos[i], x1: pos[i+1], lo: base - 2, hi: base + 8, h: 10})
	}
	return out
}

// stacked sets lines 14 pt apart from the top, each from the left margin.
func stacked(lines ...string) []glyph {
	var out []glyph
	for i, l := range lines {
		if i > 0 {
			out = append(out, brk())
		}
		out = append(out, glyphLine(l, 72, 700-14*float64(i), nil)...)
	}
	return out
}

func brk() glyph { return glyph{r: '\n', gen: true} }

// tallDigits gives a line's digits the boxes of Latin Modern's, 1.4 font
// sizes tall, as XeLaTeX's PDFs have them beside Hangul of one.
func tallDigits(gs []glyph) []glyph {
	for i, g := range gs {
		if g.r >= '0' && g.r <= '9' {
			gs[i].lo, gs[i].hi, gs[i].h = g.lo-2, g.lo+12, 14
		}
	}
	return gs
}

// column lays a table's cells out at the given column edges, 14 pt apart,
// and draws them column by column, each cell on a line of its own as
// PDFium reads it.
func column(rows [][]string, cols []float64) []glyph {
	var out []glyph
	for c := range cols {
		for r, row := range rows {
			if len(out) > 0 {
				out = append(out, brk())
			}
			out = append(out, glyphLine(row[c], cols[c], 700-14*float64(r), nil)...)
		}
	}
	return out
}

func TestPageText(t *testing.T) {
	hangulFirst := func(text string) []int { // Hancom: Hangul, then the rest
		var a, b []int
		for i, r := range []rune(text) {
			if r >= 0xac00 && r <= 0xd7a3 {
				a = append(a, i)
			} else {
				b = append(b, i)
			}
		}
		return append(a, b...)
	}
	line1 := "제1조(목적) 이 규정은 1980. 6. 16.부터 시행한다."
	sup := glyphLine("학칙", 72, 700, nil)
	// A footnote mark: smaller and raised by a third of an em.
	sup = append(sup, glyph{r: '1', x0: 92, x1: 95, lo: 702.5, hi: 708.5, h: 6}, glyph{r: ')', x0: 95, x1: 97, lo: 702.5, hi: 708.5, h: 6})
	tests := []struct {
		name string
		in   []glyph
		want string
	}{
		{"Hancom line: digits drawn after the Hangul", glyphLine(line1, 72, 700, hangulFirst(line1)), line1},
		{"two lines drawn bottom first", append(append(glyphLine("둘째 줄", 72, 680, nil), brk()), glyphLine("첫째 줄", 72, 700, nil)...), "첫째 줄\n둘째 줄"},
		{"digits a little lower stay on the line", append(glyphLine("제조", 72, 700, nil), glyph{r: '3', x0: 92, x1: 97, lo: 697.5, hi: 707.5, h: 10}), "제조3"},
		{"superscript stays on its line", sup, "학칙1)"},
		{"space kept between Korean words drawn apart", glyphLine("문서를 읽다", 72, 700, hangulFirst("문서를 읽다")), "문서를 읽다"},
		{"hyphenated word joined across lines", []glyph{
			{r: 'e', x0: 72, x1: 77, lo: 698, hi: 708, h: 10}, {r: 'x', x0: 77, x1: 82, lo: 698, hi: 708, h: 10}, {r: 2, x0: 82, x1: 85, lo: 698, hi: 708, h: 10},
			brk(), {r: 'a', x0: 72, x1: 77, lo: 686, hi: 696, h: 10}, {r: 'm', x0: 77, x1: 84, lo: 686, hi: 696, h: 10},
		}, "exam"},
		{"ligature pieces kept", []glyph{
			{r: 'o', x0: 72, x1: 77, lo: 698, hi: 708, h: 10}, {r: 'f', x0: 77, x1: 85, lo: 698, hi: 708, h: 10}, {r: 'f', x0: 77, x1: 85, lo: 698, hi: 708, h: 10},
		}, "off"},
		{"letter before a ligature of the same letter kept", []glyph{
			{r: 't', x0: 72, x1: 75, lo: 698, hi: 708, h: 10}, {r: 'i', x0: 75, x1: 78, lo: 698, hi: 708, h: 10},
			{r: 'f', x0: 78, x1: 84, lo: 698, hi: 708, h: 10}, {r: 'i', x0: 78, x1: 84, lo: 698, hi: 708, h: 10}, {r: 'e', x0: 84, x1: 89, lo: 698, hi: 708, h: 10},
		}, "tifie"},
		{"ligature drawn twice written once", []glyph{
			{r: 'f', x0: 72, x1: 80, lo: 698, hi: 708, h: 10}, {r: 'l', x0: 72, x1: 80, lo: 698, hi: 708, h: 10}, {r: 'y', x0: 80, x1: 85, lo: 698, hi: 708, h: 10},
			brk(), {r: 'f', x0: 72, x1: 80, lo: 698, hi: 708, h: 10}, {r: 'l', x0: 72, x1: 80, lo: 698, hi: 708, h: 10}, {r: 'y', x0: 80, x1: 85, lo: 698, hi: 708, h: 10},
		}, "fly"},
		{"text drawn twice at one place written once", append(glyphLine("같은 글", 72, 700, nil), glyphLine("같은 글", 72.3, 700, nil)...), "같은 글"},
		{"accent joined to its letter", []glyph{
			{r: 'c', x0: 72, x1: 77, lo: 698, hi: 708, h: 10}, {r: 'a', x0: 77, x1: 82, lo: 698, hi: 708, h: 10},
			{r: 'f', x0: 82, x1: 85, lo: 698, hi: 708, h: 10}, {r: 'e', x0: 85, x1: 90, lo: 698, hi: 708, h: 10},
			{r: ' ', gen: true}, {r: '´', x0: 86, x1: 89, lo: 699, hi: 709, h: 10},
		}, "café"},
		{"unmapped glyph takes room but writes nothing", []glyph{
			{r: 'a', x0: 72, x1: 77, lo: 698, hi: 708, h: 10}, {r: 0xfffe, x0: 77, x1: 82, lo: 698, hi: 708, h: 10}, {r: 'b', x0: 82, x1: 87, lo: 698, hi: 708, h: 10},
		}, "ab"},
		{"glyphs outside the page dropped", append(glyphLine("본문", 72, 700, nil), glyph{r: '9', x0: 100, x1: 105, lo: -12, hi: -2, h: 10, off: true}), "본문"},
		{"all glyphs outside the page kept", []glyph{{r: '9', x0: 100, x1: 105, lo: -12, hi: -2, h: 10, off: true}}, "9"},
		{"table drawn column by column reads row by row, cells apart", column(
			[][]string{{"구분", "2021", "2022"}, {"매출", "1,234", "1,456"}, {"이익", "210", "198"}}, []float64{72, 150, 230}),
			"구분 | 2021 | 2022\n매출 | 1,234 | 1,456\n이익 | 210 | 198"},
		{"one wide space in a line of prose is no cell", append(append(append(glyphLine("첫째 줄", 72, 700, nil), glyph{r: ' ', gen: true}),
			glyphLine("끝", 150, 700, nil)...), append([]glyph{brk()}, glyphLine("둘째 줄", 72, 686, nil)...)...), "첫째 줄 끝\n둘째 줄"},
		// The white space between F/M and M leaves prose-like lines on
		// either side (each side's ink covers most of it), but every line
		// of both sides has cells apart.
		{"table with a column of notes is not two columns", column([][]string{
			{"데이터셋 이름", "F/M", "M", "현대 과학 문서의 레이아웃입니다"},
			{"신문 자료 모음", "F/-", "-", "미국 신문의 지면 레이아웃입니다"},
			{"표 은행 자료", "F/F", "F", "과학 문서와 업무 문서의 표입니다"},
		}, []float64{72, 160, 240, 270}),
			"데이터셋 이름 | F/M | M | 현대 과학 문서의 레이아웃입니다\n신문 자료 모음 | F/- | - | 미국 신문의 지면 레이아웃입니다\n표 은행 자료 | F/F | F | 과학 문서와 업무 문서의 표입니다"},
		// Two spaces are a gap of an em: every word of these lines stands a
		// cell's gap apart, as in loosely justified prose.
		{"loosely justified lines, gaps at different places, get no bars", stacked(
			"Key  R&D  Program  of  China",
			"Guangdong-NSF  2017A0303  grant"),
			"Key R&D Program of China\nGuangdong-NSF 2017A0303 grant"},
		// Two of the first line's four gaps meet gaps of the second by
		// chance; two of the second's three meet the first's.
		{"loosely justified lines, some gaps meeting by chance, get no bars", stacked(
			"Key  R&D  Program  of  China",
			"National  NSF  Grants  61472144"),
			"Key R&D Program of China\nNational NSF Grants 61472144"},
		{"numbered listing gets no bar after its line numbers", stacked(
			"1  Input: a set P",
			"2  for σ ∈ P do",
			"3    mutate σ",
			"4  return P"),
			"1 Input: a set P\n2 for σ ∈ P do\n3 mutate σ\n4 return P"},
		{"table whose first column is numbers keeps its bars", column(
			[][]string{{"2019", "42"}, {"2020", "43"}}, []float64{72, 150}),
			"2019 | 42\n2020 | 43"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.in); got != tt.want {
				t.Errorf("pageText = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPageTextColumns puts two columns of three lines side by side, drawn
// row by row, and a full-width title above them.
func TestPageTextColumns(t *testing.T) {
	left := []string{"왼쪽 단의 첫째 줄입니다 여기에", "왼쪽 단의 둘째 줄입니다 여기에", "왼쪽 단의 셋째 줄입니다 여기에"}
	right := []string{"오른쪽 단의 첫째 줄입니다 여기", "오른쪽 단의 둘째 줄입니다 여기", "오른쪽 단의 셋째 줄입니다 여기"}
	gs := glyphLine("제목은 두 단에 걸쳐 있습니다 아주 길게 씁니다 정말 길게", 72, 760, nil)
	for i := range left {
		y := 730 - 14*float64(i)
		gs = append(gs, brk())
		gs = append(gs, glyphLine(left[i], 72, y, nil)...)
		gs = append(gs, brk())
		gs = append(gs, glyphLine(right[i], 72+240+20, y, nil)...)
	}
	want := "제목은 두 단에 걸쳐 있습니다 아주 길게 씁니다 정말 길게\n\n" + strings.Join(left, "\n") + "\n\n" + strings.Join(right, "\n")
	if got := pageText(gs); got != want {
		t.Errorf("pageText =\n%s\nwant\n%s", got, want)
	}
}

// FuzzPageText feeds arbitrary glyph geometry to the reading-order code:
// it must not panic, must write valid UTF-8 and must write no letter that
// was not on the page.
func FuzzPageText(f *testing.F) {
	f.Add([]byte("\x00\x10\x20\x05\x01\x10\x30\x20\x05\x02\x80\x10\x21\x05\x03"))
	f.Add([]byte(strings.Repeat("\x11\x22\x33\x44\x55\x66", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		const alphabet = "abc가나다123().- "
		letters := []rune(alphabet)
		var gs []glyph
		in := map[rune]int{}
		for i := 0; i+5 <= len(data) && len(gs) < 2000; i += 5 {
			b := data[i : i+5]
			switch b[4] % 8 {
			case 0:
				gs = append(gs, glyph{r: ' ', gen: true})
				continue
			case 1:
				gs = append(gs, brk())
				continue
			}
			r := letters[int(b[0])%len(letters)]
			h := 1 + float64(b[3]%40)
			x0 := float64(b[1]) * 3
			lo := float64(b[2]) * 3
			g := glyph{r: r, x0: x0, x1: x0 + float64(b[4]%16), lo: lo, hi: lo + h, h: h, q: int(b[4]>>6) % 4}
			gs = append(gs, g)
			in[r]++
		}
		out := pageText(gs)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		for _, r := range out {
			if r == ' ' || r == '\n' || r == '-' || strings.ContainsRune(cellSep, r) {
				continue
			}
			if in[r] == 0 {
				t.Fatalf("wrote %q, which was not on the page (or more often than it was): %q", r, out)
			}
			in[r]--
		}
	})
}

// TestPageTextUnderColumns sets two columns and what comes under them, as
// a word processor or a browser prints it: whatever lies under the shorter
// column's end and does not continue the longer column (a table, a line
// set apart) is read after both columns; the longer column's own lines
// (at its pitch) are read before the right column.
func TestPageTextUnderColumns(t *testing.T) {
	left := []string{"왼쪽 단의 첫째 줄입니다 여기에", "왼쪽 단의 둘째 줄입니다 여기에", "왼쪽 단의 셋째 줄입니다 여기에", "왼쪽 단의 넷째 줄입니다 여기에", "왼쪽 단의 다섯째 줄입니다 여기"}
	right := []string{"오른쪽 단의 첫째 줄입니다 여기", "오른쪽 단의 둘째 줄입니다 여기", "오른쪽 단의 셋째 줄입니다 여기"}
	columns := func(nl, nr int) (gs []glyph, bottom float64) {
		gs = glyphLine("제목은 두 단에 걸쳐 있습니다 아주 길게 씁니다 정말 길게", 72, 760, nil)
		for i := range max(nl, nr) {
			y := 730 - 14*float64(i)
			if i < nl {
				gs = append(append(gs, brk()), glyphLine(left[i], 72, y, nil)...)
			}
			if i < nr {
				gs = append(append(gs, brk()), glyphLine(right[i], 332, y, nil)...)
			}
			bottom = y
		}
		return gs, bottom
	}
	// row sets cells 60 pt apart from the left margin, under the left column.
	row := func(y float64, cells ...string) []glyph {
		var gs []glyph
		for i, c := range cells {
			gs = append(append(gs, brk()), glyphLine(c, 72+60*float64(i), y, nil)...)
		}
		return gs
	}
	title := "제목은 두 단에 걸쳐 있습니다 아주 길게 씁니다 정말 길게"
	spaces := func(y float64) []glyph { // a line PDFium reads as drawn spaces only
		var gs []glyph
		for x := 72.0; x < 500; x += 5 {
			gs = append(gs, glyph{r: ' ', x0: x, x1: x + 5, lo: y - 2, hi: y + 8, h: 10})
		}
		return append(gs, brk())
	}
	tests := []struct {
		name string
		gs   func() []glyph
		want []string
	}{
		{"table under the left column, then a closing line", func() []glyph {
			gs, b := columns(4, 3)
			gs = append(gs, row(b-34, "구분", "기간", "비고")...)
			gs = append(gs, row(b-52, "1학기", "3월", "16주")...)
			return append(append(gs, brk()), glyphLine("부칙 이 세칙은 2025년 1월 1일부터 시행한다 종전의 세칙은 폐지한다 끝", 72, b-80, nil)...)
		}, append(append(append([]string{title}, left[:4]...), right...), "구분 | 기간 | 비고", "1학기 | 3월 | 16주", "부칙 이 세칙은 2025년 1월 1일부터 시행한다 종전의 세칙은 폐지한다 끝")},
		{"left column longer than the right: read first", func() []glyph {
			gs, _ := columns(5, 3)
			return gs
		}, append(append([]string{title}, left...), right...)},
		{"a short line apart under the left column: after both", func() []glyph {
			gs, b := columns(4, 3)
			return append(append(gs, brk()), glyphLine("1) 각주입니다", 72, b-40, nil)...)
		}, append(append(append([]string{title}, left[:4]...), right...), "1) 각주입니다")},
		{"a line of spaces between the title and the columns", func() []glyph {
			gs, _ := columns(3, 3)
			return append(append(glyphLine(title, 72, 760, nil), brk()), append(spaces(745), gs[len(glyphLine(title, 72, 760, nil)):]...)...)
		}, append(append([]string{title}, left[:3]...), right...)},
	}
	// Two sections in two columns with a short heading between them, which
	// leaves the gutter white from the first section down to the second.
	sections := func() []glyph {
		gs, b := columns(3, 3)
		gs = append(append(gs, brk()), glyphLine("제2절 학적", 72, b-36, nil)...)
		for i := range 3 {
			y := b - 72 - 14*float64(i)
			gs = append(append(gs, brk()), glyphLine(strings.Replace(left[i], "왼쪽", "아래 왼쪽", 1), 72, y, nil)...)
			gs = append(append(gs, brk()), glyphLine(strings.Replace(right[i], "오른쪽", "아래 오른쪽", 1), 332, y, nil)...)
		}
		return gs
	}
	var below []string
	for _, l := range left[:3] {
		below = append(below, strings.Replace(l, "왼쪽", "아래 왼쪽", 1))
	}
	for _, r := range right {
		below = append(below, strings.Replace(r, "오른쪽", "아래 오른쪽", 1))
	}
	tests = append(tests, struct {
		name string
		gs   func() []glyph
		want []string
	}{"a heading between two sections in two columns", sections,
		append(append(append(append([]string{title}, left[:3]...), right...), "제2절 학적"), below...)})
	// The left column runs on below the right one (the last page of a
	// paper) through a display equation, a heading whose number is set a
	// quad apart, a line with a year in a font of taller boxes and a
	// paragraph's short last line: all of it is the left column's.
	more := []string{"왼쪽 단의 여섯째 줄입니다 여기", "왼쪽 단의 일곱째 줄 2025년 여기", "끝입니다.", "왼쪽 단의 여덟째 줄입니다 여기", "마지막 줄입니다 9쪽"}
	tail := func() []glyph {
		gs, b := columns(5, 3)
		line := func(g []glyph) { gs = append(append(gs, brk()), g...) }
		line(glyphLine("식 = 가 + 나 (1)", 120, b-24, nil))
		line(glyphLine(more[0], 72, b-46, nil))
		line(tallDigits(glyphLine(more[1], 72, b-60, nil)))
		line(glyphLine(more[2], 72, b-74, nil))
		line(glyphLine("3", 72, b-104, nil))
		line(glyphLine("결과", 89, b-104, nil))
		line(glyphLine(more[3], 72, b-118, nil))
		line(tallDigits(glyphLine(more[4], 72, b-132, nil)))
		return gs
	}
	tests = append(tests, struct {
		name string
		gs   func() []glyph
		want []string
	}{"the left column runs on below the right one", tail,
		append(append(append(append(append([]string{title}, left...), "식 = 가 + 나 (1)"), more[:3]...), "3 결과", more[3], more[4]), right...)})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := nonEmptyLines(pageText(tt.gs())), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("pageText =\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestPageTextNarrowGutter: columns set closer than a gutter (0.7 font
// sizes, LibreOffice's 0.3 cm) are read apart where the right column's
// lines start flush, with a full stop hung into the gap kept in the left
// column; a column that holds a table's rows is still a column; and the
// wide spaces of justified prose that line up down a few lines, the words
// after them starting at different places, do not split the prose.
func TestPageTextNarrowGutter(t *testing.T) {
	// 20 syllables a line: 72 to 272, the right column from 279.
	left := []string{"가나다라마바사아자차카타파하거너더러머버", "서어저처커터퍼허고노도로모보소오조초코토",
		"포호구누두루무부수우주추쿠투푸후그느드르", "므브스으즈츠크트프흐기니디리미비시이지치"}
	right := []string{"키티피히개내대래매배새애재채캐태패해게네", "데레메베세에제체케테페헤괴뇌되뢰뫼뵈쇠외",
		"죄최쾨퇴푀회귀뉘뒤뤼뮈뷔쉬위쥐취퀴튀퓌휘", "갸냐댜랴먀뱌샤야쟈챠캬탸퍄햐겨녀뎌려며벼"}
	lines := func(l, r []string, hang bool) []glyph {
		var gs []glyph
		for i := range max(len(l), len(r)) {
			y := 700 - 14*float64(i)
			if i < len(l) {
				text := l[i]
				if hang {
					text += "." // 272 to 277, into the gap
				}
				gs = append(append(gs, brk()), glyphLine(text, 72, y, nil)...)
			}
			if i < len(r) {
				gs = append(append(gs, brk()), glyphLine(r[i], 279, y, nil)...)
			}
		}
		return gs[1:]
	}
	dotted := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l + "."
		}
		return out
	}
	// Four rows of three cells 60 pt apart under three lines of the right
	// column: most of its lines are short.
	table := func() []glyph {
		gs := lines(append(left, left[:3]...), right[:3], false)
		for i := range 4 {
			for c, cell := range []string{"구분", "기간", "비고"} {
				gs = append(append(gs, brk()), glyphLine(cell+string(rune('1'+i)), 279+60*float64(c), 700-14*float64(3+i), nil)...)
			}
		}
		return gs
	}
	// Four lines of one column, 72 to 469, with a 12 pt space at 267 or
	// 272: a white strip 7 pt wide runs down them, the words after it
	// start at 279 or 284.
	river := func() ([]glyph, []string) {
		var gs []glyph
		var want []string
		for i := range 4 {
			y := 700 - 14*float64(i)
			a, b := left[i][:19*3]+"1", right[i][:19*3] // 19 syllables and a digit: 72 to 267
			x := 279.0
			if i%2 == 1 {
				a, b, x = left[i], right[i][:18*3]+"1", 284 // 72 to 272
			}
			gs = append(append(gs, brk()), glyphLine(a, 72, y, nil)...)
			gs = append(gs, glyph{r: ' ', gen: true})
			gs = append(gs, glyphLine(b, x, y, nil)...)
			want = append(want, a+" "+b)
		}
		return gs[1:], want
	}
	riverGlyphs, riverText := river()
	// Columns one font size apart (LaTeX's) whose lines all hold a digit
	// with a box 1.4 font sizes tall (Latin Modern beside Hangul): the
	// gutter is measured against the Hangul. The right column begins with
	// two centred lines (a table's caption), so its lines do not start
	// flush on two in three.
	em := func() ([]glyph, []string) {
		var gs []glyph
		var l, r []string
		for i := range 5 {
			y := 700 - 14*float64(i)
			l = append(l, left[i%4]+"1") // 72 to 277
			gs = append(append(gs, brk()), tallDigits(glyphLine(l[i], 72, y, nil))...)
			text, x := right[i%4]+"2", 287.0
			if i < 2 {
				text, x = fmt.Sprintf("표%d 이용률", i+1), 330
			}
			r = append(r, text)
			gs = append(append(gs, brk()), tallDigits(glyphLine(text, x, y, nil))...)
		}
		return gs[1:], append(l, r...)
	}
	emGlyphs, emText := em()
	tests := []struct {
		name string
		gs   []glyph
		want []string
		bars bool // read the line's cell bars as spaces
	}{
		{"0.7 font sizes apart", lines(left, right, false), append(slices.Clone(left), right...), false},
		{"full stops hung into the gap", lines(left, right, true), append(dotted(left), right...), false},
		{"a table's rows in the right column", table(), append(append(append(slices.Clone(left), left[:3]...), right[:3]...),
			"구분1 | 기간1 | 비고1", "구분2 | 기간2 | 비고2", "구분3 | 기간3 | 비고3", "구분4 | 기간4 | 비고4"), false},
		// Spaces this wide that line up read as a table's (an old weakness):
		// here only the lines being whole is asked.
		{"a river of spaces in one column", riverGlyphs, riverText, true},
		{"a font size apart, digits in taller boxes", emGlyphs, emText, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := nonEmptyLines(pageText(tt.gs))
			if tt.bars {
				got = strings.ReplaceAll(got, cellSep, " ")
			}
			if want := strings.Join(tt.want, "\n"); got != want {
				t.Errorf("pageText =\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestPageTextTableBesideProse: a slide's text beside its table (as
// LibreOffice Impress prints one) is read text first, then the table's
// rows, not a heading run into the row that shares its line; a table
// whose first column is text, sharing every row with the others, still
// reads across.
func TestPageTextTableBesideProse(t *testing.T) {
	prose := []string{"제1장 총칙", "이 규정은 학사 운영에 필요한 사항을 정함을", "목적으로 한다 본 규정은 공포한 날부터", "시행한다 다음 조는 등록금이다", "등록금은 매 학기 개시 전에 납부한다"}
	rows := [][]string{{"구분", "기간", "비고"}, {"1학기", "3월", "정규"}, {"2학기", "9월", "정규"}}
	var gs []glyph
	for i, r := range rows { // the table, right, from the top
		y := 700 - 14*float64(i)
		for c, cell := range r {
			gs = append(append(gs, brk()), glyphLine(cell, 420+60*float64(c), y, nil)...)
		}
	}
	for i, l := range prose { // the text, left, its first line on the table's last row
		gs = append(append(gs, brk()), glyphLine(l, 72, 672-20*float64(i), nil)...)
	}
	want := append(slices.Clone(prose), "구분 | 기간 | 비고", "1학기 | 3월 | 정규", "2학기 | 9월 | 정규")
	if got := nonEmptyLines(pageText(gs[1:])); got != strings.Join(want, "\n") {
		t.Errorf("a table beside prose:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}

	// A table of three columns, the first of text, every row on one line.
	gs = nil
	var across []string
	for i, l := range prose {
		y := 700 - 14*float64(i)
		gs = append(append(gs, brk()), glyphLine(l, 72, y, nil)...)
		gs = append(append(gs, brk()), glyphLine(rows[i%3][1], 420, y, nil)...)
		gs = append(append(gs, brk()), glyphLine(rows[i%3][2], 480, y, nil)...)
		across = append(across, l+" | "+rows[i%3][1]+" | "+rows[i%3][2])
	}
	if got := nonEmptyLines(pageText(gs[1:])); got != strings.Join(across, "\n") {
		t.Errorf("a table of text and values:\n%s\nwant\n%s", got, strings.Join(across, "\n"))
	}
}

// TestPageTextContents: a table of contents as TeX sets it, each entry's
// leader dots at the same places on every line (9.2 pt apart, 3.3 pt
// wide, at 10 pt), reads entry by entry with its page number, the title
// above it first. The white between the dots lined up down the entries
// and, as a punctuation mark takes up only its start, was a strip a
// gutter wide: the title's lines, the entries and their numbers were read
// as columns ("추진 배경 | . . ." under "개요", the numbers after all).
func TestPageTextContents(t *testing.T) {
	type entry struct {
		name   string
		x      float64
		dotted bool
		page   string
	}
	entries := []entry{{"개요", 72, false, "1"}, {"추진 배경", 82, true, "1"}, {"주요 일정", 82, true, "1"},
		{"도입 결과", 72, false, "3"}, {"이용 현황", 82, true, "3"}, {"설정 예시", 82, true, "4"}, {"향후 과제", 72, false, "5"}}
	gs := glyphLine("지식관리 시스템 도입 보고서", 230, 760, nil)
	gs = append(append(gs, brk()), glyphLine("정보전략팀 김민수", 255, 740, nil)...)
	gs = append(append(gs, brk()), glyphLine("차례", 72, 712, nil)...)
	var want []string
	for i, e := range entries {
		y := 690 - 12*float64(i)
		gs = append(append(gs, brk()), glyphLine(e.name, e.x, y, nil)...)
		line := e.name
		if e.dotted {
			var dots []string
			for x := 138.2; x < 495; x += 9.2 {
				gs = append(gs, glyph{r: ' ', gen: true}, glyph{r: '.', x0: x, x1: x + 3.3, lo: y - 2, hi: y + 8, h: 10})
				dots = append(dots, ".")
			}
			line += " " + strings.Join(dots, " ")
		}
		gs = append(append(gs, glyph{r: ' ', gen: true}), glyphLine(e.page, 518, y, nil)...)
		want = append(want, line+" "+e.page)
	}
	want = append([]string{"지식관리 시스템 도입 보고서", "정보전략팀 김민수", "차례"}, want...)
	got := strings.ReplaceAll(nonEmptyLines(pageText(gs)), cellSep, " ")
	if got != strings.Join(want, "\n") {
		t.Errorf("a table of contents:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// TestPageTextFootnotesUnderColumns: footnotes a point and a half smaller
// than the text (9 pt under 10.5, as Writer and Hancom set them) under a
// section of three columns are read after the third column. The white
// strip before the third column runs on down beside the footnotes, short
// lines under the first two columns; the second footnote, at the pitch of
// the first, passed for the columns' prose taken up again (in their size
// within 15 %, from their start, in one piece) and both were read before
// the third column. Prose that takes a column up again is in the
// column's own size.
func TestPageTextFootnotesUnderColumns(t *testing.T) {
	cols := [3][]string{
		{"제4조학년도는삼월", "일일부터다음해이월", "말일까지로하며일학", "기는삼월일일부터팔", "월말일까지로한다"},
		{"제5조수업일수는매", "학년도삼십주이상으", "로한다다만천재지변", "이나그밖의사유가있", "을때에는줄인다"},
		{"제6조학생이질병이", "나그밖의사유로삼개", "월이상수학할수없을", "때에는휴학을신청할", "수있다"},
	}
	var gs []glyph
	var want []string
	for c, lines := range cols {
		for i, l := range lines {
			// Two lines of the second column sit 6 pt lower (a paragraph's
			// space above them, none above the next).
			y := 700 - 22*float64(i)
			if c == 1 && (i == 2 || i == 3) {
				y -= 6
			}
			gs = append(append(gs, brk()), glyphLine(l, 72+114*float64(c), y, nil)...)
			want = append(want, l)
		}
	}
	small := func(text string, y float64) []glyph {
		line := glyphLine(text, 72, y, nil)
		for i, g := range line {
			if !g.gen {
				line[i].x0, line[i].x1 = 72+0.9*(g.x0-72), 72+0.9*(g.x1-72)
				line[i].lo, line[i].hi, line[i].h = y-1.8, y+7.2, 9
			}
		}
		return line
	}
	for i, n := range []string{"1학칙 제45조는 개정되었다.", "2대학원 규정을 따른다."} {
		gs = append(append(gs, brk()), small(n, 523-13*float64(i))...)
		want = append(want, n)
	}
	if got := nonEmptyLines(pageText(gs[1:])); got != strings.Join(want, "\n") {
		t.Errorf("footnotes under three columns:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// TestPageTextMarkBesideFrame: a footnote's mark raised after a word of
// a paragraph stays on its line when a note in a frame beside the
// paragraph (Writer's text frame, 9 pt) has a line at the mark's height.
// Lines were formed top to bottom, and the mark, higher than its own line,
// joined the frame's line, which it overlapped more; the frame was then
// read as a column of its own and the mark came out alone between the
// paragraph's lines ("학사 운영에 / 1 / 필요한 사항을").
func TestPageTextMarkBesideFrame(t *testing.T) {
	body := []string{"제1조 이 규정은 한빛대학교 학칙에 따라 학사 운영에", "필요한 사항을 정함을 목적으로 한다.",
		"이 규정에서 정하지 아니한 사항은 총장이 따로 정한다", "학사 운영의 세부 사항은 교무처장이 공고한다"}
	frame := []string{"참고 이 규정은 이천이십사년", "삼월 일일 전부 개정되었으며", "개정 전 입학생에게도 적용"}
	small := func(text string, x, y float64) []glyph {
		line := glyphLine(text, x, y, nil)
		for i, g := range line {
			if !g.gen {
				line[i].x0, line[i].x1 = x+0.9*(g.x0-x), x+0.9*(g.x1-x)
				line[i].lo, line[i].hi, line[i].h = y-1.8, y+7.2, 9
			}
		}
		return line
	}
	var gs []glyph
	for i, l := range body {
		y := 700 - 22*float64(i)
		gs = append(append(gs, brk()), glyphLine(l, 72, y, nil)...)
		if i == 1 { // the mark, drawn right after the full stop, 4 pt up
			end := gs[len(gs)-1].x1
			gs = append(gs, glyph{r: '1', x0: end, x1: end + 3, lo: y + 4, hi: y + 10, h: 6})
		}
	}
	for i, l := range frame {
		gs = append(append(gs, brk()), small(l, 380, 700-15*float64(i))...)
	}
	want := append([]string{body[0], body[1] + "1"}, body[2:]...)
	want = append(want, frame...)
	if got := nonEmptyLines(pageText(gs[1:])); got != strings.Join(want, "\n") {
		t.Errorf("a mark beside a frame:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// TestPageTextNumberedHeadingsAtTop: two columns that each start with a
// section heading whose number is set a quad apart ("8   제8절 분석", as
// LaTeX sets \section) read heading and column, left then right, with or
// without a table across the page above them. Each heading looks like a
// row of two narrow cells, so the line of both was taken off the top of
// the columns as a table's row, or counted as the table's last row, and
// read across: "8 제8절 분석 | 11 제11절 결과" before both columns.
func TestPageTextNumberedHeadingsAtTop(t *testing.T) {
	left := []string{"공공도서관은지역주민의평생학습을돕는기관", "이다그러나이용행태에관한실증연구는많지", "않다본연구는서울시소재도서관열두곳의대", "출기록을분석하여전자책대출이종이책대출"}
	right := []string{"에미치는영향을살펴본다전자책대출은해마", "다이십퍼센트이상늘었으며종이책대출은줄", "었다이러한변화는장서구성과예산배분에도", "영향을미치고있다이절은그관계를살펴본다"}
	heading := func(num, title string, x, y float64) []glyph {
		gs := glyphLine(num, x, y, nil)
		gs = append(append(gs, glyph{r: ' ', gen: true}), glyphLine(title, x+5*float64(len(num))+14, y, nil)...)
		for i, g := range gs { // set at 14 pt
			if !g.gen {
				gs[i].x0, gs[i].x1 = x+1.4*(g.x0-x), x+1.4*(g.x1-x)
				gs[i].lo, gs[i].hi, gs[i].h = y-2.8, y+11.2, 14
			}
		}
		return gs
	}
	page := func(table bool) ([]glyph, []string) {
		var gs []glyph
		var want []string
		y := 700.0
		if table {
			// The header's last two cells are closer than a gutter: the
			// header is no row of cells on the right, only the rows under
			// it are, so the strip runs down from the header and the
			// rows and the headings were one table of three rows.
			for i, row := range [][]string{{"구분", "2021년", "2022년", "2023년"}, {"종이책", "1,204", "1,180", "1,102"}, {"전자책", "124", "151", "183"}} {
				for c, cell := range row {
					gs = append(append(gs, brk()), glyphLine(cell, []float64{150, 230, 310, 345}[c], y-14*float64(i), nil)...)
				}
				if i == 0 {
					want = append(want, "구분 | 2021년 | 2022년 2023년")
					continue
				}
				want = append(want, strings.Join(row, " | "))
			}
			y -= 70
		}
		gs = append(append(gs, brk()), heading("8", "제8절 분석", 72, y)...)
		gs = append(append(gs, brk()), heading("11", "제11절 결과", 300, y)...)
		want = append(want, "8 제8절 분석")
		for i := range left {
			gs = append(append(gs, brk()), glyphLine(left[i], 72, y-24-14*float64(i), nil)...)
			gs = append(append(gs, brk()), glyphLine(right[i], 300, y-24-14*float64(i), nil)...)
		}
		want = append(append(want, left...), "11 제11절 결과")
		return gs[1:], append(want, right...)
	}
	for _, table := range []bool{false, true} {
		gs, want := page(table)
		if got := nonEmptyLines(pageText(gs)); got != strings.Join(want, "\n") {
			t.Errorf("table above %v:\n%s\nwant\n%s", table, got, strings.Join(want, "\n"))
		}
	}
}

// TestPageTextMenuBesideProse: a web page's menu, a column of short items
// narrower than a column of prose, beside the page's text (printed by a
// browser) is read apart from it, menu first; the two are separate flows,
// the items 23 pt apart and the text's lines 17, so a line shared by both
// has two baselines. Before, each item was read into the line of text
// beside it ("공지사항 2026학년도 …"). A form's labels beside their values,
// on the values' first baselines, still read across.
func TestPageTextMenuBesideProse(t *testing.T) {
	menu := []string{"학교소개", "공지사항", "학사일정", "장학안내", "입학안내", "자료실", "묻고답하기"}
	text := []string{"국가장학금 신청 기간을 다음과 같이 안내하오니 장학금 지원을 희망하는",
		"학생은 기간 내에 반드시 신청하시기 바랍니다 신청은 한국장학재단 누리집",
		"에서만 가능하며 기간이 지나면 신청할 수 없습니다 신청 대상은 대한민국",
		"국적을 가진 국내 대학의 재학생과 신입생과 편입생과 재입학생과 복학생",
		"이다 다만 이차 신청은 재학 중 두 번에 한하여 신청할 수 있으므로 되도록",
		"일차에 신청하시기 바랍니다 서류 제출 대상자로 선정된 학생은 기한까지",
		"서류를 제출하여야 합니다 문의는 학생지원팀 장학 담당에게 하시기 바랍니다",
		"신청 결과는 학기 시작 전에 누리집에서 확인할 수 있습니다 이상입니다"}
	var gs []glyph
	for i, m := range menu {
		gs = append(append(gs, brk()), glyphLine(m, 28, 700-23*float64(i), nil)...)
	}
	for i, l := range text {
		gs = append(append(gs, brk()), glyphLine(l, 135, 698-17*float64(i), nil)...)
	}
	want := append(slices.Clone(menu), text...)
	if got := nonEmptyLines(pageText(gs[1:])); got != strings.Join(want, "\n") {
		t.Errorf("a menu beside text:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}

	// A form: a label on the first line of its value, the value's
	// second line under it.
	gs, want = nil, nil
	for i, label := range menu[:4] {
		y := 700 - 34*float64(i)
		gs = append(append(gs, brk()), glyphLine(label, 28, y, nil)...)
		gs = append(append(gs, brk()), glyphLine(text[2*i], 135, y, nil)...)
		gs = append(append(gs, brk()), glyphLine(text[2*i+1], 135, y-17, nil)...)
		want = append(want, label+" "+text[2*i], text[2*i+1])
	}
	if got := strings.ReplaceAll(nonEmptyLines(pageText(gs[1:])), cellSep, " "); got != strings.Join(want, "\n") {
		t.Errorf("a form's labels:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// BenchmarkPageTextGrid lays out a page-sized table of 40 narrow columns
// and 200 rows with ragged cells: thousands of white strips to test, the
// worst case of the gutter search.
func BenchmarkPageTextGrid(b *testing.B) {
	gs := gridGlyphs(14, false)
	for b.Loop() {
		pageText(gs)
	}
}

// gridGlyphs is the benchmarks' table: 200 rows of 40 cells, pitch apart
// from y 3000 down, 60 wide from x 20; with wrap, each row's first cell
// has a second line 14 under its first.
func gridGlyphs(pitch float64, wrap bool) []glyph {
	var gs []glyph
	for r := range 200 {
		for c := range 40 {
			if len(gs) > 0 {
				gs = append(gs, brk())
			}
			cell := "가나"
			if (r*7+c*3)%5 == 0 {
				cell = "가나다라마"
			}
			y := 3000 - pitch*float64(r)
			gs = append(gs, glyphLine(cell, 20+60*float64(c), y, nil)...)
			if wrap && c == 0 {
				gs = append(append(gs, brk()), glyphLine("바사", 20, y-14, nil)...)
			}
		}
	}
	return gs
}
