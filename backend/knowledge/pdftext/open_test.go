package pdftext

import (
	"strings"
	"testing"
)

// openTable is a table ruled only horizontally, as glyphs: a caption
// above it, a header row, and two rows whose first cell wraps onto two
// lines beside one-line cells (top-aligned, as LaTeX's p{} column sets
// them, or centred), a sentence under it. Its rules are those of style.
func openTable(centred bool) []glyph {
	return openTableOf(centred, [2][2]string{{"전기 설비 절연 저항,", "누전 차단기 작동 여부"}, {"소화기 압력 게이지,", "호스 연결 상태"}})
}

// openTableOf is openTable with the lines of its two wrapped cells.
func openTableOf(centred bool, wrapped [2][2]string) []glyph {
	var gs []glyph
	add := func(text string, x, base float64) {
		if len(gs) > 0 {
			gs = append(gs, brk())
		}
		gs = append(gs, glyphLine(text, x, base, nil)...)
	}
	add("표 1. 점검 결과", 20, 750)
	add("점검 항목", 25, 722)
	add("수량", 170, 722)
	add("비고", 240, 722)
	at := func(base float64) float64 {
		if centred {
			return base - 7
		}
		return base
	}
	add(wrapped[0][0], 25, 700)
	add(wrapped[0][1], 25, 686)
	add("12", 172, at(700))
	add("양호", 240, at(700))
	add(wrapped[1][0], 25, 664)
	add(wrapped[1][1], 25, 650)
	add("3", 175, at(664))
	add("교체", 240, at(664))
	add("점검자는 결과를 기록한다.", 20, 620)
	return gs
}

var openWant = strings.Join([]string{
	"표 1. 점검 결과",
	"점검 항목 | 수량 | 비고",
	"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
	"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
	"점검자는 결과를 기록한다.",
}, "\n")

// TestOpenRows reads a table ruled only horizontally row by row, each
// cell's lines together: booktabs' three rules (a body of rows told apart
// by their lines) and a rule under every row (HTML's border-bottom, the
// one-line cells centred); tables without the evidence read as before.
func TestOpenRows(t *testing.T) {
	booktabs := []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(642, 20, 290)}
	everyRow := []rule{hRule(715, 20, 290), hRule(678, 20, 290), hRule(642, 20, 290)}
	for _, tc := range []struct {
		name    string
		centred bool
		rules   []rule
	}{
		{"booktabs", false, booktabs},
		{"booktabs with a double top rule", false, append(booktabs, hRule(736.5, 20, 290))},
		{"a rule under every row, cells centred", true, everyRow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs := openTable(tc.centred)
			if got := nonEmptyLines(ruledPageText(gs, joinRules(tc.rules))); got != openWant {
				t.Errorf("got\n%s\nwant\n%s", got, openWant)
			}
		})
	}

	// Korean broken inside words (ko.TeX, Hancom's wrapping by
	// syllable): the lines run to the column's edge, and the broken words
	// are joined whole.
	byChar := openTableOf(false, [2][2]string{{"전기 설비 절연 저항, 누", "전 차단기 작동 여부"}, {"소화기 압력 게이지, 호", "스 연결 상태"}})
	if got := nonEmptyLines(ruledPageText(byChar, joinRules(booktabs))); got != openWant {
		t.Errorf("Korean broken inside words:\n%s\nwant\n%s", got, openWant)
	}

	// Two tables of one width, their columns apart, with a caption between
	// them whose white meets neither's.
	twoTables := lines(
		"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
		"전기 설비 절연 저항,", 25, 700, "12", 172, 700, "양호", 240, 700,
		"누전 차단기 작동 여부", 25, 686,
		"소화기 압력 게이지,", 25, 664, "3", 175, 664, "교체", 240, 664,
		"호스 연결 상태", 25, 650,
		"표 2.", 25, 625, "점검 일정", 80, 625,
		"구분", 25, 599, "담당", 110, 599, "일정", 200, 599,
		"전기", 25, 577, "김철수 과장,", 110, 577, "3월", 200, 577,
		"이영희 대리", 110, 563,
		"소방", 25, 541, "박민수 주임,", 110, 541, "4월", 200, 541,
		"정수진 사원", 110, 527,
	)
	twoTablesRules := []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(642, 20, 290), hRule(612, 20, 290), hRule(592, 20, 290), hRule(520, 20, 290)}

	// Rows a person meets in a Korean report's booktabs table, each read
	// whole (the lines are wrapped by words, so the first column is
	// ragged).
	for _, tc := range []struct {
		name  string
		gs    []glyph
		rules []rule
		want  []string
	}{
		// A row whose right-hand cell is empty, under a row of one line:
		// its first cell would have fitted on the line above, so it
		// starts a row.
		{"an empty right-hand cell under a row of one line", lines(
			"점검 항목", 25, 722, "본관", 170, 722, "별관", 215, 722, "비고", 255, 722,
			"전기 설비 절연 저항,", 25, 700, "적합", 170, 700, "적합", 215, 700,
			"누전 차단기 작동 여부", 25, 686,
			"소화기 점검", 25, 664, "적합", 170, 664, "부적합", 215, 664, "교체", 255, 664,
			"승강기 점검", 25, 650, "적합", 170, 650, "적합", 215, 650,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(640, 20, 290)}, []string{
			"점검 항목 | 본관 | 별관 | 비고",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 적합 | 적합",
			"소화기 점검 | 적합 | 부적합 | 교체",
			"승강기 점검 | 적합 | 적합",
		}},
		// A cell's line broken by hand (\newline, <br>): it would have
		// fitted on the line above, but a line with text in one column
		// only is no row.
		{"a cell's line broken by hand", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"전기 설비", 25, 700, "12", 172, 700, "양호", 240, 700,
			"(본관)", 25, 686,
			"소화기 압력 점검", 25, 664, "3", 175, 664, "교체", 240, 664,
			"(별관)", 25, 650,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(640, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"전기 설비 (본관) | 12 | 양호",
			"소화기 압력 점검 (별관) | 3 | 교체",
		}},
		// Groups of rows under headings in the first column ("가. 전기
		// 설비", \multicolumn{4}{l}{…}): each heading a row of its own,
		// not a line of the row above.
		{"groups under headings", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"가. 전기 설비", 25, 700,
			"전기 설비 절연 저항,", 25, 686, "12", 172, 686, "양호", 240, 686,
			"누전 차단기 작동 여부", 25, 672,
			"분전반 청소", 25, 658, "2", 175, 658, "교체", 240, 658,
			"나. 소방 설비", 25, 644,
			"소화기 압력 게이지,", 25, 630, "3", 175, 630, "교체", 240, 630,
			"호스 연결 상태", 25, 616,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(606, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"가. 전기 설비",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
			"분전반 청소 | 2 | 교체",
			"나. 소방 설비",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
		}},
		// Headings without a list's mark, set further under the row above
		// than a cell's lines lie apart (booktabs' \addlinespace, 3 pt
		// here) or at the top of the body: rows of their own too.
		{"groups under headings without marks, space above them", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"전기 설비", 25, 700,
			"전기 설비 절연 저항,", 25, 686, "12", 172, 686, "양호", 240, 686,
			"누전 차단기 작동 여부", 25, 672,
			"분전반 청소", 25, 658, "2", 175, 658, "교체", 240, 658,
			"소방 설비", 25, 641,
			"소화기 압력 게이지,", 25, 624, "3", 175, 624, "교체", 240, 624,
			"호스 연결 상태", 25, 610,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(600, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"전기 설비",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
			"분전반 청소 | 2 | 교체",
			"소방 설비",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
		}},
		// Rows padded 3 pt apart (a row's padding, \arraystretch): a heading
		// under a wrapped cell's last line starts a row, a cell's lines
		// stay together.
		{"groups under headings without marks, rows padded apart", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"전기 설비 절연 저항,", 25, 700, "12", 172, 700, "양호", 240, 700,
			"누전 차단기 작동 여부", 25, 686,
			"소방 설비", 25, 669,
			"소화기 압력 게이지,", 25, 652, "3", 175, 652, "교체", 240, 652,
			"호스 연결 상태", 25, 638,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(628, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
			"소방 설비",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
		}},
		// A \cmidrule across the table between two groups of rows parts
		// them as a \midrule does (it stops half an em short of the
		// \toprule's ends).
		{"rows parted by a \\cmidrule across the table", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"전기 설비 절연 저항,", 25, 700, "12", 172, 700, "양호", 240, 700,
			"누전 차단기 작동 여부", 25, 686,
			"소화기 압력 게이지,", 25, 664, "3", 175, 664, "교체", 240, 664,
			"호스 연결 상태", 25, 650,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(676, 25, 285), hRule(640, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
		}},
		// A \cmidrule{2-3} with the first column's text beside it: the
		// row under it, which would go on the one above by its edges
		// (no text in the last column), is a row of its own.
		{"rows parted by a \\cmidrule under some columns", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"소화기 압력 게이지,", 25, 700, "3", 175, 700, "교체", 240, 700,
			"호스 연결 상태", 25, 686,
			"전기 설비 절연 저항 점검", 25, 672, "12", 172, 672, "양호", 240, 672,
			"분전반", 25, 658, "2", 175, 658,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(666, 165, 265), hRule(648, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
			"전기 설비 절연 저항 점검 | 12 | 양호",
			"분전반 | 2",
		}},
		// A \cmidrule(lr){2-4} between two rows whose first column is
		// empty beside it: no text beyond its ends, but cells along it
		// above and below, and the rows are parted (a rule under some
		// columns that parted nothing made the slab no table).
		{"rows parted by a \\cmidrule beside an empty first column", lines(
			"설비", 25, 722, "점검 내용", 85, 722, "결과", 185, 722, "비고", 240, 722,
			"전기 설비", 25, 700, "절연 저항과 누전", 85, 700, "부적합", 185, 700, "교체", 240, 700,
			"차단기 작동 여부", 85, 686,
			"비상 조명 점검", 85, 664, "적합", 185, 664, "양호", 240, 664,
			"분전반 청소", 85, 642, "적합", 185, 642, "양호", 240, 642,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(676, 82, 285), hRule(654, 82, 285), hRule(632, 20, 290)}, []string{
			"설비 | 점검 내용 | 결과 | 비고",
			"전기 설비 | 절연 저항과 누전 차단기 작동 여부 | 부적합 | 교체",
			"비상 조명 점검 | 적합 | 양호",
			"분전반 청소 | 적합 | 양호",
		}},
		// A group's heading across the table, over the gutters the rows
		// leave: a line of its own, the rows read as a table.
		{"a group's heading across the table", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"전기 설비 절연 저항,", 25, 700, "12", 172, 700, "양호", 240, 700,
			"누전 차단기 작동 여부", 25, 686,
			"나. 소방 설비와 승강기 안전 장치 (공통 점검)", 25, 664,
			"소화기 압력 게이지,", 25, 642, "3", 175, 642, "교체", 240, 642,
			"호스 연결 상태", 25, 628,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(618, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
			"나. 소방 설비와 승강기 안전 장치 (공통 점검)",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
		}},
		// Each of the two tables is read with its own columns.
		{"two tables of one width", twoTables, twoTablesRules, []string{
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 12 | 양호",
			"소화기 압력 게이지, 호스 연결 상태 | 3 | 교체",
		}},
		{"two tables of one width: the second", twoTables, twoTablesRules, []string{
			"전기 | 김철수 과장, 이영희 대리 | 3월",
			"소방 | 박민수 주임, 정수진 사원 | 4월",
		}},
		// A header spanning two columns (\multicolumn) over the body's
		// gutter: the header reads as before, the body row by row.
		{"a header spanning two columns", lines(
			"결과", 192.5, 728,
			"점검 항목", 25, 714, "본관", 170, 714, "별관", 215, 714, "비고", 255, 714,
			"전기 설비 절연 저항,", 25, 690, "적합", 170, 690, "적합", 215, 690, "양호", 255, 690,
			"누전 차단기 작동 여부", 25, 676,
			"소화기 압력 게이지,", 25, 654, "적합", 170, 654, "부적합", 215, 654, "교체", 255, 654,
			"호스 연결 상태", 25, 640,
		), []rule{hRule(740, 20, 290), hRule(705, 20, 290), hRule(630, 20, 290)}, []string{
			"결과",
			"점검 항목 | 본관 | 별관 | 비고",
			"전기 설비 절연 저항, 누전 차단기 작동 여부 | 적합 | 적합 | 양호",
			"소화기 압력 게이지, 호스 연결 상태 | 적합 | 부적합 | 교체",
		}},
		// Cells centred vertically (m{}): the one-line cells stand beside
		// the wrapped cell's middle line, or between two of its lines.
		{"cells centred vertically", lines(
			"점검 항목", 25, 722, "수량", 170, 722, "비고", 240, 722,
			"전기 설비 절연 저항,", 25, 700,
			"누전 차단기 작동 여부,", 25, 686, "12", 172, 686, "양호", 240, 686,
			"비상 조명", 25, 672,
			"소화기 압력 게이지 정상,", 25, 650, "3", 175, 643, "교체", 240, 643,
			"호스 연결", 25, 636,
		), []rule{hRule(735, 20, 290), hRule(715, 20, 290), hRule(626, 20, 290)}, []string{
			"점검 항목 | 수량 | 비고",
			"전기 설비 절연 저항, 누전 차단기 작동 여부, 비상 조명 | 12 | 양호",
			"소화기 압력 게이지 정상, 호스 연결 | 3 | 교체",
		}},
	} {
		got := nonEmptyLines(ruledPageText(tc.gs, joinRules(tc.rules)))
		if want := strings.Join(tc.want, "\n"); !strings.Contains(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, want)
		}
	}

	// Without rules the rows read line by line across, as pdftotext
	// reads them: the first cell is cut.
	if got := strings.ReplaceAll(pageText(openTable(false)), cellSep, " "); !strings.Contains(got, "저항, 12 양호\n누전 차단기") {
		t.Errorf("without rules the rows should read line by line:\n%s", got)
	}

	// Without the evidence, as without rules.
	for _, tc := range []struct {
		name  string
		gs    []glyph
		rules []rule
	}{
		// One row between the rules is no table.
		{"one row", openTable(false), []rule{hRule(712, 20, 290), hRule(675, 20, 290)}},
		// Rules of different lengths bound no slab.
		{"rules of different lengths", openTable(false), []rule{hRule(735, 20, 290), hRule(642, 20, 200)}},
		// A chart's labels and, far under them between its gridlines,
		// the next chart's figures: no cell wraps that far.
		{"lines a chart apart", chart(), []rule{hRule(735, 20, 290), hRule(660, 20, 290)}},
		// A page's header and footer rules, far from the lines.
		{"rules far from the lines", tableOnly(), []rule{hRule(770, 20, 290), hRule(600, 20, 290)}},
	} {
		if got, plain := nonEmptyLines(ruledPageText(tc.gs, tc.rules)), nonEmptyLines(pageText(tc.gs)); got != plain {
			t.Errorf("%s:\n%s\nwant as without rules\n%s", tc.name, got, plain)
		}
	}

	// Two columns of prose between two rules: every line has text in
	// both columns, no line continues another, so no row wraps.
	var prose []glyph
	for i := range 6 {
		if i > 0 {
			prose = append(prose, brk())
		}
		prose = append(prose, glyphLine("왼쪽 단의 본문 줄입니다", 25, 720-14*float64(i), nil)...)
		prose = append(prose, brk())
		prose = append(prose, glyphLine("오른쪽 단의 본문 줄", 170, 720-14*float64(i), nil)...)
	}
	if got, want := nonEmptyLines(ruledPageText(prose, []rule{hRule(735, 20, 290), hRule(642, 20, 290)})), nonEmptyLines(pageText(prose)); got != want {
		t.Errorf("two columns of prose between rules:\n%s\nwant\n%s", got, want)
	}
}

// lines sets each text of args (text, x, baseline, …) as a line of glyphs.
func lines(args ...any) []glyph {
	var gs []glyph
	for i := 0; i+2 < len(args); i += 3 {
		if len(gs) > 0 {
			gs = append(gs, brk())
		}
		gs = append(gs, glyphLine(args[i].(string), toFloat(args[i+1]), toFloat(args[i+2]), nil)...)
	}
	return gs
}

func toFloat(v any) float64 {
	switch v := v.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	}
	panic("not a number")
}

// chart is a bar chart's labels, its next chart's figures 30 points under
// them, and that chart's labels.
func chart() []glyph {
	var gs []glyph
	for _, l := range []struct {
		text string
		x    float64
		base float64
	}{
		{"CWE-131", 25, 722}, {"CWE-943", 130, 722}, {"CWE-787", 230, 722},
		{"96", 35, 692}, {"99", 140, 692},
		{"CWE-022", 25, 672}, {"CWE-090", 130, 672}, {"CWE-078", 230, 672},
	} {
		if len(gs) > 0 {
			gs = append(gs, brk())
		}
		gs = append(gs, glyphLine(l.text, l.x, l.base, nil)...)
	}
	return gs
}

// tableOnly is openTable's rows without the caption and the sentence.
func tableOnly() []glyph {
	var gs []glyph
	for _, g := range openTable(false) {
		if g.gen || (g.lo < 740 && g.lo > 630) {
			gs = append(gs, g)
		}
	}
	return gs
}

// BenchmarkPageTextGridOpen lays out BenchmarkPageTextGrid's table (40 ×
// 200 cells) ruled only horizontally, its first column's cells wrapped
// onto two lines: a rule under every row, or booktabs' three; beside it,
// the same glyphs without rules, as the page read before open.go (with
// rules only horizontal, ruledRows leaves every glyph as it is).
func BenchmarkPageTextGridOpen(b *testing.B) {
	const top, pitch = 3000.0, 28.0
	gs := gridGlyphs(pitch, true)
	var everyRow []rule
	for r := range 201 {
		everyRow = append(everyRow, hRule(top+10-pitch*float64(r), 15, 15+60*40))
	}
	booktabs := []rule{hRule(top+10, 15, 15+60*40), hRule(top+10-pitch, 15, 15+60*40), hRule(top+10-pitch*200, 15, 15+60*40)}
	b.Run("as before (no rules read)", func(b *testing.B) {
		for b.Loop() {
			pageText(gs)
		}
	})
	b.Run("a rule under every row", func(b *testing.B) {
		for b.Loop() {
			ruledPageText(gs, everyRow)
		}
	})
	b.Run("booktabs", func(b *testing.B) {
		for b.Loop() {
			ruledPageText(gs, booktabs)
		}
	})
}
