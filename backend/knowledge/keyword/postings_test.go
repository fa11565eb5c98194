package keyword

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

func TestPostingListRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	type posting struct{ doc, tf uint32 }
	var want []posting
	var pl plist
	doc := uint32(0)
	for range 5000 {
		doc += 1 + uint32(rng.IntN(1<<uint(rng.IntN(20))))
		p := posting{doc, 1 + uint32(rng.IntN(1<<uint(rng.IntN(12))))}
		want = append(want, p)
		pl.add(p.doc, p.tf)
	}
	var got []posting
	for c := pl.cursor(); ; {
		d, tf, ok := c.next()
		if !ok {
			break
		}
		got = append(got, posting{d, tf})
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(posting{})); diff != "" || pl.n != uint32(len(want)) || pl.last != doc {
		t.Fatalf("decoded postings differ (-want +got):\n%s", diff)
	}
}

// TestLoadedIndexGrows: posting lists of a loaded index live in the
// file's bytes; documents added after loading must neither write over the
// next list nor be lost, and deletions and compaction must keep results.
func TestLoadedIndexGrows(t *testing.T) {
	texts, queries := knowledgetest.Corpus(3000, 40, 100)
	fresh := New(DefaultAnalyzer(), DefaultParams())
	half := New(DefaultAnalyzer(), DefaultParams())
	for i, text := range texts[:2000] {
		fresh.Add(fmt.Sprint(i), text)
		half.Add(fmt.Sprint(i), text)
	}
	path := filepath.Join(t.TempDir(), "kw.idx")
	if err := half.Save(path, "s"); err != nil {
		t.Fatal(err)
	}
	loaded, _, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts[2000:] {
		fresh.Add(fmt.Sprint(2000+i), text)
		loaded.Add(fmt.Sprint(2000+i), text)
	}
	same := func(stage string) {
		t.Helper()
		for _, q := range queries {
			if diff := cmp.Diff(fresh.Search(q, 10, nil), loaded.Search(q, 10, nil)); diff != "" {
				t.Fatalf("%s: %q gives other results (-fresh +loaded):\n%s", stage, q, diff)
			}
		}
	}
	same("after adding to a loaded index")
	for i := 0; i < 3000; i += 2 { // enough to compact
		fresh.Remove(fmt.Sprint(i))
		loaded.Remove(fmt.Sprint(i))
	}
	same("after removing half")
	if err := loaded.Save(path, "t"); err != nil {
		t.Fatal(err)
	}
	if loaded, _, err = Load(path); err != nil {
		t.Fatal(err)
	}
	same("after saving and loading again")
}
