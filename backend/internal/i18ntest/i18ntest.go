// Package i18ntest reads the window's message catalogs
// (frontend/src/i18n/<lang>.json) for the Go tests that hold a Go copy of
// a text (the command line's, the export's, the assistant's own lines) to
// what the window shows.
package i18ntest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Catalog is the window's catalog of lang ("en", "ko"): key → text.
func Catalog(t testing.TB, lang string) map[string]string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "frontend", "src", "i18n", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var catalog map[string]string
	if err := json.Unmarshal(b, &catalog); err != nil {
		t.Fatal(err)
	}
	return catalog
}
