package app

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// windowI18n reads the window's sentences of one language
// (frontend/src/i18n/<lang>.json).
func windowI18n(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../frontend/src/i18n/" + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The command line names every kind the importer reads, and the tool
// catalog, as the window's kindName does (formats.ts with the i18n
// files), in English and Korean; a kind neither knows is said as it came.
func TestKindNamesAreTheWindows(t *testing.T) {
	src, err := os.ReadFile("../../frontend/src/knowledge/formats.ts")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)const KIND_NAMES[^{]*\{(.*?)\};`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no KIND_NAMES in formats.ts")
	}
	same := map[string]string{}
	for _, m := range regexp.MustCompile(`(\w+): "([^"]*)"`).FindAllSubmatch(block[1], -1) {
		same[string(m[1])] = string(m[2])
	}
	// window is kindName of formats.ts, read from its files.
	window := func(words map[string]string, kind string) string {
		ext := map[string]string{"ext": strings.ToUpper(kind)}
		switch kind {
		case "text", "markdown", "html":
			return words["kinds."+kind]
		case "hwp", "hwpx":
			return fill(words["kinds.hancom"], ext)
		case "odt", "ods", "odp":
			return fill(words["kinds.openDocument"], ext)
		case "catalog":
			return words["knowledge.tabCatalog"]
		}
		if w, ok := same[kind]; ok {
			return w
		}
		return kind
	}
	var kinds []string
	for _, ext := range importer.Extensions() {
		k, _ := importer.KindOf("x" + ext)
		kinds = append(kinds, string(k))
	}
	slices.Sort(kinds)
	kinds = append(slices.Compact(kinds), "catalog", "sheet-music")
	for lang, code := range []string{"en", "ko"} {
		words := windowI18n(t, code)
		for _, kind := range kinds {
			got, want := kindName(kind, lang), window(words, kind)
			if got != want || want == "" {
				t.Errorf("%s %s: the command says %q, the window %q", code, kind, got, want)
			}
			if _, known := kindWords[kind]; !known && kind != "sheet-music" {
				t.Errorf("%s: the importer reads it, the command line has no name for it", kind)
			}
		}
	}
	// Not the importer's own values any more.
	for _, tc := range []struct {
		kind string
		lang int
		want string
	}{
		{"html", 0, "Web page"}, {"html", 1, "웹 페이지"}, {"markdown", 1, "마크다운"},
		{"hwp", 0, "Hancom (HWP)"}, {"hwpx", 1, "한글(HWPX)"}, {"odt", 0, "OpenDocument (ODT)"}, {"text", 1, "텍스트"},
	} {
		if got := kindName(tc.kind, tc.lang); got != tc.want {
			t.Errorf("kindName(%q, %d) = %q, want %q", tc.kind, tc.lang, got, tc.want)
		}
	}
}

// The kinds kb import names beside the files it left out are the ones the
// window names beside them (knowledge.leftOutIgnored), in both languages.
func TestLeftOutNamesKindsAsTheWindow(t *testing.T) {
	list := regexp.MustCompile(`\((Wayfinder[^()]*(?:\([^()]*\)[^()]*)*)\)`)
	for lang, code := range []string{"en", "ko"} {
		cli := list.FindStringSubmatch(say("kb.leftOut", lang))
		win := list.FindStringSubmatch(windowI18n(t, code)["knowledge.leftOutIgnored"])
		if cli == nil || win == nil || cli[1] != win[1] {
			t.Errorf("%s: the command line says %q, the window %q", code, cli, win)
		}
	}
}
