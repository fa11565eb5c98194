package graph

import (
	"context"
	"fmt"
	"sync"
)

// Durability says when a run's checkpoints reach the Checkpointer
// (LangGraph's durability modes "sync" and "async").
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

// writer saves one run's checkpoints and writes in the order they were
// made. After the first failure it saves nothing more, and the run stops
// at its next step with that error.
type writer struct {
	ctx  context.Context
	jobs chan func(context.Context) error
	done chan struct{}

	mu  sync.Mutex
	err error
}

func newWriter(ctx context.Context) *writer {
	w := &writer{
		// A stopped run still saves what it finished, as a synchronous run
		// would have before it noticed the stop.
		ctx:  context.WithoutCancel(ctx),
		jobs: make(chan func(context.Context) error, 64),
		done: make(chan struct{}),
	}
	go w.loop()
	return w
}

func (w *writer) loop() {
	defer close(w.done)
	for job := range w.jobs {
		if w.failed() != nil {
			continue
		}
		if err := job(w.ctx); err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
		}
	}
}

func (w *writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// add queues a save; it returns the error of an earlier one, if any.
func (w *writer) add(job func(context.Context) error) error {
	if err := w.failed(); err != nil {
		return err
	}
	w.jobs <- job
	return nil
}

// flush waits for every queued save and returns the first failure. The
// writer takes no more work after it.
func (w *writer) flush() error {
	close(w.jobs)
	<-w.done
	return w.failed()
}

// held keeps a run's newest checkpoint and its pending writes in memory
// until the run ends (DurabilityExit). The mutex is for the writes of
// parallel tasks.
type held[S any] struct {
	base   string // the stored checkpoint the run started from ("" for none)
	mu     sync.Mutex
	cp     *Checkpoint
	state  S
	writes map[string][]PendingWrite // by checkpoint id
}

func (h *held[S]) keep(cp Checkpoint, st S) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cp, h.state = &cp, st
}

func (h *held[S]) addWrites(cpID string, w []PendingWrite) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.writes == nil {
		h.writes = map[string][]PendingWrite{}
	}
	h.writes[cpID] = append(h.writes[cpID], w...)
}

// save stores the newest checkpoint and the writes made on it; writes on
// the checkpoints before it belong to steps that finished, whose result
// the newest one holds.
func (h *held[S]) save(ctx context.Context, cp Checkpointer, threadID string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	last := h.base
	if h.cp != nil {
		saved := *h.cp
		saved.ParentID = h.base // the steps in between were never stored
		if err := encodeState(&saved, h.state); err != nil {
			return err
		}
		if err := cp.Put(ctx, saved); err != nil {
			return err
		}
		last = saved.ID
	}
	if w := h.writes[last]; len(w) > 0 {
		return cp.PutWrites(ctx, threadID, last, w)
	}
	return nil
}

// write runs a save now (sync) or queues it (async).
func (r *run[S]) write(what string, save func(context.Context) error) error {
	var err error
	if r.w == nil {
		err = save(r.ctx)
	} else {
		err = r.w.add(save)
	}
	if err != nil {
		return fmt.Errorf("graph: %s: %w", what, err)
	}
	return nil
}
