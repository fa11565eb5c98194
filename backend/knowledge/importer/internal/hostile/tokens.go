package hostile

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// laughs is a DOCTYPE declaring the billion laughs, entities l0…ln each
// ten of the one before, for a root element named root.
func laughs(root string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0"?><!DOCTYPE %s [<!ENTITY l0 "ha">`, root)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<!ENTITY l%d "%s">`, i, strings.Repeat(fmt.Sprintf("&l%d;", i-1), 10))
	}
	b.WriteString(`]>`)
	return b.String()
}

const (
	odfText = `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>`
	hwpxSec = `<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph">`
)

// tokenClasses are XML tokens other than elements that a decoder builds
// whole (comments, DOCTYPEs, processing instructions, CDATA), entities in
// every XML format, names an archive should not hold, and text in an
// encoding a file does not announce.
func tokenClasses() []Class {
	big := func(open, unit, close string) func(w io.Writer, n int) error {
		return func(w io.Writer, n int) error {
			return zipStream(w, nil, "word/document.xml", `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>본문</w:t></w:r></w:p>`+open,
				unit, n, close+`<w:p><w:r><w:t>끝</w:t></w:r></w:p></w:body></w:document>`)
		}
	}
	mb := strings.Repeat("주석 ", 1<<20/7)
	return []Class{
		{"docx: a comment of n MB in the body", "comment.docx", 60, big("<!--", mb, "-->")},
		{"docx: a processing instruction of n MB in the body", "pi.docx", 60, big("<?x ", mb, "?>")},
		{"docx: a CDATA section of n MB in a run", "cdata.docx", 60, big("<w:p><w:r><w:t><![CDATA[", mb, "]]></w:t></w:r></w:p>")},
		{"docx: a DOCTYPE of n MB before the document", "doctype.docx", 60, func(w io.Writer, n int) error {
			return zipStream(w, nil, "word/document.xml", `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x "`, mb, n,
				`">]>`+string(wordDoc("<w:r><w:t>본문</w:t></w:r>")))
		}},
		{"docx: n runs nested, each declaring 65,000 namespaces (a tag under 1 MB)", "nsmany.docx", 60, func(w io.Writer, n int) error {
			var decl strings.Builder
			for i := range 65_000 {
				fmt.Fprintf(&decl, ` xmlns:n%d="u"`, i%1000)
			}
			return DOCX(w, strings.Repeat("<w:r"+decl.String()+">", n)+"<w:t>많다</w:t>"+strings.Repeat("</w:r>", n))
		}},
		{"xlsx: billion laughs in the shared strings", "laughs.xlsx", 10, func(w io.Writer, n int) error {
			return XLSX(w, xlsxRow(`<c t="s"><v>0</v></c><c t="inlineStr"><is><t>남은 값</t></is></c>`),
				map[string]string{"xl/sharedStrings.xml": laughs("sst", n) + fmt.Sprintf(`<sst><si><t>&l%d;</t></si></sst>`, n)})
		}},
		{"pptx: billion laughs in a slide", "laughs.pptx", 10, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"ppt/slides/slide1.xml": []byte(laughs("p:sld", n) + fmt.Sprintf(`<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>&l%d;</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`, n))})
		}},
		{"odt: billion laughs in content.xml", "laughs.odt", 10, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"mimetype": []byte("application/vnd.oasis.opendocument.text"), "content.xml": []byte(laughs("office:document-content", n) + odfText + fmt.Sprintf(`<text:p>&l%d;</text:p></office:text></office:body></office:document-content>`, n))})
		}},
		{"hwpx: billion laughs in a section", "laughs.hwpx", 10, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"mimetype": []byte("application/hwp+zip"), "Contents/section0.xml": []byte(laughs("hs:sec", n) + hwpxSec + fmt.Sprintf(`<hp:p><hp:run><hp:t>&l%d;</hp:t></hp:run></hp:p></hs:sec>`, n))})
		}},
		{"epub: billion laughs in the package document and a chapter, an external entity in an SVG chapter", "laughs.epub", 10, func(w io.Writer, n int) error {
			return EPUBRaw(w, laughs("package", n)+fmt.Sprintf(`<package><metadata><title>&l%d;</title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.svg" media-type="image/svg+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`, n),
				map[string][]byte{
					"OEBPS/c1.xhtml": []byte(laughs("html", n) + fmt.Sprintf(`<html><body><p>첫 장 &l%d;</p></body></html>`, n)),
					"OEBPS/c2.svg":   []byte(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>그림 &x;</text></svg>`),
				})
		}},
		{"docx: part names holding a NUL, a newline and an escape sequence", "badnames.docx", 1, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{"word/document.xml\x00.png": []byte("x"), "a\nb\x1b[31m": []byte("x"), "word/document.xml": wordDoc("<w:r><w:t>본문</w:t></w:r>")})
		}},
		{"jsonl: a record of one line of n MB between two small ones", "line.jsonl", 50, func(w io.Writer, n int) error {
			return repeat(w, "{\"id\":\"a\",\"text\":\"첫 기록\"}\n{\"id\":\"b\",\"text\":\"", strings.Repeat("긴줄 ", (1<<20)/7)+"    ", n, "\"}\n{\"id\":\"c\",\"text\":\"끝 기록\"}\n")
		}},
		{"json: a record whose text is an array of n zeros", "zeros.json", 15_000_000, func(w io.Writer, n int) error {
			return repeat(w, `{"text":"본문","v":[0`, ",0", n-1, "]}")
		}},
		{"json: a record whose text is an array of n objects of one key", "objects.json", 1_500_000, func(w io.Writer, n int) error {
			return repeat(w, `{"text":"본문","v":[{"a":0}`, `,{"a":0}`, n-1, "]}")
		}},
		{"jsonl: a record of n numbers under a path of a thousand keys of a thousand letters, between two small ones", "longpath.jsonl", 300_000, func(w io.Writer, n int) error {
			return underLongPath(w, "0", n)
		}},
		{"jsonl: a record of n one-key objects under a path of a thousand keys of a thousand letters, between two small ones", "longobjs.jsonl", 300_000, func(w io.Writer, n int) error {
			return underLongPath(w, `{"a":0}`, n)
		}},
		{"jsonl: a record of n empty arrays between two small ones", "empties.jsonl", 10_000_000, func(w io.Writer, n int) error {
			return repeat(w, "{\"text\":\"첫 기록\"}\n{\"v\":[[]", ",[]", n-1, "]}\n{\"text\":\"끝 기록\"}\n")
		}},
		{"tsv: one row of n columns, then a value", "columns.tsv", 1_000_000, func(w io.Writer, n int) error {
			return repeat(w, "", "\t", n, "값\n둘째\t줄\n")
		}},
		{"txt: UTF-16LE without a BOM, n lines of Hangul", "hangul16le.txt", 100_000, func(w io.Writer, n int) error {
			return hangul16(w, n, false)
		}},
		{"txt: UTF-16BE without a BOM, n lines of Hangul", "hangul16be.txt", 100_000, func(w io.Writer, n int) error {
			return hangul16(w, n, true)
		}},
		{"epub: n chapters listed after 10,000 pictures, the package document past a megabyte", "bigopf.epub", 1000, BigPackage},
		{"epub: two chapters, the second n KB of random bytes", "binchapter.epub", 5000, func(w io.Writer, n int) error {
			junk := make([]byte, n<<10)
			_, _ = rand.NewChaCha8([32]byte{1}).Read(junk)
			return EPUBRaw(w, `<package><metadata><title>책</title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`,
				map[string][]byte{"OEBPS/c1.xhtml": []byte(`<html><body><p>첫 장의 글</p></body></html>`), "OEBPS/c2.xhtml": junk})
		}},
		{"rtf: a body of n KB of random bytes, without braces or backslashes", "junkbody.rtf", 3000, func(w io.Writer, n int) error {
			junk := make([]byte, n<<10)
			_, _ = rand.NewChaCha8([32]byte{2}).Read(junk)
			for i, c := range junk {
				if c == '{' || c == '}' || c == '\\' {
					junk[i] = ' '
				}
			}
			return repeat(w, `{\rtf1 `+string(junk), "", 0, "}")
		}},
		{"pptx: one slide of n MB of text in one run", "bigslide.pptx", 60, func(w io.Writer, n int) error {
			return zipStream(w, nil, "ppt/slides/slide1.xml", `<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>`,
				strings.Repeat("슬라이드 글 ", (1<<20)/17), n, `</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`)
		}},
		{"hwpx: a numbering whose level's text is n MB, before 1,000 paragraphs", "longlabel.hwpx", 9, func(w io.Writer, n int) error {
			return Zip(w, map[string][]byte{
				"mimetype": []byte("application/hwp+zip"),
				"Contents/header.xml": []byte(`<hh:head xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"><hh:refList><hh:numberings itemCnt="1"><hh:numbering id="1" start="0"><hh:paraHead start="1" level="1" numFormat="DIGIT">제^1` +
					strings.Repeat("가", n<<20/3) + `</hh:paraHead></hh:numbering></hh:numberings><hh:paraProperties><hh:paraPr id="1"><hh:heading type="NUMBER" idRef="1" level="0"/></hh:paraPr></hh:paraProperties></hh:refList></hh:head>`),
				"Contents/section0.xml": []byte(hwpxSec + strings.Repeat(`<hp:p paraPrIDRef="1"><hp:run><hp:t>조문</hp:t></hp:run></hp:p>`, 1000) + `</hs:sec>`),
			})
		}},
		{"html: n MB of one comment never closed", "comment.html", 100, func(w io.Writer, n int) error {
			return repeat(w, "<html><body><p>앞 글</p><!--", strings.Repeat("주석 ", 1<<18)[:1<<20], n, "")
		}},
		{"html: n MB of one attribute value", "attr.html", 100, func(w io.Writer, n int) error {
			return repeat(w, `<html><body><p>앞 글</p><a href="`, strings.Repeat("a", 1<<20), n, `">뒤</a></body></html>`)
		}},
	}
}

// hangul16 is n lines of Korean in UTF-16 without a byte-order mark.
func hangul16(w io.Writer, n int, bigEndian bool) error {
	bw := bufio.NewWriter(w)
	for i := range n {
		bw.Write(utf16Bytes(fmt.Sprintf("%d번째 줄: 한국어 문장을 적었습니다.\n", i), bigEndian))
	}
	return bw.Flush()
}

// BigPackage is a book of n chapters whose package document lists 10,000
// pictures before them, as calibre sorts its manifest (images/ before
// text/): past a megabyte, with the spine after it. The archive keeps the
// chapters in the reverse of the spine's order, so a reader that finds
// them there rather than in the spine reads them backwards.
func BigPackage(w io.Writer, n int) error {
	var opf strings.Builder
	opf.WriteString(`<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">큰 책</dc:title></metadata><manifest>`)
	for i := range 10_000 {
		fmt.Fprintf(&opf, `<item id="img%05d" href="images/figure-%05d.png" media-type="image/png"/>`+"\n", i, i)
	}
	files := map[string][]byte{}
	for i := range n {
		fmt.Fprintf(&opf, `<item id="ch%05d" href="text/chapter-%05d.xhtml" media-type="application/xhtml+xml"/>`+"\n", i, n-1-i)
		files[fmt.Sprintf("OEBPS/text/chapter-%05d.xhtml", n-1-i)] = []byte(fmt.Sprintf(`<html><body><h1>%d장</h1><p>%d번째 장의 글.</p></body></html>`, i+1, i+1))
	}
	opf.WriteString(`</manifest><spine>`)
	for i := range n {
		fmt.Fprintf(&opf, `<itemref idref="ch%05d"/>`, i)
	}
	opf.WriteString(`</spine></package>`)
	return EPUBRaw(w, opf.String(), files)
}

// underLongPath writes a JSON Lines file whose middle record holds an
// array of n copies of value under a path of a thousand keys of a
// thousand letters, between two small records.
func underLongPath(w io.Writer, value string, n int) error {
	key := strings.Repeat("k", 1000)
	var b strings.Builder
	b.WriteString("{\"text\":\"첫 기록\"}\n{")
	for i := range 999 {
		fmt.Fprintf(&b, `"%s%d":{`, key, i)
	}
	b.WriteString(`"` + key + `":[` + value + strings.Repeat(","+value, n-1) + "]" + strings.Repeat("}", 999) + "}\n{\"text\":\"끝 기록\"}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
