package importer

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// breakMark is where breaksAt damages a part: it stands inside the unit
// (paragraph, sheet, slide) the break falls in.
const breakMark = "◆"

// breaksAt are the ways a part can break at breakMark, what comes before
// it readable: its XML cut short or closed by another element there, its
// deflate data cut short or not inflating past the text before it.
func breaksAt() []breaker {
	// flushed is the part deflated in two blocks, the first ending at the
	// mark, and where the second begins.
	flushed := func(s string) ([]byte, int) {
		i := strings.Index(s, breakMark)
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestCompression)
		w.Write([]byte(s[:i]))
		w.Flush()
		n := b.Len()
		w.Write([]byte(s[i:]))
		w.Close()
		return b.Bytes(), n
	}
	return []breaker{
		{name: "XML cut short", xml: true, body: func(s string) string { return s[:strings.Index(s, breakMark)] }},
		{name: "closed by another element", xml: true, body: func(s string) string { return strings.Replace(s, breakMark, "</엉뚱한>", 1) }},
		{name: "deflate data cut short", raw: func(s string) ([]byte, uint32, uint16) {
			d, n := flushed(s)
			return d[:n+2], crc32.ChecksumIEEE([]byte(s)), zip.Deflate
		}},
		{name: "deflate data that does not inflate", raw: func(s string) ([]byte, uint32, uint16) {
			d, n := flushed(s)
			return append(d[:n:n], 0xFF, 0xFF, 0xFF), crc32.ChecksumIEEE([]byte(s)), zip.Deflate
		}},
	}
}

// TestBodyBreaksOff: a file whose body is one part (OpenDocument's
// content.xml, Word's document.xml, an HWPX file of one section, a
// workbook of one sheet, a book of one chapter, a presentation of one
// slide) that
// breaks partway keeps the sheets, slides or paragraphs read whole before
// the break, leaves out the one it broke in, and says where it broke
// (*BrokenOff); one that breaks before any is read whole is damaged.
// Before, any such file was refused whole.
func TestBodyBreaksOff(t *testing.T) {
	row := func(v string) string {
		return `<table:table-row><table:table-cell office:value-type="string"><text:p>` + v + `</text:p></table:table-cell></table:table-row>`
	}
	page := func(title string) string { return `<draw:page draw:name="p">` + frame("title", title) + `</draw:page>` }
	for _, tt := range []struct {
		name, file, part string
		data             func(first string) []byte // first: the first unit's text, where the mark may go
		first            string                    // the first unit's text: the mark after it breaks it, nothing read whole
		want, gone       []string
		pages            []int
		warn             BrokenOff
		// lenient: a web page's broken XML is read on (a chapter); only
		// its compressed data can break it.
		lenient bool
	}{
		{name: "OpenDocument text", file: "규정.odt", part: "content.xml",
			data: func(first string) []byte {
				return odtOf(t, `<text:h text:outline-level="1">`+first+`</text:h><text:p>첫 문단</text:p><text:p>둘째 문단</text:p><text:p>깨진 `+breakMark+`문단</text:p><text:p>뒤 문단</text:p>`)
			},
			first: "규정", want: []string{"# 규정", "첫 문단", "둘째 문단"}, gone: []string{"깨진", "뒤 문단"},
			warn: BrokenOff{Unit: "paragraph", Count: 3, Last: "둘째 문단"}},
		{name: "Word", file: "규정.docx", part: "word/document.xml",
			data: func(first string) []byte {
				return docxOf(t, p("Heading1", first)+p("", "첫 문단")+`<w:tbl><w:tr><w:tc>`+p("", "칸 하나")+`</w:tc><w:tc>`+p("", "칸 둘")+`</w:tc></w:tr><w:tr><w:tc>`+p("", "깨진 "+breakMark+"칸")+`</w:tc></w:tr></w:tbl>`+p("", "뒤 문단"), "")
			},
			first: "규정", want: []string{"# 규정", "첫 문단", "칸 하나 | 칸 둘"}, gone: []string{"깨진", "뒤 문단"},
			warn: BrokenOff{Unit: "paragraph", Count: 3, Last: "칸 하나 | 칸 둘"}},
		{name: "HWPX of one section", file: "규정.hwpx", part: "Contents/section0.xml",
			data: func(first string) []byte {
				return hwpxOf(t, hp("0", "<hp:t>"+first+"</hp:t>")+hp("0", "<hp:t>둘째 문단</hp:t>")+hp("0", "<hp:t>깨진 "+breakMark+"문단</hp:t>"))
			},
			first: "첫 문단", want: []string{"첫 문단", "둘째 문단"}, gone: []string{"깨진"},
			warn: BrokenOff{Unit: "paragraph", Count: 2, Last: "둘째 문단"}},
		{name: "OpenDocument spreadsheet", file: "가계부.ods", part: "content.xml",
			data: func(first string) []byte {
				return odsOf(t, `<table:table table:name="수입">`+row("항목")+row(first)+`</table:table><table:table table:name="지출">`+row("항목")+row("월세")+breakMark+row("적금")+`</table:table><table:table table:name="메모">`+row("메모")+`</table:table>`)
			},
			first: "월급", want: []string{"# 수입: 항목", "월급"}, gone: []string{"지출", "월세", "적금", "메모"},
			warn: BrokenOff{Unit: "sheet", Count: 1, Last: "수입"}},
		{name: "OpenDocument presentation", file: "발표.odp", part: "content.xml",
			data: func(first string) []byte {
				return odpOf(t, page(first)+page("둘째 슬라이드")+`<draw:page draw:name="p">`+frame("title", "셋째 "+breakMark+"슬라이드")+`</draw:page>`+page("넷째 슬라이드"))
			},
			first: "첫 슬라이드", want: []string{"첫 슬라이드", "둘째 슬라이드"}, gone: []string{"셋째", "넷째"}, pages: []int{1, 2},
			warn: BrokenOff{Unit: "slide", Count: 2}},
		{name: "Excel of one sheet", file: "가계부.xlsx", part: "xl/worksheets/sheet1.xml",
			data: func(first string) []byte {
				cell := func(v string) string { return `<row><c t="inlineStr"><is><t>` + v + `</t></is></c></row>` }
				return xlsxOf(t, "", "", "", [2]string{"수입", cell(first) + cell("월급") + cell("깨진 "+breakMark+"행") + cell("뒤 행")})
			},
			first: "항목", want: []string{"# 수입: 항목", "월급"}, gone: []string{"깨진", "뒤 행"},
			warn: BrokenOff{Unit: "row", Count: 2, Last: "월급"}},
		{name: "PowerPoint of one slide", file: "발표.pptx", part: "ppt/slides/slide1.xml", pages: []int{1},
			data: func(first string) []byte {
				one := slide(shape(`<p:ph type="title"/>`, ap(first)) + shape(`<p:ph idx="1"/>`, ap("첫 문단")+ap("둘째 문단")+ap("깨진 "+breakMark+"문단")) + shape("", ap("뒤 상자")))
				return zipOf(t, part{"ppt/slides/slide1.xml", one},
					part{"ppt/presentation.xml", `<p:presentation ` + slideNS + `><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`},
					part{"ppt/_rels/presentation.xml.rels", `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>`})
			},
			first: "계획", want: []string{"# 계획", "첫 문단", "둘째 문단"}, gone: []string{"깨진", "뒤 상자"},
			warn: BrokenOff{Unit: "paragraph", Count: 3, Last: "둘째 문단"}},
		{name: "EPUB of one chapter", file: "책.epub", part: "OEBPS/text/c0 a.xhtml", lenient: true,
			data: func(first string) []byte {
				return epubOf(t, []string{`<h1>` + first + `</h1><p>첫 문단</p><p>둘째 문단</p><p>깨진 ` + breakMark + `문단</p><p>뒤 문단</p>`})
			},
			first: "규정", want: []string{"# 규정", "첫 문단", "둘째 문단"}, gone: []string{"깨진", "뒤 문단"},
			warn: BrokenOff{Unit: "paragraph", Count: 3, Last: "둘째 문단"}},
	} {
		for _, br := range breaksAt() {
			if tt.lenient && br.xml {
				continue
			}
			t.Run(tt.name+", "+br.name, func(t *testing.T) {
				var col collector
				warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(broken(t, tt.data(tt.first), br, tt.part)), &col)
				if err != nil {
					t.Fatal(err)
				}
				checkParts(t, col.docs[0], tt.want, tt.gone, tt.pages)
				var bo *BrokenOff
				if len(warns) != 1 || !errors.As(warns[0], &bo) {
					t.Fatalf("warnings %v, want one that says where the file broke off", warns)
				}
				if bo.Unit != tt.warn.Unit || bo.Count != tt.warn.Count || bo.Last != tt.warn.Last {
					t.Errorf("warning %+v, want %+v", *bo, tt.warn)
				}
				if !strings.Contains(bo.Error(), tt.warn.Last) || strings.ContainsAny(bo.Error(), "\n\r") {
					t.Errorf("%q does not name %q on one line", bo, tt.warn.Last)
				}
				// Broken in the first unit, nothing is read whole: damaged.
				_, err = Importer{}.Read(context.Background(), tt.file, bytes.NewReader(broken(t, tt.data(tt.first+breakMark), br, tt.part)), &collector{})
				if !errors.Is(err, ErrOfficeDamaged) {
					t.Errorf("broken in its first %s: err %v, want damaged", tt.warn.Unit, err)
				}
			})
		}
	}
}

// TestHWPBreaksOff: an HWP file of one section (most are) whose records
// break after some paragraphs keeps them and says where it broke, as an
// HWPX file of one section does; a record that claims more bytes than
// any record holds (4 GB) is such a break, not a limit that fails the
// file. Broken in its first paragraph, the file is damaged.
func TestHWPBreaksOff(t *testing.T) {
	two := append(hwpSection("첫 문단"), hwpSection("둘째 문단")...)
	cut := hwptest.Record(hwptest.TagParaText, 1, make([]byte, 40))[:30]
	huge := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, hwptest.TagParaText|0xFFF<<20), 0xFFFFFFF0)
	flushed := func(good, bad []byte) []byte { // deflate data that stops inflating after good
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestCompression)
		w.Write(good)
		w.Flush()
		return append(b.Bytes(), 0xFF, 0xFF, 0xFF)
	}
	for _, tt := range []struct {
		name  string
		file  func(good []byte) []byte
		count int
	}{
		{"a record cut short", func(good []byte) []byte { return hwptest.File(0, nil, append(bytes.Clone(good), cut...)) }, 2},
		{"compressed, a record cut short", func(good []byte) []byte {
			return hwptest.File(hwptest.Compressed, nil, append(bytes.Clone(good), cut...))
		}, 2},
		{"a record claiming 4 GB", func(good []byte) []byte { return hwptest.File(0, nil, append(bytes.Clone(good), huge...)) }, 2},
		{"deflate data that stops inflating", func(good []byte) []byte {
			return hwptest.CFB([]hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(hwptest.Compressed)}, {Path: "BodyText/Section0", Data: flushed(good, nil)}})
		}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), "문서.hwp", bytes.NewReader(tt.file(two)), &col)
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, col.docs[0], []string{"첫 문단", "둘째 문단"}, nil, nil)
			var bo *BrokenOff
			if len(warns) != 1 || !errors.As(warns[0], &bo) || bo.Unit != "paragraph" || bo.Count != tt.count || bo.Last != "둘째 문단" {
				t.Fatalf("warnings %v, want one that the file broke off after paragraph %d", warns, tt.count)
			}
			if _, err := (Importer{}).Import(context.Background(), "문서.hwp", tt.file(nil)); !errors.Is(err, ErrOfficeDamaged) {
				t.Errorf("broken before a paragraph: err %v, want damaged", err)
			}
		})
	}
}
