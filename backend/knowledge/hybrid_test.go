package knowledge

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
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

// A chunk found by its exact words keeps its place while it waits for its
// vector: fusion must not rank it below every chunk both rankings found
// (serve mode, catalog still embedding: "Vrew video editor subtitles" did
// not return Vrew in the top 8).
func TestHybridChunkWithoutVector(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	records := []string{`{"_id": "vrew", "title": "Vrew", "text": "Vrew: an AI video editor that writes subtitles from speech."}`}
	for _, name := range []string{"Clipo", "Reelcut", "Framely", "Subtly", "Vidmate", "Cutline", "Scenic", "Motionly", "Captio", "Storyreel", "Tempo"} {
		records = append(records, fmt.Sprintf(`{"_id": %q, "title": %q, "text": "%s is a video editor for short clips, with subtitles, templates and music."}`, name, name, name))
	}
	for i, topic := range []string{"music", "chat", "images", "slides", "translation", "code", "search", "voice"} {
		for j := range 5 {
			records = append(records, fmt.Sprintf(`{"_id": "other%d-%d", "title": "Tool %d-%d", "text": "An AI assistant for %s, number %d."}`, i, j, i, j, topic, j))
		}
	}
	corpus := filepath.Join(dir, "tools.jsonl")
	if err := os.WriteFile(corpus, []byte(strings.Join(records, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	b, _ := e.open()
	if _, err := b.Import(ctx, []string{corpus}, nil); err != nil {
		t.Fatal(err)
	}
	var chunks []Chunk
	if err := b.db.Find(&chunks).Error; err != nil {
		t.Fatal(err)
	}
	ix := vector.Open(filepath.Join(dir, "chunks.vec"), "bag", vector.EmbedFunc(bagOfWords))
	t.Cleanup(func() { _ = ix.Close() })
	if err := ix.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	var docs []vector.Doc
	for _, c := range chunks {
		if !strings.Contains(c.Text, "Vrew") { // every chunk but Vrew's is embedded already
			docs = append(docs, vector.Doc{ID: c.ID, Text: indexText(c)})
		}
	}
	if err := ix.Add(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	const query = "Vrew video editor subtitles"
	words, err := b.Search(ctx, query, SearchOptions{TopK: 8})
	if err != nil || len(words) == 0 || words[0].RecordID != "vrew" {
		t.Fatalf("keyword search: %v, %v; want Vrew first", hitRecords(words), err)
	}
	b.opts.Vectors = Vectors{Index: ix}
	got, err := b.Search(ctx, query, SearchOptions{TopK: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].RecordID != "vrew" || !got[0].Words || got[0].Meaning {
		t.Errorf("hybrid search with Vrew not embedded yet: %v; want Vrew first, found by its words", hitRecords(got))
	}
	if len(got) != 8 || !got[1].Words || !got[1].Meaning {
		t.Errorf("hybrid hits %v: want 8, the others found by both rankings", hitRecords(got))
	}
}

func hitRecords(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.RecordID
	}
	return out
}

// bagOfWords embeds a text as counts of its lower-cased words hashed into
// 64 dimensions: texts that share words point the same way.
func bagOfWords(_ context.Context, inputs []string) ([][]float32, error) {
	out := make([][]float32, len(inputs))
	for i, s := range inputs {
		v := make([]float32, 64)
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		v[63] += 0.01 // never the zero vector
		out[i] = v
	}
	return out, nil
}
