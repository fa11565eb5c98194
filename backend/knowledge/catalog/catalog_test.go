package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the catalog version to match its content")

func TestVersionMatchesContent(t *testing.T) {
	var c Catalog
	if err := json.Unmarshal(catalogJSON, &c); err != nil {
		t.Fatal(err)
	}
	want := c.LastChecked + "." + c.ContentHash()
	if c.Version == want {
		return
	}
	if !*update {
		t.Fatalf("catalog.json changed but its version did not: version %q, want %q\n"+
			"run: go test ./backend/knowledge/catalog -run TestVersionMatchesContent -update", c.Version, want)
	}
	old := []byte(`"version": "` + c.Version + `"`)
	if !bytes.Contains(catalogJSON, old) {
		t.Fatalf("cannot find %s in catalog.json", old)
	}
	out := bytes.Replace(catalogJSON, old, []byte(`"version": "`+want+`"`), 1)
	if err := os.WriteFile("catalog.json", out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("version updated to %s", want)
}

func TestLoadValidatesEveryEntry(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(c.Entries) < 150 {
		t.Errorf("catalog has %d entries, want at least 150", len(c.Entries))
	}
	counts := c.CountByCategory()
	// The main categories need enough choice for a recommendation to have
	// alternatives; every category needs some.
	for _, cat := range Categories() {
		const minPerCategory = 10
		t.Logf("%-20s %3d", cat, counts[cat])
		if counts[cat] < minPerCategory {
			t.Errorf("category %s has %d entries, want at least %d", cat, counts[cat], minPerCategory)
		}
	}
	t.Logf("%-20s %3d", "total", len(c.Entries))

	koreanTools := []string{"Papago", "CLOVA Note", "Wrtn", "Vrew", "Typecast", "Supertone"}
	for _, name := range koreanTools {
		e, ok := c.Find(name)
		if !ok {
			t.Errorf("Korean service %q missing", name)
			continue
		}
		if !strings.Contains(strings.Join(e.Languages, ","), "ko") {
			t.Errorf("%s does not list Korean", name)
		}
	}
}

func TestIDsUnique(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, e := range c.Entries {
		id := e.ID()
		if prev, dup := seen[id]; dup {
			t.Errorf("%q and %q share id %q", prev, e.Name, id)
		}
		seen[id] = e.Name
	}
}

func price(v float64) *float64 { return &v }

func validEntry() Entry {
	return Entry{
		Name:          "Example",
		Categories:    []Category{Writing},
		Tasks:         []string{"write"},
		DescriptionEN: "Writes things.",
		DescriptionKO: "글을 씁니다.",
		URL:           "https://example.com",
		Pricing:       Pricing{Model: Freemium, EntryPriceUSDMonth: price(10), Notes: "n"},
		Platforms:     []string{"web"},
		Languages:     []string{"en", "ko"},
		LastChecked:   "2026-11-01",
	}
}

func TestEntryValidate(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Entry)
		wantErr string
	}{
		{"valid", func(*Entry) {}, ""},
		{"unknown price ok", func(e *Entry) { e.Pricing.EntryPriceUSDMonth = nil }, ""},
		{"empty name", func(e *Entry) { e.Name = " " }, "name"},
		{"unknown category", func(e *Entry) { e.Categories = []Category{"music"} }, "unknown category"},
		{"no categories", func(e *Entry) { e.Categories = nil }, "no categories"},
		{"no tasks", func(e *Entry) { e.Tasks = nil }, "no tasks"},
		{"blank task", func(e *Entry) { e.Tasks = []string{" "} }, "empty task"},
		{"no english", func(e *Entry) { e.DescriptionEN = "" }, "description_en"},
		{"korean without hangul", func(e *Entry) { e.DescriptionKO = "Writes things." }, "description_ko"},
		{"http url", func(e *Entry) { e.URL = "http://example.com" }, "https"},
		{"relative url", func(e *Entry) { e.URL = "example.com" }, "https"},
		{"url without domain", func(e *Entry) { e.URL = "https://localhost" }, "domain"},
		{"bad pricing model", func(e *Entry) { e.Pricing.Model = "subscription" }, "unknown model"},
		{"negative price", func(e *Entry) { e.Pricing.EntryPriceUSDMonth = price(-1) }, "outside"},
		{"absurd price", func(e *Entry) { e.Pricing.EntryPriceUSDMonth = price(1999) }, "outside"},
		{"free with price", func(e *Entry) { e.Pricing = Pricing{Model: Free, EntryPriceUSDMonth: price(5), Notes: "n"} }, "free tool"},
		{"paid at zero", func(e *Entry) { e.Pricing = Pricing{Model: Paid, EntryPriceUSDMonth: price(0), Notes: "n"} }, "paid tool"},
		{"no notes", func(e *Entry) { e.Pricing.Notes = "" }, "notes"},
		{"no platforms", func(e *Entry) { e.Platforms = nil }, "no platforms"},
		{"unknown platform", func(e *Entry) { e.Platforms = []string{"amiga"} }, "unknown platform"},
		{"bad language", func(e *Entry) { e.Languages = []string{"kor"} }, "ISO 639-1"},
		{"bad date", func(e *Entry) { e.LastChecked = "Nov 2026" }, "last_checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := validEntry()
			tt.mutate(&e)
			err := e.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	entry, _ := json.Marshal(validEntry())
	tests := []struct {
		name, json string
	}{
		{"not json", `{`},
		{"unknown field", `{"version":"v","entries":[],"extra":1}`},
		{"no version", `{"version":"","entries":[` + string(entry) + `]}`},
		{"no entries", `{"version":"v","entries":[]}`},
		{"duplicate names", `{"version":"v","entries":[` + string(entry) + `,` +
			strings.Replace(string(entry), `"Example"`, `"EXAMPLE"`, 1) + `]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse([]byte(tt.json)); err == nil {
				t.Fatal("Parse accepted invalid catalog")
			}
		})
	}
	_, err := Parse([]byte(`{"version":"v","entries":[]}`))
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("error %v is not ErrInvalid", err)
	}
}

func TestRender(t *testing.T) {
	e := validEntry()
	e.Name = "Naver Papago 2"
	e.Categories = []Category{Translation, Writing}
	if got, want := e.ID(), "catalog:naver-papago-2"; got != want {
		t.Errorf("ID = %q, want %q", got, want)
	}
	doc := e.DocumentText()
	for _, want := range []string{"Naver Papago 2", "Writes things.", "글을 씁니다.", "분류: 번역, 글쓰기",
		"from about $10/month", "월 약 $10부터", "한국어 지원", "https://example.com", "2026-11-01"} {
		if !strings.Contains(doc, want) {
			t.Errorf("document text lacks %q:\n%s", want, doc)
		}
	}
	src := e.Source("ko")
	if src.ID != e.ID() || src.URL != e.URL || src.Snippet != e.DescriptionKO || !strings.Contains(src.Source, SourceName) {
		t.Errorf("Source(ko) = %+v", src)
	}
	if e.Source("en").Snippet != e.DescriptionEN {
		t.Error("Source(en) snippet is not the English description")
	}
	e.Pricing.EntryPriceUSDMonth = nil
	if got := e.PriceText("en"); got != "freemium, entry price unknown" {
		t.Errorf("PriceText = %q", got)
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}
