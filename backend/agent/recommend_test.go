package agent

import (
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	toolcatalog "github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
)

// A card's link comes from the built-in catalog when its tool is a
// catalog entry by exact name (case and surrounding spaces aside), never
// by a fuzzy match; otherwise the model's URL stays, unmarked.
func TestCatalogLink(t *testing.T) {
	cat, err := toolcatalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, url   string
		wantURL     string
		wantCatalog bool
	}{
		{"Canva", "https://canva-pro-free.example.com", "https://www.canva.com", true},
		{"  cAnVa ", "", "https://www.canva.com", true},
		{"Canva Pro", "https://made-up.example.com", "https://made-up.example.com", false},
		{"Canv", "https://made-up.example.com", "https://made-up.example.com", false},
		{"Totally Unknown Tool", "https://unknown.example.com", "https://unknown.example.com", false},
		{"—", "", "", false},
	}
	for _, tt := range tests {
		rec := api.Recommendation{Tool: tt.tool, URL: tt.url}
		catalogLink(&rec, cat)
		if rec.URL != tt.wantURL || rec.URLFromCatalog != tt.wantCatalog {
			t.Errorf("%q: url %q from catalog %v, want %q %v", tt.tool, rec.URL, rec.URLFromCatalog, tt.wantURL, tt.wantCatalog)
		}
	}
}
