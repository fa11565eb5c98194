package knowledge

import (
	"context"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
)

// Vectors adapts a vector.Index to the Base: it is both the ChunkSink that
// embeds chunks as they are imported and the VectorSearcher of hybrid
// search. The index stores the source, kind and title beside each vector so
// filters need no database lookup.
type Vectors struct{ Index *vector.Index }

// Upsert embeds and stores chunks.
func (v Vectors) Upsert(ctx context.Context, chunks []IndexedChunk, onProgress func(done, total int)) error {
	docs := make([]vector.Doc, len(chunks))
	for i, c := range chunks {
		docs[i] = vector.Doc{ID: c.ID, Text: indexText(c.Chunk), Metadata: map[string]string{"source": c.Source, "kind": c.Kind}}
	}
	return v.Index.Add(ctx, docs, onProgress)
}

// Delete forgets chunks.
func (v Vectors) Delete(ctx context.Context, chunkIDs []string) error {
	return v.Index.Delete(ctx, chunkIDs...)
}

// SearchChunks ranks chunks by similarity to the query.
func (v Vectors) SearchChunks(ctx context.Context, query string, k int) ([]Ranked, error) {
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

// HasVectors reports which chunks have a vector (see vectorCoverage).
func (v Vectors) HasVectors(ids []string) []bool { return v.Index.HasVectors(ids) }
