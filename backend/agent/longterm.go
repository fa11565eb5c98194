package agent

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// LongTerm adapts backend/memory's store to the Memory the agent (and the
// read_memory tool, through tools.Deps.Memory) use.
type LongTerm struct {
	Store *memory.Store
	// Changed, when set, is called after a memory is written, so that an
	// open Memory screen shows it at once (the app sends an event).
	Changed func()
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
		out[i] = tools.Memory{ID: m.ID, Text: m.Text, Kind: string(m.Kind), Origin: string(m.Origin)}
	}
	return out, nil
}

// Remember implements Memory; the memory store drops restatements.
func (l LongTerm) Remember(ctx context.Context, text, kind string, origin memory.Origin, sessionID string) error {
	if _, _, err := l.Store.Add(ctx, text, memory.Kind(kind), memory.Provenance{Origin: origin, SessionID: sessionID}); err != nil {
		return fmt.Errorf("remember %q: %w", kind, err)
	}
	if l.Changed != nil {
		l.Changed()
	}
	return nil
}
