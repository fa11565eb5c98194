package sqlitesaver

import (
	"maps"
	"slices"
	"sync"

	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// newest mirrors which threads have checkpoints and, for the threads used
// since the Saver was made, their newest checkpoint. A run starts by
// loading its thread's newest checkpoint; the mirror answers that from
// memory, and answers a new conversation's thread without a query at all.
// Writes go to the database first and then here, so the mirror is right as
// long as the Saver is its tables' only writer, which one process owning a
// data folder ensures.
type newest struct {
	mu sync.Mutex
	// threads maps each thread with checkpoints to its newest, or to nil
	// while that is not loaded.
	threads map[string]*graph.Saved
	// writes counts the writes, so that a load which a write overtook does
	// not replace what the write left.
	writes int
}

// load fills the mirror with the threads that have checkpoints.
func (n *newest) load(db *gorm.DB) error {
	ids, err := threadIDs(db)
	if err != nil {
		return err
	}
	n.threads = make(map[string]*graph.Saved, len(ids))
	for _, id := range ids {
		n.threads[id] = nil
	}
	return nil
}

// lookup returns the thread's newest checkpoint when the mirror knows it,
// ErrNoCheckpoint when the thread has none, and otherwise what load
// returns, which it keeps.
func (n *newest) lookup(thread string, load func() (graph.Saved, error)) (graph.Saved, error) {
	n.mu.Lock()
	cp, ok := n.threads[thread]
	writes := n.writes
	n.mu.Unlock()
	switch {
	case !ok:
		return graph.Saved{}, graph.ErrNoCheckpoint
	case cp != nil:
		return clone(*cp), nil
	}
	saved, err := load()
	if err != nil {
		return saved, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.writes == writes {
		kept := clone(saved)
		n.threads[thread] = &kept
	}
	return saved, nil
}

// put notes a stored checkpoint: the thread's newest when it is newer than
// the one known, or when the thread had none.
func (n *newest) put(cp graph.Checkpoint) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.writes++
	cur, ok := n.threads[cp.ThreadID]
	if !ok || (cur != nil && cp.ID >= cur.ID) {
		kept := clone(graph.Saved{Checkpoint: cp})
		n.threads[cp.ThreadID] = &kept
	}
}

// forget drops what the mirror knows of the thread's newest checkpoint
// after its writes changed; the next lookup loads it again.
func (n *newest) forget(thread string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.writes++
	if _, ok := n.threads[thread]; ok {
		n.threads[thread] = nil
	}
}

// deleted notes that the thread has no checkpoints left.
func (n *newest) deleted(thread string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.writes++
	delete(n.threads, thread)
}

// list returns the threads with checkpoints, in order.
func (n *newest) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Sorted(maps.Keys(n.threads))
}

// clone copies what a caller could change.
func clone(s graph.Saved) graph.Saved {
	s.Values = slices.Clone(s.Values)
	s.Next = slices.Clone(s.Next)
	s.Writes = slices.Clone(s.Writes)
	return s
}
