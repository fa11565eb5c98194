package importer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
)

// TestHostilePDFClasses reads every PDF class package hostile writes, at a
// scale small enough for a test, through PDFium: each imports or fails
// with one of pdftext's errors in one line, and the broken ones fail with
// theirs. Their full sizes, which go for the budgets, are measured
// through kb import (the knowledge README's table) and pdftext's own
// tests; three classes whose pages are heavy at any scale are left to
// that hand run.
func TestHostilePDFClasses(t *testing.T) {
	heavy := map[string]bool{"slowpages.pdf": true, "fullpages.pdf": true, "fullwasm.pdf": true}
	scale := map[string]int{
		"deeptree.pdf": 100, "pages.pdf": 100, "glyphs.pdf": 2000, "empty.pdf": 10, "type3.pdf": 2,
		"onepoint.pdf": 2000, "column.pdf": 2000, "scatter.pdf": 2000, "grid.pdf": 2000, "columns.pdf": 2000, "turned.pdf": 2000,
		"saves.pdf": 10_000, "deeparray.pdf": 10_000, "fontbomb.pdf": 8, "imagebomb.pdf": 8, "bigxref.pdf": 10_000,
		"count.pdf": 100_000_000, "cut.pdf": 10, "junk.pdf": 10,
	}
	want := map[string]error{"nopages.pdf": pdftext.ErrCorrupt, "cut.pdf": pdftext.ErrCorrupt, "junk.pdf": pdftext.ErrCorrupt, "empty.pdf": pdftext.ErrNoText}
	ex, err := pdftext.New(context.Background(), filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close(context.Background())
	seen := 0
	for _, c := range hostile.Classes() {
		if !strings.HasSuffix(c.File, ".pdf") || heavy[c.File] {
			continue
		}
		seen++
		t.Run(c.File, func(t *testing.T) {
			n := scale[c.File]
			if n == 0 {
				n = 1
			}
			var b bytes.Buffer
			if err := c.Write(&b, n); err != nil {
				t.Fatal(err)
			}
			var got collector
			_, err := Importer{PDF: ex}.Read(context.Background(), filepath.Join(t.TempDir(), c.File), bytes.NewReader(b.Bytes()), &got)
			t.Logf("%s, %d bytes: %v", c.Name, b.Len(), err)
			if w := want[c.File]; w != nil || err != nil {
				if w != nil && !errors.Is(err, w) {
					t.Fatalf("err = %v, want %v", err, w)
				}
				if !errors.Is(err, pdftext.ErrCorrupt) && !errors.Is(err, pdftext.ErrNoText) && !errors.Is(err, pdftext.ErrEncrypted) &&
					!errors.Is(err, pdftext.ErrTooLarge) && !errors.Is(err, pdftext.ErrTooSlow) {
					t.Fatalf("err = %v, not one of pdftext's", err)
				}
				if strings.Contains(err.Error(), "\n") || strings.Contains(strings.ToLower(err.Error()), "wasm") {
					t.Errorf("error is not one plain line: %q", err)
				}
			}
		})
	}
	if seen < 20 {
		t.Errorf("%d PDF classes read, want every one but the heavy three", seen)
	}
}
