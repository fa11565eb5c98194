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
	if b.readOnly {
		return 0, ErrReadOnly
	}
	done := 0
	var todo []IndexedChunk
	embed := func() error {
		if pace != nil {
			if err := pace(ctx); err != nil {
				return err
			}
		}
		if err := b.opts.Sink.Upsert(ctx, todo, nil); err != nil {
			return err
		}
		done += len(todo)
		todo = todo[:0]
		return nil
	}
	// A page at a time, so that a large library is never read whole.
	const page = 1000
	for after := int64(0); ; {
		rows, last, err := b.chunksAfter(ctx, after, page)
		if err != nil {
			return done, fmt.Errorf("list chunks to embed: %w", err)
		}
		after = last
		var missing []Chunk
		for _, c := range rows {
			if !has(c.ID) {
				missing = append(missing, c)
			}
		}
		var docs map[string]Document
		if len(missing) > 0 {
			docs, err = b.docsOf(ctx, missing)
		}
		if err != nil {
			return done, fmt.Errorf("list chunks to embed: %w", err)
		}
		for _, c := range missing {
			d, ok := docs[c.DocID]
			if !ok {
				continue // a staged import's
			}
			todo = append(todo, IndexedChunk{Chunk: c, Source: d.Source, Kind: d.Kind, Title: d.Title})
			if len(todo) == reindexBatch {
				if err := embed(); err != nil {
					return done, fmt.Errorf("embed chunks: %w", err)
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return done, err
		}
		if len(rows) < page {
			break
		}
	}
	if len(todo) > 0 {
		if err := embed(); err != nil {
			return done, fmt.Errorf("embed chunks: %w", err)
		}
	}
	return done, nil
}
