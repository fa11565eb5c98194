package graph

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/google/uuid"
)

// DefaultStepLimit is LangGraph's default recursion limit.
const DefaultStepLimit = 25

// Errors callers test for.
var (
	ErrRecursionLimit  = errors.New("graph: step limit reached without hitting END")
	ErrNoThreadID      = errors.New("graph: a checkpointer needs Config.ThreadID")
	ErrNoCheckpointer  = errors.New("graph: resuming needs a checkpointer")
	ErrAmbiguousResume = errors.New("graph: several interrupts are pending; resume with Command.ResumeMap keyed by interrupt id")
	ErrNoInterrupt     = errors.New("graph: resume value given but no interrupt is pending")
	ErrUnknownField    = errors.New("graph: write to an undeclared field")
	ErrUnknownNode     = errors.New("graph: unknown node")
)

// NodeError is a failure inside a node, named so logs and the UI can say
// which step broke. errors.Is/As see through it to the node's error.
type NodeError struct {
	Node string
	Err  error
}

func (e *NodeError) Error() string { return fmt.Sprintf("graph: node %q: %v", e.Node, e.Err) }
func (e *NodeError) Unwrap() error { return e.Err }

// Graph is a compiled graph, safe for concurrent runs on different threads.
type Graph[S any] struct {
	fields   map[string]Field[S]
	nodes    map[string]NodeFunc[S]
	order    map[string]int
	edges    map[string][]string
	branches map[string][]branch[S]
	cp       Checkpointer
	before   map[string]bool
	after    map[string]bool
}

// Config says which thread a run belongs to and how to report it.
type Config struct {
	ThreadID     string
	CheckpointID string     // run from (or inspect) this checkpoint instead of the newest
	StepLimit    int        // 0: DefaultStepLimit
	Events       EventSink  // optional
	Durability   Durability // when checkpoints are saved; default DurabilitySync
}

// Command resumes a stopped run. Resume answers the single pending
// interrupt; ResumeMap answers several by Interrupt.ID. Update is applied
// before the pending nodes run, and Goto adds nodes to that step.
type Command struct {
	Resume    any
	ResumeMap map[string]any
	Update    Update
	Goto      []string
}

// Result is where a run stopped: at END (no Interrupts) or waiting for a
// person. An interrupt is a result, not an error.
type Result[S any] struct {
	State        S
	Interrupts   []Interruption
	CheckpointID string
}

// Interrupted reports whether the run is waiting for Resume.
func (r Result[S]) Interrupted() bool { return len(r.Interrupts) > 0 }

// Channels of pending writes that are bookkeeping, not state. Their fixed
// negative indexes make a repeated write replace the earlier one.
const (
	chanDone      = "__done__"
	chanError     = "__error__"
	chanInterrupt = "__interrupt__"
	chanResume    = "__resume__"
	chanBefore    = "__before__"
	chanAsked     = "__asked__"

	idxDone      = -1
	idxError     = -2
	idxInterrupt = -3
	idxResume    = -4
	idxBefore    = -5
	idxAsked     = -6
)

// Invoke starts a new run on the thread with input as the first writes, from
// the newest checkpoint's state (or cfg.CheckpointID's). Pending tasks of an
// earlier, unfinished run are dropped, as in LangGraph.
func (g *Graph[S]) Invoke(ctx context.Context, cfg Config, input Update) (Result[S], error) {
	var zero Result[S]
	if err := g.checkFields(input); err != nil {
		return zero, err
	}
	var st S
	parent, step := "", -1
	if g.cp != nil {
		if cfg.ThreadID == "" {
			return zero, ErrNoThreadID
		}
		saved, err := g.cp.Get(ctx, cfg.ThreadID, cfg.CheckpointID)
		switch {
		case errors.Is(err, ErrNoCheckpoint) && cfg.CheckpointID == "":
		case err != nil:
			return zero, fmt.Errorf("graph: load checkpoint: %w", err)
		default:
			if st, err = g.decodeState(saved.Values); err != nil {
				return zero, err
			}
			parent, step = saved.ID, saved.Metadata.Step+1
		}
	}
	arg, err := json.Marshal(input)
	if err != nil {
		return zero, fmt.Errorf("graph: encode input: %w", err)
	}
	cp := Checkpoint{ThreadID: cfg.ThreadID, ID: newID(), ParentID: parent,
		Metadata: Metadata{Source: SourceInput, Step: step}, CreatedAt: time.Now()}
	cp.Next = []Task{{ID: taskID(cp.ID, 0, Start), Node: Start, Arg: arg, arg: input}}
	r := g.newRun(ctx, cfg, parent)
	if err := r.save(&cp, st); err != nil {
		return r.finish(zero, err)
	}
	return r.finish(r.loop(cp, st, &pending{}, false))
}

// Resume continues the run stopped at the thread's newest checkpoint. With
// cfg.CheckpointID naming an older checkpoint it replays from there: a fork
// is written and the nodes after it run again, while history stays intact.
func (g *Graph[S]) Resume(ctx context.Context, cfg Config, cmd Command) (Result[S], error) {
	var zero Result[S]
	if g.cp == nil {
		return zero, ErrNoCheckpointer
	}
	if cfg.ThreadID == "" {
		return zero, ErrNoThreadID
	}
	if err := g.checkFields(cmd.Update); err != nil {
		return zero, err
	}
	saved, err := g.load(ctx, cfg)
	if err != nil {
		return zero, err
	}
	st, err := g.decodeState(saved.Values)
	if err != nil {
		return zero, err
	}
	pend := parsePending(saved.Writes)
	writes, err := pend.resume(saved.Next, cmd)
	if err != nil {
		return zero, err
	}
	if len(writes) > 0 {
		if err := g.cp.PutWrites(ctx, cfg.ThreadID, saved.ID, writes); err != nil {
			return zero, fmt.Errorf("graph: save resume: %w", err)
		}
	}
	r := g.newRun(ctx, cfg, saved.ID)
	r.resumed = true
	return r.finish(r.loop(saved.Checkpoint, st, pend, pend.before))
}

// load returns the checkpoint a resume starts from: the newest, or a fork
// of an older one so that the replay's checkpoints hang off it.
func (g *Graph[S]) load(ctx context.Context, cfg Config) (Saved, error) {
	latest, err := g.cp.Get(ctx, cfg.ThreadID, "")
	if err != nil {
		return Saved{}, fmt.Errorf("graph: load thread %q: %w", cfg.ThreadID, err)
	}
	if cfg.CheckpointID == "" || cfg.CheckpointID == latest.ID {
		return latest, nil
	}
	old, err := g.cp.Get(ctx, cfg.ThreadID, cfg.CheckpointID)
	if err != nil {
		return Saved{}, fmt.Errorf("graph: load checkpoint %q: %w", cfg.CheckpointID, err)
	}
	fork := old.Checkpoint
	fork.ID, fork.ParentID, fork.CreatedAt = newID(), old.ID, time.Now()
	fork.Metadata.Source = SourceFork
	fork.Next = make([]Task, len(old.Next))
	for i, t := range old.Next {
		fork.Next[i] = Task{ID: taskID(fork.ID, i, t.Node), Node: t.Node, Arg: t.Arg}
	}
	if err := g.cp.Put(ctx, fork); err != nil {
		return Saved{}, fmt.Errorf("graph: save fork: %w", err)
	}
	return Saved{Checkpoint: fork}, nil
}

type run[S any] struct {
	g     *Graph[S]
	ctx   context.Context
	cfg   Config
	sink  *lockedSink
	limit int
	saves persister[S]
	// resumed runs report the state they start from first, as LangGraph's
	// stream_mode="values" does when a run resumes.
	resumed bool
}

// newRun prepares a run that starts from the stored checkpoint base.
func (g *Graph[S]) newRun(ctx context.Context, cfg Config, base string) *run[S] {
	limit := cfg.StepLimit
	if limit <= 0 {
		limit = DefaultStepLimit
	}
	return &run[S]{g: g, ctx: ctx, cfg: cfg, sink: &lockedSink{sink: cfg.Events}, limit: limit,
		saves: newPersister[S](ctx, g.cp, cfg.Durability, cfg.ThreadID, base)}
}

// finish makes the run's outstanding saves before it reports the outcome:
// a result is only returned once it is stored.
func (r *run[S]) finish(res Result[S], err error) (Result[S], error) {
	if ferr := r.saves.end(); ferr != nil && err == nil {
		return Result[S]{}, fmt.Errorf("graph: save checkpoint: %w", ferr)
	}
	return res, err
}

// taskOutcome is what one task left behind in a step.
type taskOutcome struct {
	update    Update
	err       error
	interrupt json.RawMessage
}

// loop runs steps from cp until END, an interrupt, an error or the limit.
func (r *run[S]) loop(cp Checkpoint, st S, pend *pending, skipBefore bool) (Result[S], error) {
	g := r.g
	var zero Result[S]
	tasks := cp.Next
	// A Command's update and goto apply before the pending tasks run.
	if len(pend.null) > 0 {
		var err error
		if tasks, err = g.applyNull(&st, cp.ID, tasks, pend.null); err != nil {
			return zero, err
		}
	}
	if r.resumed {
		r.sink.emit(Event{Kind: EventValues, Step: cp.Metadata.Step, Values: st})
	}
	for steps := 0; ; {
		if err := r.ctx.Err(); err != nil {
			return zero, fmt.Errorf("graph: step %d: %w", cp.Metadata.Step+1, err)
		}
		if err := r.saves.failed(); err != nil {
			return zero, fmt.Errorf("graph: save checkpoint: %w", err)
		}
		if len(tasks) == 0 {
			if steps == 0 && len(pend.null) > 0 {
				// A Command updated a finished thread: keep the edit in a
				// checkpoint of its own, as UpdateState would.
				return r.finishUpdate(cp, st)
			}
			return Result[S]{State: st, CheckpointID: cp.ID}, nil
		}
		if !skipBefore {
			if stops := r.breakpoints(tasks, g.before, Before); len(stops) > 0 {
				mark := []PendingWrite{{Idx: idxBefore, Channel: chanBefore, Value: json.RawMessage("true")}}
				if err := r.putWrites(cp.ID, mark); err != nil {
					return zero, err
				}
				return r.stop(st, cp, stops), nil
			}
		}
		skipBefore = false
		if tasks[0].Node != Start {
			if steps >= r.limit {
				return zero, fmt.Errorf("%w (limit %d)", ErrRecursionLimit, r.limit)
			}
			steps++
		}
		step := cp.Metadata.Step + 1
		outcomes := r.runTasks(cp, step, tasks, st, pend)
		if err := r.ctx.Err(); err != nil {
			return zero, fmt.Errorf("graph: step %d: %w", step, err)
		}
		var stops []Interruption
		var firstErr error
		for i, o := range outcomes {
			switch {
			case o.err != nil && firstErr == nil:
				firstErr = o.err
			case o.interrupt != nil:
				stops = append(stops, Interruption{ID: tasks[i].ID, Node: tasks[i].Node, When: During, Value: o.interrupt})
			}
		}
		if firstErr != nil {
			return zero, firstErr
		}
		if len(stops) > 0 {
			return r.stop(st, cp, stops), nil
		}
		next := Checkpoint{ThreadID: r.cfg.ThreadID, ID: newID(), ParentID: cp.ID,
			Metadata: Metadata{Source: SourceLoop, Step: step}, CreatedAt: time.Now()}
		updates := make([]Update, len(outcomes))
		for i, o := range outcomes {
			updates[i] = o.update
		}
		var err error
		if next.Next, err = g.advance(&st, next.ID, tasks, updates); err != nil {
			return zero, err
		}
		if err := r.save(&next, st); err != nil {
			return zero, err
		}
		r.sink.emit(Event{Kind: EventValues, Step: step, Values: st})
		ran := tasks
		cp, tasks, pend = next, next.Next, &pending{}
		if len(tasks) > 0 {
			if stops := r.breakpoints(ran, g.after, After); len(stops) > 0 {
				return r.stop(st, cp, stops), nil
			}
		}
	}
}

func (r *run[S]) finishUpdate(cp Checkpoint, st S) (Result[S], error) {
	next := Checkpoint{ThreadID: r.cfg.ThreadID, ID: newID(), ParentID: cp.ID,
		Metadata: Metadata{Source: SourceUpdate, Step: cp.Metadata.Step + 1}, CreatedAt: time.Now()}
	if err := r.save(&next, st); err != nil {
		return Result[S]{}, err
	}
	return Result[S]{State: st, CheckpointID: next.ID}, nil
}

func (r *run[S]) breakpoints(tasks []Task, at map[string]bool, when When) []Interruption {
	var stops []Interruption
	for _, t := range tasks {
		if at[t.Node] {
			stops = append(stops, Interruption{ID: t.ID, Node: t.Node, When: when})
		}
	}
	return stops
}

func (r *run[S]) stop(st S, cp Checkpoint, stops []Interruption) Result[S] {
	r.sink.emit(Event{Kind: EventInterrupt, Step: cp.Metadata.Step + 1, Interrupts: stops})
	return Result[S]{State: st, Interrupts: stops, CheckpointID: cp.ID}
}

// runTasks runs the step's tasks in parallel; tasks that already finished
// before a crash or an interrupt are not run again, their writes are reused.
func (r *run[S]) runTasks(cp Checkpoint, step int, tasks []Task, st S, pend *pending) []taskOutcome {
	out := make([]taskOutcome, len(tasks))
	var wg sync.WaitGroup
	for i, t := range tasks {
		if u, ok := pend.done[t.ID]; ok {
			out[i] = taskOutcome{update: u}
			continue
		}
		if len(tasks) == 1 {
			out[i] = r.runTask(cp, step, t, st, pend.answers[t.ID], true)
			break
		}
		wg.Go(func() { out[i] = r.runTask(cp, step, t, st, pend.answers[t.ID], false) })
	}
	wg.Wait()
	return out
}

func (r *run[S]) runTask(cp Checkpoint, step int, t Task, st S, answers []json.RawMessage, alone bool) taskOutcome {
	if t.Node == Start {
		// The input as given, unless the run resumes from a checkpoint:
		// decoding it again is most of a short step's work in a long
		// conversation.
		if in, ok := t.arg.(Update); ok {
			return taskOutcome{update: in}
		}
		var in Update
		if err := json.Unmarshal(t.Arg, &in); err != nil {
			return taskOutcome{err: fmt.Errorf("graph: decode input: %w", err)}
		}
		return taskOutcome{update: in}
	}
	fn := r.g.nodes[t.Node]
	if fn == nil {
		return taskOutcome{err: &NodeError{Node: t.Node, Err: ErrUnknownNode}}
	}
	var arg any = t.Arg
	if t.arg != nil {
		arg = t.arg
	}
	rt := &Runtime{node: t.Node, taskID: t.ID, step: step, arg: arg, answers: answers, sink: r.sink}
	r.sink.emit(Event{Kind: EventNodeStart, Step: step, Node: t.Node, TaskID: t.ID})
	upd, err := safeCall(r.ctx, fn, st, rt)
	if err == nil {
		err = r.g.checkFields(upd)
	}
	var sig *interruptSignal
	switch {
	case errors.As(err, &sig):
		// How many answers the open question follows, so that a resume whose
		// run was cut before the node used its answer (a killed process)
		// is replaced by the next one instead of answering this question.
		asked, _ := json.Marshal(sig.asked)
		ws := []PendingWrite{
			{TaskID: t.ID, Idx: idxInterrupt, Channel: chanInterrupt, Value: sig.payload},
			{TaskID: t.ID, Idx: idxAsked, Channel: chanAsked, Value: asked},
		}
		if perr := r.putWrites(cp.ID, ws); perr != nil {
			return taskOutcome{err: &NodeError{Node: t.Node, Err: perr}}
		}
		return taskOutcome{interrupt: sig.payload}
	case err != nil:
		nerr := &NodeError{Node: t.Node, Err: err}
		if r.ctx.Err() == nil {
			msg, _ := json.Marshal(err.Error())
			// Best effort: the error is for GetState; the run fails either way.
			_ = r.putWrites(cp.ID, []PendingWrite{{TaskID: t.ID, Idx: idxError, Channel: chanError, Value: msg}})
		}
		r.sink.emit(Event{Kind: EventError, Step: step, Node: t.Node, TaskID: t.ID, Err: nerr})
		return taskOutcome{err: nerr}
	}
	// A lone task's writes reach the store with the next checkpoint a moment
	// later; saving them separately only pays off when other tasks of the
	// step may still fail or stop, and it halves the database work of a
	// sequential graph.
	if r.g.cp != nil && !alone {
		writes, err := encodeWrites(t.ID, upd)
		if err == nil {
			err = r.putWrites(cp.ID, writes)
		}
		if err != nil {
			return taskOutcome{err: &NodeError{Node: t.Node, Err: err}}
		}
	}
	r.sink.emit(Event{Kind: EventNodeEnd, Step: step, Node: t.Node, TaskID: t.ID, Update: upd})
	return taskOutcome{update: upd}
}

// safeCall turns a panicking node into an error: one bad node must not take
// the desktop app down.
func safeCall[S any](ctx context.Context, fn NodeFunc[S], st S, rt *Runtime) (upd Update, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return fn(ctx, st, rt)
}

// encodeWrites turns a task's update into pending writes, closed by the
// done marker in the same batch so a task is either done or not at all.
func encodeWrites(task string, upd Update) ([]PendingWrite, error) {
	out := make([]PendingWrite, 0, len(upd)+1)
	for i, w := range upd {
		b, err := json.Marshal(w.Value)
		if err != nil {
			return nil, fmt.Errorf("encode write to %q: %w", w.Field, err)
		}
		out = append(out, PendingWrite{TaskID: task, Idx: i, Channel: w.Field, Value: b})
	}
	return append(out, PendingWrite{TaskID: task, Idx: idxDone, Channel: chanDone, Value: json.RawMessage("true")}), nil
}

func (r *run[S]) putWrites(cpID string, writes []PendingWrite) error {
	if err := r.saves.writes(cpID, writes); err != nil {
		return fmt.Errorf("graph: save writes: %w", err)
	}
	return nil
}

// save stores a checkpoint of the run, as its Durability says.
func (r *run[S]) save(cp *Checkpoint, st S) error {
	if err := r.saves.checkpoint(*cp, st); err != nil {
		return fmt.Errorf("graph: save checkpoint: %w", err)
	}
	return nil
}

func encodeState[S any](cp *Checkpoint, st S) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("graph: encode state: %w", err)
	}
	cp.Values = b
	return nil
}

func (g *Graph[S]) decodeState(b json.RawMessage) (S, error) {
	var st S
	if len(b) == 0 {
		return st, nil
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("graph: decode state: %w", err)
	}
	return st, nil
}

func (g *Graph[S]) checkFields(u Update) error {
	for _, w := range u {
		if w.Field != gotoField && w.Field != sendField && g.fields[w.Field] == nil {
			return fmt.Errorf("%w %q", ErrUnknownField, w.Field)
		}
	}
	return nil
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// taskID is deterministic so that a re-run of a step finds its own writes.
func taskID(checkpointID string, i int, node string) string {
	h := sha256.New()
	h.Write([]byte(checkpointID))
	h.Write(binary.AppendVarint(nil, int64(i)))
	h.Write([]byte(node))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// nodeIndex orders nodes by when they were added, for a stable Next.
func (g *Graph[S]) nodeIndex(n string) int {
	if i, ok := g.order[n]; ok {
		return i
	}
	return len(g.order)
}
