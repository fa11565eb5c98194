package importer

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// breaker damages one part of a ZIP archive: its XML, or its compressed
// data as the archive holds it.
type breaker struct {
	name string
	xml  bool // damages the XML (a web page's lenient reader reads on)
	// body is the part's new text, when the XML is damaged; raw, when set,
	// writes the part's data as the archive keeps it instead.
	body func(string) string
	raw  func(body string) (data []byte, crc uint32, method uint16)
}

// breakers are the ways a part that is there can be unreadable; each
// leaves the part's beginning (its first text) readable, so that what
// was read of it before the damage must be taken back.
var breakers = []breaker{
	{name: "XML cut short", xml: true, body: func(s string) string { return s[:len(s)-3] }},
	{name: "closed by another element", xml: true, body: func(s string) string {
		i := strings.LastIndex(s, "</")
		return s[:i] + "</엉뚱한>"
	}},
	{name: "an entity never declared", xml: true, body: func(s string) string {
		i := strings.LastIndex(s, "</")
		return s[:i] + "&없는것;" + s[i:]
	}},
	{name: "not UTF-8 where it says so", xml: true, body: func(s string) string {
		i := strings.LastIndex(s, "</")
		return s[:i] + "\xff\xfe" + s[i:]
	}},
	{name: "deflate data cut short", raw: func(s string) ([]byte, uint32, uint16) {
		d := deflated(s)
		return d[:len(d)*2/3], crc32.ChecksumIEEE([]byte(s)), zip.Deflate
	}},
	{name: "deflate data that does not inflate", raw: func(s string) ([]byte, uint32, uint16) {
		return append([]byte{0x07}, deflated(s)...), crc32.ChecksumIEEE([]byte(s)), zip.Deflate
	}},
	{name: "a checksum that does not match", raw: func(s string) ([]byte, uint32, uint16) {
		return deflated(s), ^crc32.ChecksumIEEE([]byte(s)), zip.Deflate
	}},
}

func deflated(s string) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// broken is the ZIP archive data with each part named damaged by br.
func broken(t testing.TB, data []byte, br breaker, names ...string) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	done := 0
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !slices.Contains(names, f.Name):
			w, _ := zw.Create(f.Name)
			w.Write(body)
		case br.raw != nil:
			raw, crc, method := br.raw(string(body))
			w, err := zw.CreateRaw(&zip.FileHeader{Name: f.Name, Method: method, CRC32: crc,
				CompressedSize64: uint64(len(raw)), UncompressedSize64: uint64(len(body))})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(raw)
			done++
		default:
			w, _ := zw.Create(f.Name)
			io.WriteString(w, br.body(string(body)))
			done++
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if done != len(names) {
		t.Fatalf("the archive holds %d of %q", done, names)
	}
	return out.Bytes()
}

// TestUnreadablePartsAreWarned: a part that is there but cannot be read
// to its end (its XML does not parse, its compressed data does not
// inflate or fails its checksum) follows the rule of a missing part, in
// every container: it is left out whole (what was read of it before the
// damage too: no half chapter), named in the warning, and the file's
// other parts are imported, slides keeping their numbers. Before, such a
// part failed the whole file as damaged.
func TestUnreadablePartsAreWarned(t *testing.T) {
	chapters := []string{"<p>첫 장</p>", "<p>둘째 장</p>", "<p>셋째 장</p>"}
	sheets := [][2]string{{"수입", `<row><c t="inlineStr"><is><t>월급</t></is></c></row>`}, {"지출", `<row><c t="inlineStr"><is><t>월세</t></is></c></row>`}, {"메모", `<row><c t="inlineStr"><is><t>적금</t></is></c></row>`}}
	slides := []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}
	sections := []string{hp("0", "<hp:t>첫 구역</hp:t>"), hp("0", "<hp:t>둘째 구역</hp:t>"), hp("2", "<hp:t>셋째 구역</hp:t>")}
	notesRel := part{"word/_rels/document.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>`}
	type container struct {
		name, file string
		data       []byte
		parts      []string // the parts broken
		want, gone []string
		pages      []int
		warn       MissingParts
	}
	for _, c := range []container{
		{"EPUB: a chapter", "책.epub", epubOf(t, chapters), []string{"OEBPS/text/c1 a.xhtml"},
			[]string{"첫 장", "셋째 장"}, []string{"둘째 장"}, nil, MissingParts{Unit: "chapter", Names: []string{"text/c1 a.xhtml"}, Count: 1, Total: 3}},
		{"PowerPoint: a slide", "발표.pptx", deck(t, "", slides), []string{"ppt/slides/slide2.xml"},
			[]string{"첫 슬라이드", "셋째 슬라이드"}, []string{"둘째 슬라이드"}, []int{1, 3}, MissingParts{Unit: "slide", Names: []string{"slide 2"}, Count: 1, Total: 3}},
		{"PowerPoint: a slide's notes", "발표.pptx", deck(t, "메모", slides[:1]), []string{"ppt/notesSlides/notesSlide1.xml"},
			[]string{"첫 슬라이드"}, []string{"메모"}, []int{1}, MissingParts{Unit: "speaker's notes", Names: []string{"slide 1"}, Count: 1, Total: 1}},
		{"Excel: a sheet", "가계부.xlsx", xlsxOf(t, "", "", "", sheets...), []string{"xl/worksheets/sheet2.xml"},
			[]string{"수입: 월급", "메모: 적금"}, []string{"월세", "지출"}, nil, MissingParts{Unit: "sheet", Names: []string{`"지출"`}, Count: 1, Total: 3}},
		{"Excel: the shared strings", "가계부.xlsx", xlsxOf(t, `<si><t>월급</t></si><si><t>월세</t></si>`, "", "",
			[2]string{"수입 내역", `<row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3"><v>3000000</v></c><c r="C3" t="inlineStr"><is><t>매달</t></is></c></row><row><c t="s"><v>1</v></c></row>`}), []string{"xl/sharedStrings.xml"},
			[]string{"# 수입 내역:  | 3000000 | 매달"}, []string{"월급", "월세"}, nil, MissingParts{Unit: "text cell", Names: []string{"'수입 내역'!A3", "'수입 내역'!A4"}, Count: 2, Total: 2}},
		{"HWPX: a section", "문서.hwpx", hwpxOf(t, sections...), []string{"Contents/section1.xml"},
			[]string{"첫 구역", "# 셋째 구역"}, []string{"둘째 구역"}, nil, MissingParts{Unit: "section", Names: []string{"Contents/section1.xml"}, Count: 1, Total: 3}},
		{"Word: the footnotes", "논문.docx", docxOf(t, noted("본문이다.", "footnote", "1")+p("", "끝."), "", footnotesXML(footnote("1", "출처")), notesRel), []string{"word/footnotes.xml"},
			[]string{"본문이다.\n\n끝."}, []string{"출처", "[^1]"}, nil, MissingParts{Unit: "notes part", Names: []string{"word/footnotes.xml"}, Count: 1, Total: 1}},
	} {
		for _, br := range breakers {
			if !br.xml && br.raw == nil {
				continue
			}
			t.Run(c.name+", "+br.name, func(t *testing.T) {
				data := broken(t, c.data, br, c.parts...)
				var col collector
				warns, err := Importer{}.Read(context.Background(), c.file, bytes.NewReader(data), &col)
				if c.file == "책.epub" && br.xml {
					// A chapter is a web page: its broken XML is read as a
					// browser reads it, and nothing is lost.
					if err != nil || len(warns) != 0 || !strings.Contains(col.docs[0].Parts[0].Text, "둘째 장") {
						t.Fatalf("err %v, warnings %v: want the chapter read as a page", err, warns)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				checkParts(t, col.docs[0], c.want, c.gone, c.pages)
				checkWarned(t, warns, c.warn)
			})
		}
	}
}

// checkParts checks a document's text holds want and none of gone, and
// its parts' numbers are pages (nil: any).
func checkParts(t *testing.T, doc Document, want, gone []string, pages []int) {
	t.Helper()
	var text strings.Builder
	var got []int
	for _, p := range doc.Parts {
		text.WriteString(p.Text)
		got = append(got, p.Page)
	}
	for _, w := range want {
		if !strings.Contains(text.String(), w) {
			t.Errorf("%q is not in %q", w, text.String())
		}
	}
	for _, g := range gone {
		if strings.Contains(text.String(), g) {
			t.Errorf("%q is in %q", g, text.String())
		}
	}
	if pages != nil && !slices.Equal(got, pages) {
		t.Errorf("pages %v, want %v", got, pages)
	}
}

// checkWarned checks warns is the one warning want, and its words name
// each part.
func checkWarned(t *testing.T, warns []error, want MissingParts) {
	t.Helper()
	var mp *MissingParts
	if len(warns) != 1 || !errors.As(warns[0], &mp) {
		t.Fatalf("warnings %v, want one of missing parts", warns)
	}
	if mp.Unit != want.Unit || !slices.Equal(mp.Names, want.Names) || mp.Count != want.Count || mp.Total != want.Total {
		t.Errorf("warning %+v, want %+v", *mp, want)
	}
	for _, n := range want.Names {
		if !strings.Contains(mp.Error(), n) {
			t.Errorf("%q does not name %q", mp.Error(), n)
		}
	}
}

// hwpSection is an HWP section of one paragraph of text, as the file
// keeps it (compressed when the file is).
func hwpSection(text string) []byte { return hwptest.Para(0, 0, 0, hwptest.UTF16(text)) }

// TestUnreadableHWPSections: an HWP section whose records cannot be read
// (one cut short, deflate data that does not inflate) is left out whole
// and named, as a missing one is; the others are read.
func TestUnreadableHWPSections(t *testing.T) {
	good := func(s string) []byte { return hwpSection(s) }
	cut := func(s string) []byte { // the text, then a record that claims 4,000 bytes more than there are
		return append(hwpSection(s), hwptest.Record(hwptest.TagParaText, 1, make([]byte, 40))[:30]...)
	}
	for _, tt := range []struct {
		name  string
		file  []byte
		names []string
		count int
	}{
		{"a record cut short", hwptest.File(0, nil, good("첫 구역"), cut("둘째 구역"), good("셋째 구역")), []string{"BodyText/Section1"}, 1},
		{"compressed, a record cut short", hwptest.File(hwptest.Compressed, nil, good("첫 구역"), cut("둘째 구역"), good("셋째 구역")), []string{"BodyText/Section1"}, 1},
		{"deflate data that does not inflate", hwpStreamsWith(good("첫 구역"), append([]byte{0x07}, hwptest.Deflate(hwpSection("둘째 구역"))...), good("셋째 구역")), []string{"BodyText/Section1"}, 1},
		{"deflate data cut short", hwpStreamsWith(good("첫 구역"), hwptest.Deflate(bytes.Repeat(hwpSection("둘째 구역"), 50))[:40], good("셋째 구역")), []string{"BodyText/Section1"}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), "문서.hwp", bytes.NewReader(tt.file), &col)
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, col.docs[0], []string{"첫 구역", "셋째 구역"}, []string{"둘째 구역"}, nil)
			checkWarned(t, warns, MissingParts{Unit: "section", Names: tt.names, Count: tt.count, Total: 3})
		})
	}
}

// hwpStreamsWith is a compressed HWP file whose sections are the streams
// given as they are: the first and last compressed here, the middle one
// as it comes (damaged).
func hwpStreamsWith(first, middle, last []byte) []byte {
	return hwptest.CFB([]hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(hwptest.Compressed)},
		{Path: "BodyText/Section0", Data: hwptest.Deflate(first)},
		{Path: "BodyText/Section1", Data: middle},
		{Path: "BodyText/Section2", Data: hwptest.Deflate(last)}})
}

// TestNoReadablePartIsDamage: a file none of whose parts can be read,
// whether they are missing or there but damaged, is refused as damaged in
// one line that names them and says why the first could not be read;
// Word's and OpenDocument's one body part damaged before any paragraph,
// sheet or slide is read whole is such a file.
func TestNoReadablePartIsDamage(t *testing.T) {
	xmlCut := breakers[0]
	// A body of one part (a workbook of one sheet too) keeps what it read
	// whole before a break (TestBodyBreaksOff): inside is cut in its
	// first paragraph or row.
	inside := breaker{name: "cut in the first paragraph", xml: true, body: func(s string) string { return s[:strings.Index(s, "본문")+len("본문")] }}
	chapters := []string{"<p>첫 장</p>", "<p>둘째 장</p>"}
	odf := func(body string) []byte {
		return zipOf(t, part{"mimetype", "x"}, part{"content.xml", `<?xml version="1.0"?><office:document-content ` + odtNS + `><office:body>` + body + `</office:body></office:document-content>`})
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
		says       []string
	}{
		{"EPUB: a chapter missing, the other damaged", "책.epub", broken(t, without(t, epubOf(t, chapters), "OEBPS/text/c0 a.xhtml"), breakers[4], "OEBPS/text/c1 a.xhtml"),
			[]string{"2 chapters", "text/c0 a.xhtml", "text/c1 a.xhtml: unexpected EOF"}},
		{"PowerPoint", "발표.pptx", broken(t, deck(t, "", []string{"하나", "둘"}), xmlCut, "ppt/slides/slide1.xml", "ppt/slides/slide2.xml"), []string{"2 slides", "slide 1, slide 2", "slide 1: XML syntax error"}},
		{"Excel", "가계부.xlsx", broken(t, xlsxOf(t, "", "", "", [2]string{"시트", `<row><c t="inlineStr"><is><t>본문</t></is></c></row>`}), inside, "xl/worksheets/sheet1.xml"), []string{`"시트": XML syntax error`}},
		{"Excel: text only in damaged shared strings", "가계부.xlsx", broken(t, xlsxOf(t, `<si><t>월급</t></si>`, "", "", [2]string{"수입", `<row><c t="s"><v>0</v></c></row>`}), xmlCut, "xl/sharedStrings.xml"),
			[]string{"xl/sharedStrings.xml, which cannot be read", "수입!A1"}},
		{"HWPX", "문서.hwpx", broken(t, hwpxOf(t, hp("0", "<hp:t>본문</hp:t>"), hp("0", "<hp:t>끝</hp:t>")), breakers[6], "Contents/section0.xml", "Contents/section1.xml"), []string{"Contents/section0.xml: zip: checksum error"}},
		{"HWPX of one section, broken in its first paragraph", "문서.hwpx", broken(t, hwpxOf(t, hp("0", "<hp:t>본문</hp:t>")), inside, "Contents/section0.xml"), []string{"Contents/section0.xml: XML syntax error"}},
		{"HWP", "문서.hwp", hwptest.File(0, nil, hwpSection("본문")[:len(hwpSection("본문"))-15]), []string{"BodyText/Section0: a record is cut short"}},
		{"Word", "문서.docx", broken(t, docxOf(t, p("", "본문"), ""), inside, "word/document.xml"), []string{"word/document.xml: XML syntax error"}},
		{"Word: an element of a name of 100,000 letters closed by another", "문서.docx", zipOf(t, part{"word/document.xml", "<" + strings.Repeat("가", 100_000) + "></b>"}), []string{"word/document.xml: XML syntax error"}},
		{"OpenDocument text", "문서.odt", broken(t, odtOf(t, "<text:p>본문</text:p>"), inside, "content.xml"), []string{"XML syntax error"}},
		{"OpenDocument presentation", "발표.odp", broken(t, odpOf(t, `<draw:page>`+frame("title", "본문")+`</draw:page>`), inside, "content.xml"), []string{"XML syntax error"}},
		{"OpenDocument spreadsheet", "표.ods", broken(t, odf(`<office:spreadsheet><table:table table:name="표"><table:table-row><table:table-cell><text:p>본문</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`), inside, "content.xml"), []string{"XML syntax error"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data), &collector{})
			if !errors.Is(err, ErrOfficeDamaged) || len(warns) != 0 || strings.ContainsAny(err.Error(), "\n\r") || utf8.RuneCountInString(err.Error()) > 400 {
				t.Fatalf("err %.300v (%d characters), warnings %v: want damaged, in one short line", err, utf8.RuneCountInString(err.Error()), warns)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
}

// TestMissingAndUnreadableTogether: a container that lacks one part and
// cannot read another names both in one warning.
func TestMissingAndUnreadableTogether(t *testing.T) {
	data := broken(t, without(t, deck(t, "", []string{"하나", "둘", "셋", "넷"}), "ppt/slides/slide1.xml"), breakers[1], "ppt/slides/slide3.xml")
	var col collector
	warns, err := Importer{}.Read(context.Background(), "발표.pptx", bytes.NewReader(data), &col)
	if err != nil {
		t.Fatal(err)
	}
	checkParts(t, col.docs[0], []string{"둘", "넷"}, []string{"하나", "셋"}, []int{2, 4})
	checkWarned(t, warns, MissingParts{Unit: "slide", Names: []string{"slide 1", "slide 3"}, Count: 2, Total: 4})
}

// TestPartsAreHeld: a part's text is held until it ends, so that an
// unreadable part is taken back whole, title and all; a part longer than
// maxPartHeld is handed on past it (memory stays bounded), and what was
// handed on stays.
func TestPartsAreHeld(t *testing.T) {
	var col collector
	w := &mdWriter{sink: &col, doc: Document{Title: "파일", Markdown: true}}
	w.beginPart()
	must(t, w.paragraph("첫 부분", 1))
	must(t, w.endPart())
	w.beginPart()
	must(t, w.paragraph("버릴 제목", 1))
	for range mdBlock / 10 { // past a block: held all the same
		must(t, w.paragraph("버릴 글", 0))
	}
	if len(col.docs) != 0 {
		t.Fatalf("a held part was handed on: %d documents", len(col.docs))
	}
	if !w.dropPart() {
		t.Fatal("a held part could not be dropped")
	}
	w.beginPart()
	line := strings.Repeat("가", 1000)
	for range maxPartHeld/len(line) + 1 {
		must(t, w.paragraph(line, 0))
	}
	if w.dropPart() {
		t.Error("a part past maxPartHeld was dropped after it was handed on")
	}
	if w.buf.Len() > maxPartHeld {
		t.Errorf("%d bytes held", w.buf.Len())
	}
	must(t, w.end())
	text := col.docs[0].Parts[0].Text
	if col.docs[0].Title != "첫 부분" || strings.Contains(text, "버릴") || !strings.HasPrefix(text, "# 첫 부분\n\n가가") {
		t.Errorf("title %q, text %.60q", col.docs[0].Title, text)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// cutIndex is the archive data with the part name cut three bytes into
// the second element marker names: an index damaged after its first
// entry.
func cutIndex(t *testing.T, data []byte, name, marker string) []byte {
	t.Helper()
	return broken(t, data, breaker{name: "cut", body: func(s string) string {
		first := strings.Index(s, marker)
		second := strings.Index(s[first+1:], marker)
		if first < 0 || second < 0 {
			t.Fatalf("%s has fewer than two %q", name, marker)
		}
		return s[:first+1+second+3]
	}}, name)
}

// TestDamagedIndexLosesNoPart: an index that cannot be read to its end
// (a package document, a presentation's list of slides, a workbook's list
// of sheets, cut after their first entry) loses none of the parts it did
// not get to name: those the archive holds are read after the ones it
// named. Before, a book or an HWPX file read only the chapters or
// sections named before the damage, without a word, and such a workbook
// was refused.
func TestDamagedIndexLosesNoPart(t *testing.T) {
	chapters := []string{"<p>첫 장</p>", "<p>둘째 장</p>", "<p>셋째 장</p>"}
	sheets := [][2]string{{"수입", `<row><c t="inlineStr"><is><t>월급</t></is></c></row>`}, {"지출", `<row><c t="inlineStr"><is><t>월세</t></is></c></row>`}, {"메모", `<row><c t="inlineStr"><is><t>적금</t></is></c></row>`}}
	slides := []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}
	sections := []string{hp("0", "<hp:t>첫 구역</hp:t>"), hp("0", "<hp:t>둘째 구역</hp:t>"), hp("0", "<hp:t>셋째 구역</hp:t>")}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want       []string
		pages      []int
	}{
		{"EPUB", "책.epub", cutIndex(t, epubOf(t, chapters), "OEBPS/content.opf", "<itemref"), []string{"첫 장", "둘째 장", "셋째 장"}, nil},
		// The manifest cut after its first chapter: the chapters it did not
		// get to list are the archive's, where only the one listed was read.
		{"EPUB: its manifest", "책.epub", cutIndex(t, epubOf(t, chapters), "OEBPS/content.opf", `href="text/`), []string{"첫 장", "둘째 장", "셋째 장"}, nil},
		{"EPUB: its container.xml", "책.epub", cutIndex(t, epubOf(t, chapters), "META-INF/container.xml", "<root"), []string{"첫 장", "둘째 장", "셋째 장"}, nil},
		{"PowerPoint", "발표.pptx", cutIndex(t, deck(t, "", slides), "ppt/presentation.xml", "<p:sldId "), []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}, []int{1, 2, 3}},
		{"Excel", "가계부.xlsx", cutIndex(t, xlsxOf(t, "", "", "", sheets...), "xl/workbook.xml", "<sheet "), []string{"수입: 월급", "sheet2: 월세", "sheet3: 적금"}, nil},
		{"HWPX", "문서.hwpx", cutIndex(t, hwpxOf(t, sections...), "Contents/content.hpf", `<opf:itemref idref="s`), []string{"첫 구역", "둘째 구역", "셋째 구역"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data), &col)
			if err != nil || len(warns) != 0 {
				t.Fatalf("err %v, warnings %v", err, warns)
			}
			checkParts(t, col.docs[0], tt.want, nil, tt.pages)
		})
	}
}
