package pdftext

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// hRule and vRule are rules of a glyph-level test.
func hRule(y, x0, x1 float64) rule { return rule{at: y, lo: x0, hi: x1} }
func vRule(x, y0, y1 float64) rule { return rule{vertical: true, at: x, lo: y0, hi: y1} }

// inspection is an inspection report's table as glyphs: its second row's
// first cell wraps onto three lines, the cells beside it are one line,
// centred, so that read line by line the row mixes its cells. Its rules
// are a border round every cell.
func inspection() ([]glyph, []rule) {
	return inspectionOf("전기 설비 절연 저항,", "누전 차단기 작동 여부,", "비상 조명 점등 상태")
}

// inspectionOf is inspection with the lines of its wrapped cell, whose
// text runs from 25 to 145 points (its rules at 20 and 150).
func inspectionOf(wrapped ...string) ([]glyph, []rule) {
	var gs []glyph
	add := func(text string, x, base float64) {
		if len(gs) > 0 {
			gs = append(gs, brk())
		}
		gs = append(gs, glyphLine(text, x, base, nil)...)
	}
	add("점검 결과표", 20, 760)
	add("점검 항목", 25, 722)
	add("장소", 160, 722)
	add("결과", 215, 722)
	add("비고", 260, 722)
	for i, l := range wrapped {
		add(l, 25, 700-14*float64(i))
	}
	add("본관", 160, 686)
	add("적합", 215, 686)
	add("-", 275, 686)
	add("점검자는 결과를 기록한다.", 20, 640)
	var rules []rule
	for _, y := range []float64{735, 715, 665} {
		rules = append(rules, hRule(y, 20, 290))
	}
	for _, x := range []float64{20, 150, 205, 255, 290} {
		rules = append(rules, vRule(x, 665, 735))
	}
	return gs, rules
}

// TestRuledRows reads a ruled table's rows cell by cell, each cell's lines
// together; text outside the table, a framed note of one cell and a table
// without rules read as before.
func TestRuledRows(t *testing.T) {
	gs, rules := inspection()
	want := strings.Join([]string{
		"점검 결과표",
		"점검 항목 | 장소 | 결과 | 비고",
		"전기 설비 절연 저항, 누전 차단기 작동 여부, 비상 조명 점등 상태 | 본관 | 적합 | -",
		"점검자는 결과를 기록한다.",
	}, "\n")
	if got := nonEmptyLines(ruledPageText(gs, rules)); got != want {
		t.Errorf("ruled table:\n%s\nwant\n%s", got, want)
	}
	// Without its rules the row is read line by line across, as
	// pdftotext reads it: the phrase is cut.
	if got := strings.ReplaceAll(pageText(gs), cellSep, " "); !strings.Contains(got, "여부, 본관 적합 -\n비상 조명") {
		t.Errorf("without rules the row should read line by line:\n%s", got)
	}

	// Rules drawn cell by cell (Chromium draws each cell's borders) join.
	var pieces []rule
	for _, r := range rules {
		if r.vertical {
			pieces = append(pieces, vRule(r.at, 665, 715.5), vRule(r.at+0.3, 715, 735))
			continue
		}
		for _, x := range [][2]float64{{20, 150}, {150, 205}, {205, 255}, {255, 290}} {
			pieces = append(pieces, hRule(r.at+0.2, x[0], x[1]))
		}
	}
	if got := nonEmptyLines(ruledPageText(gs, joinRules(pieces))); got != want {
		t.Errorf("rules drawn cell by cell:\n%s\nwant\n%s", got, want)
	}

	// An underline under a cell's first line is no border of it.
	under := append(joinRules(rules), hRule(697.5, 25, 100))
	if got := nonEmptyLines(ruledPageText(gs, under)); got != want {
		t.Errorf("an underline in a cell:\n%s\nwant\n%s", got, want)
	}

	// Korean wrapped by syllable (Chromium without keep-all, Hancom's
	// default): each line runs to the cell's edge, less than a syllable
	// left, and a word broken there is joined whole. Wrapped by words
	// (keep-all), a line leaves room for the next line's first syllable,
	// and a line that runs to the edge by chance keeps its space.
	for _, tc := range []struct {
		name  string
		lines []string
		cell  string
	}{
		{"Korean broken inside words", []string{"전기 설비 절연 저항, 누", "전 차단기 작동 여부, 비", "상 조명 점등 상태"},
			"전기 설비 절연 저항, 누전 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean wrapped by words", []string{"전기 설비 절연 저항,", "누전 차단기 작동 점검표", "비상 조명 점등 상태"},
			"전기 설비 절연 저항, 누전 차단기 작동 점검표 비상 조명 점등 상태"},
		// A line that ends in a particle ending its word, run to the edge,
		// broke at a space (particleBreak); one whose next line goes on
		// with the word ("있는/지") broke inside it.
		{"Korean broken by syllable at a space after a particle", []string{"전기 설비의 절연 저항을", "누전 차단기 작동 여부, 비", "상 조명 점등 상태"},
			"전기 설비의 절연 저항을 누전 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken by syllable after 할 before a bound noun", []string{"전기 설비 절연을 측정할", "수 있는 차단기의 작동,", "비상 조명 점등 상태"},
			"전기 설비 절연을 측정할 수 있는 차단기의 작동, 비상 조명 점등 상태"},
		{"Korean broken by syllable after 된 at a space", []string{"전기 설비 절연이 확인된", "누전 차단기 작동 여부, 비", "상 조명 점등 상태"},
			"전기 설비 절연이 확인된 누전 차단기 작동 여부, 비상 조명 점등 상태"},
		// "된" also begins nouns (된장, 된서리, 된소리): broken after it,
		// they are joined whole; "확인된 / 서비스" keeps its space.
		{"Korean broken inside 된장", []string{"전기 설비 절연이 국산 된", "장 차단기 작동 여부, 비", "상 조명 점등 상태"},
			"전기 설비 절연이 국산 된장 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken inside 된장 of a compound", []string{"전기 설비의 절연이 집된", "장 차단기 작동 여부, 비", "상 조명 점등 상태"},
			"전기 설비의 절연이 집된장 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken inside 된서리", []string{"전기 설비 절연이 지난 된", "서리 차단기 작동 여부,", "비상 조명 점등 상태"},
			"전기 설비 절연이 지난 된서리 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken inside 된소리", []string{"전기 설비 절연 저항의 된", "소리 차단기 작동 여부,", "비상 조명 점등 상태"},
			"전기 설비 절연 저항의 된소리 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken by syllable after a word ending in 된 before 서", []string{"전기 설비 절연이 확인된", "서비스 차단기 작동 여부,", "비상 조명 점등 상태"},
			"전기 설비 절연이 확인된 서비스 차단기 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken by syllable after 된 ending a Latin verb", []string{"전기 설비 절연 freeze 된", "소프트웨어 차단기 작동,", "비상 조명 점등 상태"},
			"전기 설비 절연 freeze 된 소프트웨어 차단기 작동, 비상 조명 점등 상태"},
		{"Korean broken by syllable between 수 and 있", []string{"전기 설비 절연 측정할 수", "있는 차단기의 작동 여부,", "비상 조명 점등 상태"},
			"전기 설비 절연 측정할 수 있는 차단기의 작동 여부, 비상 조명 점등 상태"},
		{"Korean broken by syllable between 해야 and 한다", []string{"전기설비 절연을 점검해야", "한다. 누전 차단기 작동,", "비상 조명 점등 상태"},
			"전기설비 절연을 점검해야 한다. 누전 차단기 작동, 비상 조명 점등 상태"},
		{"Korean broken by syllable inside a word after 는", []string{"전기 설비의 절연이 있는", "지 누전 차단기 작동 여부,", "비상 조명 점등 상태"},
			"전기 설비의 절연이 있는지 누전 차단기 작동 여부, 비상 조명 점등 상태"},
	} {
		gs, rules := inspectionOf(tc.lines...)
		want := "점검 항목 | 장소 | 결과 | 비고\n" + tc.cell + " | 본관 | 적합 | -"
		if got := nonEmptyLines(ruledPageText(gs, rules)); !strings.Contains(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, want)
		}
	}

	// A column of centred labels wrapped at spaces beside a column of
	// questions wrapped by syllable (KorQuAD 2.0's table of question
	// types): the labels' column shows room a wrapper by syllable would
	// have filled ("여러 문장 / 종합 / 활용"), so its labels keep their
	// spaces, even one whose first line runs to the edges ("소제목 /
	// 중복"); the questions' words are joined.
	var types []glyph
	put := func(text string, x, base float64) {
		if len(types) > 0 {
			types = append(types, brk())
		}
		types = append(types, glyphLine(text, x, base, nil)...)
	}
	put("여러 문장", 27.5, 700)
	put("종합", 40, 686)
	put("활용", 40, 672)
	put("Q. 외국인들을 위해 먹는 샘물이 일시 판매", 85, 700)
	put("되었던 년도는 언제일까?", 85, 686)
	put("소제목", 35, 640)
	put("중복", 40, 626)
	put("Q. 피터슨과 노먼 그란츠의 관계는 어떤 과", 85, 640)
	put("정을 통해 형성되었는가?", 85, 626)
	grid := []rule{hRule(715, 20, 290), hRule(655, 20, 290), hRule(615, 20, 290)}
	for _, x := range []float64{20, 80, 290} {
		grid = append(grid, vRule(x, 615, 715))
	}
	typesWant := "여러 문장 종합 활용 | Q. 외국인들을 위해 먹는 샘물이 일시 판매되었던 년도는 언제일까?\n" +
		"소제목 중복 | Q. 피터슨과 노먼 그란츠의 관계는 어떤 과정을 통해 형성되었는가?"
	if got := nonEmptyLines(ruledPageText(types, grid)); got != typesWant {
		t.Errorf("labels wrapped by words beside questions wrapped by syllable:\n%s\nwant\n%s", got, typesWant)
	}

	// A page framed in two boxes of paragraphs (a layout drawn as a
	// table): each box is read whole, with its lines, one after the other.
	var layout []glyph
	var left, right []string
	for i := range 10 { // more lines than maxCellLines
		l, r := fmt.Sprintf("왼쪽 상자의 %d번째 줄", i+1), fmt.Sprintf("오른쪽 상자의 %d번째 줄", i+1)
		left, right = append(left, l), append(right, r)
		if len(layout) > 0 {
			layout = append(layout, brk())
		}
		layout = append(append(glyphLine(l, 30, 700-14*float64(i), nil), brk()), append(layout, glyphLine(r, 200, 700-14*float64(i), nil)...)...)
	}
	box := []rule{hRule(715, 20, 380), hRule(540, 20, 380), vRule(20, 540, 715), vRule(190, 540, 715), vRule(380, 540, 715)}
	if got, want := nonEmptyLines(ruledPageText(layout, box)), strings.Join(append(left, right...), "\n"); got != want {
		t.Errorf("two boxes of paragraphs:\n%s\nwant\n%s", got, want)
	}

	// A framed note (one box) keeps its lines.
	note := append(glyphLine("알림 상자의 첫째 줄", 30, 700, nil), brk())
	note = append(note, glyphLine("둘째 줄", 30, 686, nil)...)
	frame := []rule{hRule(715, 20, 290), hRule(665, 20, 290), vRule(20, 665, 715), vRule(290, 665, 715)}
	if got, want := nonEmptyLines(ruledPageText(note, frame)), "알림 상자의 첫째 줄\n둘째 줄"; got != want {
		t.Errorf("a framed note:\n%s\nwant\n%s", got, want)
	}
}

// ruledStyle draws a table's rules as one producer does.
type ruledStyle struct {
	name string
	// draw returns content-stream operators for the horizontal rules at
	// ys and the vertical rules at xs, from x0 to x1 and from y0 to y1.
	draw func(xs, ys []float64) string
	// form: the rules are drawn in a form XObject placed by a matrix.
	form bool
}

var ruledStyles = []ruledStyle{
	{name: "thin filled rectangles per cell", draw: func(xs, ys []float64) string {
		var b strings.Builder
		for _, y := range ys {
			for i := 1; i < len(xs); i++ {
				fmt.Fprintf(&b, "%.2f %.2f %.2f 0.75 re f\n", xs[i-1], y-0.375, xs[i]-xs[i-1])
			}
		}
		for _, x := range xs {
			for i := 1; i < len(ys); i++ {
				fmt.Fprintf(&b, "%.2f %.2f 0.75 %.2f re f\n", x-0.375, ys[i], ys[i-1]-ys[i])
			}
		}
		return b.String()
	}},
	{name: "stroked lines", draw: func(xs, ys []float64) string {
		var b strings.Builder
		b.WriteString("0.5 w\n")
		for _, y := range ys {
			fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l S\n", xs[0], y, xs[len(xs)-1], y)
		}
		for _, x := range xs {
			fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l S\n", x, ys[0], x, ys[len(ys)-1])
		}
		return b.String()
	}},
	{name: "a stroked box per cell", draw: func(xs, ys []float64) string {
		var b strings.Builder
		for j := 1; j < len(ys); j++ {
			for i := 1; i < len(xs); i++ {
				fmt.Fprintf(&b, "%.2f %.2f %.2f %.2f re S\n", xs[i-1], ys[j], xs[i]-xs[i-1], ys[j-1]-ys[j])
			}
		}
		return b.String()
	}},
	{name: "one path of all rules", draw: func(xs, ys []float64) string {
		var b strings.Builder
		for _, y := range ys {
			fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l ", xs[0], y, xs[len(xs)-1], y)
		}
		for _, x := range xs {
			fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l ", x, ys[0], x, ys[len(ys)-1])
		}
		return b.String() + "S\n"
	}},
	{name: "stroked lines in a form", form: true, draw: func(xs, ys []float64) string {
		var b strings.Builder
		for _, y := range ys {
			fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l S\n", xs[0]-10, y+5, xs[len(xs)-1]-10, y+5)
		}
		for _, x := range xs {
			fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l S\n", x-10, ys[0]+5, x-10, ys[len(ys)-1]+5)
		}
		return b.String()
	}},
}

// ruledPDF is a one-page PDF of an inspection table in Helvetica whose
// second row's first cell wraps onto three lines, its rules drawn in
// style; extra is drawn after it (more paths).
func ruledPDF(style ruledStyle, extra string) []byte {
	xs := []float64{50, 230, 330, 420, 480}
	ys := []float64{720, 700, 650}
	var c strings.Builder
	text := func(s string, x, y float64) {
		fmt.Fprintf(&c, "BT /F1 9 Tf %.2f %.2f Td (%s) Tj ET\n", x, y, s)
	}
	text("Inspection record", 50, 740)
	text("Item", 55, 707)
	text("Place", 235, 707)
	text("Result", 335, 707)
	text("Note", 425, 707)
	text("Electrical insulation resistance,", 55, 688)
	text("earth leakage breaker test,", 55, 676)
	text("emergency lighting check", 55, 664)
	text("Main hall", 235, 676)
	text("Pass", 335, 676)
	text("-", 445, 676)
	text("The inspector signs the record.", 50, 620)
	resources := "/Font << /F1 5 0 R >>"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"",
		"",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	if style.form {
		body := style.draw(xs, ys)
		objs = append(objs, fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [1 0 0 1 5 -2.5] /Length %d >>\nstream\n%s\nendstream", len(body), body))
		resources += " /XObject << /R 6 0 R >>"
		c.WriteString("q 1 0 0 1 5 7.5 cm /R Do Q\n")
	} else {
		c.WriteString(style.draw(xs, ys))
	}
	c.WriteString(extra)
	stream := c.String()
	objs[2] = fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << %s >> >>", resources)
	objs[3] = fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream)
	return buildPDF(objs, "")
}

const ruledRow = "Electrical insulation resistance, earth leakage breaker test, emergency lighting check | Main hall | Pass | -"

// TestRuledTablePDF reads the rules of a table however they are drawn —
// thin filled rectangles, stroked lines, a stroked box per cell, one path
// of many lines, lines in a form placed by matrices — and reads its
// wrapped row cell by cell.
func TestRuledTablePDF(t *testing.T) {
	e := newTestExtractor(t)
	for _, st := range ruledStyles {
		t.Run(st.name, func(t *testing.T) {
			pages, err := e.Extract(context.Background(), ruledPDF(st, ""))
			if err != nil {
				t.Fatal(err)
			}
			got := pages[0].Text
			for _, want := range []string{"Inspection record", "Item | Place | Result | Note", ruledRow, "The inspector signs the record."} {
				if !strings.Contains(got, want) {
					t.Errorf("%q missing:\n%s", want, got)
				}
			}
		})
	}
}

// crowd is what a chart or a map draws below the table: n dots (each a
// path object, too small to be a rule), n short strokes (each a rule), or
// n zigzags of 40 segments (each read segment by segment).
func crowd(kind string, n int) string {
	var b strings.Builder
	for i := range n {
		x, y := 50+float64(i%150)*3, 100+float64(i/150%25)*20 // below the table
		switch kind {
		case "dots":
			fmt.Fprintf(&b, "%.1f %.1f 1 1 re f\n", x, y)
		case "strokes":
			fmt.Fprintf(&b, "%.1f %.1f m %.1f %.1f l S\n", x, y, x+0.5, y+8)
		case "zigzags":
			fmt.Fprintf(&b, "%.1f %.1f m", x, y)
			for k := range 40 {
				fmt.Fprintf(&b, " %.1f %.1f l", x+float64(k+1), y+float64(k%2)*8)
			}
			b.WriteString(" S\n")
		}
	}
	return b.String()
}

// TestRuledTableCrowded: a page with more path objects or rules than the
// budgets allow is read without its rules (as before rules were read), not
// slowly; past the segments' budget, the rules of thin paths are kept
// (each read from its bounds alone) and those read from segments dropped.
func TestRuledTableCrowded(t *testing.T) {
	e := newTestExtractor(t)
	for _, c := range []struct {
		style ruledStyle
		kind  string
		n     int
		keeps bool // the table's rules are kept
	}{
		// Past maxPageObjects and maxRules.
		{ruledStyles[0], "dots", 5100, false},
		{ruledStyles[0], "strokes", 900, false},
		// Past maxPathSegments (41 segments a zigzag): a table of thin
		// filled rectangles keeps its rules; one of a stroked box per
		// cell, read segment by segment before the budget ran out, loses
		// them all, as a table read in part may be.
		{ruledStyles[0], "zigzags", 110, true},
		{ruledStyles[2], "zigzags", 110, false},
	} {
		t.Run(c.style.name+"/"+c.kind, func(t *testing.T) {
			pages, err := e.Extract(context.Background(), ruledPDF(c.style, crowd(c.kind, c.n)))
			if err != nil {
				t.Fatal(err)
			}
			got := pages[0].Text
			if !strings.Contains(got, "emergency lighting check") {
				t.Fatalf("the table's text is missing:\n%s", got)
			}
			if strings.Contains(got, ruledRow) != c.keeps {
				t.Errorf("the table's rules kept: %v, want %v:\n%s", !c.keeps, c.keeps, got)
			}
		})
	}
	// Fewer of each keep the rules.
	pages, err := e.Extract(context.Background(), ruledPDF(ruledStyles[2], crowd("dots", 1000)+crowd("strokes", 300)+crowd("zigzags", 50)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pages[0].Text, ruledRow) {
		t.Errorf("a page within the budgets keeps its rules:\n%s", pages[0].Text)
	}
}

// BenchmarkPageTextGridRuled lays out BenchmarkPageTextGrid's table with
// a border round every cell: every glyph is looked up in the grid.
func BenchmarkPageTextGridRuled(b *testing.B) {
	gs := gridGlyphs(14, false)
	var rules []rule
	for r := range 200 {
		rules = append(rules, hRule(3000-14*float64(r)+10, 15, 15+60*40))
	}
	rules = append(rules, hRule(3000-14*200+10, 15, 15+60*40))
	for c := range 41 {
		rules = append(rules, vRule(15+60*float64(c), 3000-14*200+10, 3010))
	}
	for b.Loop() {
		ruledPageText(gs, rules)
	}
}

// BenchmarkExtractRuled reads the ruled table's page through PDFium, alone
// and among paths up to the budgets and past them (read without rules).
func BenchmarkExtractRuled(b *testing.B) {
	e := newTestExtractor(b)
	for _, c := range []struct {
		kind string
		n    int
	}{{"dots", 0}, {"strokes", 700}, {"dots", 4900}, {"dots", 5100}, {"zigzags", 90}, {"zigzags", 200}} {
		pdf := ruledPDF(ruledStyles[0], crowd(c.kind, c.n))
		b.Run(fmt.Sprintf("%s=%d", c.kind, c.n), func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Extract(context.Background(), pdf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
