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

// Holders names, term by term, the live documents kept that hold each
// term, asks keep once per document, and stops when told to.
func TestHolders(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("a:0", "The harbour ropes are coiled.")
	ix.Add("a:1", "A copper bell rings in the harbour.")
	ix.Add("a:2", "종을 울립니다.")
	ix.Add("b:0", "harbour copper")
	ix.Add("a:9", "harbour copper bell") // then removed: not held any more
	ix.Remove("a:9")
	asked := map[string]int{}
	inA := func(id string) bool { asked[id]++; return strings.HasPrefix(id, "a:") }
	terms := []string{"harbour", "copper", "lighthouse", "울립", "bell"}
	got := map[string][]string{}
	ix.Holders(terms, inA, func(i int, id string) bool {
		got[terms[i]] = append(got[terms[i]], id)
		return true
	})
	want := map[string][]string{"harbour": {"a:0", "a:1"}, "copper": {"a:1"}, "울립": {"a:2"}, "bell": {"a:1"}}
	if !cmp.Equal(got, want) {
		t.Errorf("holders %v, want %v", got, want)
	}
	for id, n := range asked {
		if n != 1 {
			t.Errorf("keep asked %d times about %s", n, id)
		}
	}
	if _, ok := asked["a:9"]; ok {
		t.Error("keep asked about a removed document")
	}
	calls := 0
	ix.Holders(terms, nil, func(int, string) bool { calls++; return calls < 2 })
	if calls != 2 {
		t.Errorf("f called %d times after it said stop at the second", calls)
	}
}
