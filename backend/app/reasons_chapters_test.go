package app

import (
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// TestChapterPiecesAreSaid: a book's chapter that lost one token past the
// page's bound, or was read only partly, is said so in both languages
// (what was left out, the chapter), never as a chapter "not imported".
func TestChapterPiecesAreSaid(t *testing.T) {
	for _, tt := range []struct {
		err  error
		code string
		want []string
	}{
		{&importer.LongSkipped{Unit: "chapter", Part: "c1.xhtml", What: "<script>", Count: 1}, "long_token_chapter", []string{"c1.xhtml", "<script>", "16 MB"}},
		{&importer.LongSkipped{Unit: "chapter", Part: "c2.xhtml", Count: 2}, "long_text_chapter", []string{"c2.xhtml", "16 MB"}},
		{&importer.PartlyRead{Unit: "chapter", Part: "c3.xhtml"}, "partly_chapter", []string{"c3.xhtml"}},
	} {
		r := reasonOf(tt.err)
		if r == nil || r.Code != tt.code {
			t.Fatalf("%v: reason %+v, want %s", tt.err, r, tt.code)
		}
		for lang := range 2 {
			line := reasonLine(tt.err.Error(), r, lang)
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("%s, language %d: %q lacks %q", tt.code, lang, line, w)
				}
			}
			if strings.Contains(line, "not imported") || strings.Contains(line, "가져오지 못했") || line == tt.err.Error() {
				t.Errorf("%s, language %d: %q", tt.code, lang, line)
			}
		}
	}
}
