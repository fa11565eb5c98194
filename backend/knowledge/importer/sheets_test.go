package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// sheetText is a workbook's text as imported, without the blank lines
// between its paragraphs.
func sheetText(t *testing.T, name string, data []byte) string {
	t.Helper()
	docs, err := Importer{}.Import(context.Background(), name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(docs) != 1 {
		t.Fatalf("%s: %d documents, want 1", name, len(docs))
	}
	var lines []string
	for _, p := range docs[0].Parts {
		for _, l := range strings.Split(p.Text, "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	return strings.Join(lines, "\n")
}

const (
	xlsxNS   = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	relsNS   = `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"`
	relSheet = `http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet`
)

// xlsxOf is an Excel workbook of sheets (name, then sheetData's rows),
// with sharedStrings.xml and styles.xml when set.
func xlsxOf(t testing.TB, shared, styles, workbookPr string, sheets ...[2]string) []byte {
	t.Helper()
	book := `<workbook ` + xlsxNS + `>` + workbookPr + `<sheets>`
	rels := `<Relationships ` + relsNS + `>`
	parts := []part{}
	for i, s := range sheets {
		id := "rId" + string(rune('1'+i))
		book += `<sheet name="` + s[0] + `" sheetId="` + string(rune('1'+i)) + `" r:id="` + id + `"/>`
		rels += `<Relationship Id="` + id + `" Type="` + relSheet + `" Target="worksheets/sheet` + string(rune('1'+i)) + `.xml"/>`
		parts = append(parts, part{"xl/worksheets/sheet" + string(rune('1'+i)) + ".xml", `<worksheet ` + xlsxNS + `><sheetData>` + s[1] + `</sheetData></worksheet>`})
	}
	parts = append(parts, part{"xl/workbook.xml", book + `</sheets></workbook>`}, part{"xl/_rels/workbook.xml.rels", rels + `</Relationships>`})
	if shared != "" {
		parts = append(parts, part{"xl/sharedStrings.xml", `<sst ` + xlsxNS + `>` + shared + `</sst>`})
	}
	if styles != "" {
		parts = append(parts, part{"xl/styles.xml", `<styleSheet ` + xlsxNS + `>` + styles + `</styleSheet>`})
	}
	return zipOf(t, parts...)
}

func TestXLSX(t *testing.T) {
	shared := `<si><t>이름</t></si><si><t>점수</t></si><si><r><t>김</t></r><r><t>민준</t></r></si><si><t>비고</t><rPh><t>ビコウ</t></rPh></si>`
	// Cell formats: 0 general, 1 a built-in date, 2 a Korean date, 3 a
	// time, 4 won (not a date: as Excel shows it), 5 a date in a colour
	// and a locale, 6 a built-in percentage, 7 a custom one (to its one
	// decimal).
	styles := `<numFmts><numFmt numFmtId="164" formatCode="yyyy&quot;년&quot; m&quot;월&quot; d&quot;일&quot;"/><numFmt numFmtId="165" formatCode="h:mm"/>` +
		`<numFmt numFmtId="166" formatCode="#,##0&quot;원&quot;"/><numFmt numFmtId="167" formatCode="[Red][$-412]yyyy\-mm\-dd"/><numFmt numFmtId="168" formatCode="0.0%"/></numFmts>` +
		`<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/><xf numFmtId="167"/><xf numFmtId="9"/><xf numFmtId="168"/></cellXfs>`
	c := func(ref, typ, style, v string) string {
		a := ` r="` + ref + `"`
		if typ != "" {
			a += ` t="` + typ + `"`
		}
		if style != "" {
			a += ` s="` + style + `"`
		}
		return `<c` + a + `><v>` + v + `</v></c>`
	}
	row := func(cells ...string) string { return `<row>` + strings.Join(cells, "") + `</row>` }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"shared strings, numbers and the first row as heading", xlsxOf(t, shared, "", "", [2]string{"성적",
			row(c("A1", "s", "", "0"), c("B1", "s", "", "1"), c("C1", "s", "", "3")) +
				row(c("A2", "s", "", "2"), c("B2", "", "", "92.5")) +
				row(c("A3", "inlineStr", "", ""), c("B3", "b", "", "1"), c("C3", "str", "", "합계"))}),
			"# 성적: 이름 | 점수 | 비고\n김민준 | 92.5\n| TRUE | 합계"},
		{"dates, a time and money", xlsxOf(t, "", styles, "", [2]string{"일정",
			row(c("A1", "str", "", "날짜")) +
				row(c("A2", "", "1", "45718"), c("B2", "", "2", "45719"), c("C2", "", "3", "0.5625"), c("D2", "", "4", "1200000"), c("E2", "", "5", "45720.75")) +
				row(c("A3", "", "1", "59"), c("B3", "", "1", "61"), c("C3", "", "0", "0.30000000000000004"), c("D3", "", "6", "0.25"), c("E3", "", "7", "0.1234"))}),
			"# 일정: 날짜\n2025-03-02 | 2025-03-03 | 13:30 | 1,200,000원 | 2025-03-04 18:00\n1900-02-28 | 1900-03-01 | 0.3 | 25% | 12.3%"},
		{"the 1904 date system", xlsxOf(t, "", styles, `<workbookPr date1904="1"/>`, [2]string{"맥",
			row(c("A1", "str", "", "날짜")) + row(c("A2", "", "1", "44256"))}),
			"# 맥: 날짜\n2025-03-02"},
		{"empty places kept, a far column bounded, empty rows left out", xlsxOf(t, "", "", "", [2]string{"빈칸",
			row(c("A1", "str", "", "가"), c("C1", "str", "", "다")) + `<row r="5"/>` +
				row(c("B6", "str", "", "나"), c("XFD6", "str", "", "끝")) + row(`<c r="A7"/>`)}),
			"# 빈칸: 가 |  | 다\n| 나" + strings.Repeat(" | ", maxSheetGap+1) + "끝"},
		{"two sheets, one empty", xlsxOf(t, "", "", "", [2]string{"첫째", row(c("A1", "str", "", "하나"))}, [2]string{"빈 시트", ""},
			[2]string{"셋째", row(c("A1", "str", "", "셋"))}),
			"# 첫째: 하나\n# 셋째: 셋"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sheetText(t, "book.xlsx", tt.data); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestXLSXFailures(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"no workbook", zipOf(t, part{"xl/worksheets/sheet1.xml", `<worksheet/>`}), ErrOfficeDamaged},
		{"only empty sheets", xlsxOf(t, "", "", "", [2]string{"빈", `<row r="1"><c r="A1"/></row>`}), ErrEmpty},
		{"a broken sheet", xlsxOf(t, "", "", "", [2]string{"깨짐", `<row><c><v>1</v></row>`}), ErrOfficeDamaged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := (Importer{}).Import(context.Background(), "book.xlsx", tt.data); !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
}

const odsNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`

func odsOf(t testing.TB, tables string) []byte {
	t.Helper()
	return zipOf(t, part{"content.xml", `<office:document-content ` + odsNS + `><office:body><office:spreadsheet>` + tables + `</office:spreadsheet></office:body></office:document-content>`})
}

func TestODS(t *testing.T) {
	cell := func(attrs, body string) string {
		return `<table:table-cell ` + attrs + `>` + body + `</table:table-cell>`
	}
	p := func(s string) string { return `<text:p>` + s + `</text:p>` }
	tests := []struct {
		name, tables, want string
	}{
		{"the text a cell shows, its comment left out", `<table:table table:name="가계부"><table:table-row>` + cell("", p("날짜")) + cell("", p("금액")) + `</table:table-row>` +
			`<table:table-row>` + cell(`office:value-type="date" office:date-value="2025-03-02"`, p("2025년 3월 2일")) +
			cell(`office:value-type="currency"`, `<office:annotation><dc:creator>나</dc:creator>`+p("카드")+`</office:annotation>`+p("₩12,000")) + `</table:table-row></table:table>`,
			"# 가계부: 날짜 | 금액\n2025년 3월 2일 | ₩12,000"},
		{"paragraphs and spaces in a cell", `<table:table table:name="메모"><table:table-row>` + cell("", p("첫 줄")+p("둘째<text:s/>줄<text:tab/>끝")) + `</table:table-row></table:table>`,
			"# 메모: 첫 줄 둘째 줄 끝"},
		{"repeats written out, empty ones bounded", `<table:table table:name="반복"><table:table-row>` + cell(`table:number-columns-repeated="2"`, p("예")) +
			cell(`table:number-columns-repeated="1000000"`, "") + cell("", p("끝")) + cell(`table:number-columns-repeated="16000"`, "") + `</table:table-row>` +
			`<table:table-row table:number-rows-repeated="2">` + cell("", p("같은 행")) + `</table:table-row>` +
			`<table:table-row table:number-rows-repeated="1048000">` + cell(`table:number-columns-repeated="1024"`, "") + `</table:table-row>` +
			`<table:table-row table:number-rows-repeated="5000">` + cell("", p("많은 행")) + `</table:table-row></table:table>`,
			"# 반복: 예 | 예 | " + strings.Repeat(" | ", maxSheetGap-1) + " | 끝\n같은 행\n같은 행" + strings.Repeat("\n많은 행", maxRepeat)},
		{"a repeat count past any bound is the bound, not one", `<table:table table:name="큰 수"><table:table-row>` + cell("", p("머리")) + `</table:table-row><table:table-row>` +
			cell(`table:number-columns-repeated="5000000000"`, p("x")) + `</table:table-row></table:table>`,
			"# 큰 수: 머리\n" + strings.Repeat("x | ", maxRepeat-1) + "x"},
		{"covered cells hold their places", `<table:table table:name="병합"><table:table-row>` + cell(`table:number-columns-spanned="2"`, p("합친 칸")) +
			`<table:covered-table-cell/>` + cell("", p("옆")) + `</table:table-row></table:table>`,
			"# 병합: 합친 칸 |  | 옆"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sheetText(t, "book.ods", odsOf(t, tt.tables)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestFormatShape(t *testing.T) {
	tests := []struct {
		code string
		want numberShape
	}{
		{"yyyy-mm-dd", shapeDate}, {`yyyy"년" m"월" d"일"`, shapeDate}, {"h:mm AM/PM", shapeDate}, {"[$-412]mmmm d", shapeDate}, {"mm:ss.0", shapeDate},
		{"0%", shapePercent}, {"0.0%", shapePercent}, {`#,##0.00"%"`, shapeNumber}, {`0\%`, shapeNumber},
		{"General", shapeNumber}, {"0.00", shapeNumber}, {`#,##0"원"`, shapeNumber}, {`"Day "0`, shapeNumber}, {`[Red]#,##0;[Blue]-#,##0`, shapeNumber},
		{`\d0`, shapeNumber}, {`_-* #,##0_-`, shapeNumber}, {`0"일"`, shapeNumber},
	}
	for _, tt := range tests {
		if got := formatShape(tt.code); got != tt.want {
			t.Errorf("formatShape(%q) = %v, want %v", tt.code, got, tt.want)
		}
	}
}

func TestExcelDate(t *testing.T) {
	e1900, e1904 := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC), time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		epoch  time.Time
		serial float64
		want   string
	}{
		{e1900, 1, "1900-01-01"}, {e1900, 59, "1900-02-28"}, {e1900, 61, "1900-03-01"}, {e1900, 45718, "2025-03-02"},
		{e1900, 45718.5, "2025-03-02 12:00"}, {e1900, 0.25, "06:00"}, {e1904, 0, "1904-01-01"}, {e1904, 44256, "2025-03-02"},
		{e1900, 2958465.5, "9999-12-31 12:00"}, {e1900, 2958465.99999999, "2958465.99999999"},
	}
	for _, tt := range tests {
		if got := excelDate(tt.epoch, tt.serial); got != tt.want {
			t.Errorf("excelDate(%d, %v) = %q, want %q", tt.epoch.Year(), tt.serial, got, tt.want)
		}
	}
}

func TestColumnOf(t *testing.T) {
	for ref, want := range map[string]int{"A1": 1, "Z9": 26, "AA10": 27, "XFD1048576": 16384, "": 0, "1": 0, "ZZZZ1": 18278} {
		if got := columnOf(ref); got != want {
			t.Errorf("columnOf(%q) = %d, want %d", ref, got, want)
		}
	}
}

// TestSpreadsheetsByLibreOffice: LibreOffice Calc, a real spreadsheet
// program, writes testdata/sheets/grades.fods as Excel and as OpenDocument
// files, and both read as grades.want.md.
func TestSpreadsheetsByLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	dir := t.TempDir()
	src := filepath.Join("testdata", "sheets", "grades.fods")
	want, err := os.ReadFile(filepath.Join("testdata", "sheets", "grades.want.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"xlsx", "ods"} {
		if err := progtest.Convert(context.Background(), bin, dir, format, src); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "grades."+format))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sheetText(t, "grades."+format, data), strings.ReplaceAll(strings.TrimSpace(string(want)), "\n\n", "\n"); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", format, got, want)
		}
	}
}

func TestRepeats(t *testing.T) {
	for in, want := range map[string]int{"": 1, "0": 1, "1": 1, "7": 7, "1000": maxRepeat, "1001": maxRepeat, "1048576": maxRepeat, "99999999999999999999": maxRepeat, "-3": 1, "x": 1, " 12 ": 12} {
		if got := repeats(in); got != want {
			t.Errorf("repeats(%q) = %d, want %d", in, got, want)
		}
	}
}
