package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// SourceName is how catalog passages are labelled in citations.
const SourceName = "Wayfinder AI tool catalog"

// categoryKO gives Korean labels so that Korean queries ("영상 편집") find
// entries through keyword search as well as English ones.
var categoryKO = map[Category]string{
	Video: "영상", Image: "이미지", AudioVoice: "음성·오디오", Writing: "글쓰기",
	Translation: "번역", Coding: "코딩·개발", ResearchSearch: "리서치·검색",
	PresentationDesign: "발표·디자인", DataAnalysis: "데이터 분석",
	Automation: "자동화", Productivity: "생산성",
}

var pricingKO = map[PricingModel]string{
	Free: "무료", Freemium: "부분 무료(유료 플랜 있음)", Paid: "유료", OpenSource: "오픈소스",
}

// LabelKO is the Korean label of a category.
func (c Category) LabelKO() string { return categoryKO[c] }

// ID is a stable document id for the entry, derived from its name, so that
// re-indexing a new catalog version replaces documents instead of adding.
func (e Entry) ID() string {
	var b strings.Builder
	b.WriteString("catalog:")
	dash := false
	for _, r := range strings.ToLower(e.Name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// PriceText describes the entry price in English or Korean ("ko"), saying
// "unknown" rather than guessing.
func (e Entry) PriceText(lang string) string {
	p := e.Pricing
	ko := lang == "ko"
	model := string(p.Model)
	if ko {
		model = pricingKO[p.Model]
	}
	if p.EntryPriceUSDMonth == nil {
		if ko {
			return model + ", 가격 정보 없음"
		}
		return model + ", entry price unknown"
	}
	price := strconv.FormatFloat(*p.EntryPriceUSDMonth, 'f', -1, 64)
	switch {
	case *p.EntryPriceUSDMonth == 0 && ko:
		return model + ", 무료로 시작"
	case *p.EntryPriceUSDMonth == 0:
		return model + ", free to start"
	case ko:
		return fmt.Sprintf("%s, 월 약 $%s부터", model, price)
	default:
		return fmt.Sprintf("%s, from about $%s/month", model, price)
	}
}

// DocumentText renders the entry as one bilingual passage for the knowledge
// base: retrieval matches both English and Korean queries against it, and
// the model reads it as the observation of retrieve_docs.
func (e Entry) DocumentText() string {
	cats := make([]string, len(e.Categories))
	catsKO := make([]string, len(e.Categories))
	for i, c := range e.Categories {
		cats[i] = string(c)
		catsKO[i] = c.LabelKO()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s — AI tool\n", e.Name)
	fmt.Fprintf(&b, "Categories: %s (분류: %s)\n", strings.Join(cats, ", "), strings.Join(catsKO, ", "))
	fmt.Fprintf(&b, "Good for: %s\n", strings.Join(e.Tasks, "; "))
	fmt.Fprintf(&b, "%s\n", e.DescriptionEN)
	fmt.Fprintf(&b, "%s\n", e.DescriptionKO)
	fmt.Fprintf(&b, "Pricing: %s. %s (가격: %s)\n", e.PriceText("en"), e.Pricing.Notes, e.PriceText("ko"))
	fmt.Fprintf(&b, "Platforms: %s\n", strings.Join(e.Platforms, ", "))
	fmt.Fprintf(&b, "Languages: %s%s\n", strings.Join(e.Languages, ", "), koreanNote(e.Languages))
	fmt.Fprintf(&b, "Website: %s\n", e.URL)
	fmt.Fprintf(&b, "Last checked: %s", e.LastChecked)
	return b.String()
}

func koreanNote(langs []string) string {
	for _, l := range langs {
		if l == "ko" {
			return " (한국어 지원)"
		}
	}
	return ""
}

// Source renders the entry as a citation; lang "ko" uses the Korean
// description as the snippet.
func (e Entry) Source(lang string) api.Source {
	snippet := e.DescriptionEN
	if lang == "ko" {
		snippet = e.DescriptionKO
	}
	return api.Source{
		ID:      e.ID(),
		Title:   e.Name,
		Source:  SourceName + " (checked " + e.LastChecked + ")",
		URL:     e.URL,
		Snippet: snippet,
	}
}
