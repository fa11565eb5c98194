package importer

import (
	"context"
	"errors"
	"strings"
	"testing"
)

const slideNS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`

func slide(shapes string) string {
	return `<?xml version="1.0"?><p:sld ` + slideNS + `><p:cSld><p:spTree>` + shapes + `</p:spTree></p:cSld></p:sld>`
}

func shape(placeholder, paragraphs string) string {
	return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>` + placeholder + `</p:nvPr></p:nvSpPr><p:txBody>` + paragraphs + `</p:txBody></p:sp>`
}

func ap(text string) string { return `<a:p><a:r><a:t>` + text + `</a:t></a:r></a:p>` }

// A slide is a page, in the order the presentation lists its slides (not
// their file names'); a title placeholder's paragraphs are the slide's
// heading, other boxes and tables its text, its fields (the slide number)
// left out, and the speaker's notes quoted after it; the first heading
// names the file. pandoc's slides read so too.
func TestSlides(t *testing.T) {
	data := zipOf(t,
		part{"ppt/presentation.xml", `<p:presentation ` + slideNS + `><p:sldIdLst><p:sldId id="256" r:id="rId9"/><p:sldId id="257" r:id="rId8"/></p:sldIdLst></p:presentation>`},
		part{"ppt/_rels/presentation.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/>` +
			`<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide2.xml"/></Relationships>`},
		part{"ppt/slides/slide1.xml", slide(shape(`<p:ph type="title"/>`, ap("둘째 장: 일정")) +
			`<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody>` + ap("접수") + `</a:txBody></a:tc><a:tc><a:txBody>` + ap("3월 2일") + `</a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)},
		part{"ppt/slides/slide2.xml", slide(shape(`<p:ph type="ctrTitle"/>`, ap("학사 안내")) + shape(`<p:ph idx="1"/>`, ap("첫째 줄")+`<a:p><a:r><a:t>둘째</a:t></a:r><a:br/><a:r><a:t>줄</a:t></a:r></a:p>`) +
			shape(`<p:ph type="sldNum"/>`, `<a:p><a:fld id="{1}" type="slidenum"><a:t>7</a:t></a:fld></a:p>`))},
	)
	docs, err := Importer{}.Import(context.Background(), "안내.pptx", data)
	if err != nil {
		t.Fatal(err)
	}
	d := docs[0]
	if d.Title != "학사 안내" || d.Pages != 2 || d.Unit != UnitSlide || len(d.Parts) != 2 || d.Parts[0].Page != 1 || d.Parts[1].Page != 2 {
		t.Fatalf("%q, %d %ss: %+v", d.Title, d.Pages, d.Unit, d.Parts)
	}
	if d.Parts[0].Text != "# 학사 안내\n\n첫째 줄\n\n둘째\n줄\n\n" || d.Parts[1].Text != "# 둘째 장: 일정\n\n접수 | 3월 2일\n\n" {
		t.Errorf("pages %q, %q", d.Parts[0].Text, d.Parts[1].Text)
	}

	docs = fixture(t, "regulation.pptx")
	if d := docs[0]; d.Title != "학칙" || d.Pages != 4 || !strings.HasPrefix(d.Parts[1].Text, "# 제1장 총칙\n\n제1조(목적)\n\n") ||
		!strings.Contains(d.Parts[1].Text, "\n\n1학기 | 3월~6월 | 정규\n\n") || d.Parts[2].Text != "첫째 항목: 휴학 신청\n\n둘째 항목: 복학 신청\n\n" {
		t.Errorf("pandoc's slides %q: %+v", d.Title, d.Parts)
	}

	// The speaker's notes follow their slide, quoted; the notes' own slide
	// number field is left out.
	docs = fixture(t, "notes.pptx")
	if p := docs[0].Parts; len(p) != 2 || p[0].Text != "# 휴학 안내\n\n휴학은 포털에서 신청한다.\n\n> 발표자 메모: 휴학 신청 마감은 개강 2주 전이라고 말할 것.\n\n" ||
		p[1].Text != "# 복학 안내\n\n복학은 학기 시작 전에 신청한다.\n\n" {
		t.Errorf("slides with notes: %+v", p)
	}

	if _, err = (Importer{}).Import(context.Background(), "old.ppt", []byte{0xD0, 0xCF, 0x11, 0xE0}); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), ".pptx") {
		t.Errorf("old .ppt: %v", err)
	}
	if _, err = (Importer{}).Import(context.Background(), "empty.pptx", zipOf(t, part{"ppt/slides/slide1.xml", slide("")})); !errors.Is(err, ErrEmpty) {
		t.Errorf("no text: %v", err)
	}
}

// TestLongSlideIsNotCopiedOver: a slide's text is gathered once, not
// appended to itself a block at a time: a slide of 60 MB of text (a
// 146 KB file) took 41 s and 985 MiB through kb import, its text copied
// over and over; now 505 MiB. Here 16 MB of text may allocate some
// times its size, where the copies were 2 GB.
func TestLongSlideIsNotCopiedOver(t *testing.T) {
	text := strings.Repeat("슬라이드 글 ", (16<<20)/17)
	for _, tt := range []struct{ file string }{{"긴.pptx"}, {"긴.odp"}} {
		data := deck(t, "", []string{text})
		if strings.HasSuffix(tt.file, ".odp") {
			data = odpOf(t, `<draw:page>`+frame("", text)+`</draw:page>`)
		}
		var docs int
		alloc := allocated(func() {
			got, err := Importer{}.Import(context.Background(), tt.file, data)
			if err != nil {
				t.Fatal(err)
			}
			docs = len(got)
		})
		if docs != 1 || alloc > 16*uint64(len(text)) {
			t.Errorf("%s: %d documents, %d MB allocated for %d MB of text", tt.file, docs, alloc>>20, len(text)>>20)
		}
	}
}
