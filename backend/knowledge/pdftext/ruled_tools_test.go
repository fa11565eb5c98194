package pdftext

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// An inspection report's table, as Chromium and LibreOffice print it: the
// first cell of a row wraps onto two or three lines, the cells beside it
// are one line, centred. Each row must come out as its cells, each cell's
// lines together ("비상 조명 점등 상태" whole, not "비상 / 본관 적합 - /
// 조명 점등 상태").
var ruledRowsKo = [][]string{
	{"점검 항목", "장소", "결과", "비고"},
	{"전기 설비 절연 저항, 누전 차단기 작동 여부, 비상 조명 점등 상태", "본관", "적합", "-"},
	{"소화기 압력 게이지 정상 범위, 소화전 호스 연결 상태 및 방수 시험", "별관", "부적합", "교체 요청"},
	{"승강기 비상 통화 장치, 출입문 안전 센서 작동", "본관", "적합", "-"},
}

var ruledRowsEn = [][]string{
	{"Item", "Place", "Result", "Note"},
	{"Electrical insulation resistance, earth leakage breaker test, emergency lighting check", "Main hall", "Pass", "-"},
	{"Fire extinguisher pressure gauge within range, hydrant hose coupling and water test", "Annex", "Fail", "Replace"},
}

// checkRuledRows looks for every row, its cells apart by cellSep, in text
// with its runs of spaces collapsed.
func checkRuledRows(t *testing.T, text string, rows [][]string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, r := range rows {
		if want := strings.Join(r, cellSep); !strings.Contains(flat, want) {
			t.Errorf("row %q not read cell by cell:\n%s", want, text)
		}
	}
}

// checkSyllableWrapped checks the tables printed with Korean wrapped by
// syllable (no keep-all): the row whose words Chromium breaks ("누전 차단|기",
// "점등 상|태") comes out as written, each broken word whole; the rows it
// breaks at spaces that fall at a line's end ("방수 / 시험") lose that
// space, which geometry cannot tell from a broken word (wrap.go), so
// they are compared with the spaces between Hangul dropped.
func checkSyllableWrapped(t *testing.T, text string) {
	t.Helper()
	checkRuledRows(t, text, append(ruledRowsKo[:2:2], ruledRowsEn...))
	checkRuledRows(t, joinHangul(text), joinedRows(ruledRowsKo[2:]))
}

// joinedRows is rows with the spaces between Hangul dropped (joinHangul).
func joinedRows(rows [][]string) [][]string {
	var out [][]string
	for _, r := range rows {
		var cells []string
		for _, c := range r {
			cells = append(cells, joinHangul(c))
		}
		out = append(out, cells)
	}
	return out
}

// TestRuledTableChromium prints an HTML table with borders whose first
// column wraps (Korean set with keep-all and without it, and English) with
// Chromium.
func TestRuledTableChromium(t *testing.T) {
	cells := `td, th { border: 1px solid #000; padding: 3px 6px; text-align: center; vertical-align: middle }`
	checkRuledRows(t, printInspectionTables(t, "ruled", cells), append(ruledRowsKo, ruledRowsEn...))
	checkSyllableWrapped(t, printInspectionTables(t, "ruled", cells+` td { word-break: normal }`))
}

// TestOpenTableChromium prints an HTML table with only a border under each
// row (no vertical rule, none above the header), whose first column wraps
// and whose other cells are centred, with Chromium: its rows are read
// from the rules and its columns from the glyphs (open.go). Korean is set
// with keep-all and without it.
func TestOpenTableChromium(t *testing.T) {
	cells := `tr { border-bottom: 1px solid #000 }
td, th { padding: 3px 8px; text-align: center; vertical-align: middle }`
	checkRuledRows(t, printInspectionTables(t, "open", cells), append(ruledRowsKo, ruledRowsEn...))
	checkSyllableWrapped(t, printInspectionTables(t, "open", cells+` td { word-break: normal }`))
}

// printInspectionTables prints the Korean and the English inspection
// tables, their first column 45 mm wide and left-aligned, the cells styled
// by cells, with Chromium, and returns the first page's text.
func printInspectionTables(t *testing.T, name, cells string) string {
	t.Helper()
	browser := chromium(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><style>
body { font-family: 'Noto Sans CJK KR', sans-serif; font-size: 10pt; word-break: keep-all }
table { border-collapse: collapse; margin: 12px 0 }
` + cells + `
td.item { text-align: left; width: 45mm }
</style></head><body><p>점검 결과표</p>`)
	for _, rows := range [][][]string{ruledRowsKo, ruledRowsEn} {
		b.WriteString("<table>")
		for i, r := range rows {
			b.WriteString("<tr>")
			for j, c := range r {
				switch {
				case i == 0:
					fmt.Fprintf(&b, "<th>%s</th>", c)
				case j == 0:
					fmt.Fprintf(&b, `<td class="item">%s</td>`, c)
				default:
					fmt.Fprintf(&b, "<td>%s</td>", c)
				}
			}
			b.WriteString("</tr>")
		}
		b.WriteString("</table><p>점검자는 결과를 기록한다.</p>")
	}
	b.WriteString("</body></html>")
	src := filepath.Join(dir, name+".html")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(dir, name+".pdf")
	if err := printPDF(context.Background(), browser, src, pdf); err != nil {
		t.Fatal(err)
	}
	pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
	if err != nil {
		t.Fatal(err)
	}
	return pages[0].Text
}

// TestRuledTableLibreOffice prints a Writer table with 0.5 pt borders whose
// first column wraps and whose other cells are centred, with LibreOffice.
func TestRuledTableLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls><style:font-face style:name="Noto Sans CJK KR" svg:font-family="&apos;Noto Sans CJK KR&apos;"/></office:font-face-decls>
<office:styles><style:default-style style:family="paragraph"><style:text-properties style:font-name="Noto Sans CJK KR" fo:font-size="10pt" fo:language="en" fo:country="US" style:font-name-asian="Noto Sans CJK KR" style:font-size-asian="10pt" style:language-asian="ko" style:country-asian="KR"/></style:default-style>
<style:style style:name="Left" style:family="paragraph"><style:paragraph-properties fo:text-align="start"/></style:style>
<style:style style:name="Mid" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/></style:style></office:styles>
<office:automatic-styles>
<style:style style:name="T" style:family="table"><style:table-properties style:width="15cm" table:align="left" fo:margin-top="0.3cm" fo:margin-bottom="0.3cm"/></style:style>
<style:style style:name="T.A" style:family="table-column"><style:table-column-properties style:column-width="6cm"/></style:style>
<style:style style:name="T.B" style:family="table-column"><style:table-column-properties style:column-width="3cm"/></style:style>
<style:style style:name="C" style:family="table-cell"><style:table-cell-properties style:vertical-align="middle" fo:padding="0.1cm" fo:border="0.5pt solid #000000"/></style:style>
</office:automatic-styles>
<office:body><office:text><text:p>점검 결과표</text:p>
`)
	for _, rows := range [][][]string{ruledRowsKo, ruledRowsEn} {
		b.WriteString(`<table:table table:style-name="T"><table:table-column table:style-name="T.A"/><table:table-column table:style-name="T.B" table:number-columns-repeated="3"/>`)
		for _, r := range rows {
			b.WriteString("<table:table-row>")
			for j, c := range r {
				style := "Mid"
				if j == 0 {
					style = "Left"
				}
				fmt.Fprintf(&b, `<table:table-cell table:style-name="C" office:value-type="string"><text:p text:style-name="%s">%s</text:p></table:table-cell>`, style, c)
			}
			b.WriteString("</table:table-row>")
		}
		b.WriteString("</table:table><text:p>점검자는 결과를 기록한다.</text:p>\n")
	}
	b.WriteString("</office:text></office:body></office:document>\n")
	src := filepath.Join(dir, "ruled.fodt")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := progtest.Convert(context.Background(), bin, dir, "pdf", src); err != nil {
		t.Fatal(err)
	}
	pages, err := newTestExtractor(t).ExtractFile(context.Background(), filepath.Join(dir, "ruled.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	checkRuledRows(t, pages[0].Text, append(ruledRowsKo, ruledRowsEn...))
}
