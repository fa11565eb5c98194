package knowledge

import (
	"cmp"
	"context"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
)

// Vectors adapts a vector.Index to the Base: it is both the ChunkSink that
// embeds chunks as they are imported and the VectorSearcher of hybrid
// search. The index stores the source, kind and title beside each vector so
// filters need no database lookup.
type Vectors struct {
	Index *vector.Index
	// QueryWait bounds how long a search waits for its query's vector
	// (default DefaultQueryWait); past it the search ranks by keywords
	// alone, as it does with no embedding model.
	QueryWait time.Duration
}

// DefaultQueryWait is how long a search waits for its query's vector. A
// person is waiting, and the embedding client's own bound is per attempt
// (two minutes, retried three times): an Ollama that is stuck or busy
// would hold a search for eight minutes. A cold load of an embedding
// model on a laptop CPU takes 5–20 s, so 30 s lets the first search of
// the day have its vectors.
const DefaultQueryWait = 30 * time.Second

// Upsert embeds and stores chunks; what it cannot embed is stored to be
// embedded in the background.
func (v Vectors) Upsert(ctx context.Context, chunks []IndexedChunk, onProgress func(done, total int)) error {
	return v.Index.Add(ctx, vectorDocs(chunks), onProgress)
}

// UpsertWaiting is Upsert, telling onWait when a batch waits for the
// index's pace and when it goes on (WaitingSink).
func (v Vectors) UpsertWaiting(ctx context.Context, chunks []IndexedChunk, onProgress func(done, total int), onWait func(waiting bool)) error {
	return v.Index.AddWatched(ctx, vectorDocs(chunks), vector.Watch{Progress: onProgress, Waiting: onWait})
}

// UpsertLater stores chunks to be embedded in the background.
func (v Vectors) UpsertLater(ctx context.Context, chunks []IndexedChunk) error {
	return v.Index.AddLater(ctx, vectorDocs(chunks))
}

func vectorDocs(chunks []IndexedChunk) []vector.Doc {
	docs := make([]vector.Doc, len(chunks))
	for i, c := range chunks {
		docs[i] = vector.Doc{ID: c.ID, Text: indexText(c.Chunk), Metadata: map[string]string{"source": c.Source, "kind": c.Kind}}
	}
	return docs
}

// Delete forgets chunks.
func (v Vectors) Delete(ctx context.Context, chunkIDs []string) error {
	return v.Index.Delete(ctx, chunkIDs...)
}

// SearchChunks ranks chunks by similarity to the query.
func (v Vectors) SearchChunks(ctx context.Context, query string, k int) ([]Ranked, error) {
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(v.QueryWait, DefaultQueryWait))
	defer cancel()
	hits, err := v.Index.Query(ctx, query, k, nil)
	if err != nil {
		return nil, err
	}
	out := make([]Ranked, len(hits))
	for i, h := range hits {
		out[i] = Ranked{ID: h.ID, Score: float64(h.Score)}
	}
	return out, nil
}

// MoveSource relabels the chunks of source from as source to (SourceMover).
func (v Vectors) MoveSource(ctx context.Context, from, to string) error {
	_, err := v.Index.Relabel(ctx, map[string]string{"source": from}, "source", to)
	return err
}

// PendingByDocument counts the chunks still waiting for their vector by
// document (the vector index's background embedding), so that the
// library can say how far a document's meaning is indexed.
func (v Vectors) PendingByDocument() map[string]int {
	return v.Index.PendingGrouped(docOf)
}

// HasVectors reports which chunks have a vector (see vectorCoverage).
func (v Vectors) HasVectors(ids []string) []bool { return v.Index.HasVectors(ids) }

var (
	_ LaterSink   = Vectors{}
	_ SourceMover = Vectors{}
)
