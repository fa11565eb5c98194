package knowledge

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeVectors ranks chunks by a fixed list, or fails.
type fakeVectors struct {
	ranked []Ranked
	err    error
}

func (f fakeVectors) SearchChunks(context.Context, string, int) ([]Ranked, error) {
	return f.ranked, f.err
}

func TestHybridSearch(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	lib := copyLibrary(t)
	ctx := context.Background()
	if _, err := b.Import(ctx, []string{lib}, nil); err != nil {
		t.Fatal(err)
	}
	keywordOnly, err := b.Search(ctx, "video", SearchOptions{})
	if err != nil || len(keywordOnly) != 1 {
		t.Fatalf("keyword search: %v, %v", keywordOnly, err)
	}
	guide, err := b.Search(ctx, "ollama", SearchOptions{})
	if err != nil || len(guide) != 1 {
		t.Fatalf("guide chunk: %v, %v", guide, err)
	}

	// No embedding model: keyword results, unchanged, and no error.
	b.opts.Vectors = fakeVectors{err: errors.New("no embedding model")}
	got, err := b.Search(ctx, "video", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(keywordOnly, got); diff != "" {
		t.Errorf("with failing vectors (-keyword +got):\n%s", diff)
	}

	// The vector side finds a chunk with no shared word: fusion adds it.
	b.opts.Vectors = fakeVectors{ranked: []Ranked{{ID: guide[0].ChunkID, Score: 0.9}, {ID: "gone:0", Score: 0.5}}}
	got, err = b.Search(ctx, "video", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sources := hitSources(got)
	slices.Sort(sources)
	if !slices.Equal(sources, []string{"guide.md", "records.jsonl"}) {
		t.Fatalf("hybrid hits %v, want the keyword and the vector hit (the stale id dropped)", sources)
	}
	if want := 1.0 / 61; got[0].Score != want || got[1].Score != want {
		t.Errorf("fused scores %v, %v; want both %v", got[0].Score, got[1].Score, want)
	}
	// Each hit says which ranking found it.
	for _, h := range got {
		byWords := filepath.Base(h.Source) == "records.jsonl"
		if h.Words != byWords || h.Meaning == byWords {
			t.Errorf("%s: words %v, meaning %v; want found by %s only", filepath.Base(h.Source), h.Words, h.Meaning,
				map[bool]string{true: "words", false: "meaning"}[byWords])
		}
	}
	if !keywordOnly[0].Words || keywordOnly[0].Meaning {
		t.Errorf("keyword-only hit: words %v, meaning %v", keywordOnly[0].Words, keywordOnly[0].Meaning)
	}

	// Filters apply to the vector half too.
	got, err = b.Search(ctx, "video", SearchOptions{Sources: []string{filepath.Join(lib, "records.jsonl")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || filepath.Base(got[0].Source) != "records.jsonl" {
		t.Errorf("filtered hybrid hits %v", hitSources(got))
	}
}
