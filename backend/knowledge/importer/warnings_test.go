package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// without is the ZIP archive data with the parts names left out.
func without(t testing.TB, data []byte, names ...string) []byte {
	t.Helper()
	return rewritten(t, data, names)
}

// rewritten is the ZIP archive data with the parts drop left out and add
// added.
func rewritten(t testing.TB, data []byte, drop []string, add ...part) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var kept []part
	for _, f := range z.File {
		if slices.Contains(drop, f.Name) {
			continue
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, part{f.Name, string(body)})
	}
	if len(drop) > 0 && len(kept) == len(z.File) {
		t.Fatalf("the archive holds none of %q", drop)
	}
	return zipOf(t, append(kept, add...)...)
}

// deck is a presentation of slides, each given by its text, slide i+1 in
// ppt/slides/slide<i+1>.xml; extra slide ids (rIdN) name relationships
// the .rels part lacks; notes gives slide 1 a notes part.
func deck(t testing.TB, notes string, texts []string, extraIDs ...string) []byte {
	t.Helper()
	ids, rels := "", ""
	var parts []part
	for i, text := range texts {
		n := string(rune('1' + i))
		ids += `<p:sldId id="25` + n + `" r:id="rId` + n + `"/>`
		rels += `<Relationship Id="rId` + n + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide` + n + `.xml"/>`
		parts = append(parts, part{"ppt/slides/slide" + n + ".xml", slide(shape(`<p:ph idx="1"/>`, ap(text)))})
	}
	for _, id := range extraIDs {
		ids += `<p:sldId id="300" r:id="` + id + `"/>`
	}
	if notes != "" {
		parts = append(parts,
			part{"ppt/slides/_rels/slide1.xml.rels", `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide1.xml"/></Relationships>`},
			part{"ppt/notesSlides/notesSlide1.xml", `<p:notes ` + slideNS + `><p:cSld><p:spTree>` + shape("", ap(notes)) + `</p:spTree></p:cSld></p:notes>`})
	}
	return zipOf(t, append(parts,
		part{"ppt/presentation.xml", `<p:presentation ` + slideNS + `><p:sldIdLst>` + ids + `</p:sldIdLst></p:presentation>`},
		part{"ppt/_rels/presentation.xml.rels", `<Relationships>` + rels + `</Relationships>`})...)
}

// TestMissingPartsAreWarned: every container format follows one rule. A
// part its index names (an EPUB's spine, a presentation's slide list, a
// workbook's sheets, an HWPX file's sections, a slide's notes) that the
// archive lacks is left out, and a warning names it, in words; the parts
// that are there are imported, slides keeping their numbers. A file that
// holds none of its parts (or whose one body part is missing: Word,
// OpenDocument) is damaged. Before, a book lost its chapters silently
// while a presentation or workbook that lacked one part failed whole.
func TestMissingPartsAreWarned(t *testing.T) {
	chapters := []string{"<p>첫 장</p>", "<p>둘째 장</p>", "<p>셋째 장</p>"}
	sheets := [][2]string{{"수입", `<row><c t="inlineStr"><is><t>월급</t></is></c></row>`}, {"지출", `<row><c t="inlineStr"><is><t>월세</t></is></c></row>`}, {"메모", `<row><c t="inlineStr"><is><t>적금</t></is></c></row>`}}
	slides := []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}
	sections := []string{hp("0", "<hp:t>첫 구역</hp:t>"), hp("0", "<hp:t>둘째 구역</hp:t>"), hp("0", "<hp:t>셋째 구역</hp:t>")}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want, gone []string     // text read; text that must not be
		pages      []int        // the slides' numbers, for a presentation
		warn       MissingParts // Unit "" for none
	}{
		{"EPUB: a chapter of three", "책.epub", without(t, epubOf(t, chapters), "OEBPS/text/c1 a.xhtml"),
			[]string{"첫 장", "셋째 장"}, []string{"둘째 장"}, nil, MissingParts{Unit: "chapter", Names: []string{"text/c1 a.xhtml"}, Count: 1, Total: 3}},
		{"EPUB: two chapters of three", "책.epub", without(t, epubOf(t, chapters), "OEBPS/text/c0 a.xhtml", "OEBPS/text/c2 a.xhtml"),
			[]string{"둘째 장"}, []string{"첫 장", "셋째 장"}, nil, MissingParts{Unit: "chapter", Names: []string{"text/c0 a.xhtml", "text/c2 a.xhtml"}, Count: 2, Total: 3}},
		{"PowerPoint: a slide's part", "발표.pptx", without(t, deck(t, "", slides), "ppt/slides/slide2.xml"),
			[]string{"첫 슬라이드", "셋째 슬라이드"}, []string{"둘째 슬라이드"}, []int{1, 3}, MissingParts{Unit: "slide", Names: []string{"slide 2"}, Count: 1, Total: 3}},
		{"PowerPoint: a slide's relationship", "발표.pptx", deck(t, "", slides[:2], "rId9"),
			[]string{"첫 슬라이드", "둘째 슬라이드"}, nil, []int{1, 2}, MissingParts{Unit: "slide", Names: []string{"slide 3"}, Count: 1, Total: 3}},
		{"PowerPoint: a slide's notes", "발표.pptx", without(t, deck(t, "메모", slides[:1]), "ppt/notesSlides/notesSlide1.xml"),
			[]string{"첫 슬라이드"}, nil, []int{1}, MissingParts{Unit: "speaker's notes", Names: []string{"slide 1"}, Count: 1, Total: 1}},
		{"HWPX: a section of three", "문서.hwpx", without(t, hwpxOf(t, sections...), "Contents/section1.xml"),
			[]string{"첫 구역", "셋째 구역"}, []string{"둘째 구역"}, nil, MissingParts{Unit: "section", Names: []string{"Contents/section1.xml"}, Count: 1, Total: 3}},
		{"Excel: a sheet's part", "가계부.xlsx", without(t, xlsxOf(t, "", "", "", sheets...), "xl/worksheets/sheet2.xml"),
			[]string{"수입: 월급", "메모: 적금"}, []string{"월세"}, nil, MissingParts{Unit: "sheet", Names: []string{`"지출"`}, Count: 1, Total: 3}},
		{"Excel: a sheet's relationship", "가계부.xlsx", rewritten(t, xlsxOf(t, "", "", "", sheets...), []string{"xl/_rels/workbook.xml.rels"},
			part{"xl/_rels/workbook.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="` + relSheet + `" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="` + relSheet + `" Target="worksheets/sheet2.xml"/></Relationships>`}),
			[]string{"수입: 월급", "지출: 월세"}, []string{"적금"}, nil, MissingParts{Unit: "sheet", Names: []string{`"메모"`}, Count: 1, Total: 3}},
		{"Excel: a chart sheet is no missing sheet", "가계부.xlsx", rewritten(t, xlsxOf(t, "", "", "", sheets[:2]...), []string{"xl/_rels/workbook.xml.rels", "xl/workbook.xml"},
			part{"xl/workbook.xml", `<workbook ` + xlsxNS + `><sheets><sheet name="수입" sheetId="1" r:id="rId1"/><sheet name="차트" sheetId="3" r:id="rId4"/><sheet name="지출" sheetId="2" r:id="rId2"/></sheets></workbook>`},
			part{"xl/_rels/workbook.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="` + relSheet + `" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="` + relSheet + `" Target="worksheets/sheet2.xml"/>` +
				`<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>`}),
			[]string{"수입: 월급", "지출: 월세"}, nil, nil, MissingParts{}},
		{"Excel: the shared strings", "가계부.xlsx", without(t, xlsxOf(t, `<si><t>월급</t></si><si><t>월세</t></si>`, "", "", [2]string{"수입", `<row><c t="s"><v>0</v></c><c><v>3000000</v></c></row><row><c t="s"><v>1</v></c><c><v>500000</v></c></row>`}), "xl/sharedStrings.xml"),
			[]string{"| 3000000", "| 500000"}, []string{"월급"}, nil, MissingParts{Unit: "text cell", Names: []string{"수입!A1", "수입!A2"}, Count: 2, Total: 2}},
		{"Excel: shared strings and styles where the relationships put them", "가계부.xlsx", rewritten(t, xlsxOf(t, `<si><t>월급</t></si>`, `<numFmts><numFmt numFmtId="164" formatCode="#,##0&quot;원&quot;"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs>`, "",
			[2]string{"수입", `<row><c t="s"><v>0</v></c><c s="1"><v>3000000</v></c></row>`}), []string{"xl/sharedStrings.xml", "xl/styles.xml", "xl/_rels/workbook.xml.rels"},
			part{"xl/_rels/workbook.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="` + relSheet + `" Target="worksheets/sheet1.xml"/>` +
				`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="/shared/strings.xml"/>` +
				`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="look.xml"/></Relationships>`},
			part{"shared/strings.xml", `<sst ` + xlsxNS + `><si><t>월급</t></si></sst>`},
			part{"xl/look.xml", `<styleSheet ` + xlsxNS + `><numFmts><numFmt numFmtId="164" formatCode="#,##0&quot;원&quot;"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`}),
			[]string{"수입: 월급 | 3,000,000원"}, nil, nil, MissingParts{}},
		{"Word: the footnotes", "논문.docx", docxOf(t, noted("본문이다.", "footnote", "1"), "", part{"word/_rels/document.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>`}),
			[]string{"본문이다."}, nil, nil, MissingParts{Unit: "notes part", Names: []string{"word/footnotes.xml"}, Count: 1, Total: 1}},
		{"Word: notes that are there", "논문.docx", docxOf(t, noted("본문이다.", "footnote", "1"), "", footnotesXML(footnote("1", "출처")), part{"word/_rels/document.xml.rels", `<Relationships ` + relsNS + `><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>`}),
			[]string{"본문이다.[^1]", "[^1] 출처"}, nil, nil, MissingParts{}},
		{"HWP: a section between others", "문서.hwp", hwpOfSections(0, 2, 3), []string{"구역 0", "구역 2", "구역 3"}, nil, nil, MissingParts{Unit: "section", Names: []string{"BodyText/Section1"}, Count: 1, Total: 4}},
		{"HWP: the first sections", "문서.hwp", hwpOfSections(7), []string{"구역 7"}, nil, nil,
			MissingParts{Unit: "section", Names: []string{"BodyText/Section0", "BodyText/Section1", "BodyText/Section2", "BodyText/Section3", "BodyText/Section4"}, Count: 7, Total: 8}},
		{"HWP: a gap of two billion is counted, not walked", "문서.hwp", hwpOfSections(0, 2_000_000_000), []string{"구역 0", "구역 2000000000"}, nil, nil,
			MissingParts{Unit: "section", Names: []string{"BodyText/Section1", "BodyText/Section2", "BodyText/Section3", "BodyText/Section4", "BodyText/Section5"}, Count: 1_999_999_999, Total: 2_000_000_001}},
		{"a complete HWP file", "문서.hwp", hwpOfSections(0, 1, 2), []string{"구역 0", "구역 1", "구역 2"}, nil, nil, MissingParts{}},
		{"complete files warn of nothing", "책.epub", epubOf(t, chapters), []string{"첫 장", "둘째 장", "셋째 장"}, nil, nil, MissingParts{}},
		{"a complete deck with notes", "발표.pptx", deck(t, "메모", slides), []string{"첫 슬라이드", "> 메모", "셋째 슬라이드"}, nil, []int{1, 2, 3}, MissingParts{}},
		{"a complete workbook", "가계부.xlsx", xlsxOf(t, "", "", "", sheets...), []string{"월급", "월세", "적금"}, nil, nil, MissingParts{}},
		{"a complete HWPX file", "문서.hwpx", hwpxOf(t, sections...), []string{"첫 구역", "둘째 구역", "셋째 구역"}, nil, nil, MissingParts{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var c collector
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data), &c)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			var pages []int
			for _, p := range c.docs[0].Parts {
				text.WriteString(p.Text)
				pages = append(pages, p.Page)
			}
			for _, w := range tt.want {
				if !strings.Contains(text.String(), w) {
					t.Errorf("%q is not in %q", w, text.String())
				}
			}
			for _, g := range tt.gone {
				if strings.Contains(text.String(), g) {
					t.Errorf("%q is in %q", g, text.String())
				}
			}
			if tt.pages != nil && !slices.Equal(pages, tt.pages) {
				t.Errorf("slides %v, want %v", pages, tt.pages)
			}
			if tt.warn.Unit == "" {
				if len(warns) != 0 {
					t.Errorf("warnings %v, want none", warns)
				}
				return
			}
			var mp *MissingParts
			if len(warns) != 1 || !errors.As(warns[0], &mp) {
				t.Fatalf("warnings %v, want one of missing parts", warns)
			}
			if mp.Unit != tt.warn.Unit || !slices.Equal(mp.Names, tt.warn.Names) || mp.Count != tt.warn.Count || mp.Total != tt.warn.Total {
				t.Errorf("warning %+v, want %+v", *mp, tt.warn)
			}
			for _, n := range tt.warn.Names {
				if !strings.Contains(mp.Error(), n) {
					t.Errorf("%q does not name %q", mp.Error(), n)
				}
			}
		})
	}
}

// TestNoPartIsDamage: a container none of whose parts is there has
// nothing to import, and is damaged, whatever its format: the message
// names what it lacks.
func TestNoPartIsDamage(t *testing.T) {
	chapters := []string{"<p>첫 장</p>", "<p>둘째 장</p>"}
	for _, tt := range []struct {
		name, file string
		data       []byte
		says       string // what the message names
	}{
		{"EPUB", "책.epub", without(t, epubOf(t, chapters), "OEBPS/text/c0 a.xhtml", "OEBPS/text/c1 a.xhtml"), "2 chapters"},
		{"PowerPoint", "발표.pptx", without(t, deck(t, "", []string{"하나", "둘"}), "ppt/slides/slide1.xml", "ppt/slides/slide2.xml"), "slide 1, slide 2"},
		{"Excel", "가계부.xlsx", without(t, xlsxOf(t, "", "", "", [2]string{"시트", ""}), "xl/worksheets/sheet1.xml"), `"시트"`},
		{"Excel: text only in the missing shared strings", "가계부.xlsx", without(t, xlsxOf(t, `<si><t>월급</t></si>`, "", "", [2]string{"수입", `<row><c t="s"><v>0</v></c></row>`}), "xl/sharedStrings.xml"), "xl/sharedStrings.xml"},
		{"HWPX", "문서.hwpx", without(t, hwpxOf(t, hp("0", "<hp:t>본문</hp:t>")), "Contents/section0.xml"), "Contents/section0.xml"},
		{"Word", "문서.docx", without(t, docxOf(t, p("", "본문"), ""), "word/document.xml"), "word/document.xml"},
		{"OpenDocument text", "문서.odt", without(t, odtOf(t, "<text:p>본문</text:p>"), "content.xml"), "content.xml"},
		{"OpenDocument presentation", "발표.odp", without(t, zipOf(t, part{"mimetype", "x"}, part{"content.xml", "<x/>"}), "content.xml"), "content.xml"},
		{"OpenDocument spreadsheet", "표.ods", without(t, zipOf(t, part{"mimetype", "x"}, part{"content.xml", "<x/>"}), "content.xml"), "content.xml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data), &collector{})
			if !errors.Is(err, ErrOfficeDamaged) || !strings.Contains(err.Error(), tt.says) || len(warns) != 0 {
				t.Fatalf("err %v, warnings %v: want damaged, naming %q", err, warns, tt.says)
			}
		})
	}
}

// hwpOfSections is an HWP file of the sections numbered, each a paragraph
// "구역 n".
func hwpOfSections(numbers ...int) []byte {
	streams := []hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(0)}}
	for _, n := range numbers {
		streams = append(streams, hwptest.Stream{Path: "BodyText/Section" + strconv.Itoa(n), Data: hwptest.Para(0, 2, 0, hwptest.UTF16("구역 "+strconv.Itoa(n)))})
	}
	return hwptest.CFB(streams)
}
