package hostile

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// sheetClasses are the classes of the spreadsheet, CSV and RTF readers
// (sheets.go, csv.go, rtf.go).
func sheetClasses() []Class {
	return []Class{
		{"xlsx: n tiny shared strings", "strings.xlsx", 5_000_000, func(w io.Writer, n int) error {
			var b strings.Builder
			b.WriteString(`<sst>`)
			for range n {
				b.WriteString(`<si><t>a</t></si>`)
			}
			b.WriteString(`</sst>`)
			return XLSX(w, xlsxRow(`<c t="s"><v>0</v></c>`), map[string]string{"xl/sharedStrings.xml": b.String()})
		}},
		{"xlsx: n cells naming one shared string of 1 MB", "oneword.xlsx", 100_000, func(w io.Writer, n int) error {
			return XLSX(w, strings.Repeat(`<row><c t="s"><v>0</v></c></row>`, n),
				map[string]string{"xl/sharedStrings.xml": `<sst><si><t>` + strings.Repeat("공유 ", 1<<20/7) + `</t></si></sst>`})
		}},
		{"xlsx: shared-string indexes out of range, negative, not numbers", "badindex.xlsx", 1, func(w io.Writer, n int) error {
			return XLSX(w, xlsxRow(`<c t="s"><v>99999999999999999999</v></c><c t="s"><v>-1</v></c><c t="s"><v>x</v></c><c t="s"><v>0</v></c><c><v>남은 값</v></c>`),
				map[string]string{"xl/sharedStrings.xml": `<sst><si><t>공유</t></si></sst>`})
		}},
		{"xlsx: n rows, each a cell at A1 and one at XFD1048576", "farcell.xlsx", 1_000_000, func(w io.Writer, n int) error {
			return XLSX(w, strings.Repeat(`<row><c r="A1" t="inlineStr"><is><t>처음</t></is></c><c r="XFD1048576"><v>7</v></c></row>`, n), nil)
		}},
		{"xlsx: n rows of one cell", "rows.xlsx", 1_000_000, func(w io.Writer, n int) error {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, `<row><c><v>%d</v></c></row>`, i)
			}
			return XLSX(w, b.String(), nil)
		}},
		{"xlsx: styles.xml with n cell formats", "styles.xlsx", 1_000_000, func(w io.Writer, n int) error {
			var b strings.Builder
			b.WriteString(`<styleSheet><numFmts><numFmt numFmtId="200" formatCode="yyyy-mm-dd"/></numFmts><cellXfs>`)
			for range n {
				b.WriteString(`<xf numFmtId="200"/>`)
			}
			b.WriteString(`</cellXfs></styleSheet>`)
			return XLSX(w, xlsxRow(`<c s="65535"><v>45000</v></c><c s="999999"><v>45000</v></c>`), map[string]string{"xl/styles.xml": b.String()})
		}},
		{"xlsx: workbook lists one sheet part n times", "samesheet.xlsx", 9_999, func(w io.Writer, n int) error {
			var sheets strings.Builder
			for i := range n {
				fmt.Fprintf(&sheets, `<sheet name="시트%d" sheetId="%d" r:id="rId1"/>`, i, i+1)
			}
			return XLSXBook(w, sheets.String(), `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`,
				map[string]string{"xl/worksheets/sheet1.xml": sheetXML(strings.Repeat(`<row><c t="inlineStr"><is><t>`+strings.Repeat("되풀이 ", 100)+`</t></is></c></row>`, 10))})
		}},
		{"xlsx: workbook lists n sheets", "sheets.xlsx", 100_000, func(w io.Writer, n int) error {
			var sheets strings.Builder
			for i := range n {
				fmt.Fprintf(&sheets, `<sheet name="s%d" sheetId="%d" r:id="rId1"/>`, i, i+1)
			}
			return XLSXBook(w, sheets.String(), `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`,
				map[string]string{"xl/worksheets/sheet1.xml": sheetXML(xlsxRow(`<c><v>1</v></c>`))})
		}},
		{"xlsx: workbook lists n sheets, each its own part", "manysheets.xlsx", 100_000, func(w io.Writer, n int) error {
			var sheets, rels strings.Builder
			parts := make(map[string]string, n)
			for i := range n {
				fmt.Fprintf(&sheets, `<sheet name="s%d" sheetId="%d" r:id="rId%d"/>`, i, i+1, i+1)
				fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i+1, i+1)
				parts[fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)] = sheetXML(xlsxRow(`<c><v>1</v></c>`))
			}
			return XLSXBook(w, sheets.String(), rels.String(), parts)
		}},
		{"xlsx: relationships pointing outside the archive (../../etc/passwd, /etc/passwd)", "outside.xlsx", 1, func(w io.Writer, n int) error {
			return XLSXBook(w, `<sheet name="a" sheetId="1" r:id="rId1"/><sheet name="b" sheetId="2" r:id="rId2"/><sheet name="c" sheetId="3" r:id="rId3"/>`,
				`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="../../etc/passwd"/>`+
					`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/etc/passwd"/>`+
					`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`,
				map[string]string{"xl/worksheets/sheet1.xml": sheetXML(xlsxRow(`<c t="inlineStr"><is><t>안쪽</t></is></c>`))})
		}},
		{"xlsx: a sheet of one cell of n MB (a ZIP bomb)", "bomb.xlsx", 1024, func(w io.Writer, n int) error {
			return zipStream(w, map[string]string{
				"xl/workbook.xml":            xlsxWorkbook(`<sheet name="폭탄" sheetId="1" r:id="rId1"/>`),
				"xl/_rels/workbook.xml.rels": xlsxRels(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`),
			}, "xl/worksheets/sheet1.xml", `<worksheet><sheetData><row><c><v>`, strings.Repeat("0", 1<<20), n, `</v></c></row></sheetData></worksheet>`)
		}},
		{"xlsx: n number cells whose format writes a kilobyte of text before each", "fmttext.xlsx", 300_000, func(w io.Writer, n int) error {
			var rows strings.Builder
			for i := range n {
				fmt.Fprintf(&rows, `<row><c s="1"><v>%d</v></c></row>`, i)
			}
			return XLSX(w, rows.String(), map[string]string{"xl/styles.xml": `<styleSheet><numFmts><numFmt numFmtId="200" formatCode="&quot;` + strings.Repeat("가", 330) + `&quot;0"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="200"/></cellXfs></styleSheet>`})
		}},
		{"xlsx: date cells of 1e308, NaN, Inf, negative, 2958465.99999999", "dates.xlsx", 1, func(w io.Writer, n int) error {
			return XLSX(w, xlsxRow(`<c s="0"><v>1e308</v></c><c s="0"><v>NaN</v></c><c s="0"><v>-Inf</v></c><c s="0"><v>-45000</v></c><c s="0"><v>2958465.99999999</v></c><c s="0"><v>45000.5</v></c>`),
				map[string]string{"xl/styles.xml": `<styleSheet><cellXfs><xf numFmtId="14"/></cellXfs></styleSheet>`})
		}},
		{"xlsx: a sheet nested n deep", "deep.xlsx", 3_000_000, func(w io.Writer, n int) error {
			return XLSX(w, `<row><c t="inlineStr"><is>`+nested("r", n, "<t>깊다</t>")+`</is></c></row>`, nil)
		}},
		{"ods: n rows repeated a million times, each of a value repeated a million times", "repeat.ods", 10_000, func(w io.Writer, n int) error {
			return ODS(w, strings.Repeat(`<table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="1000000" office:value-type="string"><text:p>값</text:p></table:table-cell></table:table-row>`, n))
		}},
		{"ods: tables nested in cells n deep", "nestedtables.ods", 100_000, func(w io.Writer, n int) error {
			open := `<table:table table:name="t"><table:table-row><table:table-cell><text:p>겹</text:p>`
			return ODS(w, `<table:table-row><table:table-cell>`+strings.Repeat(open, n)+strings.Repeat(`</table:table-cell></table:table-row></table:table>`, n)+`</table:table-cell></table:table-row>`)
		}},
		{"ods: content.xml nested n deep", "deep.ods", 3_000_000, func(w io.Writer, n int) error {
			return ODS(w, `<table:table-row><table:table-cell>`+nested("text:span", n, "깊다")+`</table:table-cell></table:table-row>`)
		}},
		{"csv: one field of n MB in a quote never closed", "openquote.csv", 200, func(w io.Writer, n int) error {
			return repeat(w, "이름,메모\n홍길동,\"", strings.Repeat("열린 따옴표 ", 1<<16)[:1<<20], n, "")
		}},
		{"csv: one row of n empty columns, then a value", "columns.csv", 10_000_000, func(w io.Writer, n int) error {
			return repeat(w, "a,b\n", ",", n, "끝\n")
		}},
		{"csv: n rows of one character", "rows.csv", 1_000_000, func(w io.Writer, n int) error {
			return repeat(w, "열\n", "x\n", n, "")
		}},
		{"csv: a first row (the heading of every chunk) of n MB", "header.csv", 20, func(w io.Writer, n int) error {
			return repeat(w, "", strings.Repeat("머리,", 1<<20/7), n, "\n값,값\n")
		}},
		{"csv: UTF-16LE with a BOM, n rows", "utf16.csv", 100_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			bw.Write([]byte{0xFF, 0xFE})
			bw.Write(utf16LE("이름,부서\n"))
			for i := range n {
				bw.Write(utf16LE(fmt.Sprintf("홍길동%d,총무\n", i)))
			}
			return bw.Flush()
		}},
		{"csv: n KB of binary junk", "junk.csv", 100_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			x := uint32(2463534242)
			for range n << 10 {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				bw.WriteByte(byte(x))
			}
			return bw.Flush()
		}},
		{"rtf: groups nested n deep", "deep.rtf", 1_000_000, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1 `, "{", n, "깊다")
		}},
		{"rtf: \\bin2147483648 and \\bin99999999999, then text", "bin.rtf", 1, func(w io.Writer, n int) error {
			_, err := io.WriteString(w, `{\rtf1 앞 {\bin2147483648 xyz} 가운데 {\bin99999999999 abc} {\bin-5 뒤}\par}`)
			return err
		}},
		{"rtf: \\uc99999999999 and \\u-32768, \\u-99999, \\u99999999", "unicode.rtf", 1, func(w io.Writer, n int) error {
			_, err := io.WriteString(w, `{\rtf1 {\uc99999999999 a\u54620?b} \u-32768 \u-99999 \u99999999 \u-10179?\u-8704? 끝\par}`)
			return err
		}},
		{"rtf: n \\par and nothing else", "pars.rtf", 10_000_000, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1 글`, `\par `, n, "}")
		}},
		{"rtf: n MB of \\'hh (Korean in CP949), one paragraph", "hex.rtf", 100, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1\ansi\ansicpg949 `, strings.Repeat(`\'c7\'d1\'b1\'b9 `, 1<<20/17), n, "}")
		}},
		{"rtf: n MB of bytes above ASCII, one paragraph", "raw.rtf", 100, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1\ansi\ansicpg949 `, strings.Repeat("\xc7\xd1\xb1\xb9 ", 1<<20/5), n, "}")
		}},
		{"rtf: one table row of n cells", "cells.rtf", 10_000_000, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1 \trowd\intbl `, `a\cell `, n, `\row}`)
		}},
		{"rtf: a font table of n fonts, each with a charset", "fonts.rtf", 5_000_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriterSize(w, 1<<20)
			bw.WriteString(`{\rtf1\ansi{\fonttbl`)
			for i := range n {
				fmt.Fprintf(bw, `{\f%d\fcharset129 a;}`, i)
			}
			bw.WriteString(`}\f7 글꼴\par}`)
			return bw.Flush()
		}},
		{"rtf: n MB of { only", "braces.rtf", 100, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1 `, strings.Repeat("{", 1<<20), n, "")
		}},
		{"rtf: n MB of \\ only", "backslashes.rtf", 100, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1 `, strings.Repeat(`\`, 1<<20), n, "")
		}},
		{"rtf: a control word of n MB of letters", "word.rtf", 100, func(w io.Writer, n int) error {
			return repeat(w, `{\rtf1 \`, strings.Repeat("a", 1<<20), n, " 끝}")
		}},
	}
}

// sheetXML is a worksheet of rows.
func sheetXML(rows string) string {
	return `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + rows + `</sheetData></worksheet>`
}

func xlsxRow(cells string) string { return `<row>` + cells + `</row>` }

func xlsxWorkbook(sheets string) string {
	return `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` + sheets + `</sheets></workbook>`
}

func xlsxRels(rels string) string {
	return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`
}

// XLSX is a workbook of one sheet of rows, with extra parts.
func XLSX(w io.Writer, rows string, extra map[string]string) error {
	parts := map[string]string{"xl/worksheets/sheet1.xml": sheetXML(rows)}
	for k, v := range extra {
		parts[k] = v
	}
	return XLSXBook(w, `<sheet name="시트1" sheetId="1" r:id="rId1"/>`,
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`, parts)
}

// XLSXBook is a workbook whose sheets and relationships are given, with
// parts.
func XLSXBook(w io.Writer, sheets, rels string, parts map[string]string) error {
	all := map[string][]byte{
		"[Content_Types].xml":        []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
		"xl/workbook.xml":            []byte(xlsxWorkbook(sheets)),
		"xl/_rels/workbook.xml.rels": []byte(xlsxRels(rels)),
	}
	for k, v := range parts {
		all[k] = []byte(v)
	}
	return Zip(w, all)
}

// ODS is an OpenDocument spreadsheet of one table of rows.
func ODS(w io.Writer, rows string) error {
	return Zip(w, map[string][]byte{
		"mimetype": []byte("application/vnd.oasis.opendocument.spreadsheet"),
		"content.xml": []byte(`<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet><table:table table:name="표">` +
			rows + `</table:table></office:spreadsheet></office:body></office:document-content>`),
	})
}

// zipStream is an archive of parts and one more, name, written as head,
// unit n times and tail, deflated as it is written (a ZIP bomb needs no
// memory to make).
func zipStream(w io.Writer, parts map[string]string, name, head, unit string, n int, tail string) error {
	zw := zip.NewWriter(w)
	for _, k := range slices.Sorted(maps.Keys(parts)) {
		if err := addPart(zw, k, []byte(parts[k])); err != nil {
			return err
		}
	}
	f, err := zw.Create(name)
	if err != nil {
		return err
	}
	if err := repeat(f, head, unit, n, tail); err != nil {
		return err
	}
	return zw.Close()
}
