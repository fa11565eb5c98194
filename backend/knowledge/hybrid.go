package knowledge

import "context"

// VectorSearcher is the vector half of hybrid search (package vector,
// through a small adapter). An error — no embedding model, index still
// loading or re-embedding — makes Search answer from keywords alone.
type VectorSearcher interface {
	SearchChunks(ctx context.Context, query string, k int) ([]Ranked, error)
}

// vectorCoverage is a VectorSearcher that can tell which chunks it holds a
// vector for. While chunks are still being embedded (a large import, the
// catalog after the first start), one found by its words but not yet
// embedded would otherwise fall behind every chunk both rankings found, so
// that an exact name ("Vrew video editor subtitles") left the top results.
type vectorCoverage interface {
	HasVectors(ids []string) []bool
}

// Ranked is a chunk id with the score of one ranking.
type Ranked struct {
	ID    string
	Score float64
}
