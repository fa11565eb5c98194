package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// part is one file of a ZIP archive made by a test.
type part struct{ name, body string }

func zipOf(t testing.TB, parts ...part) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, p := range parts {
		w, err := z.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, p.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

// docxOf is a Word file of body, with styles.xml when styles is set and
// any extra parts (numbering.xml).
func docxOf(t testing.TB, body string, styles string, extra ...part) []byte {
	t.Helper()
	parts := []part{
		{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		{"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`},
	}
	if styles != "" {
		parts = append(parts, part{"word/styles.xml", `<?xml version="1.0"?><w:styles ` + wordNS + `>` + styles + `</w:styles>`})
	}
	return zipOf(t, append(parts, extra...)...)
}

// p is a Word paragraph of one run, in the paragraph style style ("": none).
func p(style, text string) string {
	pr := ""
	if style != "" {
		pr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + pr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

const hwpxNS = `xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"`

// hwpxStyles are the paragraph styles of hwpxOf's header.
const hwpxStyles = `<hh:styles><hh:style id="0" type="PARA" name="바탕글" engName="Normal"/><hh:style id="2" type="PARA" name="개요 1" engName="Outline 1"/>` +
	`<hh:style id="3" type="PARA" name="개요 2" engName="Outline 2"/></hh:styles>`

func hwpxOf(t testing.TB, sections ...string) []byte {
	t.Helper()
	return hwpxWith(t, hwpxStyles, sections...)
}

// hwpxWith is an HWPX file of sections whose header's refList holds refs
// (styles, numberings, paragraph shapes).
func hwpxWith(t testing.TB, refs string, sections ...string) []byte {
	t.Helper()
	// The archive holds the sections last first: reading order is the
	// spine's, not the archive's.
	items, spineRefs := "", ""
	parts := []part{
		{"mimetype", "application/hwp+zip"},
		{"Contents/header.xml", `<?xml version="1.0"?><hh:head xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"><hh:refList>` + refs + `</hh:refList></hh:head>`},
	}
	for i := len(sections) - 1; i >= 0; i-- {
		name := "section" + string(rune('0'+i)) + ".xml"
		items += `<opf:item id="s` + string(rune('0'+i)) + `" href="Contents/` + name + `" media-type="application/xml"/>`
		spineRefs = `<opf:itemref idref="s` + string(rune('0'+i)) + `" linear="yes"/>` + spineRefs
		parts = append(parts, part{"Contents/" + name, `<?xml version="1.0"?><hs:sec ` + hwpxNS + `>` + sections[i] + `</hs:sec>`})
	}
	parts = append(parts, part{"Contents/content.hpf", `<?xml version="1.0"?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest>` +
		`<opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>` + items + `</opf:manifest><opf:spine>` +
		`<opf:itemref idref="header" linear="yes"/>` + spineRefs + `</opf:spine></opf:package>`})
	return zipOf(t, parts...)
}

func hp(style, inner string) string {
	return `<hp:p id="0" paraPrIDRef="0" styleIDRef="` + style + `"><hp:run charPrIDRef="0">` + inner + `</hp:run></hp:p>`
}

const odtNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`

func odtOf(t testing.TB, body string) []byte {
	t.Helper()
	return zipOf(t, part{"mimetype", "application/vnd.oasis.opendocument.text"},
		part{"content.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odtNS + `><office:body><office:text>` + body + `</office:text></office:body></office:document-content>`})
}

// The body of each format comes out in reading order as Markdown: its
// headings (from the paragraph's style, Korean Word's numbered style ids
// and HWPX's 개요 styles included) as "#" lines, paragraphs as blocks, a
// table row on a line with its cells between " | "; what is not body
// text (deleted text, field codes, comments, the fallback copy of a
// drawing) is left out, and the first heading names the document.
func TestOfficeText(t *testing.T) {
	koreanStyles := `<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="2"><w:name w:val="heading 2"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="a3"><w:name w:val="List Paragraph"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="10"><w:name w:val="toc 1"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="ab"><w:name w:val="제목 없음"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>`
	tests := []struct {
		name, file string
		data       []byte
		title      string
		want       string
	}{
		{"word, Korean style ids", "규정.docx", docxOf(t,
			p("1", "제1장 총칙")+p("2", "제1조(목적)")+
				`<w:p><w:r><w:t>이 규정은 </w:t></w:r><w:del><w:r><w:delText>삭제된 말</w:delText></w:r></w:del><w:ins><w:r><w:t>1980년 6월 16일부터</w:t></w:r></w:ins><w:r><w:t xml:space="preserve"> 시행한다.</w:t></w:r></w:p>`+
				p("a3", "목록의 한 줄")+p("10", "목차 항목")+p("ab", "개요 수준 3의 단락")+
				`<w:p><w:r><w:t>첫째 줄</w:t><w:br/><w:t>둘째 줄</w:t><w:tab/><w:t>탭 뒤</w:t></w:r></w:p>`+
				`<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:t>7</w:t></w:r></w:p>`+
				`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>구분</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>기간</w:t></w:r></w:p></w:tc></w:tr>`+
				`<w:tr><w:tc><w:p><w:r><w:t>1학기</w:t></w:r></w:p><w:p><w:r><w:t>(봄)</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>3월~6월</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`+
				`<w:p><w:r><w:t>글상자 앞 </w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:txbxContent>`+p("", "글상자 안")+`</w:txbxContent></mc:Choice>`+
				`<mc:Fallback><w:txbxContent>`+p("", "글상자 안")+`</w:txbxContent></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>글상자 뒤</w:t></w:r></w:p>`,
			koreanStyles),
			"제1장 총칙",
			"# 제1장 총칙\n\n## 제1조(목적)\n\n이 규정은 1980년 6월 16일부터 시행한다.\n\n목록의 한 줄\n\n목차 항목\n\n### 개요 수준 3의 단락\n\n" +
				"첫째 줄\n둘째 줄\t탭 뒤\n\n7\n\n구분 | 기간\n\n1학기 (봄) | 3월~6월\n\n글상자 앞\n\n글상자 안\n\n글상자 뒤\n\n"},
		{"word without styles.xml", "notes.docx", docxOf(t, p("Heading2", "Install")+p("", "Run make."), ""),
			"Install", "## Install\n\nRun make.\n\n"},
		{"hwpx", "공고.hwpx", hwpxOf(t,
			hp("2", `<hp:t>제1장 총칙</hp:t>`)+hp("0", `<hp:t>본 규정은 1980년 6월 16일부터 시행한다.</hp:t>`)+
				hp("0", `<hp:t>표 1. 일정</hp:t><hp:tbl><hp:tr><hp:tc><hp:subList>`+hp("0", `<hp:t>구분</hp:t>`)+`</hp:subList></hp:tc><hp:tc><hp:subList>`+hp("0", `<hp:t>날짜</hp:t>`)+`</hp:subList></hp:tc></hp:tr>`+
					`<hp:tr><hp:tc><hp:subList>`+hp("0", `<hp:t>접수</hp:t>`)+`</hp:subList></hp:tc><hp:tc><hp:subList>`+hp("0", `<hp:t>3월 2일</hp:t>`)+`</hp:subList></hp:tc></hp:tr></hp:tbl>`),
			hp("3", `<hp:t>제2조(정의)</hp:t>`)+hp("0", `<hp:t>첫째 줄<hp:lineBreak/>둘째 줄<hp:tab/>탭 뒤</hp:t>`)),
			"제1장 총칙",
			"# 제1장 총칙\n\n본 규정은 1980년 6월 16일부터 시행한다.\n\n표 1. 일정\n\n구분 | 날짜\n\n접수 | 3월 2일\n\n## 제2조(정의)\n\n첫째 줄\n둘째 줄\t탭 뒤\n\n"},
		{"odt", "guide.odt", odtOf(t,
			`<text:h text:outline-level="2">Getting <text:span>started</text:span></text:h>`+
				`<text:p>Three<text:s text:c="3"/>spaces<text:tab/>and a tab.<office:annotation><dc:creator>me</dc:creator><text:p>a comment</text:p></office:annotation></text:p>`+
				`<text:list><text:list-item><text:p>한 항목</text:p></text:list-item></text:list>`+
				`<table:table><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell><table:table-cell><text:p>b</text:p></table:table-cell></table:table-row></table:table>`),
			"Getting started",
			"## Getting started\n\nThree   spaces\tand a tab.\n\n한 항목\n\na | b\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Importer{}.Import(context.Background(), tt.file, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 || !docs[0].Markdown || docs[0].Title != tt.title || len(docs[0].Parts) != 1 {
				t.Fatalf("docs %+v", docs)
			}
			if got := docs[0].Parts[0].Text; got != tt.want {
				t.Errorf("text\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// A file that cannot be read says why: not an archive, saved with a
// password (an OLE compound file), its body missing or broken, no text;
// the old binary formats name the one to save as.
func TestOfficeFailures(t *testing.T) {
	cfb := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...)
	tests := []struct {
		name, file string
		data       []byte
		want       error
	}{
		{"not a zip", "a.docx", []byte("just some text, not an archive"), ErrOfficeDamaged},
		{"password", "a.docx", cfb, ErrOfficeEncrypted},
		{"password hwpx", "a.hwpx", cfb, ErrOfficeEncrypted},
		{"no body", "a.docx", zipOf(t, part{"word/other.xml", "<x/>"}), ErrOfficeDamaged},
		{"broken XML", "a.odt", zipOf(t, part{"content.xml", `<office:document-content ` + odtNS + `><text:p>unclosed`}), ErrOfficeDamaged},
		{"undeclared entity", "a.docx", docxOf(t, `<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p>`, ""), ErrOfficeDamaged},
		{"no text", "a.docx", docxOf(t, `<w:p/><w:p><w:r><w:t>  </w:t></w:r></w:p>`, ""), ErrEmpty},
		{"hwpx without sections", "a.hwpx", zipOf(t, part{"mimetype", "application/hwp+zip"}), ErrOfficeDamaged},
		{"old word", "a.doc", cfb, ErrUnsupported},
		{"old hwp", "a.HWP", []byte("HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05"), ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Importer{}.Import(context.Background(), tt.file, tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
		})
	}
	_, err := Importer{}.Import(context.Background(), "보고서.hwp", []byte("HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05"))
	var le *LegacyError
	if !errors.As(err, &le) || le.Ext != ".hwp" || !strings.Contains(err.Error(), "HWP 3 files (한글 97 and before) are not read: save the document as .hwpx") {
		t.Fatalf("hwp: %v", err)
	}
}

// Hostile archives fail on a limit, in bounded time and memory: a part
// that unpacks far past MaxOfficeXML (a ZIP bomb: 300 MB of one
// character in a few hundred KB), elements nested without end, and a
// directory listing more parts than an office file has.
func TestOfficeLimits(t *testing.T) {
	var bomb bytes.Buffer
	z := zip.NewWriter(&bomb)
	w, err := z.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, `<w:document `+wordNS+`><w:body><w:p><w:r><w:t>`)
	chunk := bytes.Repeat([]byte("가"), 1<<20)
	for range 100 { // 300 MB
		w.Write(chunk)
	}
	io.WriteString(w, `</w:t></w:r></w:p></w:body></w:document>`)
	z.Close()

	deep := zipOf(t, part{"content.xml", `<office:document-content ` + odtNS + `><office:body><office:text>` +
		strings.Repeat("<text:span>", 5000) + "x" + strings.Repeat("</text:span>", 5000) + `</office:text></office:body></office:document-content>`})

	var many bytes.Buffer
	z = zip.NewWriter(&many)
	for i := range 30_000 {
		if _, err := z.CreateHeader(&zip.FileHeader{Name: strings.Repeat("d", 10) + string(rune('a'+i%26)), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	z.Close()

	for _, tt := range []struct {
		name string
		data []byte
	}{{"bomb", bomb.Bytes()}, {"deep", deep}, {"many parts", many.Bytes()}} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Importer{}.Import(context.Background(), "hostile.docx", tt.data)
			if tt.name == "deep" {
				_, err = Importer{}.Import(context.Background(), "hostile.odt", tt.data)
			}
			var le *OfficeLimitError
			if !errors.As(err, &le) {
				t.Fatalf("err %v, want a limit", err)
			}
			t.Logf("%d bytes: %v", len(tt.data), err)
		})
	}
}

func FuzzOffice(f *testing.F) {
	f.Add(docxOf(f, p("Heading1", "제목")+p("", "본문"), ""))
	f.Add(docxOf(f, numbered("1", "1", "제목"), "", numberingXML(`<w:abstractNum w:abstractNumId="1">`+lvl("1", "ganada", "%1.%2", "")+`</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>`)))
	f.Add(docxOf(f, noted("본문", "footnote", "1")+noted("끝", "endnote", "1"), "", footnotesXML(footnote("1", "각주")), endnotesXML(footnote("1", "미주"))))
	f.Add(hwpxOf(f, hp("0", `<hp:t>본문</hp:t>`)))
	f.Add(hwpxOf(f, hp("0", hwpxNotePr("CIRCLED_DIGIT", "ON_SECTION", "2", "USER_CHAR", "CONTINUOUS", "1")+`<hp:t>본문</hp:t>`+hwpxNote(false, "각주", "둘째")+hwpxNote(true, "미주"))))
	f.Add(hwpxWith(f, `<hh:numberings>`+hhNumbering(1, hancomOutline...)+hhNumbering(2, "DIGIT:제^1조", "CIRCLED_DIGIT:^N")+`</hh:numberings><hh:paraProperties>`+
		paraPrXML(1, "OUTLINE", 0, 1)+paraPrXML(2, "NUMBER", 2, 1)+`</hh:paraProperties>`,
		hpr(0, 1, `<hp:secPr outlineShapeIDRef="1"/><hp:t>개요</hp:t>`)+hpr(0, 2, `<hp:t>항</hp:t>`)))
	f.Add(odtOf(f, `<text:p>a</text:p>`))
	f.Add(zipOf(f, part{"content.xml", `<office:document-content ` + odtNS + `><office:automatic-styles>` + listStyle("L1", `number style:num-format="가" text:display-levels="2"`) +
		`</office:automatic-styles><office:body><office:text><text:list text:style-name="L1"><text:list-item><text:list><text:list-item><text:p>b</text:p></text:list-item></text:list></text:list-item></text:list></office:text></office:body></office:document-content>`}))
	f.Add(zipOf(f, part{"ppt/slides/slide1.xml", slide(shape(`<p:ph type="title"/>`, ap("제목")))}))
	f.Add(xlsxOf(f, `<si><t>이름</t></si>`, `<cellXfs><xf numFmtId="14"/></cellXfs>`, "", [2]string{"시트", `<row><c r="A1" t="s"><v>0</v></c><c r="C1" s="0"><v>45718</v></c></row>`}))
	f.Add(odpOf(f, `<draw:page>`+frame("title", "제목")+`<presentation:notes>`+frame("notes", "메모")+`</presentation:notes></draw:page>`))
	f.Add(odsOf(f, `<table:table table:name="표"><table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="3"><text:p>값</text:p></table:table-cell></table:table-row></table:table>`))
	// Parts that are there but cannot be read, indexes cut short, formats
	// of fractions, conditions and durations with text.
	f.Add(broken(f, deck(f, "메모", []string{"하나", "둘"}), breakers[0], "ppt/slides/slide2.xml"))
	f.Add(broken(f, epubOf(f, []string{"<p>하나</p>", "<p>둘</p>"}), breakers[6], "OEBPS/text/c1 a.xhtml"))
	f.Add(broken(f, hwpxOf(f, hp("0", "<hp:t>하나</hp:t>"), hp("0", "<hp:t>둘</hp:t>")), breakers[4], "Contents/section1.xml"))
	f.Add(broken(f, xlsxOf(f, `<si><t>이름</t></si>`, "", "", [2]string{"가", `<row><c t="s"><v>0</v></c></row>`}, [2]string{"나", `<row><c t="s"><v>0</v></c></row>`}), breakers[1], "xl/sharedStrings.xml"))
	f.Add(xlsxOf(f, "", `<numFmts><numFmt numFmtId="164" formatCode="# ??/??"/><numFmt numFmtId="165" formatCode="[&gt;=1000]#,##0,&quot;K&quot;;0"/><numFmt numFmtId="166" formatCode="[h]&quot;시간&quot; mm&quot;분&quot;"/></numFmts>`+
		`<cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/><xf numFmtId="5"/><xf numFmtId="12"/></cellXfs>`, "",
		[2]string{"수", `<row><c s="1"><v>3.14159</v></c><c s="2"><v>1500</v></c><c s="3"><v>1.5</v></c><c s="4"><v>-2</v></c><c s="5"><v>0.5</v></c></row>`}))
	// Bodies of one part that break, indexes lost, archives cut short.
	f.Add(broken(f, odsOf(f, `<table:table table:name="가"><table:table-row><table:table-cell><text:p>값</text:p></table:table-cell></table:table-row></table:table><table:table table:name="나">`+breakMark+`</table:table>`), breaksAt()[3], "content.xml"))
	f.Add(without(f, xlsxOf(f, "", "", "", [2]string{"가", `<row><c t="inlineStr"><is><t>값</t></is></c></row>`}), "xl/_rels/workbook.xml.rels"))
	cut := docxOf(f, p("", "하나")+p("", "둘"), "")
	f.Add(cut[:bytes.Index(cut, []byte("PK\x01\x02"))])
	f.Add(cut[:len(cut)*2/3])
	for _, zip64 := range []bool{false, true} { // directories that lie about their entries
		var b bytes.Buffer
		if err := hostile.LyingDirectory(&b, 5, zip64); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	// Archives salvage reads from their parts' own headers: stored with
	// descriptors and cut, a directory that lies about an offset, a slide
	// cut short, a book cut in a chapter others follow; indexes that name
	// a part more than once.
	for _, c := range hostile.Classes() {
		switch c.File {
		case "storedcut.docx", "lyingoffset.docx", "oneslide.pptx", "cutorder.epub", "loop.epub", "loop.pptx", "loop.hwpx", "loop.odp", "loop.ods", "laughs.epub", "laughs.xlsx":
			var b bytes.Buffer
			if err := c.Write(&b, 3); err != nil {
				f.Fatal(err)
			}
			f.Add(b.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"f.docx", "f.hwpx", "f.odt", "f.pptx", "f.xlsx", "f.ods", "f.odp", "f.epub"} {
			docs, err := Importer{}.Import(context.Background(), name, data)
			if err == nil && (len(docs) != 1 || strings.TrimSpace(docs[0].Parts[0].Text) == "") {
				t.Fatalf("%s: no error and no text: %+v", name, docs)
			}
			if err != nil && !worded(err) { // the person would read a Go error
				t.Fatalf("%s: err %v: not one the app words", name, err)
			}
		}
	})
}

// fixture imports testdata/office/name, a file another program wrote.
func fixture(t *testing.T, name string) []Document {
	t.Helper()
	data, err := os.ReadFile("testdata/office/" + name)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := Importer{}.Import(context.Background(), name, data)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// Files another program wrote (pandoc: styles.xml with Word's built-in
// heading styles, tables with their own properties, lists, links,
// emphasis in runs of their own) read as the Markdown they were made
// from, headings, table rows and list items each on a line.
func TestOfficeFromPandoc(t *testing.T) {
	want, err := os.ReadFile("testdata/office/regulation.want.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"regulation.docx", "regulation.odt"} {
		docs := fixture(t, name)
		if len(docs) != 1 || docs[0].Title != "제1장 총칙" {
			t.Fatalf("%s: %+v", name, docs)
		}
		if got := docs[0].Parts[0].Text; strings.TrimSpace(got) != strings.TrimSpace(string(want)) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
}
