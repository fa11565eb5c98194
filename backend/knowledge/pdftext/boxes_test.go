package pdftext

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestShapeOf: a square (sharp or with Chromium's rounded corners) and a
// circle of Bézier curves are boxes' shapes; an icon's outline is neither.
func TestShapeOf(t *testing.T) {
	circle := func(n int) [][2]float64 {
		var pts [][2]float64
		for i := 0; i <= n; i++ {
			a := 2 * math.Pi * float64(i) / float64(n)
			pts = append(pts, [2]float64{10 + 6*math.Cos(a), 10 + 6*math.Sin(a)})
		}
		return pts
	}
	// Chromium's 13 px box with 2 px corners, a corner's curve as its
	// end points and control points.
	rounded := [][2]float64{{0, 2}, {0, 11}, {0, 12.1}, {0.9, 13}, {2, 13}, {11, 13}, {12.1, 13}, {13, 12.1},
		{13, 11}, {13, 2}, {13, 0.9}, {12.1, 0}, {11, 0}, {2, 0}, {0.9, 0}, {0, 0.9}, {0, 2}}
	tests := []struct {
		name           string
		pts            [][2]float64
		square, circle bool
	}{
		{"square", [][2]float64{{0, 0}, {8, 0}, {8, 8}, {0, 8}, {0, 0}}, true, false},
		{"rounded square", rounded, true, false},
		{"circle of 32 curves", circle(32), false, true},
		{"circle of 4 curves' points", circle(4 * 3), false, true},
		{"a rectangle twice as wide", [][2]float64{{0, 0}, {16, 0}, {16, 8}, {0, 8}, {0, 0}}, false, false},
		{"a leaf's outline", [][2]float64{{0, 0}, {4, 9}, {10, 10}, {9, 4}, {0, 0}, {5, 5}}, false, false},
		{"a tick", [][2]float64{{0, 5}, {3, 0}, {9, 9}}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sq, c := shapeOf(tt.pts)
			if sq != tt.square || c != tt.circle {
				t.Errorf("shapeOf = square %v, circle %v; want %v, %v", sq, c, tt.square, tt.circle)
			}
		})
	}
}

// TestCheckBoxPathsLayout: boxes drawn as paths before (or after) a
// question's options, apart by a cell's gap, read as the glyph boxes do,
// "☐ 예 ☐ 아니오" in the question's row; what is not a form's options
// stays unread.
func TestCheckBoxPathsLayout(t *testing.T) {
	rows := column([][]string{
		{"수집에 동의합니까?", "예", "아니오"},
		{"제공에 동의합니까?", "예", "아니오"}}, []float64{72, 200, 240})
	const y0, y1 = 700, 686 // the rows' baselines (column)
	// outline is an empty box; marked a checked one as Chromium draws
	// it (a white ground, the box filled blue, a white tick over it) or
	// a radio button's ring with its dot; swatch a chart legend's square
	// of colour in an outline of #333.
	blue, grey := rgb{0, 117, 255}, rgb{51, 51, 51}
	outline := func(x, base float64, round bool) []mark {
		return []mark{{b: box{x, base - 1, x + 8, base + 7}, shape: true, round: round, stroke: true}}
	}
	marked := func(x, base float64, round bool) []mark {
		b := box{x, base - 1, x + 8, base + 7}
		if round {
			return []mark{{b: b, shape: true, round: true, stroke: true, line: blue},
				{b: box{x + 2, base + 1, x + 6, base + 5}, shape: true, round: true, inked: true, fill: blue}}
		}
		return []mark{{b: b, shape: true}, {b: b, shape: true, inked: true, fill: blue},
			{b: box{x + 0.5, base, x + 7.5, base + 6}, stroke: true, line: rgb{255, 255, 255}}}
	}
	swatch := func(x, base float64, fill rgb) []mark {
		return []mark{{b: box{x + 0.4, base - 0.6, x + 7.6, base + 6.6}, shape: true, inked: true, fill: fill},
			{b: box{x, base - 1, x + 8, base + 7}, shape: true, stroke: true, line: grey}}
	}
	// filled is a box marked by filling it with its outline's colour or
	// black, crossed one marked by two strokes (wkhtmltopdf).
	filled := func(x, base float64, fill rgb) []mark {
		b := box{x, base - 1, x + 8, base + 7}
		return []mark{{b: b, shape: true, stroke: true, line: grey}, {b: b, shape: true, inked: true, fill: fill}}
	}
	// dotted is a box or a ring of grey with a dot of colour inside.
	dotted := func(x, base float64, round bool) []mark {
		return []mark{{b: box{x, base - 1, x + 8, base + 7}, shape: true, round: round, stroke: true, line: grey},
			{b: box{x + 2, base + 1, x + 6, base + 5}, shape: true, round: true, inked: true, fill: blue}}
	}
	crossed := func(x, base float64) []mark {
		b := box{x, base - 1, x + 8, base + 7}
		return []mark{{b: b, shape: true, stroke: true}, {b: box{x + 0.3, base - 0.7, x + 7.7, base + 6.7}, stroke: true},
			{b: box{x + 0.3, base - 0.7, x + 7.7, base + 6.7}, stroke: true}}
	}
	join := func(ms ...[]mark) []mark { return slices.Concat(ms...) }
	tests := []struct {
		name  string
		gs    []glyph
		marks []mark
		want  string
	}{
		{"check boxes before their labels", rows, join(outline(188, y0, false), marked(228, y0, false), marked(188, y1, false), outline(228, y1, false)),
			"수집에 동의합니까? | ☐ 예 ☑ 아니오\n제공에 동의합니까? | ☑ 예 ☐ 아니오"},
		{"radio buttons", rows, join(outline(188, y0, true), marked(228, y0, true), outline(188, y1, true), outline(228, y1, true)),
			"수집에 동의합니까? | ○ 예 ◉ 아니오\n제공에 동의합니까? | ○ 예 ○ 아니오"},
		{"boxes after their labels", rows, join(outline(212, y0, false), outline(272, y0, false), outline(212, y1, false), marked(272, y1, false)),
			"수집에 동의합니까? | 예 ☐ 아니오 ☐\n제공에 동의합니까? | 예 ☐ 아니오 ☑"},
		{"a lone box is no option", rows, outline(188, y0, false),
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"a lone box tagged as a form's field is one", rows, []mark{{b: box{188, y0 - 1, 196, y0 + 7}, shape: true, stroke: true, form: true}},
			"수집에 동의합니까? | ☐ 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"boxes filled with ink or crossed are marked", rows, join(filled(188, y0, rgb{}), crossed(228, y0), filled(188, y1, grey), outline(228, y1, false)),
			"수집에 동의합니까? | ☑ 예 ☑ 아니오\n제공에 동의합니까? | ☑ 예 ☐ 아니오"},
		{"a dot of colour marks a box or a radio button", rows, join(dotted(188, y0, true), outline(228, y0, true), outline(188, y1, false), dotted(228, y1, false)),
			"수집에 동의합니까? | ◉ 예 ○ 아니오\n제공에 동의합니까? | ☐ 예 ☑ 아니오"},
		{"a legend's squares of colour in outlines are no boxes", rows,
			join(swatch(188, y0, rgb{204, 51, 51}), swatch(228, y0, rgb{51, 102, 204}), swatch(188, y1, rgb{153, 153, 153}), swatch(228, y1, rgb{51, 170, 51})),
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"a chart's markers, inked and outlined, are no boxes", rows,
			[]mark{{b: box{188, y0 - 1, 196, y0 + 7}, shape: true, round: true, inked: true, stroke: true}, {b: box{228, y0 - 1, 236, y0 + 7}, shape: true, round: true, inked: true, stroke: true}},
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"an icon's outlines are no boxes", rows,
			[]mark{{b: box{188, y0 - 1, 196, y0 + 7}, stroke: true}, {b: box{228, y0 - 1, 236, y0 + 7}, stroke: true}},
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"frames round letters are no boxes", rows, []mark{
			{b: box{71.5, y0 - 2, 82.5, y0 + 9}, shape: true, stroke: true}, {b: box{106.5, y0 - 2, 117.5, y0 + 9}, shape: true, stroke: true}},
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"a check box beside a radio button is no pair", rows, join(outline(188, y0, false), outline(228, y0, true)),
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
		{"boxes on no line of text are no options", rows, join(outline(188, 600, false), outline(228, 600, false)),
			"수집에 동의합니까? | 예 | 아니오\n제공에 동의합니까? | 예 | 아니오"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(withBoxes(tt.gs, checkBoxes(tt.gs, tt.marks))); got != tt.want {
				t.Errorf("pageText =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// htmlBoxRows are the questions of the HTML form TestCheckBoxInputs
// prints, with the options' labels and which is checked, and the row each
// must read as.
var htmlBoxRows = []struct {
	q, kind string
	opts    []string
	checked int // the option checked, -1 for none
	want    string
}{
	{"개인정보 수집·이용에 동의합니까?", "checkbox", []string{"예", "아니오"}, -1, "☐ 예 ☐ 아니오"},
	{"제3자 제공에 동의합니까?", "checkbox", []string{"예", "아니오"}, 0, "☑ 예 ☐ 아니오"},
	{"연락 받을 방법을 고르십시오.", "radio", []string{"우편", "전자우편", "문자"}, 2, "○ 우편 ○ 전자우편 ◉ 문자"},
	{"Do you agree to the collection of personal data?", "checkbox", []string{"yes", "no"}, 1, "☐ yes ☑ no"},
	{"How should we write to you?", "radio", []string{"post", "e-mail"}, -1, "○ post ○ e-mail"},
}

// htmlSmallRows are the questions of a form set in 8 points, each with
// three check boxes, the second checked.
var htmlSmallRows = []string{"질문 하나에 동의합니까?", "질문 둘에 동의합니까?", "질문 셋에 동의합니까?", "질문 넷에 동의합니까?",
	"질문 다섯에 동의합니까?", "질문 여섯에 동의합니까?", "질문 일곱에 동의합니까?", "질문 여덟에 동의합니까?"}

// htmlOneBox are check boxes one a line (an "I agree" box, a checklist).
var htmlOneBox = []struct {
	label   string
	checked bool
}{
	{"위 내용을 모두 읽었으며 이에 동의합니다", true},
	{"I have read the terms and agree to them", false},
	{"신분증 사본", true},
	{"재직 증명서", false},
}

// htmlLegends are a chart's legends, squares of colour before their
// labels (a 1 px outline of #333 or none, in a paragraph and in a table's
// cell), and the line each reads, as it did before boxes were read
// (236403e^, the same page): a legend's square is no check box.
var htmlLegends = []struct{ html, want string }{
	{`<p><span class="k" style="background:#c33"></span>매출 &nbsp;&nbsp;<span class="k" style="background:#36c"></span>영업이익 &nbsp;&nbsp;<span class="k" style="background:#999"></span>순이익</p>`,
		"매출 영업이익 순이익"},
	{`<p><span class="s" style="background:#c33"></span>수도권 &nbsp;&nbsp;<span class="s" style="background:#36c"></span>비수도권</p>`,
		"수도권 비수도권"},
	{`<table style="width:auto; border-collapse:collapse"><tr><td style="border:1px solid #999">지역별 판매</td><td style="border:1px solid #999"><span class="k" style="background:#c33"></span>서울 <span class="k" style="background:#36c"></span>부산</td></tr></table>`,
		"지역별 판매 서울 부산"},
}

// TestCheckBoxInputs prints an HTML form whose options are
// <input type="checkbox"> and <input type="radio"> (drawn as paths, not
// glyphs) with Chromium and wkhtmltopdf, in Korean and English, the
// options apart by a 2em spacer, six no-break spaces or two em spaces: in
// a table's cells each row reads "question | ☐ 예 ☐ 아니오", where the
// options read "예 | 아니오" as cells of their own; in a paragraph,
// "question ☐ 예 ☐ 아니오" on one line; and in 8 points too, where the
// boxes set the options' baseline apart from the question's. A box alone on its line reads
// "☑ 동의합니다" where Chromium tags it as a form's field. A chart's
// legend of squares of colour reads as before, with no boxes.
func TestCheckBoxInputs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="ko"><head><meta charset="utf-8"><style>
body { font-family: 'Noto Sans CJK KR', sans-serif; font-size: 11pt }
table { border-collapse: collapse; width: 100%; margin: 1em 0 }
td { padding: 4px 6px }
.g { display: inline-block; width: 2em }
.k { display: inline-block; width: 9px; height: 9px; border: 1px solid #333; margin-right: 4px }
.s { display: inline-block; width: 9px; height: 9px; margin-right: 4px }
</style></head><body><p>개인정보 수집·이용 동의서 (Consent form)</p>`)
	form := 0 // each question's radio buttons a group of their own
	options := func(k int, sp string) string {
		form++
		r := htmlBoxRows[k]
		var opts []string
		for i, o := range r.opts {
			c := ""
			if i == r.checked {
				c = " checked"
			}
			opts = append(opts, fmt.Sprintf(`<label><input type="%s" name="q%d"%s> %s</label>`, r.kind, form, c, o))
		}
		return strings.Join(opts, sp)
	}
	for _, sp := range []string{`<span class="g"></span>`, strings.Repeat("&nbsp;", 6), "&emsp;&emsp;"} {
		b.WriteString("<p>아래의 각 항목을 읽고 동의 여부를 표시하여 주십시오. Please mark whether you agree.</p><table>")
		for k, r := range htmlBoxRows {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>", r.q, options(k, sp))
		}
		b.WriteString("</table>")
		for k, r := range htmlBoxRows {
			fmt.Fprintf(&b, "<p>%s %s</p>", r.q, options(k, sp))
		}
	}
	for _, l := range htmlOneBox {
		c := ""
		if l.checked {
			c = " checked"
		}
		fmt.Fprintf(&b, `<p><label><input type="checkbox"%s> %s</label></p>`, c, l.label)
	}
	// A form in 8 points: Chromium's box, 13 px at any size, is taller
	// than the line and sets the options' baseline apart from the
	// question's. It stands alone on its page, where its options passed
	// for two columns.
	b.WriteString(`<table style="font-size: 8pt; width: auto; page-break-before: always"><tr><td style="padding: 0 4px">`)
	for i, q := range htmlSmallRows {
		if i > 0 {
			b.WriteString(`</td></tr><tr><td style="padding: 0 4px">`)
		}
		fmt.Fprintf(&b, `%s</td><td style="padding: 0 4px"><label><input type="checkbox"> 예</label>&emsp;&emsp;<label><input type="checkbox" checked> 아니오</label>&emsp;&emsp;<label><input type="checkbox"> 모름</label>`, q)
	}
	b.WriteString("</td></tr></table>")
	b.WriteString(`<p style="page-break-before: always">2024년 분기별 실적 그래프</p>`)
	for _, l := range htmlLegends {
		b.WriteString(l.html)
	}
	b.WriteString("</body></html>")
	withEachPrinter(t, "inputs", b.String(), func(t *testing.T, name string, lines []string) {
		text := strings.Join(lines, "\n")
		for _, r := range htmlBoxRows {
			cell, para := r.q+cellSep+r.want, r.q+" "+r.want
			if n := strings.Count(text, r.q); n != 6 {
				t.Errorf("%q found %d times, want 6", r.q, n)
			}
			for _, l := range lines {
				if strings.HasPrefix(l, r.q) && l != cell && l != para {
					t.Errorf("row %q, want %q or %q", l, cell, para)
				}
			}
			if !slices.Contains(lines, cell) || !slices.Contains(lines, para) {
				t.Errorf("no row %q or no line %q:\n%s", cell, para, text)
			}
		}
		// wkhtmltopdf sets that form's questions and options on lines
		// of their own (as before the boxes were read) and its cells
		// closer than a cell's gap.
		for _, q := range htmlSmallRows[:map[string]int{"chromium": len(htmlSmallRows)}[name]] {
			if want := q + cellSep + "☐ 예 ☑ 아니오 ☐ 모름"; !slices.Contains(lines, want) {
				t.Errorf("no row %q:\n%s", want, text)
			}
		}
		for _, l := range htmlLegends {
			if !slices.Contains(lines, l.want) {
				t.Errorf("no legend %q:\n%s", l.want, text)
			}
		}
		// One box a line, a checklist's: Chromium tags its boxes as a
		// form's fields, wkhtmltopdf does not, and a lone box untagged
		// stays unread.
		for _, l := range htmlOneBox {
			want := l.label
			if name == "chromium" {
				want = map[bool]string{false: "☐ ", true: "☑ "}[l.checked] + l.label
			}
			if !slices.Contains(lines, want) {
				t.Errorf("no line %q:\n%s", want, text)
			}
		}
	})
}
