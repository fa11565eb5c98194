package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// TestNumberFormats: a number is written as Excel shows it in its cell's
// format: thousands, currencies (₩, $, 원, a locale's [$₩-412]), fixed
// decimals, negatives in parentheses or in a section of their own, zero's
// section, percent, scientific, text in quotes and escapes, scaling
// commas, General inside a section, conditions ([>=1000]) and fractions
// (# ?/?), each as LibreOffice Calc shows it (TestNumberFormatsByLibreOffice
// holds the two together).
func TestNumberFormats(t *testing.T) {
	for _, tt := range []struct {
		code string
		v    float64
		want string
	}{
		{"#,##0", 1500000, "1,500,000"},
		{"#,##0", 999, "999"},
		{"#,##0", 0, "0"},
		{"#,##0", -1234.5, "-1,235"},
		{"#,##0", 1e20, "100,000,000,000,000,000,000"},
		{"#,###", 0, ""},
		{"0,000", 12, "0,012"},
		{"0.00", 3.14159, "3.14"},
		{"0.00", 2.675, "2.68"}, // 15 digits, rounded half away from zero, not 2.67
		{"0.00", -0.001, "0.00"},
		{"0.00", 0.995, "1.00"},
		{"0.00", 99.995, "100.00"},
		{"#.##", 0.5, ".5"},
		{"0.0#", 1.5, "1.5"},
		{"0.0#", 1.257, "1.26"},
		{"0.###", 2, "2."},
		{"0", 0.4, "0"},
		{"000", 7, "007"},
		{"#,##0.00", 1234567.891, "1,234,567.89"},
		{`"₩"#,##0`, 1500000, "₩1,500,000"},
		{`[$₩-412]#,##0`, 1500000, "₩1,500,000"},
		{`[$₩-412]#,##0`, -1500000, "-₩1,500,000"},
		{`[$$-409]#,##0.00`, 1234.5, "$1,234.50"},
		{`\₩#,##0;\-\₩#,##0`, -25000, "-₩25,000"},
		{`#,##0"원"`, 35000, "35,000원"},
		{`#,##0원`, 35000, "35,000원"},
		{`$#,##0.00_);($#,##0.00)`, -1234.5, "($1,234.50)"},
		{`$#,##0.00_);($#,##0.00)`, 1234.5, "$1,234.50 "},
		{`#,##0;(#,##0)`, -1500, "(1,500)"},
		{`#,##0;[Red](#,##0)`, -1500, "(1,500)"},
		{`[Blue]#,##0;[Red]-#,##0;"zero"`, 0, "zero"},
		{`#,##0;-#,##0;"-"`, 0, "-"},
		{`_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-`, 1500000, " 1,500,000 "},
		{`_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-`, -1500000, "-1,500,000 "}, // the fill (* ) is as wide as the cell: nothing
		{`_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-`, 0, " - "},
		{`_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)`, 0, ` -   `},
		{"0%", 0.256, "26%"},
		{"0.0%", 0.1234, "12.3%"},
		{"0.00%", -0.05, "-5.00%"},
		{"0.00E+00", 12345, "1.23E+04"},
		{"0.00E+00", 0.00012345, "1.23E-04"},
		{"0.00E+00", 9.999, "1.00E+01"},
		{"0.00E-00", 12345, "1.23E04"},
		{"0.0E+0", 0, "0.0E+0"},
		{"##0.0E+0", 12345, "12.3E+3"},
		{"##0.0E+0", 1234567, "1.2E+6"},
		{"0.00E+00", 1e308, "1.00E+308"},
		{"0.00E+00", 5e-324, "4.94E-324"},
		{"#,##0,", 1500000, "1,500"},
		{`#,##0.0,,"M"`, 1500000, "1.5M"},
		{`0" kg"`, 12, "12 kg"},
		{`"Total: "0`, 5, "Total: 5"},
		{`000-0000`, 5551234, "555-1234"},
		{`000-00-0000`, 123456789, "123-45-6789"},
		{`"₩"General`, 1500, "₩1500"},
		{`General"원"`, 0.5, "0.5원"},
		// Conditions: the first section whose condition holds (one without
		// any holds), else the third; only the first gives a minus sign,
		// unless its condition is for negative numbers.
		{`[>=100]0;0.00`, 5, "5.00"},
		{`[>=1000]#,##0,"K";0`, 1500, "2K"},
		{`[>=1000]#,##0,"K";0`, 500, "500"},
		{`[>=1000]#,##0,"K";0`, -1500, "1500"},
		{`[Red][<0]0.0;[Blue][>0]0.00;0`, -1.25, "1.3"},
		{`[Red][<0]0.0;[Blue][>0]0.00;0`, 2, "2.00"},
		{`[Red][<0]0.0;[Blue][>0]0.00;0`, 0, "0"},
		{`[<0]"neg "0;"pos "0`, -1.25, "neg 1"},
		{`[>=1000]#,##0,"K";[<=-1000]-#,##0,"K";0`, -1500, "-2K"},
		{`[>=1000]#,##0,"K";[<=-1000]-#,##0,"K";0`, -1.25, "1"},
		{`[<-5]0`, -10, "-10"},
		{`[=1]"one";[<>1]0`, 1, "one"},
		{`[>100]0;[<-100]0`, 5, "5"}, // no section takes it: General
		{`[>=abc]0`, 5, "5"},         // a condition that is none: General
		// Fractions: the nearest within the placeholders' digits, or over
		// the code's own denominator (rounded half down, not reduced).
		{`# ?/?`, 1.5, "1 1/2"},
		{`# ?/?`, 0.5, " 1/2"},
		{`# ?/?`, 2, "2    "},
		{`# ?/?`, 0, "0    "},
		{`# ?/?`, 1e-5, "0    "},
		{`# ?/?`, -1.25, "-1 1/4"},
		{`# ?/?`, 3.14159265358979, "3 1/7"},
		{`# ?/?`, 12.0625, "12 1/9"},
		{`# ?/?`, 0.99, "1    "},
		{`# ??/??`, 3.14159265358979, "3 14/99"},
		{`# ??/??`, 0.99, " 98/99"},
		{`# ??/??`, 12.0625, "12  1/16"},
		{`# ???/???`, 3.14159265358979, "3  16/113"},
		{`?/?`, 1.5, "3/2"},
		{`?/?`, 0, "0/1"},
		{`?/?`, 12.0625, "109/9"},
		{`?/?`, 0.99, "1/1"},
		{`0 ?/?`, 0.5, "0 1/2"},
		{`# ?/8`, 0.75, " 6/8"},
		{`# ?/8`, 0.1875, " 1/8"},
		{`# ?/8`, 0.0625, "0    "},
		{`# ?/8`, -0.0791666666666667, "- 1/8"},
		{`# ?/16`, 0.75, " 12/16"},
		{`?/2`, -0.0791666666666667, "0/2"},
		{`?/2`, 12.0625, "24/2"},
		{`#,##0 ?/?`, 1234567.5, "1,234,567 1/2"},
		{`# ?/?" cups"`, 2.25, "2 1/4 cups"},
		{`# ?/?`, 1e20, "1e+20"}, // past what a fraction shows: General
		{`?/?`, 1e12, "1000000000000"},
		{`?/?/?`, 1.5, "1.5"},   // two slashes: General
		{`/?`, 1.5, "/2"},       // a slash before any placeholder is text
		{`0.0 ?/?`, 1.5, "1.5"}, // a point and a fraction: General
		{`0.00;;`, -3, ""},      // an empty section hides its numbers
		{`0.00"`, 3, "3.00"},    // an unclosed quote
		{`[Red`, 3, "3"},        // an unclosed bracket: General
		{"General", 0.30000000000000004, "0.3"},
		{"0.00", math.NaN(), "NaN"},
		{"0.00", math.Inf(-1), "-Inf"},
		{"0." + strings.Repeat("0", 100), 1, "1." + strings.Repeat("0", maxFormatDecimals)},
	} {
		if got := parseNumFormat(tt.code).format(tt.v); got != tt.want {
			t.Errorf("%q of %v: %q, want %q", tt.code, tt.v, got, tt.want)
		}
	}
}

// TestElapsed: a duration's format counts hours (minutes, seconds) past
// the day, as a timesheet shows them: 1.5 days in [h]:mm:ss is 36:00:00,
// not a date and a time of day.
func TestElapsed(t *testing.T) {
	for _, tt := range []struct {
		code string
		v    float64
		want string
	}{
		{"[h]:mm:ss", 1.5, "36:00:00"},
		{"[h]:mm", 1.25, "30:00"},
		{"[hh]:mm", 0.0104166666666667, "00:15"},
		{"[H]:MM:SS", 2.0 / 86400, "0:00:02"},
		{"[mm]:ss", 0.5 / 24, "30:00"},
		{"[m]", 1, "1440"},
		{"[ss]", 1.0 / 1440, "60"},
		{"[h]:mm:ss", -0.5, "-12:00:00"},
		{"[Red][h]:mm", 1, "24:00"},
		{"[h]:mm", 1e12, "1000000000000"},
		// Rounded to the seconds shown, then each unit truncated, as Calc
		// shows them.
		{"[h]:mm", 0.99, "23:45"},
		{"[h]:mm", 1 - 0.4/86400, "24:00"},
		{"[h]:mm:ss", 0.5 / 86400, "0:00:01"},
		{"[h]", 1.9 / 24, "1"},
		{"[h]:mm:ss.0", 1e-5, "0:00:00.9"},
		{"[mm]:ss.00", 3.14159265358979, "4523:53.61"},
		{"[mm]:ss.00", 1e-5, "00:00.86"},
		// Text in the code is shown, as a Korean timesheet writes it.
		{`[h]"시간" mm"분"`, 1.5, "36시간 00분"},
		{`[h]"시간 "mm\분`, 0.99, "23시간 45분"},
		{`"총 "[h]"시간"`, -1.25, "-총 30시간"},
		{`[h]\h mm\m`, 1.25, "30h 00m"},
		{`[h]_)`, 1, "24 "},
	} {
		e := elapsedOf(tt.code)
		if got := e.format(tt.v); e.unit == 0 || got != tt.want {
			t.Errorf("%q of %v: %q (%+v), want %q", tt.code, tt.v, got, e, tt.want)
		}
	}
	for _, code := range []string{"h:mm", "[Red]0.00", `"[h]"0`, "[$-412]yyyy-mm-dd", "[>=1]0", "[]", "[h]:mm AM/PM", "[h] d", "[h]:[mm]"} {
		if e := elapsedOf(code); e.unit != 0 {
			t.Errorf("%q is no duration: %+v", code, e)
		}
	}
}

// FuzzNumFormat: any code and number give text without panic, bounded
// by the code and the number's digits, and valid UTF-8 when the code is.
func FuzzNumFormat(f *testing.F) {
	for _, c := range []string{`#,##0`, `[$₩-412]#,##0;[Red]\-[$₩-412]#,##0`, `0.00E+00`, `##0.0E+0`, `_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)`, `0.0,,"M"`, `000-0000`, `"a"General`, `0%`, `[>0]0`, `# ?/?`,
		`# ??/??`, `?/?`, `# ?/8`, `#,##0 ?/?`, `[>=1000]#,##0,"K";[<=-1000]-#,##0,"K";0`, `[Red][<0]0.0;[Blue][>0]0.00;0`, `[h]"시간" mm"분"`, `[mm]:ss.00`, `"총 "[h]"시간"`} {
		f.Add(c, 1234.5678)
		f.Add(c, -0.0001)
	}
	f.Fuzz(func(t *testing.T, code string, v float64) {
		got := parseNumFormat(code).format(v)
		if e := elapsedOf(code); e.unit != 0 && len(e.format(v)) > 4*len(code)+60 {
			t.Fatalf("%q of %v: %q", code, v, e.format(v))
		}
		if limit := 4*len(code) + 2*maxFormatDecimals + 500; len(got) > limit {
			t.Fatalf("%q of %v: %d bytes, past %d", code, v, len(got), limit)
		}
		if utf8.ValidString(code) && !utf8.ValidString(got) {
			t.Fatalf("%q of %v: invalid UTF-8 %q", code, v, got)
		}
	})
}

// calcRow is a row of the sheet calcSheet writes: a label, and a number
// in a custom format code, or (code "") in the built-in format id.
type calcRow struct {
	label, code string
	v           float64
	id          int
}

// calcSheet writes a sheet "예산" of rows as an Excel file, has Calc
// write it as OpenDocument, then as Excel and as CSV "as shown" from its
// own, and says the lines Calc shows (as the importer writes a sheet: a
// row a line, cells between " | ", the first the heading) and the folder
// of ours.xlsx (the file Calc opened), budget.xlsx and budget.ods.
func calcSheet(t *testing.T, bin string, rows []calcRow) (shown []string, out string) {
	t.Helper()
	var formats, xfs, data strings.Builder
	xfs.WriteString(`<xf numFmtId="0"/>`)
	cell := func(ref, text string) string {
		return `<c r="` + ref + `" t="inlineStr"><is><t>` + html.EscapeString(text) + `</t></is></c>`
	}
	data.WriteString(`<row r="1">` + cell("A1", "항목") + cell("B1", "금액") + `</row>`)
	for i, r := range rows {
		id := r.id
		if r.code != "" {
			id = 164 + i
			fmt.Fprintf(&formats, `<numFmt numFmtId="%d" formatCode="%s"/>`, id, html.EscapeString(r.code))
		}
		fmt.Fprintf(&xfs, `<xf numFmtId="%d" applyNumberFormat="1"/>`, id)
		fmt.Fprintf(&data, `<row r="%d">%s<c r="B%d" s="%d"><v>%v</v></c></row>`, i+2, cell(fmt.Sprintf("A%d", i+2), r.label), i+2, i+1, r.v)
	}
	// Calc tells an Excel file by its content types, and finds its
	// styles through the workbook's relationships.
	src := rewritten(t, xlsxOf(t, "", `<numFmts>`+formats.String()+`</numFmts><cellXfs>`+xfs.String()+`</cellXfs>`, "", [2]string{"예산", data.String()}), []string{"xl/_rels/workbook.xml.rels"},
		part{"xl/_rels/workbook.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="` + relSheet + `" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`},
		part{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
			`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`},
		part{"_rels/.rels", `<?xml version="1.0"?><Relationships ` + relsNS + `><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`})
	in := t.TempDir()
	out = t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "budget.xlsx"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "ours.xlsx"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Calc writes the OpenDocument file from ours, then the Excel file
	// and the CSV from its own.
	if err := progtest.Convert(ctx, bin, out, "ods", filepath.Join(in, "budget.xlsx")); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"xlsx", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true"} {
		if err := progtest.Convert(ctx, bin, out, format, filepath.Join(out, "budget.ods")); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(out, "budget.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cells, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range cells {
		for j := range r {
			r[j] = strings.Join(strings.Fields(r[j]), " ")
		}
		line := strings.Join(r, " | ")
		if i == 0 {
			line = "# 예산: " + line
		}
		shown = append(shown, line)
	}
	t.Logf("Calc shows:\n%s", strings.Join(shown, "\n"))
	return shown, out
}

// TestNumberFormatsByLibreOffice: a budget sheet of the common number
// formats (thousands, ₩ by symbol and by locale, 원, fixed decimals,
// negatives in parentheses, $, percent, scientific, scaling, units, a
// phone number, accounting with its dash for zero; fractions, Excel's
// built-in currency, accounting and fraction ids, conditions, durations
// with text) is opened by LibreOffice Calc, which writes it as Excel and
// as OpenDocument, and as CSV "as shown": our file, and both of Calc's,
// read as Calc shows the cells.
func TestNumberFormatsByLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	rows := []calcRow{
		{"천 단위", "#,##0", 1500000, 0}, {"원화 로캘", "[$₩-412]#,##0", 1500000, 0}, {"원화 기호", `"₩"#,##0`, -250000, 0},
		{"원 붙임", `#,##0"원"`, 35000, 0}, {"소수 둘째", "0.00", 3.14159, 0}, {"천 단위 소수", "#,##0.00", 1234567.891, 0},
		{"괄호 음수", "#,##0;(#,##0)", -1500, 0}, {"빨간 괄호", "#,##0;[Red](#,##0)", -2500, 0}, {"달러", "[$$-409]#,##0.00", 1234.5, 0},
		{"달러 괄호", `$#,##0.00_);($#,##0.00)`, -99.5, 0}, {"백분율", "0%", 0.256, 0}, {"백분율 소수", "0.0%", 0.1234, 0},
		{"지수", "0.00E+00", 12345, 0}, {"천 나눔", "#,##0,", 1500000, 0}, {"단위", `0" kg"`, 12, 0}, {"전화", "000-0000", 5551234, 0},
		{"영은 줄표", `#,##0;-#,##0;"-"`, 0, 0}, {"회계", `_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-`, 1500000, 0},
		{"회계 원화", `_-[$₩-412]* #,##0_-;-[$₩-412]* #,##0_-;_-[$₩-412]* "-"_-;_-@_-`, -300000, 0}, {"일반", "General", 0.1, 0},
		{"근무 시간", "[h]:mm", 1.25, 0}, {"누적 시간", "[h]:mm:ss", 1.5, 0}, {"분초", "[mm]:ss", 0.0208333333333333, 0}, {"두 자리 시간", "[hh]:mm", 0.0104166666666667, 0},
		{"분수", "# ?/?", 3.14159265358979, 0}, {"분수 두 자리", "# ??/??", 3.14159265358979, 0}, {"가분수", "?/?", 12.0625, 0}, {"팔분의", "# ?/8", 1.1875, 0},
		{"분수 음수", "# ?/?", -1.25, 0}, {"분수 영", "# ?/?", 0, 0}, {"분수 반올림", "# ?/?", 0.99, 0}, {"분수 천 단위", "#,##0 ?/?", 1234567.5, 0},
		{"내장 12", "", 1.25, 12}, {"내장 13", "", 0.99, 13},
		{"내장 5", "", -1500, 5}, {"내장 6", "", 1500, 6}, {"내장 7", "", 1234.5, 7}, {"내장 8", "", -99.5, 8},
		{"내장 37", "", -1500, 37}, {"내장 38", "", 1500, 38}, {"내장 39", "", -2.5, 39}, {"내장 40", "", 2.5, 40},
		{"내장 41", "", 0, 41}, {"내장 42", "", -1500, 42}, {"내장 43", "", 1234.5, 43}, {"내장 44", "", 0, 44},
		{"천 단위 K", `[>=1000]#,##0,"K";0`, 1500, 0}, {"K 아래", `[>=1000]#,##0,"K";0`, 500, 0}, {"K 음수", `[>=1000]#,##0,"K";0`, -1500, 0},
		{"조건 음수", `[Red][<0]0.0;[Blue][>0]0.00;0`, -1.25, 0}, {"조건 셋", `[>=1000]#,##0,"K";[<=-1000]-#,##0,"K";0`, -2500, 0},
		{"시간 분", `[h]"시간" mm"분"`, 1.5, 0}, {"총 시간", `"총 "[h]"시간"`, -1.25, 0}, {"분초 소수", "[mm]:ss.00", 3.14159265358979, 0}, {"잘린 분", "[h]:mm", 0.99, 0},
	}
	want, out := calcSheet(t, bin, rows)
	if len(want) != len(rows)+1 || want[2] != "원화 로캘 | ₩1,500,000" {
		t.Fatalf("Calc shows %d rows, want %d: %q", len(want), len(rows)+1, want)
	}
	for _, name := range []string{"ours.xlsx", "budget.xlsx", "budget.ods"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(sheetText(t, name, data), "\n")
		for i := range max(len(got), len(want)) {
			g, w := "", ""
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("%s row %d: %q, Calc shows %q", name, i+1, g, w)
			}
		}
	}
}

// TestKoreanCurrencyByLibreOffice: what LibreOffice writes for a sheet
// in the Korean locale's currency (₩, its default for ko-KR) is a code of
// its own with the symbol and the locale ([$₩-412]#,##0;\-[$₩-412]#,##0),
// not a built-in id whose symbol the reader would have to guess; and the
// Excel file reads as Calc shows the cells.
func TestKoreanCurrencyByLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	row := func(label string, v float64) string {
		return fmt.Sprintf(`<table:table-row><table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>`+
			`<table:table-cell table:style-name="ce1" office:value-type="currency" office:currency="KRW" office:value="%v"/></table:table-row>`, label, v)
	}
	won := `<number:currency-symbol number:language="ko" number:country="KR">₩</number:currency-symbol><number:number number:min-integer-digits="1" number:grouping="true"/>`
	fods := `<?xml version="1.0" encoding="UTF-8"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ` +
		`xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" ` +
		`xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">` +
		`<office:styles><style:default-style style:family="table-cell"><style:text-properties fo:language="ko" fo:country="KR"/></style:default-style></office:styles><office:automatic-styles>` +
		`<number:currency-style style:name="N1P0" style:volatile="true" number:language="ko" number:country="KR">` + won + `</number:currency-style>` +
		`<number:currency-style style:name="N1" number:language="ko" number:country="KR"><number:text>-</number:text>` + won + `<style:map style:condition="value()&gt;=0" style:apply-style-name="N1P0"/></number:currency-style>` +
		`<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/></office:automatic-styles>` +
		`<office:body><office:spreadsheet><table:table table:name="예산">` + row("월급", 3000000) + row("환불", -250000) + row("잔액", 0) + `</table:table></office:spreadsheet></office:body></office:document>`
	in, out := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "ko.fods"), []byte(fods), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, format := range []string{"xlsx", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true"} {
		if err := progtest.Convert(ctx, bin, out, format, filepath.Join(in, "ko.fods")); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "ko.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := z.Open("xl/styles.xml")
	if err != nil {
		t.Fatal(err)
	}
	styles, _ := io.ReadAll(f)
	f.Close()
	// The cells' formats (cellXfs; the named styles before them, Calc's
	// "Currency", do name the built-in ids, which no cell uses).
	_, cellXfs, _ := strings.Cut(string(styles), "<cellXfs")
	if !strings.Contains(string(styles), `formatCode="[$₩-412]#,##0;`) || regexp.MustCompile(`<xf [^>]*numFmtId="(5|6|7|8|41|42|43|44)"`).MatchString(cellXfs) {
		t.Errorf("Calc wrote the Korean currency as:\n%s", styles)
	}
	csvData, err := os.ReadFile(filepath.Join(out, "ko.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := csv.NewReader(bytes.NewReader(csvData)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, r := range cells {
		line := strings.Join(r, " | ")
		if i == 0 {
			line = "# 예산: " + line
		}
		want = append(want, line)
	}
	if got := sheetText(t, "ko.xlsx", data); got != strings.Join(want, "\n") || !strings.Contains(got, "-₩250,000") {
		t.Errorf("read %q, Calc shows %q", got, want)
	}
}

// TestBuiltinIDsWrittenOut: a file that writes the code of a built-in
// currency id itself (as a Korean Excel and Calc write their ₩) is read
// with that code; one that names the id alone is read in ECMA-376's
// form, with the dollar and parentheses.
func TestBuiltinIDsWrittenOut(t *testing.T) {
	styles := `<numFmts><numFmt numFmtId="5" formatCode="&quot;₩&quot;#,##0;\-&quot;₩&quot;#,##0"/>` +
		`<numFmt numFmtId="42" formatCode="_-&quot;₩&quot;* #,##0_-;\-&quot;₩&quot;* #,##0_-;_-&quot;₩&quot;* &quot;-&quot;_-;_-@_-"/></numFmts>` +
		`<cellXfs><xf numFmtId="0"/><xf numFmtId="5"/><xf numFmtId="42"/><xf numFmtId="7"/><xf numFmtId="12"/></cellXfs>`
	data := xlsxOf(t, "", styles, "", [2]string{"돈", `<row><c t="inlineStr"><is><t>항목</t></is></c></row>` +
		`<row><c s="1"><v>-1500</v></c><c s="2"><v>0</v></c><c s="2"><v>2500000</v></c><c s="3"><v>-1234.5</v></c><c s="4"><v>2.5</v></c></row>`})
	if got, want := sheetText(t, "돈.xlsx", data), "# 돈: 항목\n-₩1,500 | ₩- | ₩2,500,000 | ($1,234.50) | 2 1/2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
