package pdftext

import "testing"

// autospaced moves a line's Hangul after a digit a fifth of its size
// further along, as LibreOffice's Asian and Western autospacing sets it:
// "3년" is drawn "3 년", and PDFium infers a space there.
func autospaced(gs []glyph) []glyph {
	shift := 0.0
	var out []glyph
	for i, g := range gs {
		if i > 0 && gs[i-1].r >= '0' && gs[i-1].r <= '9' && g.r >= 0xac00 && g.r <= 0xd7a3 {
			shift += 0.2 * g.h
			out = append(out, glyph{r: ' ', gen: true})
		}
		g.x0, g.x1 = g.x0+shift, g.x1+shift
		out = append(out, g)
	}
	return out
}

// TestPageTextCells reads a number and its unit that LibreOffice
// autospaces, and notes' numbers before a date, as pdftotext and the page
// do.
func TestPageTextCells(t *testing.T) {
	tests := []struct {
		name string
		in   []glyph
		want string
	}{
		// pdftotext joins a gap on a line or in a cell whose words are
		// all one glyph, and writes it on a line of longer words.
		{"number and its unit autospaced in a cell are one word", autospaced(column(
			[][]string{{"민원 처리 기록", "3년", "민원처리법"}, {"출입 기록", "1년", "보안업무규정"}}, []float64{72, 160, 230})),
			"민원 처리 기록 | 3년 | 민원처리법\n출입 기록 | 1년 | 보안업무규정"},
		{"two numbers and their units autospaced in a cell are two words", autospaced(column(
			[][]string{{"공무상 질병", "3년 6월"}, {"일반 질병", "1년 6월"}}, []float64{72, 160})),
			"공무상 질병 | 3년 6월\n일반 질병 | 1년 6월"},
		{"two numbers and their units autospaced alone on a line are two words", autospaced(glyphLine("3년 6월", 72, 700, nil)), "3년 6월"},
		{"number and its unit autospaced alone on a line are one word", autospaced(glyphLine("5건", 72, 700, nil)), "5건"},
		{"number of two digits autospaced from its unit stays apart", autospaced(column(
			[][]string{{"민원 처리 기록", "10년"}, {"출입 기록", "12년"}}, []float64{72, 160})),
			"민원 처리 기록 | 10 년\n출입 기록 | 12 년"},
		{"number autospaced in prose stays apart", autospaced(glyphLine("통산 3년을 넘을 수 없다", 72, 700, nil)), "통산 3 년을 넘을 수 없다"},
		// LibreOffice's footnotes: a number a tab before its note, the
		// second note starting with a date.
		{"footnote numbers before a date get no bar", stacked(
			"1  법률 제 19234 호, 2023. 3. 14. 일부개정",
			"2  2022. 6. 30. 이전에 수집한 정보에도 적용한다."),
			"1 법률 제 19234 호, 2023. 3. 14. 일부개정\n2 2022. 6. 30. 이전에 수집한 정보에도 적용한다."},
		{"table of small numbers and years keeps its bars", column(
			[][]string{{"1", "2022"}, {"2", "2023"}}, []float64{72, 150}),
			"1 | 2022\n2 | 2023"},
		{"table of a year and a figure with its unit keeps its bars", column(
			[][]string{{"2019", "42명"}, {"2020", "43명"}}, []float64{72, 150}),
			"2019 | 42명\n2020 | 43명"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.in); got != tt.want {
				t.Errorf("pageText = %q, want %q", got, tt.want)
			}
		})
	}
}
