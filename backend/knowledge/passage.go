package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"
)

// Passage is a search hit's chunk in its document: the chunk and the ones
// just before and after it (nil at the document's ends), for a reader that
// shows the passage in context.
type Passage struct {
	Doc                  Document
	Before, Chunk, After *Chunk
}

// Passage finds a chunk by its id ("<document id>:<seq>") with its two
// neighbours. A chunk of a conversation's own files is not the library's
// and is refused as not found, as the library's search does not show it.
func (b *Base) Passage(ctx context.Context, chunkID string) (Passage, error) {
	var c Chunk
	err := b.db.WithContext(ctx).Where("id = ?", chunkID).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Passage{}, fmt.Errorf("passage %q: %w", chunkID, ErrNotFound)
	}
	if err != nil {
		return Passage{}, fmt.Errorf("passage %q: %w", chunkID, err)
	}
	var doc Document
	err = b.db.WithContext(ctx).Where("id = ? AND NOT staged", c.DocID).Take(&doc).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && b.conversationOf(doc.Source) != "") {
		return Passage{}, fmt.Errorf("passage %q: %w", chunkID, ErrNotFound)
	}
	if err != nil {
		return Passage{}, fmt.Errorf("document of passage %q: %w", chunkID, err)
	}
	var near []Chunk
	if err := b.db.WithContext(ctx).Where("doc_id = ? AND seq IN ?", c.DocID, []int{c.Seq - 1, c.Seq + 1}).Find(&near).Error; err != nil {
		return Passage{}, fmt.Errorf("around passage %q: %w", chunkID, err)
	}
	p := Passage{Doc: doc, Chunk: &c}
	for i := range near {
		switch near[i].Seq {
		case c.Seq - 1:
			p.Before = &near[i]
		case c.Seq + 1:
			p.After = &near[i]
		}
	}
	return p, nil
}

// WithoutOverlap is next without the text it repeats from the end of prev:
// chunks overlap so that a search finds a sentence cut at a boundary, and a
// reader showing them in a row shows it once.
func WithoutOverlap(prev, next string) string {
	limit := min(len(prev), len(next))
	for k := limit; k > 0; k-- {
		if strings.HasSuffix(prev, next[:k]) {
			return next[k:]
		}
	}
	return next
}
