package agent

import (
	"context"
	"errors"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// laterSaver is the agent's Checkpointer. While a new message's run is
// under way on a thread it holds that run's saves, and the turn decides
// when they are made: a run that stops at a plan or fails saves them before
// the turn reports it, and a run that ends with an answer saves them after
// the answer is stored, with the summary and reflection. The answer then
// does not wait on a write it does not need: the next turn starts from the
// conversation's messages and its summary, which a turn never changes (only
// the summary written after it does), so a process killed before the save
// loses a record of the finished run and nothing the person sees.
type laterSaver struct {
	graph.Checkpointer
	mu   sync.Mutex
	held map[string][]func(context.Context) error // by thread: the saves, in order
}

func newLaterSaver(cp graph.Checkpointer) *laterSaver {
	return &laterSaver{Checkpointer: cp, held: map[string][]func(context.Context) error{}}
}

// hold starts holding the thread's saves and returns how many it holds
// already: saves still held from an earlier run stay, to be made first.
func (s *laterSaver) hold(thread string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held[thread] = s.held[thread] // present, even when nil: held
	return len(s.held[thread])
}

// drop forgets the saves held since hold returned earlier, for a run that
// must leave no trace (its turn was refused).
func (s *laterSaver) drop(thread string, earlier int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	saves, ok := s.held[thread]
	switch {
	case !ok: // released meanwhile
	case earlier == 0:
		delete(s.held, thread)
	default:
		s.held[thread] = saves[:min(earlier, len(saves))]
	}
}

// release makes the thread's held saves, in order, and stops holding.
func (s *laterSaver) release(ctx context.Context, thread string) error {
	s.mu.Lock()
	saves := s.held[thread]
	delete(s.held, thread)
	s.mu.Unlock()
	var errs []error
	for _, save := range saves {
		errs = append(errs, save(ctx))
	}
	return errors.Join(errs...)
}

// later keeps save for release when the thread is held, and reports
// whether it did.
func (s *laterSaver) later(thread string, save func(context.Context) error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	saves, ok := s.held[thread]
	if ok {
		s.held[thread] = append(saves, save)
	}
	return ok
}

func (s *laterSaver) Put(ctx context.Context, cp graph.Checkpoint) error {
	save := func(ctx context.Context) error { return s.Checkpointer.Put(ctx, cp) }
	if s.later(cp.ThreadID, save) {
		return nil
	}
	return save(ctx)
}

func (s *laterSaver) PutWrites(ctx context.Context, thread, checkpointID string, writes []graph.PendingWrite) error {
	save := func(ctx context.Context) error { return s.Checkpointer.PutWrites(ctx, thread, checkpointID, writes) }
	if s.later(thread, save) {
		return nil
	}
	return save(ctx)
}
