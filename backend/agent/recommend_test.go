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

// A card the reviewer's answer could not fill says why in the person's
// language: a Korean turn showed the English reason on a Korean card.
func TestFallbackPickSpeaksThePersonsLanguage(t *testing.T) {
	found := []api.Source{{Title: "Vrew"}}
	for _, tc := range []struct {
		lang    string
		sources []api.Source
		tool    string
		why     string
	}{
		{"ko", found, "Vrew", "지식 베이스에서 찾은 가장 알맞은 항목이에요(모델의 검토 답을 읽지 못했어요)."},
		{"en", found, "Vrew", "The best match found in the knowledge base (the model's review could not be read)."},
		{"ko", nil, "—", "이 단계에 알맞은 도구를 찾지 못했어요."},
		{"en", nil, "—", "No suitable tool was found for this step."},
	} {
		t.Run(tc.lang+"/"+tc.tool, func(t *testing.T) {
			tool, why := fallbackPick(State{Lang: tc.lang, SubSources: tc.sources})
			if tool != tc.tool || why != tc.why {
				t.Errorf("fallbackPick = %q, %q; want %q, %q", tool, why, tc.tool, tc.why)
			}
		})
	}
}

// What a step still lacks reads in the person's language when the reviewer
// did not say: the Korean trace read "아직 부족함, a concrete tool for this
// step, with its link and price 찾는 중".
func TestStillMissingSpeaksThePersonsLanguage(t *testing.T) {
	for _, tc := range []struct{ said, lang, want string }{
		{"", "ko", "이 단계에 쓸 구체적인 도구와 그 링크, 가격"},
		{"  ", "en", "a concrete tool for this step, with its link and price"},
		{" 가격 정보 ", "ko", "가격 정보"},
	} {
		if got := stillMissing(tc.said, tc.lang); got != tc.want {
			t.Errorf("stillMissing(%q, %q) = %q, want %q", tc.said, tc.lang, got, tc.want)
		}
	}
}
