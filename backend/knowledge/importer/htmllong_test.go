package importer

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestLongTokenInAChapter: a chapter holding one token past the
// tokenizer's bound (an inline script or style, an image inlined as a
// data: URI, a comment, one run of text) loses that token, not its text:
// what comes before and after it is imported, the chapters around it too,
// and the warning names what was left out. Since a76cb31 the chapter was
// left out whole ("1 of 3 chapters was not imported"), and a book of one
// such chapter failed on the page's limit.
func TestLongTokenInAChapter(t *testing.T) {
	big := strings.Repeat("QUJD", maxHTMLToken/4+1) // past the bound
	for _, tt := range []struct {
		name, token, what string
	}{
		{"an inline script", "<script>var a = '" + big + "'; if (a < b && c > d) {}</script>", "<script>"},
		{"an inline style, upper case", "<STYLE>p{content:'" + big + "'}</Style>", "<style>"},
		{"a data: URI", `<img alt="그림" src="data:image/png;base64,` + big + `"/>`, "data: URI"},
		{"a data: URI in single quotes", `<img src='data:image/png;base64,` + big + `' alt="x">`, "data: URI"},
		{"a tag's long attribute", `<div title="` + big + `">`, "<div>"},
		{"a comment", "<!-- " + big + " -->", "<!-- -->"},
		{"a run of text", "<p>" + big + "</p>", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			chapter := "<html><body><p>둘째 장 처음</p>" + tt.token + "<p>둘째 장 끝</p></body></html>"
			for _, chapters := range [][]string{{"<p>첫 장</p>", chapter, "<p>셋째 장</p>"}, {chapter}} {
				var col collector
				warns, err := Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(epubOf(t, chapters)), &col)
				if err != nil {
					t.Fatalf("%d chapters: %v", len(chapters), err)
				}
				want := []string{"둘째 장 처음", "둘째 장 끝"}
				if len(chapters) > 1 {
					want = append(want, "첫 장", "셋째 장")
				}
				text := docText(col.docs[0])
				for _, w := range want {
					if !strings.Contains(text, w) {
						t.Errorf("%d chapters: %q is not in the text", len(chapters), w)
					}
				}
				// a run of text keeps its first maxHTMLToken, no more
				if n := strings.Count(text, "QUJD"); tt.what != "" && n > 0 || n > maxHTMLToken/4 {
					t.Errorf("%d chapters: %d of the token's %d units imported", len(chapters), n, maxHTMLToken/4+1)
				}
				var ls *LongSkipped
				if len(warns) != 1 || !errors.As(warns[0], &ls) || ls.What != tt.what || ls.Count != 1 || !strings.HasSuffix(ls.Part, "a.xhtml") {
					t.Fatalf("%d chapters: warnings %v, want one naming %q", len(chapters), warns, tt.what)
				}
				if strings.Contains(warns[0].Error(), "not imported") {
					t.Errorf("warning %q", warns[0])
				}
			}
		})
	}
}

// TestChapterPartlyRead: a chapter damaged after more than maxPartHeld of
// it was handed on keeps that text, and the warning says it was partly
// imported, where it was counted among the chapters "not imported".
func TestChapterPartlyRead(t *testing.T) {
	long := strings.Repeat("<p>긴 장의 문단입니다.</p>\n", 2*maxPartHeld/30)
	junk := strings.Repeat("\x00\x01\x02\x03 ", 100_000)
	var col collector
	warns, err := Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(epubOf(t, []string{"<p>첫 장</p>", long + junk, "<p>셋째 장</p>"})), &col)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"첫 장", "긴 장의 문단입니다.", "셋째 장"} {
		if !strings.Contains(docText(col.docs[0]), w) {
			t.Errorf("%q is not in the text", w)
		}
	}
	var pr *PartlyRead
	if len(warns) != 1 || !errors.As(warns[0], &pr) || strings.Contains(warns[0].Error(), "not imported") {
		t.Fatalf("warnings %v, want one saying the chapter was partly imported", warns)
	}
}

func docText(d Document) string {
	var b strings.Builder
	for _, p := range d.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
