// Package hostile writes hostile and broken files of every format the
// importer reads, one class of attack at a time, for the importer's
// regression tests and for trying the real command line by hand
// (cmd/hostilegen writes them all to a folder at full size).
//
// Each generator takes a scale, so a test builds a small file of the same
// shape in its t.TempDir() and the hand run builds the large one: nothing
// big is committed.
package hostile

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode/utf16"
)

// Class is one kind of hostile file: Name says what it tries, File is the
// name it is written under (its extension picks the importer), Write
// writes it at scale n (what n counts is the class's own: levels, lines,
// megabytes, entries).
type Class struct {
	Name  string
	File  string
	Full  int // the scale of the hand run
	Write func(w io.Writer, n int) error
}

// Classes lists every class.
func Classes() []Class {
	return append([]Class{
		{"docx: elements nested n deep", "deep.docx", 100_000, func(w io.Writer, n int) error {
			return DOCX(w, nested("w:r", n, "깊다"))
		}},
		{"hwpx: elements nested n deep", "deep.hwpx", 100_000, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"mimetype": []byte("application/hwp+zip"), "Contents/section0.xml": []byte(`<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p>` + nested("hp:run", n, "깊다") + `</hp:p></hs:sec>`)})
		}},
		{"odt: elements nested n deep", "deep.odt", 100_000, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"mimetype": []byte("application/vnd.oasis.opendocument.text"), "content.xml": []byte(`<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>` + nested("text:span", n, "깊다") + `</office:text></office:body></office:document-content>`)})
		}},
		{"epub: elements nested n deep", "deep.epub", 100_000, func(w io.Writer, n int) error {
			return EPUB(w, []string{"c1"}, map[string]string{"c1": "<html><body>" + strings.Repeat("<div>", n) + "깊다</body></html>"})
		}},
		{"docx: billion laughs (entities declared in a DOCTYPE)", "laughs.docx", 10, func(w io.Writer, n int) error {
			var b strings.Builder
			b.WriteString(`<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY l0 "ha">`)
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&b, `<!ENTITY l%d "%s">`, i, strings.Repeat(fmt.Sprintf("&l%d;", i-1), 10))
			}
			fmt.Fprintf(&b, `]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&l%d;</w:t></w:r></w:p></w:body></w:document>`, n)
			return Zip(w, map[string][]byte{"word/document.xml": []byte(b.String())})
		}},
		{"docx: one element of n attributes", "attrs.docx", 10_000_000, func(w io.Writer, n int) error {
			return DOCX(w, `<w:r><w:t`+strings.Repeat(` a=""`, n)+`>많다</w:t></w:r>`)
		}},
		{"docx: one element of n namespace declarations", "xmlns.docx", 5_000_000, func(w io.Writer, n int) error {
			var b strings.Builder
			b.WriteString(`<w:r><w:t`)
			for i := range n {
				fmt.Fprintf(&b, ` xmlns:n%d="u"`, i%1000)
			}
			return DOCX(w, b.String()+`>많다</w:t></w:r>`)
		}},
		{"docx: external entity (file:///etc/passwd)", "xxe.docx", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"word/document.xml": []byte(`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>비밀 &x;</w:t></w:r></w:p></w:body></w:document>`)})
		}},
		{"docx: n tiny parts (EOCD lies: count mod 65536, tiny directory size)", "lying-directory.docx", 4_000_000, func(w io.Writer, n int) error {
			return LyingDirectory(w, n, false)
		}},
		{"docx: n tiny parts behind a zip64 record that says 1", "lying-zip64.docx", 4_000_000, func(w io.Writer, n int) error {
			return LyingDirectory(w, n, true)
		}},
		{"docx: n duplicate document.xml parts", "duplicates.docx", 10_000, func(w io.Writer, n int) error {
			zw := zip.NewWriter(w)
			for i := range n {
				f, err := zw.CreateHeader(&zip.FileHeader{Name: "word/document.xml", Method: zip.Store})
				if err != nil {
					return err
				}
				fmt.Fprintf(f, `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>판 %d</w:t></w:r></w:p></w:body></w:document>`, i)
			}
			return zw.Close()
		}},
		{"docx: parts named ../../x and /etc/x", "traversal.docx", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"../../../../tmp/wf-escaped": []byte("x"), "/tmp/wf-escaped-abs": []byte("x"), "word/document.xml": wordDoc("<w:r><w:t>본문</w:t></w:r>")})
		}},
		{"docx: the document part is itself a zip (nested)", "nested.docx", 1, func(w io.Writer, n int) error {
			var inner bytes.Buffer
			if err := DOCX(&inner, "안쪽"); err != nil {
				return err
			}
			return Zip(w, map[string][]byte{"word/document.xml": inner.Bytes()})
		}},
		{"docx: really an .xlsx", "sheet.docx", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"[Content_Types].xml": []byte(`<Types/>`), "xl/workbook.xml": []byte(`<workbook/>`), "xl/worksheets/sheet1.xml": []byte(`<worksheet/>`)})
		}},
		{"docx: really a .jar", "app.docx", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"META-INF/MANIFEST.MF": []byte("Manifest-Version: 1.0\n"), "Main.class": {0xCA, 0xFE, 0xBA, 0xBE}})
		}},
		{"docx: zip64 with a directory past 4 GB (lie)", "zip64.docx", 1, func(w io.Writer, n int) error {
			return Zip64Lie(w)
		}},
		{"epub: spine lists one chapter n times", "loop.epub", 200_000, func(w io.Writer, n int) error {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = "c1"
			}
			return EPUB(w, ids, map[string]string{"c1": "<html><body><p>" + strings.Repeat("되풀이 ", 100) + "</p></body></html>"})
		}},
		{"epub: spine points outside the book", "outside.epub", 1, func(w io.Writer, n int) error {
			return EPUBRaw(w, `<package><metadata><title>밖</title></metadata><manifest><item id="a" href="../../../../etc/passwd" media-type="application/xhtml+xml"/><item id="b" href="/etc/passwd" media-type="application/xhtml+xml"/><item id="c" href="OEBPS/content.opf" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/><itemref idref="b"/><itemref idref="c"/><itemref idref="zz"/></spine></package>`, nil)
		}},
		{"pptx: presentation lists one slide n times", "loop.pptx", 200_000, func(w io.Writer, n int) error {
			var ids strings.Builder
			for i := range n {
				fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId1"/>`, 256+i)
			}
			return Zip(w, map[string][]byte{
				"ppt/presentation.xml":            []byte(`<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>` + ids.String() + `</p:sldIdLst></p:presentation>`),
				"ppt/_rels/presentation.xml.rels": []byte(`<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>`),
				"ppt/slides/slide1.xml":           []byte(`<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>` + strings.Repeat("슬라이드 ", 1000) + `</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`),
			})
		}},
		{"pptx: a slide nested n deep", "deep.pptx", 100_000, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"ppt/slides/slide1.xml": []byte(`<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree>` + nested("p:grpSp", n, `<p:sp><p:txBody><a:p><a:r><a:t>깊다</a:t></a:r></a:p></p:txBody></p:sp>`) + `</p:spTree></p:cSld></p:sld>`)})
		}},
		{"hwpx: spine lists one section n times", "loop.hwpx", 200_000, func(w io.Writer, n int) error {
			var spine strings.Builder
			for range n {
				spine.WriteString(`<opf:itemref idref="s0"/>`)
			}
			return Zip(w, map[string][]byte{
				"mimetype":              []byte("application/hwp+zip"),
				"Contents/content.hpf":  []byte(`<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest><opf:item id="s0" href="Contents/section0.xml" media-type="application/xml"/></opf:manifest><opf:spine>` + spine.String() + `</opf:spine></opf:package>`),
				"Contents/section0.xml": []byte(`<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p><hp:run><hp:t>` + strings.Repeat("구역 ", 2000) + `</hp:t></hp:run></hp:p></hs:sec>`),
			})
		}},
		{"odp: one slide written n times under its name, then another", "loop.odp", 200_000, func(w io.Writer, n int) error {
			const page = `<draw:page draw:name="page1"><draw:frame presentation:class="title"><draw:text-box><text:p>되풀이된 슬라이드</text:p></draw:text-box></draw:frame></draw:page>`
			return zipStream(w, map[string]string{"mimetype": "application/vnd.oasis.opendocument.presentation"}, "content.xml",
				`<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:presentation>`,
				page, n, `<draw:page draw:name="page2"><draw:frame><draw:text-box><text:p>마지막 슬라이드</text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document-content>`)
		}},
		{"html: n nested tags", "nested.html", 1_000_000, func(w io.Writer, n int) error {
			return repeat(w, "<html><body>", "<div><span>", n, "깊다")
		}},
		{"html: one line of n MB, no tags", "line.html", 100, func(w io.Writer, n int) error {
			return repeat(w, "<html><body><p>", strings.Repeat("한줄 ", 1<<18)[:1<<20], n, "")
		}},
		{"json: nested n deep", "deep.json", 1_000_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			bw.WriteString(strings.Repeat("[", n))
			bw.WriteString(strings.Repeat("]", n))
			return bw.Flush()
		}},
		{"json: one string of n MB", "string.json", 200, func(w io.Writer, n int) error {
			return repeat(w, `{"text":"`, strings.Repeat("a", 1<<20), n, `"}`)
		}},
		{"jsonl: n tiny records", "tiny.jsonl", 10_000_000, func(w io.Writer, n int) error {
			return repeat(w, "", "{\"t\":\"a\"}\n", n, "")
		}},
		{"text: n MB on one line, no newline", "line.txt", 100, func(w io.Writer, n int) error {
			return repeat(w, "", strings.Repeat("가나다라 ", 1<<17)[:1<<20-1]+" ", n, "")
		}},
		{"text: UTF-8 then EUC-KR then UTF-16 (mixed encodings)", "mixed.txt", 1000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			for range n {
				bw.WriteString("한국어 문장입니다.\n")
			}
			for range n {
				bw.Write([]byte{0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE, '\n'}) // 한국어 in EUC-KR
			}
			for range n {
				bw.Write([]byte{0x5C, 0xD5, 0x6D, 0xAD, '\n', 0})
			}
			return bw.Flush()
		}},
		{"text: UTF-16LE (BOM) with n lines of an ASCII log appended", "appended.log", 1_000_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			bw.Write([]byte{0xFF, 0xFE})
			for range 100 {
				bw.Write(utf16LE("서비스 시작\n"))
			}
			for i := range n {
				fmt.Fprintf(bw, "2026-11-27 12:00:%02d appended by a UTF-8 tool, line %d\n", i%60, i)
			}
			return bw.Flush()
		}},
		{"text: an ASCII header, then n lines of UTF-16BE without a BOM", "header.txt", 1_000_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			bw.WriteString("Exported: 2026-11-27\n")
			for i := range n {
				bw.Write(utf16BE(fmt.Sprintf("홍길동 %d,총무\n", i)))
			}
			return bw.Flush()
		}},
		{"markdown: n headings and nothing else", "headings.md", 1_000_000, func(w io.Writer, n int) error {
			bw := bufio.NewWriter(w)
			for i := range n {
				fmt.Fprintf(bw, "%s 회의록 %d\n", strings.Repeat("#", 1+i%6), i)
			}
			return bw.Flush()
		}},
		{"hwp: section stream of 1 TB on a sector chain that loops", "loop.hwp", 1, func(w io.Writer, n int) error {
			_, err := w.Write(HWPLoop(false))
			return err
		}},
		{"hwp: directory chain that loops", "dirloop.hwp", 1, func(w io.Writer, n int) error {
			_, err := w.Write(HWPLoop(true))
			return err
		}},
		{"hwp: sector chain pointing past the end", "past.hwp", 1, func(w io.Writer, n int) error {
			_, err := w.Write(HWPPastEnd())
			return err
		}},
		{"pdf: n pages in a page tree nested n/10 deep", "deeptree.pdf", 100_000, func(w io.Writer, n int) error { return PDFDeepTree(w, n) }},
		{"pdf: n pages", "pages.pdf", 100_000, func(w io.Writer, n int) error { return PDFPages(w, n) }},
		{"pdf: page tree that loops", "treeloop.pdf", 1, func(w io.Writer, n int) error { return PDFTreeLoop(w) }},
		{"pdf: xref chain that loops (Prev to itself)", "xrefloop.pdf", 1, func(w io.Writer, n int) error { return PDFXrefLoop(w) }},
		{"pdf: one page of n glyphs", "glyphs.pdf", 1_000_000, func(w io.Writer, n int) error { return PDFGlyphs(w, n) }},
	}, append(append(append(append(sheetClasses(), partClasses()...), brokenClasses()...), salvageClasses()...), append(append(moreClasses(), tokenClasses()...), append(pdfClasses(), pdfBudgetClasses()...)...)...)...)
}

// utf16LE and utf16BE are s in UTF-16 without a byte-order mark.
func utf16LE(s string) []byte { return utf16Bytes(s, false) }
func utf16BE(s string) []byte { return utf16Bytes(s, true) }

func utf16Bytes(s string, bigEndian bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// nested is n elements el inside each other around text, in a Word run.
func nested(el string, n int, text string) string {
	var b strings.Builder
	for range n {
		b.WriteString("<" + el + ">")
	}
	b.WriteString(text)
	for range n {
		b.WriteString("</" + el + ">")
	}
	return b.String()
}

func repeat(w io.Writer, head, unit string, n int, tail string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(head)
	for range n {
		bw.WriteString(unit)
	}
	bw.WriteString(tail)
	return bw.Flush()
}

func wordDoc(body string) []byte {
	return []byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>` + body + `</w:p></w:body></w:document>`)
}

// DOCX is a Word file whose one paragraph is body (raw XML, or text).
func DOCX(w io.Writer, body string) error {
	if !strings.HasPrefix(body, "<") {
		body = "<w:r><w:t>" + body + "</w:t></w:r>"
	}
	return Zip(w, map[string][]byte{"word/document.xml": wordDoc(body)})
}

// Zip is an archive of parts, deflated, in name order.
func Zip(w io.Writer, parts map[string][]byte) error {
	zw := zip.NewWriter(w)
	for _, name := range slices.Sorted(maps.Keys(parts)) {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			return err
		}
		if _, err := f.Write(parts[name]); err != nil {
			return err
		}
	}
	return zw.Close()
}

// EPUB is a book whose spine lists ids, each chapter chapters[id].
func EPUB(w io.Writer, spine []string, chapters map[string]string) error {
	var opf strings.Builder
	opf.WriteString(`<package><metadata><title>책</title></metadata><manifest>`)
	for id := range chapters {
		fmt.Fprintf(&opf, `<item id="%s" href="%s.xhtml" media-type="application/xhtml+xml"/>`, id, id)
	}
	opf.WriteString(`</manifest><spine>`)
	for _, id := range spine {
		fmt.Fprintf(&opf, `<itemref idref="%s"/>`, id)
	}
	opf.WriteString(`</spine></package>`)
	files := map[string][]byte{}
	for id, c := range chapters {
		files["OEBPS/"+id+".xhtml"] = []byte(c)
	}
	return EPUBRaw(w, opf.String(), files)
}

// EPUBRaw is a book of the package document opf and files.
func EPUBRaw(w io.Writer, opf string, files map[string][]byte) error {
	parts := map[string][]byte{
		"mimetype":               []byte("application/epub+zip"),
		"META-INF/container.xml": []byte(`<container><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`),
		"OEBPS/content.opf":      []byte(opf),
	}
	for k, v := range files {
		parts[k] = v
	}
	return Zip(w, parts)
}

// LyingDirectory is a Word file of one real part followed, in its central
// directory, by n more entries of one-byte names, whose end-of-directory
// record gives the count modulo 65,536 and a directory size of one entry:
// archive/zip compares only the low 16 bits of the count and reads the
// directory to the end of the file, so a limit that believes the record
// lets millions of entries through. With zip64, the record sends the
// reader to a zip64 record that says there is one entry.
func LyingDirectory(w io.Writer, n int, zip64 bool) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	le := binary.LittleEndian
	doc := wordDoc("<w:r><w:t>거짓 목록</w:t></w:r>")
	name := "word/document.xml"
	// local header, stored
	lh := make([]byte, 30)
	le.PutUint32(lh, 0x04034b50)
	le.PutUint16(lh[4:], 20)
	le.PutUint32(lh[14:], crc(doc))
	le.PutUint32(lh[18:], uint32(len(doc)))
	le.PutUint32(lh[22:], uint32(len(doc)))
	le.PutUint16(lh[26:], uint16(len(name)))
	bw.Write(lh)
	bw.WriteString(name)
	bw.Write(doc)
	dirOff := 30 + len(name) + len(doc)
	central := func(name string, size int) []byte {
		h := make([]byte, 46)
		le.PutUint32(h, 0x02014b50)
		le.PutUint16(h[4:], 20)
		le.PutUint16(h[6:], 20)
		le.PutUint32(h[16:], crc(doc))
		le.PutUint32(h[20:], uint32(size))
		le.PutUint32(h[24:], uint32(size))
		le.PutUint16(h[28:], uint16(len(name)))
		return append(h, name...)
	}
	first := central(name, len(doc))
	bw.Write(first)
	tiny := central("x", 0)
	for range n {
		bw.Write(tiny)
	}
	eocd := make([]byte, 22)
	le.PutUint32(eocd, 0x06054b50)
	le.PutUint16(eocd[8:], uint16(n+1))
	le.PutUint16(eocd[10:], uint16(n+1))
	le.PutUint32(eocd[12:], uint32(len(first)))
	le.PutUint32(eocd[16:], uint32(dirOff))
	if zip64 {
		end := dirOff + len(first) + n*len(tiny)
		z64 := make([]byte, 56)
		le.PutUint32(z64, 0x06064b50)
		le.PutUint64(z64[4:], 44)
		le.PutUint16(z64[12:], 45)
		le.PutUint16(z64[14:], 45)
		le.PutUint64(z64[24:], 1)
		le.PutUint64(z64[32:], 1)
		le.PutUint64(z64[40:], uint64(len(first)))
		le.PutUint64(z64[48:], uint64(dirOff))
		loc := make([]byte, 20)
		le.PutUint32(loc, 0x07064b50)
		le.PutUint64(loc[8:], uint64(end))
		le.PutUint32(loc[16:], 1)
		bw.Write(z64)
		bw.Write(loc)
		le.PutUint32(eocd[16:], 0xFFFFFFFF)
	}
	bw.Write(eocd)
	return bw.Flush()
}

// Zip64Lie is a Word file whose end-of-directory record sends the reader
// to a zip64 record that claims 2^40 entries at an offset past the end.
func Zip64Lie(w io.Writer) error {
	var b bytes.Buffer
	if err := DOCX(&b, "짚64"); err != nil {
		return err
	}
	data := b.Bytes()
	i := bytes.LastIndex(data, []byte("PK\x05\x06"))
	le := binary.LittleEndian
	z64 := make([]byte, 56)
	le.PutUint32(z64, 0x06064b50)
	le.PutUint64(z64[4:], 44)
	le.PutUint16(z64[12:], 45)
	le.PutUint16(z64[14:], 45)
	le.PutUint64(z64[24:], 1<<40)
	le.PutUint64(z64[32:], 1<<40)
	le.PutUint64(z64[40:], 1<<20)
	le.PutUint64(z64[48:], uint64(le.Uint32(data[i+16:])))
	loc := make([]byte, 20)
	le.PutUint32(loc, 0x07064b50)
	le.PutUint64(loc[8:], uint64(i))
	le.PutUint32(loc[16:], 1)
	eocd := bytes.Clone(data[i : i+22])
	le.PutUint16(eocd[8:], 0xFFFF)
	le.PutUint16(eocd[10:], 0xFFFF)
	le.PutUint32(eocd[16:], 0xFFFFFFFF)
	out := append(append(append(bytes.Clone(data[:i]), z64...), loc...), eocd...)
	_, err := w.Write(out)
	return err
}

// WriteFile writes class c at scale n to path.
func WriteFile(path string, c Class, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Write(f, n); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
