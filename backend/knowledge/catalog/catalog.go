// Package catalog holds Wayfinder's built-in knowledge: a curated list of
// real AI tools and services, embedded in the binary so that recommendations
// work on the first start, offline, before the person has imported anything.
//
// The data lives in catalog.json beside this file. Prices and plans change
// often: every entry carries the date it was last checked and the guide
// shows prices as "about", never as a promise. When the content changes the
// version string must change too (TestVersionMatchesContent enforces it;
// `go test ./backend/knowledge/catalog -run TestVersionMatchesContent
// -update` rewrites it), because the knowledge base re-indexes the catalog
// only when the version it indexed differs from the embedded one.
package catalog

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

//go:embed catalog.json
var catalogJSON []byte

// Category is one of the fixed groups the UI browses the catalog by.
type Category string

const (
	Video              Category = "video"
	Image              Category = "image"
	AudioVoice         Category = "audio-voice"
	Writing            Category = "writing"
	Translation        Category = "translation"
	Coding             Category = "coding"
	ResearchSearch     Category = "research-search"
	PresentationDesign Category = "presentation-design"
	DataAnalysis       Category = "data-analysis"
	Automation         Category = "automation"
	Productivity       Category = "productivity"
)

// Categories lists every category in display order.
func Categories() []Category {
	return []Category{Video, Image, AudioVoice, Writing, Translation, Coding,
		ResearchSearch, PresentationDesign, DataAnalysis, Automation, Productivity}
}

// Valid reports whether c is one of the fixed categories.
func (c Category) Valid() bool {
	for _, k := range Categories() {
		if c == k {
			return true
		}
	}
	return false
}

// PricingModel says how a tool is paid for.
type PricingModel string

const (
	Free       PricingModel = "free"
	Freemium   PricingModel = "freemium"
	Paid       PricingModel = "paid"
	OpenSource PricingModel = "open-source"
)

// Valid reports whether m is a known pricing model.
func (m PricingModel) Valid() bool {
	switch m {
	case Free, Freemium, Paid, OpenSource:
		return true
	}
	return false
}

// Pricing is what the tool costs to start with. EntryPriceUSDMonth is nil
// when the price is unknown or not comparable (per-use billing, regional
// prices), so the guide never invents a number.
type Pricing struct {
	Model              PricingModel `json:"model"`
	EntryPriceUSDMonth *float64     `json:"entry_price_usd_month,omitempty"`
	Notes              string       `json:"notes"`
}

// Entry is one AI tool or service.
type Entry struct {
	Name          string     `json:"name"`
	Categories    []Category `json:"categories"`
	Tasks         []string   `json:"tasks"`
	DescriptionEN string     `json:"description_en"`
	DescriptionKO string     `json:"description_ko"`
	URL           string     `json:"url"`
	Pricing       Pricing    `json:"pricing"`
	Platforms     []string   `json:"platforms"`
	Languages     []string   `json:"languages"`
	LastChecked   string     `json:"last_checked"`
}

// Catalog is the whole embedded list.
type Catalog struct {
	// Version identifies the content; it ends with ContentHash so that any
	// edit to the entries forces a new version (see the package comment).
	Version     string  `json:"version"`
	LastChecked string  `json:"last_checked"`
	Entries     []Entry `json:"entries"`
}

// ErrInvalid marks a catalog whose content breaks the schema.
var ErrInvalid = errors.New("invalid catalog")

// Load parses and validates the embedded catalog. It returns a fresh copy on
// every call, so callers may modify what they get.
func Load() (Catalog, error) {
	return Parse(catalogJSON)
}

// Parse reads a catalog from JSON and validates every entry; unknown fields
// are rejected so that a typo in catalog.json cannot silently drop data.
func Parse(data []byte) (Catalog, error) {
	var c Catalog
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Catalog{}, fmt.Errorf("parse catalog: %w", err)
	}
	if err := c.Validate(); err != nil {
		return Catalog{}, err
	}
	return c, nil
}

// Validate checks the whole catalog: a version, at least one entry, every
// entry valid and names unique regardless of case. All problems are
// reported together so that one run of the test lists everything to fix.
func (c Catalog) Validate() error {
	var errs []error
	if strings.TrimSpace(c.Version) == "" {
		errs = append(errs, errors.New("version is empty"))
	}
	if len(c.Entries) == 0 {
		errs = append(errs, errors.New("no entries"))
	}
	seen := make(map[string]int, len(c.Entries))
	for i, e := range c.Entries {
		if err := e.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("entry %d: %w", i, err))
		}
		key := strings.ToLower(strings.TrimSpace(e.Name))
		if j, dup := seen[key]; dup {
			errs = append(errs, fmt.Errorf("entry %d %q: duplicate name (entry %d)", i, e.Name, j))
		}
		seen[key] = i
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrInvalid, errors.Join(errs...))
	}
	return nil
}

// ContentHash is a short digest of the entries. It is what the version
// string ends with.
func (c Catalog) ContentHash() string {
	b, err := json.Marshal(c.Entries)
	if err != nil {
		// Entries hold only strings, slices and numbers: Marshal cannot fail.
		panic(fmt.Sprintf("catalog: marshal entries: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// ByCategory returns the entries in category cat, in catalog order.
func (c Catalog) ByCategory(cat Category) []Entry {
	var out []Entry
	for _, e := range c.Entries {
		if e.HasCategory(cat) {
			out = append(out, e)
		}
	}
	return out
}

// CountByCategory counts entries per category (an entry in two categories
// counts in both).
func (c Catalog) CountByCategory() map[Category]int {
	n := make(map[Category]int, len(Categories()))
	for _, e := range c.Entries {
		for _, cat := range e.Categories {
			n[cat]++
		}
	}
	return n
}

// Find looks an entry up by name, ignoring case and surrounding spaces.
func (c Catalog) Find(name string) (Entry, bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, e := range c.Entries {
		if strings.ToLower(e.Name) == key {
			return e, true
		}
	}
	return Entry{}, false
}

// HasCategory reports whether the entry belongs to cat.
func (e Entry) HasCategory(cat Category) bool {
	for _, c := range e.Categories {
		if c == cat {
			return true
		}
	}
	return false
}
