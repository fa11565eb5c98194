package importer

import (
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// TestNumberFormats: a number is written as Excel shows it in its cell's
// format: thousands, currencies (₩, $, 원, a locale's [$₩-412]), fixed
// decimals, negatives in parentheses or in a section of their own, zero's
// section, percent, scientific, text in quotes and escapes, scaling
// commas, and General inside a section. What is not read here (a
// condition, a fraction) is General.
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
		{`[>=100]0;0.00`, 5, "5"}, // a condition: General
		{`# ?/?`, 1.5, "1.5"},     // a fraction: General
		{`0.00;;`, -3, ""},        // an empty section hides its numbers
		{`0.00"`, 3, "3.00"},      // an unclosed quote
		{`[Red`, 3, "3"},          // an unclosed bracket: General
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
	} {
		e := elapsedOf(tt.code)
		if got := e.format(tt.v); e.unit == 0 || got != tt.want {
			t.Errorf("%q of %v: %q (%+v), want %q", tt.code, tt.v, got, e, tt.want)
		}
	}
	for _, code := range []string{"h:mm", "[Red]0.00", `"[h]"0`, "[$-412]yyyy-mm-dd", "[>=1]0", "[]"} {
		if e := elapsedOf(code); e.unit != 0 {
			t.Errorf("%q is no duration: %+v", code, e)
		}
	}
}

// FuzzNumFormat: any code and number give text without panic, bounded
// by the code and the number's digits, and valid UTF-8 when the code is.
func FuzzNumFormat(f *testing.F) {
	for _, c := range []string{`#,##0`, `[$₩-412]#,##0;[Red]\-[$₩-412]#,##0`, `0.00E+00`, `##0.0E+0`, `_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)`, `0.0,,"M"`, `000-0000`, `"a"General`, `0%`, `[>0]0`, `# ?/?`} {
		f.Add(c, 1234.5678)
		f.Add(c, -0.0001)
	}
	f.Fuzz(func(t *testing.T, code string, v float64) {
		got := parseNumFormat(code).format(v)
		if e := elapsedOf(code); e.unit != 0 && len(e.format(v)) > 40 {
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

// TestNumberFormatsByLibreOffice: a budget sheet of the common number
// formats (thousands, ₩ by symbol and by locale, 원, fixed decimals,
// negatives in parentheses, $, percent, scientific, scaling, units, a
// phone number, accounting with its dash for zero) is opened by
// LibreOffice Calc, which writes it as Excel and as OpenDocument, and as
// CSV "as shown": both files read as Calc shows the cells.
func TestNumberFormatsByLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	rows := []struct {
		label, code string
		v           float64
	}{
		{"천 단위", "#,##0", 1500000}, {"원화 로캘", "[$₩-412]#,##0", 1500000}, {"원화 기호", `"₩"#,##0`, -250000},
		{"원 붙임", `#,##0"원"`, 35000}, {"소수 둘째", "0.00", 3.14159}, {"천 단위 소수", "#,##0.00", 1234567.891},
		{"괄호 음수", "#,##0;(#,##0)", -1500}, {"빨간 괄호", "#,##0;[Red](#,##0)", -2500}, {"달러", "[$$-409]#,##0.00", 1234.5},
		{"달러 괄호", `$#,##0.00_);($#,##0.00)`, -99.5}, {"백분율", "0%", 0.256}, {"백분율 소수", "0.0%", 0.1234},
		{"지수", "0.00E+00", 12345}, {"천 나눔", "#,##0,", 1500000}, {"단위", `0" kg"`, 12}, {"전화", "000-0000", 5551234},
		{"영은 줄표", `#,##0;-#,##0;"-"`, 0}, {"회계", `_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-`, 1500000},
		{"회계 원화", `_-[$₩-412]* #,##0_-;-[$₩-412]* #,##0_-;_-[$₩-412]* "-"_-;_-@_-`, -300000}, {"일반", "General", 0.1},
		{"근무 시간", "[h]:mm", 1.25}, {"누적 시간", "[h]:mm:ss", 1.5}, {"분초", "[mm]:ss", 0.0208333333333333}, {"두 자리 시간", "[hh]:mm", 0.0104166666666667},
	}
	var formats, xfs, data strings.Builder
	xfs.WriteString(`<xf numFmtId="0"/>`)
	cell := func(ref, text string) string {
		return `<c r="` + ref + `" t="inlineStr"><is><t>` + html.EscapeString(text) + `</t></is></c>`
	}
	data.WriteString(`<row r="1">` + cell("A1", "항목") + cell("B1", "금액") + `</row>`)
	for i, r := range rows {
		fmt.Fprintf(&formats, `<numFmt numFmtId="%d" formatCode="%s"/>`, 164+i, html.EscapeString(r.code))
		fmt.Fprintf(&xfs, `<xf numFmtId="%d" applyNumberFormat="1"/>`, 164+i)
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
	in, out := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "budget.xlsx"), src, 0o600); err != nil {
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
	shown, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, r := range shown {
		for j := range r {
			r[j] = strings.Join(strings.Fields(r[j]), " ")
		}
		line := strings.Join(r, " | ")
		if i == 0 {
			line = "# 예산: " + line
		}
		want = append(want, line)
	}
	t.Logf("Calc shows:\n%s", strings.Join(want, "\n"))
	if len(want) != len(rows)+1 || want[2] != "원화 로캘 | ₩1,500,000" {
		t.Fatalf("Calc shows %d rows, want %d: %q", len(want), len(rows)+1, want)
	}
	for _, name := range []string{"budget.xlsx", "budget.ods"} {
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
