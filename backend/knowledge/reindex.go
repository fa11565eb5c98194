package knowledge

import (
	"context"
	"fmt"
)

// reindexBatch is how many chunks one Upsert gets: progress after each, and
// a cancelled reindex loses at most one batch of work.
const reindexBatch = 64

// Reindex hands the sink every chunk it does not have yet (has reports
// which it has): the built-in catalog after its first indexing, and files
// imported while no embedding model answered. Long-running shells call it
// in the background; it stops when ctx ends and continues next time.
// pace (may be nil) runs before each batch and may block to leave the
// machine to more urgent work: embedding competes with the chat model for
// the same CPU or GPU. Its error stops the reindex.
func (b *Base) Reindex(ctx context.Context, has func(chunkID string) bool, pace func(context.Context) error) (int, error) {
	if b.opts.Sink == nil {
		return 0, nil
	}
	type row struct {
		Chunk
		Source, Kind, Title string
	}
	var rows []row
	err := b.db.WithContext(ctx).Table("kb_chunks").
		Select("kb_chunks.*, kb_documents.source, kb_documents.kind, kb_documents.title").
		Joins("JOIN kb_documents ON kb_documents.id = kb_chunks.doc_id").
		Order("kb_chunks.id").Scan(&rows).Error
	if err != nil {
		return 0, fmt.Errorf("list chunks to embed: %w", err)
	}
	var todo []IndexedChunk
	for _, r := range rows {
		if !has(r.ID) {
			todo = append(todo, IndexedChunk{Chunk: r.Chunk, Source: r.Source, Kind: r.Kind, Title: r.Title})
		}
	}
	done := 0
	for start := 0; start < len(todo); start += reindexBatch {
		batch := todo[start:min(start+reindexBatch, len(todo))]
		if pace != nil {
			if err := pace(ctx); err != nil {
				return done, fmt.Errorf("embed chunks: %w", err)
			}
		}
		if err := b.opts.Sink.Upsert(ctx, batch, nil); err != nil {
			return done, fmt.Errorf("embed chunks: %w", err)
		}
		done += len(batch)
	}
	return done, nil
}
