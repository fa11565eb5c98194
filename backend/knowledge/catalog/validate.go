package catalog

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// maxEntryPrice bounds entry prices: no plan a person starts with costs more
// than this per month, so a larger number is a typo (cents, yearly price).
const maxEntryPrice = 500

// knownPlatforms are the platform names the UI has icons and labels for.
var knownPlatforms = map[string]bool{
	"web": true, "windows": true, "macos": true, "linux": true, "ios": true,
	"android": true, "api": true, "cli": true, "vscode": true, "jetbrains": true,
	"visualstudio": true, "docker": true,
}

// KnownPlatform reports whether p is a platform name the catalog may use.
func KnownPlatform(p string) bool { return knownPlatforms[p] }

// Validate checks one entry against the schema and returns every problem
// found, joined.
func (e Entry) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	if strings.TrimSpace(e.Name) == "" || e.Name != strings.TrimSpace(e.Name) {
		bad("name %q is empty or has surrounding spaces", e.Name)
	}
	if len(e.Categories) == 0 {
		bad("no categories")
	}
	for _, c := range e.Categories {
		if !c.Valid() {
			bad("unknown category %q", c)
		}
	}
	if len(e.Tasks) == 0 {
		bad("no tasks")
	}
	for _, t := range e.Tasks {
		if strings.TrimSpace(t) == "" {
			bad("empty task")
		}
	}
	if strings.TrimSpace(e.DescriptionEN) == "" {
		bad("description_en is empty")
	}
	if !containsHangul(e.DescriptionKO) {
		bad("description_ko has no Korean text")
	}
	if err := checkURL(e.URL); err != nil {
		bad("url: %v", err)
	}
	if err := e.Pricing.validate(); err != nil {
		bad("pricing: %v", err)
	}
	if len(e.Platforms) == 0 {
		bad("no platforms")
	}
	for _, p := range e.Platforms {
		if !knownPlatforms[p] {
			bad("unknown platform %q", p)
		}
	}
	if len(e.Languages) == 0 {
		bad("no languages")
	}
	for _, l := range e.Languages {
		if !isISO639_1(l) {
			bad("language %q is not a two-letter ISO 639-1 code", l)
		}
	}
	if _, err := time.Parse(time.DateOnly, e.LastChecked); err != nil {
		bad("last_checked %q is not a YYYY-MM-DD date", e.LastChecked)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%q: %w", e.Name, errors.Join(errs...))
	}
	return nil
}

func (p Pricing) validate() error {
	if !p.Model.Valid() {
		return fmt.Errorf("unknown model %q", p.Model)
	}
	if strings.TrimSpace(p.Notes) == "" {
		return errors.New("notes are empty")
	}
	if p.EntryPriceUSDMonth == nil {
		return nil
	}
	price := *p.EntryPriceUSDMonth
	switch {
	case price < 0 || price > maxEntryPrice:
		return fmt.Errorf("entry price %v is outside 0..%d", price, maxEntryPrice)
	case p.Model == Free && price != 0:
		return fmt.Errorf("free tool with entry price %v", price)
	case p.Model == Paid && price == 0:
		return errors.New("paid tool with entry price 0")
	}
	return nil
}

func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "https" || u.Host == "" || !u.IsAbs() {
		return fmt.Errorf("%q is not an absolute https URL", raw)
	}
	if strings.ContainsAny(raw, " \t\n") || u.User != nil {
		return fmt.Errorf("%q has spaces or credentials", raw)
	}
	if !strings.Contains(u.Hostname(), ".") {
		return fmt.Errorf("%q has no domain", raw)
	}
	return nil
}

func containsHangul(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

func isISO639_1(s string) bool {
	return len(s) == 2 && s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z'
}
