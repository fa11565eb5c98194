package pdftext

import (
	"strings"
	"testing"
)

// marked is a line of 10-point text with a note's mark raised after it
// (6 points, its foot 2.5 points above the baseline), as LibreOffice and
// Hancom set "학칙¹" or "한다.¹⁾".
func marked(text, mark string, y float64) []glyph {
	gs := glyphLine(text, 72, y, nil)
	x := gs[len(gs)-1].x1
	for _, r := range mark {
		gs = append(gs, glyph{r: r, x0: x, x1: x + 3.5, lo: y + 2.5, hi: y + 8.5, h: 6})
		x += 3.5
	}
	return gs
}

// pieces sets a line's parts at the given places on one baseline, in
// size points, a tab's white between them.
func pieces(size, y float64, parts []string, at []float64) []glyph {
	var gs []glyph
	for i, p := range parts {
		if i > 0 {
			gs = append(gs, glyph{r: ' ', gen: true})
		}
		for _, g := range glyphLine(p, at[i], y, nil) {
			if !g.gen {
				w := (g.x1 - g.x0) * size / 10
				g.x0 = at[i] + (g.x0-at[i])*size/10
				g.x1, g.lo, g.hi, g.h = g.x0+w, y-0.2*size, y+0.8*size, size
			}
			gs = append(gs, g)
		}
	}
	return gs
}

// TestPageTextFootnotes: a note whose number, date and words are a tab
// apart (LibreOffice, Hancom) lines up with the next note as a table's
// columns do; under text that marks its number, and smaller, it is a
// note and reads as one.
func TestPageTextFootnotes(t *testing.T) {
	at := []float64{72, 90, 165}
	wide := []float64{72, 110, 200} // a table's columns
	lines := func(parts ...[]glyph) []glyph {
		var out []glyph
		for i, p := range parts {
			if i > 0 {
				out = append(out, brk())
			}
			out = append(out, p...)
		}
		return out
	}
	body := lines(marked("이 규정은 학칙에서 위임된 사항을 정한다.", "1", 700),
		marked("이 규정은 모든 학생에게 적용한다.", "2", 686))
	tests := []struct {
		name string
		in   []glyph
		want []string
	}{
		{"Korean notes under the text that marks them", lines(body,
			pieces(8, 120, []string{"1", "2022. 6. 30.", "개정"}, at),
			pieces(8, 110, []string{"2", "2023. 3. 1.", "신설"}, at)),
			[]string{"1 2022. 6. 30. 개정", "2 2023. 3. 1. 신설"}},
		{"English notes numbered with a bracket, as Hancom marks them", lines(
			marked("These rules apply to every student.", "1)", 700),
			marked("Other rules prevail where they say so.", "2)", 686),
			pieces(8, 120, []string{"1)", "2021. 9. 1.", "Amended"}, at),
			pieces(8, 110, []string{"2)", "2020. 3. 1.", "Added by the Senate"}, at)),
			[]string{"1) 2021. 9. 1. Amended", "2) 2020. 3. 1. Added by the Senate"}},
		{"a table in the text's size under the marks keeps its bars", lines(body,
			pieces(10, 120, []string{"1", "2022. 6. 30.", "개정"}, at),
			pieces(10, 106, []string{"2", "2023. 3. 1.", "신설"}, at)),
			[]string{"1 | 2022. 6. 30. | 개정", "2 | 2023. 3. 1. | 신설"}},
		{"small rows with no marks on the page keep their bars", lines(
			glyphLine("이 규정은 학칙에서 위임된 사항을 정한다.", 72, 700, nil),
			pieces(8, 120, []string{"1", "2022. 6. 30.", "개정"}, at),
			pieces(8, 110, []string{"2", "2023. 3. 1.", "신설"}, at)),
			[]string{"1 | 2022. 6. 30. | 개정", "2 | 2023. 3. 1. | 신설"}},
		{"small rows above the marks keep their bars", lines(
			pieces(8, 760, []string{"1", "2022. 6. 30.", "개정"}, at),
			pieces(8, 750, []string{"2", "2023. 3. 1.", "신설"}, at),
			marked("이 규정은 학칙에서 위임된 사항을 정한다.", "1", 700),
			marked("이 규정은 모든 학생에게 적용한다.", "2", 686)),
			[]string{"1 | 2022. 6. 30. | 개정", "2 | 2023. 3. 1. | 신설"}},
		{"a smaller table numbered past the marks keeps its bars on every row", lines(body,
			glyphLine("지역별 현황은 다음 표와 같다.", 72, 660, nil),
			pieces(9, 640, []string{"1", "서울", "1,204"}, wide),
			pieces(9, 628, []string{"2", "부산", "876"}, wide),
			pieces(9, 616, []string{"3", "대구", "512"}, wide),
			pieces(9, 604, []string{"4", "광주", "430"}, wide)),
			[]string{"1 | 서울 | 1,204", "2 | 부산 | 876", "3 | 대구 | 512", "4 | 광주 | 430"}},
		{"a smaller English table numbered past the marks keeps its bars on every row", lines(
			marked("These rules apply to every student.", "1", 700),
			marked("Other rules prevail where they say so.", "2", 686),
			glyphLine("The regions are as follows.", 72, 660, nil),
			pieces(9, 640, []string{"1", "Seoul", "1,204"}, wide),
			pieces(9, 628, []string{"2", "Busan", "876"}, wide),
			pieces(9, 616, []string{"3", "Daegu", "512"}, wide)),
			[]string{"1 | Seoul | 1,204", "2 | Busan | 876", "3 | Daegu | 512"}},
		{"notes under a smaller table numbered past the marks are notes", lines(body,
			pieces(9, 640, []string{"1", "서울", "1,204"}, wide),
			pieces(9, 628, []string{"2", "부산", "876"}, wide),
			pieces(9, 616, []string{"3", "대구", "512"}, wide),
			glyphLine("이 규정은 학칙에서 위임된 사항을 정한다.", 72, 560, nil),
			pieces(8, 120, []string{"1", "2022. 6. 30.", "개정"}, at),
			pieces(8, 110, []string{"2", "2023. 3. 1.", "신설"}, at)),
			[]string{"1 | 서울 | 1,204", "3 | 대구 | 512", "1 2022. 6. 30. 개정", "2 2023. 3. 1. 신설"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Split(nonEmptyLines(pageText(tt.in)), "\n")
			for _, w := range tt.want {
				found := false
				for _, l := range got {
					found = found || l == w
				}
				if !found {
					t.Errorf("no line %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}
