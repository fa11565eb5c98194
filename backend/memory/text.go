package memory

import (
	"strings"
	"unicode"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
)

// isHangul is true for Hangul syllables and jamo.
func isHangul(r rune) bool {
	return (r >= 0xAC00 && r <= 0xD7A3) || (r >= 0x1100 && r <= 0x11FF) || (r >= 0x3130 && r <= 0x318F)
}

// normalize lower-cases text, drops punctuation and symbols and collapses
// spaces, so "커피를 좋아한다." and "커피를  좋아한다" are the same memory.
func normalize(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(words, " ")
}

// terms are what keyword search and duplicate detection compare: the
// knowledge base's index terms, so Korean particles and endings are handled
// the same way ("커피를" matches "커피", "책을" matches "책").
func terms(s string) map[string]struct{} {
	out := map[string]struct{}{}
	for _, t := range keyword.DefaultAnalyzer().Tokens(s) {
		out[t] = struct{}{}
	}
	return out
}

// overlap returns how many of a's terms b has.
func overlap(a, b map[string]struct{}) int {
	n := 0
	for t := range a {
		if _, ok := b[t]; ok {
			n++
		}
	}
	return n
}

// jaccard is |a∩b| / |a∪b| of two term sets (1 for two empty sets).
func jaccard(a, b map[string]struct{}) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	n := overlap(a, b)
	return float64(n) / float64(len(a)+len(b)-n)
}

// EstimateTokens is a rough token count for budgeting prompts: a Hangul
// syllable is about one token in common tokenizers, other text about four
// characters per token.
func EstimateTokens(s string) int {
	hangul, other := 0, 0
	for _, r := range s {
		if isHangul(r) {
			hangul++
		} else {
			other++
		}
	}
	return hangul + (other+3)/4
}

// Coverage is the share of claim's terms that evidence holds: how much of
// a memory the person's own words support (1 when claim has no terms).
// Terms are the search terms, so "Prefers free tools" is covered by "I
// prefer free tools" and "무료 도구를 선호함" by "무료 도구를 선호해".
func Coverage(claim, evidence string) float64 {
	c := terms(claim)
	if len(c) == 0 {
		return 1
	}
	return float64(overlap(c, terms(evidence))) / float64(len(c))
}

// Borrowed lists the terms of claim that the person's words do not hold
// but other text does: what a memory would take from a document, a tool
// result or a web page rather than from the person.
func Borrowed(claim, person, other string) []string {
	p, o := terms(person), terms(other)
	var out []string
	for t := range terms(claim) {
		_, said := p[t]
		_, elsewhere := o[t]
		if !said && elsewhere {
			out = append(out, t)
		}
	}
	return out
}
