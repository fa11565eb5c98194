package agent

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// LongTerm adapts backend/memory's store to the Memory the agent (and the
// read_memory/write_memory tools, through tools.Deps.Memory) use.
type LongTerm struct {
	Store *memory.Store
}

var _ Memory = LongTerm{}

// Search implements tools.MemoryReader.
func (l LongTerm) Search(ctx context.Context, query string, k int) ([]tools.Memory, error) {
	mems, err := l.Store.Search(ctx, query, k)
	if err != nil {
		return nil, err
	}
	out := make([]tools.Memory, len(mems))
	for i, m := range mems {
		out[i] = tools.Memory{ID: m.ID, Text: m.Text, Kind: string(m.Kind)}
	}
	return out, nil
}

// Add implements tools.MemoryWriter; the memory store drops restatements.
func (l LongTerm) Add(ctx context.Context, text, kind string) error {
	return l.AddForSession(ctx, "", text, kind)
}

// AddForSession records which conversation a memory came from, so the
// memory manager can link back to it; reflection uses it.
func (l LongTerm) AddForSession(ctx context.Context, sessionID, text, kind string) error {
	if _, _, err := l.Store.Add(ctx, text, memory.Kind(kind), sessionID); err != nil {
		return fmt.Errorf("remember %q: %w", kind, err)
	}
	return nil
}

// sessionAdder is the optional richer Add of a Memory.
type sessionAdder interface {
	AddForSession(ctx context.Context, sessionID, text, kind string) error
}
