package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Snapshot is the state of a thread at one checkpoint, as GetState and
// History report it.
type Snapshot[S any] struct {
	Values       S
	Next         []string       // nodes the next step will run
	Tasks        []TaskState    // those tasks and what became of them
	Interrupts   []Interruption // interrupts waiting for an answer
	CheckpointID string
	ParentID     string
	Metadata     Metadata
	CreatedAt    time.Time
}

// TaskState is one scheduled task of a snapshot.
type TaskState struct {
	ID        string
	Node      string
	Done      bool          // finished; its writes wait for the rest of the step
	Error     string        // the last failure, if it failed
	Interrupt *Interruption // the open question, if it asked one
}

// GetState returns the thread's newest snapshot (or cfg.CheckpointID's).
func (g *Graph[S]) GetState(ctx context.Context, cfg Config) (Snapshot[S], error) {
	if g.cp == nil {
		return Snapshot[S]{}, ErrNoCheckpointer
	}
	if cfg.ThreadID == "" {
		return Snapshot[S]{}, ErrNoThreadID
	}
	saved, err := g.cp.Get(ctx, cfg.ThreadID, cfg.CheckpointID)
	if err != nil {
		return Snapshot[S]{}, fmt.Errorf("graph: load thread %q: %w", cfg.ThreadID, err)
	}
	// Like LangGraph, the newest state includes what finished tasks of an
	// unfinished step wrote; a named checkpoint is shown as it was saved.
	return g.snapshot(saved, cfg.CheckpointID == "")
}

// History returns the thread's snapshots newest first, at most limit (0: all).
func (g *Graph[S]) History(ctx context.Context, cfg Config, limit int) ([]Snapshot[S], error) {
	if g.cp == nil {
		return nil, ErrNoCheckpointer
	}
	if cfg.ThreadID == "" {
		return nil, ErrNoThreadID
	}
	list, err := g.cp.List(ctx, cfg.ThreadID, limit)
	if err != nil {
		return nil, fmt.Errorf("graph: list thread %q: %w", cfg.ThreadID, err)
	}
	out := make([]Snapshot[S], 0, len(list))
	for _, s := range list {
		snap, err := g.snapshot(s, false)
		if err != nil {
			return nil, err
		}
		out = append(out, snap)
	}
	return out, nil
}

// snapshot describes a saved checkpoint. With applyPending, Values include
// the pending writes (a Command's update, finished tasks' writes) and Next
// leaves out the tasks that finished; Tasks always lists them all.
func (g *Graph[S]) snapshot(saved Saved, applyPending bool) (Snapshot[S], error) {
	st, err := g.decodeState(saved.Values)
	if err != nil {
		return Snapshot[S]{}, err
	}
	pend := parsePending(saved.Writes)
	tasks := saved.Next
	if applyPending {
		if tasks, err = g.applyNull(&st, saved.ID, tasks, pend.null); err != nil {
			return Snapshot[S]{}, err
		}
		if _, err = g.applyPending(&st, saved.ID, tasks, &pending{done: pend.done}); err != nil {
			return Snapshot[S]{}, err
		}
	}
	snap := Snapshot[S]{Values: st, CheckpointID: saved.ID, ParentID: saved.ParentID,
		Metadata: saved.Metadata, CreatedAt: saved.CreatedAt}
	for _, t := range tasks {
		_, done := pend.done[t.ID]
		ts := TaskState{ID: t.ID, Node: t.Node, Done: done, Error: pend.errors[t.ID]}
		if payload, ok := pend.interrupts[t.ID]; ok && !done {
			ts.Interrupt = &Interruption{ID: t.ID, Node: t.Node, When: During, Value: payload}
			snap.Interrupts = append(snap.Interrupts, *ts.Interrupt)
		} else if pend.before && g.before[t.Node] {
			snap.Interrupts = append(snap.Interrupts, Interruption{ID: t.ID, Node: t.Node, When: Before})
		}
		if !done || !applyPending {
			snap.Next = append(snap.Next, t.Node)
		}
		snap.Tasks = append(snap.Tasks, ts)
	}
	return snap, nil
}

// UpdateState writes values to the thread as if asNode had returned them:
// reducers apply and asNode's edges decide what runs next. asNode End
// finishes the thread (pending tasks and interrupts are dropped); an empty
// asNode keeps the pending tasks. Applied to an older checkpoint it forks.
// It returns the new checkpoint's id.
func (g *Graph[S]) UpdateState(ctx context.Context, cfg Config, values Update, asNode string) (string, error) {
	if g.cp == nil {
		return "", ErrNoCheckpointer
	}
	if cfg.ThreadID == "" {
		return "", ErrNoThreadID
	}
	if err := g.checkFields(values); err != nil {
		return "", err
	}
	if asNode != "" && asNode != Start && asNode != End && g.nodes[asNode] == nil {
		return "", fmt.Errorf("graph: update as %q: %w", asNode, ErrUnknownNode)
	}
	saved, err := g.cp.Get(ctx, cfg.ThreadID, cfg.CheckpointID)
	if errors.Is(err, ErrNoCheckpoint) && cfg.CheckpointID == "" {
		saved, err = Saved{Checkpoint: Checkpoint{Metadata: Metadata{Step: -1}}}, nil
	}
	if err != nil {
		return "", fmt.Errorf("graph: load thread %q: %w", cfg.ThreadID, err)
	}
	st, err := g.decodeState(saved.Values)
	if err != nil {
		return "", err
	}
	pend := parsePending(saved.Writes)
	pendingTasks := saved.Next
	if cfg.CheckpointID == "" {
		// As LangGraph does: the edit lands on top of what the unfinished
		// step already did, and finished tasks are not run again.
		if pendingTasks, err = g.applyPending(&st, saved.ID, saved.Next, pend); err != nil {
			return "", err
		}
	}
	cp := Checkpoint{ThreadID: cfg.ThreadID, ID: newID(), ParentID: saved.ID,
		Metadata: Metadata{Source: SourceUpdate, Step: saved.Metadata.Step + 1}, CreatedAt: time.Now()}
	next, err := g.advance(&st, cp.ID, []Task{{Node: asNode}}, []Update{values})
	if err != nil {
		return "", fmt.Errorf("graph: update state: %w", err)
	}
	if asNode == "" {
		// Keep what was pending, under ids of the new checkpoint.
		var kept []Task
		for _, t := range pendingTasks {
			if !slices.ContainsFunc(next, func(n Task) bool { return n.Node == t.Node && n.Arg == nil }) {
				kept = append(kept, t)
			}
		}
		next = append(kept, next...)
		for i := range next {
			next[i].ID = taskID(cp.ID, i, next[i].Node)
		}
	}
	cp.Next = next
	if err := (direct[S]{ctx: ctx, cp: g.cp}).checkpoint(cp, st); err != nil {
		return "", fmt.Errorf("graph: save checkpoint: %w", err)
	}
	// Editing the state at a breakpoint is how a person answers it: the
	// next Resume runs on instead of stopping at the same breakpoint again.
	if pend.before && len(next) > 0 {
		mark := []PendingWrite{{Idx: idxBefore, Channel: chanBefore, Value: []byte("true")}}
		if err := g.cp.PutWrites(ctx, cfg.ThreadID, cp.ID, mark); err != nil {
			return "", fmt.Errorf("graph: save breakpoint mark: %w", err)
		}
	}
	return cp.ID, nil
}

// DeleteThread removes the thread's history, e.g. when a person deletes a
// conversation. The checkpointer must implement ThreadDeleter.
func (g *Graph[S]) DeleteThread(ctx context.Context, threadID string) error {
	if g.cp == nil {
		return ErrNoCheckpointer
	}
	d, ok := g.cp.(ThreadDeleter)
	if !ok {
		return fmt.Errorf("graph: delete thread %q: %T cannot delete: %w", threadID, g.cp, errors.ErrUnsupported)
	}
	if err := d.DeleteThread(ctx, threadID); err != nil {
		return fmt.Errorf("graph: delete thread %q: %w", threadID, err)
	}
	return nil
}
