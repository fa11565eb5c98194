package importer

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// TestRepeatedPartsAreReadOnce: an index that names a part more than once
// (an EPUB's spine, a presentation's list of slides, a workbook's sheets,
// an HWPX file's spine, an OpenDocument presentation's slide written
// again under its name) has
// each part read once, where it first comes, and the repeats named in a
// warning (*RepeatedParts); a slide keeps the number of its place. Before,
// such a file read each repeat again, and one that named a part 200,000
// times was refused whole on the limit of parts (TestHostileClasses'
// loop.*).
func TestRepeatedPartsAreReadOnce(t *testing.T) {
	chapter := func(text string) string {
		return `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>` + text + `</p></body></html>`
	}
	book := zipOf(t,
		part{"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`},
		part{"OEBPS/a.xhtml", chapter("첫 장")}, part{"OEBPS/b.xhtml", chapter("둘째 장")}, part{"OEBPS/c.xhtml", chapter("셋째 장")},
		part{"OEBPS/content.opf", `<package><metadata><title>책</title></metadata><manifest>` +
			`<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="b" href="b.xhtml" media-type="application/xhtml+xml"/>` +
			`<item id="c" href="c.xhtml" media-type="application/xhtml+xml"/><item id="a2" href="a.xhtml" media-type="application/xhtml+xml"/></manifest>` +
			`<spine><itemref idref="a"/><itemref idref="b"/><itemref idref="a"/><itemref idref="a2"/><itemref idref="b"/><itemref idref="c"/><itemref idref="a"/></spine></package>`})
	section := func(text string) string {
		return `<?xml version="1.0"?><hs:sec ` + hwpxNS + `>` + hp("0", "<hp:t>"+text+"</hp:t>") + `</hs:sec>`
	}
	hancom := zipOf(t, part{"mimetype", "application/hwp+zip"},
		part{"Contents/section0.xml", section("첫 구역")}, part{"Contents/section1.xml", section("둘째 구역")},
		part{"Contents/content.hpf", `<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest>` +
			`<opf:item id="s0" href="Contents/section0.xml" media-type="application/xml"/><opf:item id="s1" href="Contents/section1.xml" media-type="application/xml"/></opf:manifest>` +
			`<opf:spine><opf:itemref idref="s0"/><opf:itemref idref="s0"/><opf:itemref idref="s1"/><opf:itemref idref="s0"/></opf:spine></opf:package>`})
	var workbook bytes.Buffer
	if err := hostile.XLSXBook(&workbook, `<sheet name="수입" sheetId="1" r:id="rId1"/><sheet name="수입 사본" sheetId="2" r:id="rId1"/><sheet name="지출" sheetId="3" r:id="rId2"/><sheet name="또" sheetId="4" r:id="rId1"/>`,
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`+
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/>`,
		map[string]string{"xl/worksheets/sheet1.xml": `<worksheet><sheetData><row><c t="inlineStr"><is><t>월급</t></is></c></row></sheetData></worksheet>`,
			"xl/worksheets/sheet2.xml": `<worksheet><sheetData><row><c t="inlineStr"><is><t>월세</t></is></c></row></sheetData></worksheet>`}); err != nil {
		t.Fatal(err)
	}
	var sheets bytes.Buffer
	if err := hostileClass(t, "loop.ods").Write(&sheets, 3); err != nil {
		t.Fatal(err)
	}
	odpSlide := func(name, text string) string {
		return `<draw:page draw:name="` + name + `">` + frame("title", text) + `</draw:page>`
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want       []string // the text of each part, in order
		pages      []int    // each part's page (slides)
		count      int      // repeats left out
		names      []string // the parts named again
	}{
		{"EPUB", "책.epub", book, []string{"첫 장", "둘째 장", "셋째 장"}, nil, 4, []string{"a.xhtml", "b.xhtml"}},
		{"PowerPoint", "발표.pptx", deck(t, "메모", []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}, "rId2", "rId1", "rId2"),
			[]string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}, []int{1, 2, 3}, 3, []string{"slide 2", "slide 1"}},
		{"PowerPoint, repeats last", "발표.pptx", deck(t, "", []string{"첫 슬라이드"}, "rId1", "rId1"),
			[]string{"첫 슬라이드"}, []int{1}, 2, []string{"slide 1"}},
		{"Excel", "가계부.xlsx", workbook.Bytes(), []string{"수입: 월급", "지출: 월세"}, nil, 2, []string{`"수입"`}},
		// An OpenDocument table written again under its name, the same
		// XML (LibreOffice keeps names distinct): its rows were read again.
		{"OpenDocument spreadsheet", "가계부.ods", sheets.Bytes(), []string{"표: 되풀이된 표", "끝: 마지막 표"}, nil, 2, []string{`"표"`}},
		{"HWPX", "문서.hwpx", hancom, []string{"첫 구역", "둘째 구역"}, nil, 2, []string{"Contents/section0.xml"}},
		// The same name with other text is another slide: LibreOffice
		// keeps names distinct, but a slide is left out only when it is
		// the same.
		{"OpenDocument", "발표.odp", odpOf(t, odpSlide("p1", "첫 슬라이드")+odpSlide("p1", "첫 슬라이드")+odpSlide("p2", "둘째 슬라이드")+
			odpSlide("p1", "첫 슬라이드")+odpSlide("p1", "다른 슬라이드")+odpSlide("", "이름 없는 슬라이드")+odpSlide("", "이름 없는 슬라이드")),
			[]string{"첫 슬라이드", "둘째 슬라이드", "다른 슬라이드", "이름 없는 슬라이드", "이름 없는 슬라이드"}, []int{1, 3, 5, 6, 7}, 2, []string{"slide 1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			docs, warns, err := importWarned(tt.file, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			var text []string
			var pages []int
			for _, p := range docs[0].Parts {
				for _, para := range strings.Split(p.Text, "\n\n") {
					if para = strings.Trim(para, "#> \n"); para != "" && para != "메모" {
						text, pages = append(text, para), append(pages, p.Page)
					}
				}
			}
			if !slices.Equal(text, tt.want) || tt.pages != nil && !slices.Equal(pages, tt.pages) {
				t.Errorf("text %q on pages %v, want %q on %v", text, pages, tt.want, tt.pages)
			}
			if tt.pages != nil && docs[0].Pages != tt.pages[len(tt.pages)-1] {
				t.Errorf("%d pages, want %d", docs[0].Pages, tt.pages[len(tt.pages)-1])
			}
			var rp *RepeatedParts
			var named []string
			if len(warns) == 1 && errors.As(warns[0], &rp) {
				named = rp.Names
			}
			if len(warns) != 1 || rp == nil || rp.Count != tt.count || !slices.Equal(named, tt.names) || rp.Parts != len(tt.names) {
				t.Fatalf("warnings %v (%+v), want %d repeats of %q", warns, rp, tt.count, tt.names)
			}
		})
	}
}

// TestRepeatedSlidesStopTheReading: an OpenDocument presentation that
// writes one slide again more than maxOfficeParts times is read no
// further (each repeat costs its XML and gives nothing: 200,000 took
// 3.6 s), and the slides after are said lost by the repeats' warning
// alone (*RepeatedParts, Stopped), not as a break-off, whose count would
// hold the repeats; one repeat fewer reads to the end.
func TestRepeatedSlidesStopTheReading(t *testing.T) {
	loop := hostileClass(t, "loop.odp")
	for _, tt := range []struct {
		n       int
		stopped bool
	}{{maxOfficeParts, false}, {maxOfficeParts + 1, true}} {
		var b bytes.Buffer
		if err := loop.Write(&b, tt.n); err != nil {
			t.Fatal(err)
		}
		docs, warns, err := importWarned("loop.odp", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		last := strings.Contains(docs[0].Parts[len(docs[0].Parts)-1].Text, "마지막 슬라이드")
		var rp *RepeatedParts
		if tt.stopped {
			// The repeats' warning says the reading stopped; a break-off
			// ("slides 1 to 10001 were imported") would count the
			// repeats as slides read.
			if last || len(warns) != 1 || !errors.As(warns[0], &rp) || !rp.Stopped || rp.Count != maxOfficeParts {
				t.Errorf("%d slides: the last read %v, warnings %v: want the reading stopped, said by the repeats alone", tt.n, last, warns)
			}
		} else if !last || len(warns) != 1 || !errors.As(warns[0], &rp) || rp.Stopped || rp.Count != tt.n-1 {
			t.Errorf("%d slides: the last read %v, warnings %v: want it read, %d repeats", tt.n, last, warns, tt.n-1)
		}
	}
}

// hostileClass is the class of package hostile that writes file.
func hostileClass(t *testing.T, file string) hostile.Class {
	t.Helper()
	classes := hostile.Classes()
	i := slices.IndexFunc(classes, func(c hostile.Class) bool { return c.File == file })
	if i < 0 {
		t.Fatalf("no hostile class writes %s", file)
	}
	return classes[i]
}
