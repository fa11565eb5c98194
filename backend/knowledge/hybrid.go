package knowledge

import "context"

// VectorSearcher is the vector half of hybrid search (package vector,
// through a small adapter). An error — no embedding model, index still
// loading or re-embedding — makes Search answer from keywords alone.
type VectorSearcher interface {
	SearchChunks(ctx context.Context, query string, k int) ([]Ranked, error)
}

// Ranked is a chunk id with the score of one ranking.
type Ranked struct {
	ID    string
	Score float64
}
