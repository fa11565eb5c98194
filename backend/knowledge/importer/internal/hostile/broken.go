package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// brokenClasses are files whose body is one part that breaks partway, or
// whose index of parts is missing or useless: the importer keeps what it
// read before the break, or reads the parts from the archive, and says so.
func brokenClasses() []Class {
	return []Class{
		{"ods: n sheets of 1,000 rows, content.xml's deflate data not inflating in the last", "brokenbody.ods", 50, func(w io.Writer, n int) error {
			const ns = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"`
			var b strings.Builder
			b.WriteString(`<office:document-content ` + ns + `><office:body><office:spreadsheet>`)
			for s := range max(n, 2) {
				fmt.Fprintf(&b, `<table:table table:name="시트%d">`, s+1)
				for r := range 1000 {
					fmt.Fprintf(&b, `<table:table-row><table:table-cell office:value-type="string"><text:p>값 %d-%d</text:p></table:table-cell></table:table-row>`, s+1, r)
				}
				b.WriteString(`</table:table>`)
			}
			body := b.String() + `</office:spreadsheet></office:body></office:document-content>`
			cut := strings.LastIndex(body, `<table:table `) + 2000 // inside the last sheet
			return brokenZip(w, map[string][]byte{"mimetype": []byte("application/vnd.oasis.opendocument.spreadsheet")}, "content.xml", body, cut)
		}},
		{"xlsx: one sheet of n rows whose deflate data stops inflating halfway", "onesheet.xlsx", 500_000, func(w io.Writer, n int) error {
			var rows strings.Builder
			for r := range max(n, 2) {
				fmt.Fprintf(&rows, `<row><c t="inlineStr"><is><t>행 %d</t></is></c></row>`, r)
			}
			sheet := sheetXML(rows.String())
			return brokenZip(w, map[string][]byte{
				"xl/workbook.xml":            []byte(xlsxWorkbook(`<sheet name="시트" sheetId="1" r:id="rId1"/>`)),
				"xl/_rels/workbook.xml.rels": []byte(xlsxRels(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`)),
			}, "xl/worksheets/sheet1.xml", sheet, len(sheet)/2)
		}},
		{"xlsx: n sheets, xl/_rels/workbook.xml.rels missing", "norels.xlsx", 1000, func(w io.Writer, n int) error {
			parts := map[string][]byte{}
			var sheets strings.Builder
			for i := 1; i <= max(n, 1); i++ {
				fmt.Fprintf(&sheets, `<sheet name="시트%d" sheetId="%d" r:id="rId%d"/>`, i, i, i)
				parts[fmt.Sprintf("xl/worksheets/sheet%d.xml", i)] = []byte(sheetXML(xlsxRow(fmt.Sprintf(`<c t="inlineStr"><is><t>값 %d</t></is></c>`, i))))
			}
			parts["xl/workbook.xml"] = []byte(xlsxWorkbook(sheets.String()))
			return Zip(w, parts)
		}},
		{"epub: n chapters, the package document not XML", "garbageopf.epub", 1000, func(w io.Writer, n int) error {
			files := map[string][]byte{"META-INF/container.xml": []byte(`<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`),
				"OEBPS/content.opf": []byte("\x00\x01 not a package document \xff")}
			for i := range max(n, 1) {
				files[fmt.Sprintf("OEBPS/c%05d.xhtml", i)] = []byte(fmt.Sprintf("<html><body><p>장 %d</p></body></html>", i))
			}
			return Zip(w, files)
		}},
		{"hwp: one section of n paragraphs, then a record claiming 4 GB", "hugerecord.hwp", 100_000, func(w io.Writer, n int) error {
			var sec []byte
			for i := range max(n, 1) {
				sec = append(sec, hwptest.Para(0, 0, 0, hwptest.UTF16(fmt.Sprintf("문단 %d", i)))...)
			}
			sec = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(sec, hwptest.TagParaText|0xFFF<<20), 0xFFFFFFF0)
			_, err := w.Write(hwptest.File(hwptest.Compressed, nil, sec))
			return err
		}},
		{`hwpx: n sections named Contents\sectionN.xml (Windows' separator), no package document`, "backslashes.hwpx", 1000, func(w io.Writer, n int) error {
			parts := map[string][]byte{"mimetype": []byte("application/hwp+zip")}
			for i := range max(n, 1) {
				parts[fmt.Sprintf(`Contents\section%d.xml`, i)] = []byte(`<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p><hp:run><hp:t>` + fmt.Sprintf("구역 %d", i) + `</hp:t></hp:run></hp:p></hs:sec>`)
			}
			return Zip(w, parts)
		}},
		{"docx: relationships naming a main part the archive lacks, word/document.xml there", "stalemain.docx", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{
				"_rels/.rels":       []byte(xlsxRels(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document2.xml"/>`)),
				"word/document.xml": wordDoc(`<w:r><w:t>본문</w:t></w:r>`),
			})
		}},
	}
}

// brokenZip writes the parts, then the part name whose deflate data
// inflates body up to byte cut and then does not inflate.
func brokenZip(w io.Writer, parts map[string][]byte, name, body string, cut int) error {
	var d bytes.Buffer
	fw, _ := flate.NewWriter(&d, flate.BestSpeed)
	fw.Write([]byte(body[:cut]))
	fw.Flush()
	raw := append(d.Bytes(), 0xFF, 0xFF, 0xFF)
	zw := zip.NewWriter(w)
	for _, n := range slices.Sorted(maps.Keys(parts)) {
		if err := addPart(zw, n, parts[n]); err != nil {
			return err
		}
	}
	if err := rawPart(zw, name, []byte(body), raw); err != nil {
		return err
	}
	return zw.Close()
}
