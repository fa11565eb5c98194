package pdftext

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// genCase is a generated document and what a reader sees on it.
type genCase struct {
	name  string
	pdf   []byte
	lines []string // the text, line by line, in reading order
	exact []string // strings that must come out whole
	// pdftotextCuts: pdftotext cuts words where the font changes unless the
	// glyphs touch, so with loose tracking it writes "제 1 조": its text is
	// no reference then (the source text still is).
	pdftotextCuts bool
}

// a4 is the page size in points.
const a4w, a4h = 595.0, 842.0

func koFonts() (*docFont, *docFont) {
	return newDocFont("FA", "HCRBatang"), newDocFont("FB", "HCRBatangLatin")
}

// singleColumn sets paragraphs on one page in the given style.
func singleColumn(name string, pars []string, s setter, style drawStyle, pageSplit bool, exact ...string) genCase {
	lines, texts := s.column(pars, 72, 770, a4w-144, s.size*1.6, 0)
	return genCase{
		name:  name,
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: content(lines, s.a, s.b, style, pageSplit)}}, s.a, s.b),
		lines: texts,
		exact: exact,
	}
}

// twoColumns sets the paragraphs into two columns of one page, the first
// half on the left. rowMajor draws line i of the left column, then line i
// of the right one, as some generators do.
func twoColumns(name string, pars []string, s setter, rowMajor bool, exact ...string) genCase {
	const gutter = 22.0 // Hancom's default 8 mm
	w := (a4w - 144 - gutter) / 2
	half := (len(pars) + 1) / 2
	left, lt := s.column(pars[:half], 72, 770, w, s.size*1.6, 0)
	right, rt := s.column(pars[half:], 72+w+gutter, 770, w, s.size*1.6, 0)
	var all [][]placed
	if rowMajor {
		for i := 0; i < max(len(left), len(right)); i++ {
			if i < len(left) {
				all = append(all, left[i])
			}
			if i < len(right) {
				all = append(all, right[i])
			}
		}
	} else {
		all = append(append(all, left...), right...)
	}
	return genCase{
		name:  name,
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: content(all, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: append(lt, rt...),
		exact: exact,
	}
}

// form is a table of labels and values, drawn row by row with its rules,
// like a Hancom form. Each row reads as one line, its cells apart.
func form(s setter) genCase {
	rows := [][]string{
		{"성명", "홍길동", "생년월일", "1980. 6. 16."},
		{"소속", "총무처 인사팀", "직위", "주무관"},
		{"전화", "02-880-1234", "전자우편", "hong@example.ac.kr"},
		{"주소", "서울특별시 관악구", "우편번호", "08826"},
		{"신청일", "2023. 3. 1.", "처리기한", "14일"},
	}
	cols := []float64{72, 140, 290, 360, 523}
	lines, rules, texts := tableCells(s, rows, cols, 760, false)
	return genCase{
		name:  "ko form (table)",
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: rules + content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: texts,
	}
}

// tableCells sets a table's cells (one text object per cell and font) with
// their rules, the top row's baseline at y. colMajor draws the cells column
// by column, as some exporters do, so that PDFium reads a column's numbers
// one after the other. It returns the rows as they should read: cells
// joined by cellSep.
func tableCells(s setter, rows [][]string, cols []float64, y float64, colMajor bool) ([][]placed, string, []string) {
	const pitch = 22.0
	var rules strings.Builder
	var texts []string
	cell := func(r, c int) []placed { return s.line(rows[r][c], cols[c]+6, y-pitch*float64(r), 0, 0) }
	for r, row := range rows {
		texts = append(texts, strings.Join(row, cellSep))
		for c := 0; c < len(cols)-1; c++ {
			rules.WriteString(strings.Join([]string{f2(cols[c]), f2(y - pitch*float64(r) - 8), f2(cols[c+1] - cols[c]), f2(pitch), "re S\n"}, " "))
		}
	}
	var lines [][]placed
	for i := 0; i < len(rows)*(len(cols)-1); i++ {
		r, c := i/(len(cols)-1), i%(len(cols)-1)
		if colMajor {
			r, c = i%len(rows), i/len(rows)
		}
		lines = append(lines, cell(r, c))
	}
	return lines, rules.String(), texts
}

// tableAbove sets a table of figures across the top of a page, drawn column
// by column, and two columns of prose under it. The white space between
// two of the table's columns runs on down the page's gutter: one strip of
// white from the top of the table to the foot of the page, which must not
// cut the table's rows in two.
func tableAbove(name string, rows [][]string, pars []string, s setter, exact ...string) genCase {
	const gutter = 22.0
	w := (a4w - 144 - gutter) / 2
	// The third column ends well before the gutter and the fourth starts
	// after it.
	cols := []float64{72, 150, 215, 72 + w + gutter, 390, 523}
	cells, rules, rowTexts := tableCells(s, rows, cols, 770, true)
	top := 770 - 22*float64(len(rows)) - 20
	half := (len(pars) + 1) / 2
	left, lt := s.column(pars[:half], 72, top, w, s.size*1.6, 0)
	right, rt := s.column(pars[half:], 72+w+gutter, top, w, s.size*1.6, 0)
	all := append(append(cells, left...), right...)
	return genCase{
		name:  name,
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: rules + content(all, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: append(append(rowTexts, lt...), rt...),
		exact: exact,
	}
}

var (
	koTable = [][]string{
		{"구분", "2021년", "2022년", "2023년", "증감률"},
		{"매출액", "1,234", "1,456", "1,789", "22.9%"},
		{"영업이익", "210", "198", "305", "54.0%"},
		{"순이익", "97", "120", "131", "9.2%"},
		{"직원 수", "52", "61", "70", "14.8%"},
	}
	enTable = [][]string{
		{"Item", "2021", "2022", "2023", "Change"},
		{"Revenue", "1,234", "1,456", "1,789", "22.9%"},
		{"Profit", "210", "198", "305", "54.0%"},
		{"Net", "97", "120", "131", "9.2%"},
		{"Staff", "52", "61", "70", "14.8%"},
	}
)

// offPage sets the paragraphs on a page with a printer's slug below its
// bottom edge, one upright and one turned, as a brochure cut from a larger
// sheet keeps them: a viewer does not show them, so they are not read.
func offPage(name string, pars []string, s setter) genCase {
	lines, texts := s.column(pars, 72, 770, a4w-144, s.size*1.6, 0)
	lines = append(lines, s.line("039 4", 100, -30, 0, 0), s.line("039 5", 400, -60, 1, 0))
	return genCase{
		name:  name,
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: texts,
	}
}

func f2(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// turned sets the paragraphs written upwards (turn 1) or upside down
// (turn 2) on a page whose /Rotate shows them upright, plus a vertical note
// on an upright page.
func turned(name string, pars []string, s setter, turn int) genCase {
	var lines [][]placed
	var texts []string
	rotate := 90 * turn
	switch turn {
	case 1: // writing goes up the page; lines move right
		lines, texts = s.column(pars, 60, 72, a4h-144, s.size*1.6, 1)
	case 2: // upside down: writing goes left from the right edge
		lines, texts = s.column(pars, a4w-72, 72, a4w-144, s.size*1.6, 2)
	}
	return genCase{
		name:  name,
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, rotate: rotate, content: content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: texts,
		exact: []string{"제1조(목적)", "1980. 6. 16."},
	}
}

func looseTracking(c genCase) genCase {
	c.pdftotextCuts = true
	return c
}

func generatedCases() []genCase {
	ko := func(mod func(*setter)) setter {
		a, b := koFonts()
		s := setter{a: a, b: b, second: isASCII, size: 10, tracking: -0.05}
		if mod != nil {
			mod(&s)
		}
		return s
	}
	en := func(mod func(*setter)) setter {
		s := setter{a: newDocFont("FA", "TimesLike"), b: newDocFont("FB", "TimesLikeFigures"), second: isDigitOrPunct, size: 10.5}
		if mod != nil {
			mod(&s)
		}
		return s
	}
	koExact := []string{"제1조(목적)", "제12조에", "1980. 6. 16.", "2023. 3. 1.", "02-880-1234", "70,000원", "(「근로기준법」 제60조 참조)", "12:00부터 13:00까지"}
	enExact := []string{"Section 1 (Purpose)", "June 16, 1980,", "USD 4,250.00", "2023-03-01", "12(b)(iii)", "+44 20 7946 0958"}
	footnote := append([]string{"제8조(위임) 이 규정의 시행에 필요한 세부 사항은 총장이 따로 정한다{^1)}."}, koRegulation...)
	return []genCase{
		singleColumn("ko Hancom: one TJ per font and line", koRegulation, ko(nil), drawTJ, false, koExact...),
		singleColumn("ko Hancom: glyph runs, drawn spaces, tight tracking", koRegulation, ko(func(s *setter) { s.drawSpaces, s.tracking = true, -0.1 }), drawRuns, false, koExact...),
		looseTracking(singleColumn("ko Hancom: one TJ per font and line, loose tracking (+5%)", koRegulation, ko(func(s *setter) { s.tracking = 0.05 }), drawTJ, false, koExact...)),
		singleColumn("ko: all Hangul of the page before any digit", koRegulation, ko(nil), drawTJ, true, koExact...),
		singleColumn("ko: digits smaller and lower, superscript note", footnote, ko(func(s *setter) { s.bScale, s.bRise = 0.92, -0.5 }), drawTJ, false, append(koExact, "정한다1).")...),
		singleColumn("en: figures and punctuation drawn apart", enContract, en(nil), drawTJ, false, enExact...),
		singleColumn("en: all letters of the page before any figure", enContract, en(func(s *setter) { s.tracking = 0.02 }), drawTJ, true, enExact...),
		twoColumns("ko two columns", koRegulation, ko(nil), false, koExact...),
		twoColumns("ko two columns drawn row by row", koRegulation, ko(nil), true, koExact...),
		twoColumns("en two columns drawn row by row", enContract, en(nil), true, enExact...),
		form(ko(nil)),
		officialDoc(ko(func(s *setter) { s.second = notHangul })),
		blankForm(ko(func(s *setter) { s.second = notHangul })),
		comparisonTable(ko(func(s *setter) { s.second = notHangul })),
		stackedLabels(ko(func(s *setter) { s.second = notHangul })),
		footnotes("ko Hancom: notes a tab apart under the marked text", ko(func(s *setter) { s.second = notHangul }), koNoted, koNotes),
		footnotes("en: notes a tab apart under the marked text", en(nil), enNoted, enNotes),
		tableAbove("ko table of figures drawn column by column, two columns under it", koTable, koRegulation, ko(nil), koExact...),
		tableAbove("en table of figures drawn column by column, two columns under it", enTable, enContract, en(nil), enExact...),
		offPage("ko: a printer's slug outside the page", koRegulation, ko(nil)),
		turned("ko page turned 90°", koRegulation, ko(nil), 1),
		turned("ko page turned 180°", koRegulation, ko(nil), 2),
	}
}

// TestReadingOrderGenerated extracts documents that store their text out of
// reading order and checks the text line by line, the strings a person
// searches for, and word recall against pdftotext.
func TestReadingOrderGenerated(t *testing.T) {
	e := newTestExtractor(t)
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files, e.g. to compare with another extractor
	}
	for _, tc := range generatedCases() {
		t.Run(tc.name, func(t *testing.T) {
			pages, err := e.Extract(context.Background(), tc.pdf)
			if err != nil {
				t.Fatal(err)
			}
			got := pages[0].Text
			if tc.lines != nil {
				if want := strings.Join(tc.lines, "\n"); nonEmptyLines(got) != want {
					t.Errorf("lines differ\n got: %s\nwant: %s", nonEmptyLines(got), want)
				}
			}
			flat := strings.Join(strings.Fields(got), " ") // a string may wrap
			for _, s := range tc.exact {
				if !strings.Contains(flat, s) {
					t.Errorf("%q not in the text", s)
				}
			}
			truth := strings.Join(tc.lines, "\n")
			if r := wordRecall(truth, got); r < 0.99 {
				t.Errorf("word recall against the source text %.4f < 0.99", r)
			}
			path := filepath.Join(dir, strings.NewReplacer(" ", "_", ":", "", "°", "", "(", "", ")", "", ",", "").Replace(tc.name)+".pdf")
			if err := os.WriteFile(path, tc.pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			ref, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
			if err != nil {
				t.Logf("no pdftotext (%v): recall against it not measured", err)
				return
			}
			r := wordRecall(string(ref), got)
			t.Logf("word recall against pdftotext %.4f", r)
			if r < 0.97 && !tc.pdftotextCuts {
				t.Errorf("word recall against pdftotext %.4f < 0.97\npdftotext: %s\n      got: %s", r, ref, got)
			}
		})
	}
}

// nonEmptyLines drops blank lines and trims each line.
func nonEmptyLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
