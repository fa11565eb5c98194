package keyword

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Rarest gives the documents holding the rarest of the words asked for,
// among the documents kept, and says so when every word is too common.
func TestRarest(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	// Document a: 30 chunks all saying "harbour ropes", 3 of them "copper"
	// too, one of them "bell"; document b says "bell" in 20 chunks.
	for i := range 30 {
		text := "The harbour ropes are coiled."
		if i%10 == 3 {
			text += " A copper kettle."
		}
		if i == 13 {
			text += " The bell rings at seven."
		}
		ix.Add(fmt.Sprintf("a:%d", i), text)
	}
	for i := range 20 {
		ix.Add(fmt.Sprintf("b:%d", i), "A bell, and another bell.")
	}
	ix.Add("a:99", "bell copper") // then removed: not held any more
	ix.Remove("a:99")
	inA := func(id string) bool { return strings.HasPrefix(id, "a:") }
	tokens := func(s string) []string { return ix.Analyzer().Tokens(s) }
	for _, c := range []struct {
		name  string
		terms []string
		keep  func(string) bool
		limit int
		ids   []string
		ok    bool
	}{
		{"the rarest in the document, not in the index", tokens("harbour copper bell"), inA, 10, []string{"a:13"}, true},
		{"common in the index, rare in the document", tokens("bell"), inA, 10, []string{"a:13"}, true},
		{"the only word, in a few chunks", tokens("copper"), inA, 10, []string{"a:3", "a:13", "a:23"}, true},
		{"a word no chunk holds", tokens("copper lighthouse"), inA, 10, []string{}, true},
		{"every word in more chunks than the limit", tokens("harbour ropes"), inA, 10, nil, false},
		{"exactly the limit", tokens("copper"), inA, 3, []string{"a:3", "a:13", "a:23"}, true},
		{"one past the limit", tokens("copper"), inA, 2, nil, false},
		{"no words", nil, inA, 10, nil, false},
		{"every document kept", tokens("bell"), nil, 100, append([]string{"a:13"}, bs(20)...), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ix.Rarest(c.terms, c.keep, c.limit)
			slices.Sort(got)
			want := slices.Clone(c.ids)
			slices.Sort(want)
			if ok != c.ok || !cmp.Equal(got, want) {
				t.Errorf("Rarest(%q) = %v, %v; want %v, %v", c.terms, got, ok, want, c.ok)
			}
		})
	}
}

func bs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("b:%d", i)
	}
	return out
}
