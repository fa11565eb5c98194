package app

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// TestDamagedSheetsAreNamed: a damaged workbook or RTF document is said
// to be damaged "or not really" one of the kinds read, and the kinds
// named include its own; before, a broken .xlsx or .rtf was "not really a
// Word, PowerPoint, Hancom, OpenDocument or EPUB file".
func TestDamagedSheetsAreNamed(t *testing.T) {
	for _, tt := range []struct{ name, body, kind string }{
		{"broken.xlsx", "PK not really an archive", "Excel"},
		{"broken.ods", "PK not really an archive", "OpenDocument"},
		{"broken.rtf", "hello", "RTF"},
	} {
		_, err := importer.Importer{}.Import(context.Background(), tt.name, []byte(tt.body))
		r := reasonOf(err)
		if r == nil || r.Code != "office_damaged" {
			t.Fatalf("%s: %v, reason %+v, want office_damaged", tt.name, err, r)
		}
		for i, text := range reasonText["knowledge.reason."+r.Code] {
			if !strings.Contains(text, tt.kind) {
				t.Errorf("%s: %q does not name %s (language %d)", tt.name, text, tt.kind, i)
			}
		}
	}
}
