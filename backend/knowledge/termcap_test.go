package knowledge

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTooManyTerms: a file whose passages hold more different words than
// one file may (28 MB of random words, 3.4 million of them, peaked at
// 586 MiB in the keyword batch) fails with TooManyTermsError, reasoned
// in English and Korean, and leaves nothing: no document, no word found;
// one with as many words as the bound, and a real document beside it,
// import.
func TestTooManyTerms(t *testing.T) {
	const max = 3000
	words := func(n int, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 1))
		var b strings.Builder
		seen := map[string]bool{}
		for len(seen) < n {
			var w [8]byte
			for i := range w {
				w[i] = byte('a' + r.IntN(26))
			}
			if !seen[string(w[:])] {
				seen[string(w[:])] = true
				b.Write(w[:])
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	dir := t.TempDir()
	b := newPlainEnv(t).openWith(Options{FileTerms: max})
	cases := []struct {
		name, text string
		refused    bool
	}{
		{"at.txt", words(max, 1), false},
		{"over.txt", words(max+1, 2), true},
		{"prose.txt", strings.Repeat("The index holds each word of a document once. 문서의 낱말은 색인에 한 번 담깁니다.\n", 2000), false},
	}
	var paths []string
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	rep, err := b.Import(context.Background(), paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tw *TooManyTermsError
	if len(rep.Failed) != 1 || rep.Failed[0].Path != paths[1] || !errors.As(rep.Failed[0].Err, &tw) || tw.Max != max {
		t.Fatalf("failed %+v, want over.txt with TooManyTermsError{%d}", rep.Failed, max)
	}
	if len(rep.Imported) != 2 {
		t.Fatalf("imported %v, want at.txt and prose.txt", rep.Imported)
	}
	docs, err := b.List(context.Background())
	if err != nil || len(docs) != 2 {
		t.Fatalf("%d documents (%v), want at.txt's and prose.txt's and nothing of over.txt", len(docs), err)
	}
	for _, c := range cases {
		first := strings.Fields(c.text)[0]
		hits, err := b.Search(context.Background(), first, SearchOptions{TopK: 5})
		if err != nil {
			t.Fatal(err)
		}
		if found := len(hits) > 0; found == c.refused {
			t.Errorf("%s: searching its first word %q found %d hits", c.name, first, len(hits))
		}
	}
}
