package hostile

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
)

// moreClasses are attacks on what a format's structure lets a file say
// about itself: its directory's entries overlapping on one part, its
// index naming itself, text whose encoding breaks in places, one field
// without end.
func moreClasses() []Class {
	return []Class{
		{"xlsx: n sheets whose directory entries all point at one part of 1 MB of text (overlapping entries)", "overlap.xlsx", 10_000, func(w io.Writer, n int) error {
			return Overlapping(w, n)
		}},
		{"docx: n tiny parts, an honest directory", "parts.docx", 100_000, func(w io.Writer, n int) error {
			parts := map[string][]byte{"word/document.xml": wordDoc(`<w:r><w:t>본문</w:t></w:r>`)}
			for i := range n {
				parts[fmt.Sprintf("x/%d", i)] = []byte("x")
			}
			return Zip(w, parts)
		}},
		{"epub: container.xml names itself as the package document", "selfroot.epub", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{
				"mimetype":               []byte("application/epub+zip"),
				"META-INF/container.xml": []byte(`<container><rootfiles><rootfile full-path="META-INF/container.xml"/></rootfiles></container>`),
				"OEBPS/c1.xhtml":         []byte(`<html><body><p>첫 장</p></body></html>`),
			})
		}},
		{"epub: a spine whose chapters are the package document and container.xml", "selfspine.epub", 1, func(w io.Writer, n int) error {
			return EPUBRaw(w, `<package><manifest><item id="a" href="content.opf" media-type="application/xhtml+xml"/><item id="b" href="../META-INF/container.xml" media-type="application/xhtml+xml"/><item id="c" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/><itemref idref="b"/><itemref idref="c"/><itemref idref="a"/></spine></package>`,
				map[string][]byte{"OEBPS/c1.xhtml": []byte(`<html><body><p>첫 장</p></body></html>`)})
		}},
		{"txt: UTF-16LE, n lines, a lone surrogate in every hundredth", "surrogates.txt", 1_000_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			bw.Write([]byte{0xFF, 0xFE})
			for i := range n {
				u := utf16.Encode([]rune(fmt.Sprintf("%d번째 줄의 글 abc\n", i)))
				if i%100 == 7 {
					u = append([]uint16{0xD800 + uint16(i%0x800)}, u...) // high or low, never paired
				}
				for _, c := range u {
					bw.Write([]byte{byte(c), byte(c >> 8)})
				}
			}
			return bw.Flush()
		}},
		{"ods: one table written n times under its name, then another", "loop.ods", 200_000, func(w io.Writer, n int) error {
			const table = `<table:table table:name="표"><table:table-row><table:table-cell><text:p>되풀이된 표</text:p></table:table-cell></table:table-row></table:table>`
			return zipStream(w, map[string]string{"mimetype": "application/vnd.oasis.opendocument.spreadsheet"}, "content.xml",
				`<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>`,
				table, n, `<table:table table:name="끝"><table:table-row><table:table-cell><text:p>마지막 표</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`)
		}},
		{"csv: a header, then one unquoted field of n MB", "field.csv", 100, func(w io.Writer, n int) error {
			return repeat(w, "이름,내용\n가,", strings.Repeat("글자", 1<<18), n, "\n")
		}},
	}
}

// Overlapping is a workbook of n sheets whose directory entries all
// point at one local header: one part of a megabyte of text, deflated to
// a few kilobytes, read n times over (a "better zip bomb": 10,000
// sheets, 10 GB, from a file of 1 MB).
func Overlapping(w io.Writer, n int) error {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	var rels, sheets strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sheets, `<sheet name="%d" sheetId="%d" r:id="rId%d"/>`, i, i, i)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i, i)
	}
	f, err := zw.CreateHeader(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate})
	if err != nil {
		return err
	}
	f.Write([]byte(`<worksheet><sheetData><row><c t="inlineStr"><is><t>`))
	f.Write(bytes.Repeat([]byte("a"), 1<<20))
	f.Write([]byte(`</t></is></c></row></sheetData></worksheet>`))
	for _, p := range [][2]string{
		{"xl/workbook.xml", `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` + sheets.String() + `</sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<Relationships>` + rels.String() + `</Relationships>`},
	} {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: p[0], Method: zip.Deflate})
		if err != nil {
			return err
		}
		f.Write([]byte(p[1]))
	}
	if err := zw.Close(); err != nil {
		return err
	}
	d := b.Bytes()
	le := binary.LittleEndian
	dir := bytes.Index(d, []byte("PK\x01\x02"))
	end := bytes.LastIndex(d, []byte("PK\x05\x06"))
	first := d[dir:] // the bomb's entry: sheet1, at offset 0
	var out bytes.Buffer
	out.Write(d[:end]) // the parts and the directory as written
	count := int(le.Uint16(d[end+10:]))
	for i := 2; i <= n; i++ { // sheet2…n: the bomb's entry again, renamed
		e := bytes.Clone(first[:46])
		name := fmt.Sprintf("xl/worksheets/sheet%d.xml", i)
		le.PutUint16(e[28:], uint16(len(name)))
		le.PutUint16(e[30:], 0)
		le.PutUint16(e[32:], 0)
		out.Write(e)
		out.WriteString(name)
		count++
	}
	eocd := bytes.Clone(d[end : end+22])
	le.PutUint16(eocd[8:], uint16(count))
	le.PutUint16(eocd[10:], uint16(count))
	le.PutUint32(eocd[12:], uint32(out.Len()-dir))
	out.Write(eocd)
	_, err = w.Write(out.Bytes())
	return err
}
