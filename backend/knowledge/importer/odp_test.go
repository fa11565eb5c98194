package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

const odpNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"`

func odpOf(t testing.TB, pages string) []byte {
	t.Helper()
	return zipOf(t, part{"content.xml", `<office:document-content ` + odpNS + `><office:body><office:presentation>` + pages + `</office:presentation></office:body></office:document-content>`})
}

// frame is a text frame of a slide, of the presentation class given.
func frame(class string, paras ...string) string {
	var b strings.Builder
	for _, p := range paras {
		b.WriteString(`<text:p>` + p + `</text:p>`)
	}
	return `<draw:frame presentation:class="` + class + `"><draw:text-box>` + b.String() + `</draw:text-box></draw:frame>`
}

func TestODP(t *testing.T) {
	slide := func(body string) string { return `<draw:page draw:name="p">` + body + `</draw:page>` }
	pages := slide(frame("title", "휴학 안내")+frame("outline", "휴학은 포털에서 신청한다.", "기간은 <text:span>2주</text:span>입니다.")+
		`<draw:frame><table:table><table:table-row><table:table-cell><text:p>구분</text:p></table:table-cell><table:table-cell><text:p>기간</text:p></table:table-cell></table:table-row></table:table></draw:frame>`+
		`<presentation:notes>`+frame("notes", "발표자 메모: 마감을 말할 것.")+frame("page-number", `<text:page-number>&lt;number&gt;</text:page-number>`)+`</presentation:notes>`) +
		slide(frame("title", "복학 안내")+frame("outline", "복학은 학기 전에.")+`<svg:title>그림 제목</svg:title>`)
	docs, err := Importer{}.Import(context.Background(), "안내.odp", odpOf(t, pages))
	if err != nil {
		t.Fatal(err)
	}
	d := docs[0]
	if d.Title != "휴학 안내" || d.Unit != UnitSlide || d.Pages != 2 || len(d.Parts) != 2 || d.Parts[1].Page != 2 {
		t.Fatalf("document: %q %q %d pages, parts %+v", d.Title, d.Unit, d.Pages, d.Parts)
	}
	want := []string{
		"# 휴학 안내\n\n휴학은 포털에서 신청한다.\n\n기간은 2주입니다.\n\n구분 | 기간\n\n> 발표자 메모: 마감을 말할 것.\n\n",
		"# 복학 안내\n\n복학은 학기 전에.\n\n",
	}
	for i, w := range want {
		if d.Parts[i].Text != w {
			t.Errorf("slide %d:\n%q\nwant\n%q", i+1, d.Parts[i].Text, w)
		}
	}
	for _, tt := range []struct {
		name  string
		pages string
		want  error
	}{
		{"no slides", ``, ErrOfficeDamaged},
		{"slides without text", slide(`<draw:frame/>`) + slide(``), ErrEmpty},
		{"a slide without its end", `<draw:page>` + frame("title", "제목"), ErrOfficeDamaged},
	} {
		if _, err := (Importer{}).Import(context.Background(), "x.odp", odpOf(t, tt.pages)); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestODPByLibreOffice: LibreOffice Impress writes the PowerPoint
// fixtures (pandoc's slides, slides with speaker's notes) as .odp, and each
// reads as its .pptx does, slide by slide.
func TestODPByLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	dir := t.TempDir()
	for _, name := range []string{"regulation", "notes"} {
		src := filepath.Join("testdata", "office", name+".pptx")
		if err := progtest.Convert(context.Background(), bin, dir, "odp", src); err != nil {
			t.Fatal(err)
		}
		odpData, err := os.ReadFile(filepath.Join(dir, name+".odp"))
		if err != nil {
			t.Fatal(err)
		}
		pptxData, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Importer{}.Import(context.Background(), name+".odp", odpData)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Importer{}.Import(context.Background(), name+".pptx", pptxData)
		if err != nil {
			t.Fatal(err)
		}
		g, w := got[0], want[0]
		if g.Title != w.Title || g.Pages != w.Pages || g.Unit != UnitSlide || len(g.Parts) != len(w.Parts) {
			t.Fatalf("%s: %q, %d slides (%q); the .pptx: %q, %d slides", name, g.Title, g.Pages, g.Unit, w.Title, w.Pages)
		}
		for i := range w.Parts {
			if g.Parts[i] != w.Parts[i] {
				t.Errorf("%s slide %d:\n%q\nthe .pptx:\n%q", name, i+1, g.Parts[i].Text, w.Parts[i].Text)
			}
		}
	}
}
