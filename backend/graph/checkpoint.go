package graph

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"
)

// Source says why a checkpoint was written (LangGraph's metadata.source).
type Source string

const (
	SourceInput  Source = "input"  // a new input arrived (step -1 of a thread's first run)
	SourceLoop   Source = "loop"   // a step of the run finished
	SourceUpdate Source = "update" // UpdateState wrote it
	SourceFork   Source = "fork"   // a replay from an older checkpoint branched off here
)

// Metadata is stored beside each checkpoint.
type Metadata struct {
	Source Source `json:"source"`
	Step   int    `json:"step"`
}

// Task is one node run scheduled for the next step. Its ID is derived from
// the checkpoint, so a re-run after a crash or an interrupt has the same ID
// and finds the writes it already made.
type Task struct {
	ID   string          `json:"id"`
	Node string          `json:"node"`
	Arg  json.RawMessage `json:"arg,omitempty"` // set for Send tasks and the input task

	arg any // the Send argument before it was encoded, when still in memory
}

// Checkpoint is the state between two steps: the values, and the tasks the
// next step will run.
type Checkpoint struct {
	ThreadID  string          `json:"thread_id"`
	ID        string          `json:"id"` // UUIDv7: sorts by creation time
	ParentID  string          `json:"parent_id,omitempty"`
	Values    json.RawMessage `json:"values"`
	Next      []Task          `json:"next"`
	Metadata  Metadata        `json:"metadata"`
	CreatedAt time.Time       `json:"created_at"`
}

// PendingWrite is a write made by a task of a step that has not finished.
// Keeping them is what lets only the failed or interrupted node re-run.
type PendingWrite struct {
	TaskID  string          `json:"task_id"`
	Idx     int             `json:"idx"`
	Channel string          `json:"channel"`
	Value   json.RawMessage `json:"value"`
}

// Saved is a checkpoint with the writes made since it.
type Saved struct {
	Checkpoint
	Writes []PendingWrite
}

// ErrNoCheckpoint is returned by Checkpointer.Get when the thread (or the
// asked checkpoint) does not exist.
var ErrNoCheckpoint = errors.New("graph: no checkpoint")

// Checkpointer stores checkpoints by thread. It has four methods where
// eino's store has two because history, forks and pending writes each need
// their own access path; every method must be atomic (a write either
// happens entirely or not at all).
type Checkpointer interface {
	// Put stores a new checkpoint.
	Put(ctx context.Context, cp Checkpoint) error
	// PutWrites stores writes for checkpointID; a write with the same
	// (task, idx) replaces the earlier one.
	PutWrites(ctx context.Context, threadID, checkpointID string, writes []PendingWrite) error
	// Get returns checkpointID of the thread with its writes, or the newest
	// when checkpointID is empty; ErrNoCheckpoint when there is none.
	Get(ctx context.Context, threadID, checkpointID string) (Saved, error)
	// List returns the thread's checkpoints newest first, at most limit (0: all).
	List(ctx context.Context, threadID string, limit int) ([]Saved, error)
}

// ThreadDeleter is a Checkpointer that can forget a whole thread, its
// checkpoints and writes (LangGraph's delete_thread, which its checkpointer
// contract requires). The id stays retired: later Put and PutWrites for it
// are dropped without error, so a run still going when its conversation is
// deleted cannot bring it back. It stands apart from Checkpointer so that
// stores written against the four-method interface keep compiling; both
// stores here implement it.
type ThreadDeleter interface {
	DeleteThread(ctx context.Context, threadID string) error
}

// MemorySaver keeps checkpoints in memory: for tests, and for runs that
// need interrupts but not persistence across restarts.
type MemorySaver struct {
	mu      sync.Mutex
	threads map[string][]Saved // each thread sorted by checkpoint id
	deleted map[string]bool    // retired thread ids
}

// NewMemorySaver returns an empty in-memory checkpointer.
func NewMemorySaver() *MemorySaver {
	return &MemorySaver{threads: map[string][]Saved{}, deleted: map[string]bool{}}
}

// Put implements Checkpointer.
func (m *MemorySaver) Put(_ context.Context, cp Checkpoint) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.deleted[cp.ThreadID] {
		return nil
	}
	cp.Values = slices.Clone(cp.Values)
	cp.Next = slices.Clone(cp.Next)
	list := m.threads[cp.ThreadID]
	i, found := slices.BinarySearchFunc(list, cp.ID, func(s Saved, id string) int { return cmp.Compare(s.ID, id) })
	if found {
		list[i].Checkpoint = cp
		return nil
	}
	m.threads[cp.ThreadID] = slices.Insert(list, i, Saved{Checkpoint: cp})
	return nil
}

// PutWrites implements Checkpointer.
func (m *MemorySaver) PutWrites(_ context.Context, threadID, checkpointID string, writes []PendingWrite) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.deleted[threadID] {
		return nil
	}
	list := m.threads[threadID]
	i, found := slices.BinarySearchFunc(list, checkpointID, func(s Saved, id string) int { return cmp.Compare(s.ID, id) })
	if !found {
		return ErrNoCheckpoint
	}
	s := &list[i]
	for _, w := range writes {
		w.Value = slices.Clone(w.Value)
		j := slices.IndexFunc(s.Writes, func(o PendingWrite) bool { return o.TaskID == w.TaskID && o.Idx == w.Idx })
		if j >= 0 {
			s.Writes[j] = w
			continue
		}
		s.Writes = append(s.Writes, w)
	}
	return nil
}

// Get implements Checkpointer.
func (m *MemorySaver) Get(_ context.Context, threadID, checkpointID string) (Saved, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.threads[threadID]
	if len(list) == 0 {
		return Saved{}, ErrNoCheckpoint
	}
	if checkpointID == "" {
		return cloneSaved(list[len(list)-1]), nil
	}
	i, found := slices.BinarySearchFunc(list, checkpointID, func(s Saved, id string) int { return cmp.Compare(s.ID, id) })
	if !found {
		return Saved{}, ErrNoCheckpoint
	}
	return cloneSaved(list[i]), nil
}

// List implements Checkpointer.
func (m *MemorySaver) List(_ context.Context, threadID string, limit int) ([]Saved, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.threads[threadID]
	var out []Saved
	for i := len(list) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		out = append(out, cloneSaved(list[i]))
	}
	return out, nil
}

func cloneSaved(s Saved) Saved {
	s.Next = slices.Clone(s.Next)
	s.Writes = slices.Clone(s.Writes)
	return s
}

// DeleteThread implements ThreadDeleter.
func (m *MemorySaver) DeleteThread(_ context.Context, threadID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.threads, threadID)
	m.deleted[threadID] = true
	return nil
}
