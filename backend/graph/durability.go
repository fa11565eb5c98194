package graph

import (
	"context"
	"sync"
)

// Durability says when a run's checkpoints reach the Checkpointer
// (LangGraph's durability modes "sync", "async" and "exit").
type Durability int

const (
	// DurabilitySync saves each step before the next one starts: a killed
	// process resumes from the last finished step.
	DurabilitySync Durability = iota
	// DurabilityAsync saves checkpoints in order on a goroutine of their
	// own while the next step runs, and the run returns only once all are
	// saved. A step that waits on a model then does not also wait on the
	// database. A killed process may lose the newest steps (they run again
	// on resume), never an interrupt or a finished run, which Invoke and
	// Resume only report once saved.
	DurabilityAsync
	// DurabilityExit saves only where a run ends (it finishes, is
	// interrupted, fails or is stopped): its newest checkpoint, hung off
	// the checkpoint the run started from, with the writes of the step it
	// stopped in. A run makes one save instead of one per step, and the
	// thread's history holds one checkpoint per run; a killed process loses
	// the run in progress, and the thread is as it was before it.
	DurabilityExit
)

// persister takes a run's checkpoints and pending writes to the
// Checkpointer as its Durability says.
type persister[S any] interface {
	checkpoint(cp Checkpoint, st S) error
	writes(cpID string, w []PendingWrite) error
	// failed is the failure of an earlier save, which stops the run at its
	// next step.
	failed() error
	// end runs once the run has stopped: every save is made when it
	// returns.
	end() error
}

// newPersister returns the persister of a run on thread that starts from
// the stored checkpoint base. Saves made after the step that made them
// outlive a stop: a stopped run still saves what it finished, as a
// synchronous run would have before it noticed the stop.
func newPersister[S any](ctx context.Context, cp Checkpointer, d Durability, thread, base string) persister[S] {
	now := direct[S]{ctx: ctx, cp: cp, thread: thread}
	later := now
	later.ctx = context.WithoutCancel(ctx)
	switch {
	case cp == nil:
		return nowhere[S]{}
	case d == DurabilityAsync:
		return newWriter(later)
	case d == DurabilityExit:
		return &held[S]{to: later, base: base}
	}
	return now
}

// direct saves at once (DurabilitySync).
type direct[S any] struct {
	ctx    context.Context
	cp     Checkpointer
	thread string
}

func (s direct[S]) checkpoint(cp Checkpoint, st S) error {
	if err := encodeState(&cp, st); err != nil {
		return err
	}
	return s.cp.Put(s.ctx, cp)
}

func (s direct[S]) writes(cpID string, w []PendingWrite) error {
	return s.cp.PutWrites(s.ctx, s.thread, cpID, w)
}

func (direct[S]) failed() error { return nil }
func (direct[S]) end() error    { return nil }

// nowhere is a graph without a Checkpointer.
type nowhere[S any] struct{}

func (nowhere[S]) checkpoint(Checkpoint, S) error      { return nil }
func (nowhere[S]) writes(string, []PendingWrite) error { return nil }
func (nowhere[S]) failed() error                       { return nil }
func (nowhere[S]) end() error                          { return nil }

// writer saves one run's checkpoints and writes in the order they were
// made, on a goroutine of its own (DurabilityAsync). The state is encoded
// there too: st is a snapshot, since reducers copy what they change and
// nodes must not change the state they are given. After the first failure
// it saves nothing more.
type writer[S any] struct {
	to   direct[S]
	jobs chan func() error
	done chan struct{}

	mu  sync.Mutex
	err error
}

func newWriter[S any](to direct[S]) *writer[S] {
	w := &writer[S]{to: to, jobs: make(chan func() error, 64), done: make(chan struct{})}
	go w.loop()
	return w
}

func (w *writer[S]) loop() {
	defer close(w.done)
	for job := range w.jobs {
		if w.failed() != nil {
			continue
		}
		if err := job(); err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
		}
	}
}

func (w *writer[S]) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// add queues a save; it returns the error of an earlier one, if any.
func (w *writer[S]) add(job func() error) error {
	if err := w.failed(); err != nil {
		return err
	}
	w.jobs <- job
	return nil
}

func (w *writer[S]) checkpoint(cp Checkpoint, st S) error {
	return w.add(func() error { return w.to.checkpoint(cp, st) })
}

func (w *writer[S]) writes(cpID string, pw []PendingWrite) error {
	return w.add(func() error { return w.to.writes(cpID, pw) })
}

// end waits for every queued save and returns the first failure.
func (w *writer[S]) end() error {
	close(w.jobs)
	<-w.done
	return w.failed()
}

// held keeps a run's newest checkpoint and its pending writes in memory
// until the run ends (DurabilityExit). The mutex is for the writes of
// parallel tasks.
type held[S any] struct {
	to    direct[S]
	base  string // the stored checkpoint the run started from ("" for none)
	mu    sync.Mutex
	cp    *Checkpoint
	state S
	byCP  map[string][]PendingWrite // pending writes by checkpoint id
}

func (h *held[S]) checkpoint(cp Checkpoint, st S) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cp, h.state = &cp, st
	return nil
}

func (h *held[S]) writes(cpID string, w []PendingWrite) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byCP == nil {
		h.byCP = map[string][]PendingWrite{}
	}
	h.byCP[cpID] = append(h.byCP[cpID], w...)
	return nil
}

func (h *held[S]) failed() error { return nil }

// end stores the newest checkpoint and the writes made on it; writes on
// the checkpoints before it belong to steps that finished, whose result
// the newest one holds.
func (h *held[S]) end() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	last := h.base
	if h.cp != nil {
		saved := *h.cp
		saved.ParentID = h.base // the steps in between were never stored
		if err := h.to.checkpoint(saved, h.state); err != nil {
			return err
		}
		last = saved.ID
	}
	if w := h.byCP[last]; len(w) > 0 {
		return h.to.writes(last, w)
	}
	return nil
}
