package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// EventKind names what happened in a run.
type EventKind string

const (
	EventNodeStart EventKind = "node_start" // a task began
	EventNodeEnd   EventKind = "node_end"   // a task finished; Update holds its writes
	EventToken     EventKind = "token"      // a node streamed text (Runtime.Token)
	EventCustom    EventKind = "custom"     // a node reported progress (Runtime.Emit)
	EventValues    EventKind = "values"     // a step finished; Values holds the full state
	EventInterrupt EventKind = "interrupt"  // the run stopped for a person; see Interrupts
	EventError     EventKind = "error"      // a node failed; Err says why
)

// Event is the single stream a run reports through: the UI draws the trace
// and streams tokens from it, the CLI prints it.
type Event struct {
	Kind       EventKind
	Step       int
	Node       string
	TaskID     string
	Update     Update         // EventNodeEnd
	Text       string         // EventToken
	Name       string         // EventCustom
	Payload    any            // EventCustom
	Values     any            // EventValues: the state S
	Interrupts []Interruption // EventInterrupt
	Err        error          // EventError
}

// EventSink receives a run's events. The engine never calls it from two
// goroutines at once, so a sink needs no locking of its own.
type EventSink interface{ Event(Event) }

// EventSinkFunc adapts a function to EventSink.
type EventSinkFunc func(Event)

// Event implements EventSink.
func (f EventSinkFunc) Event(e Event) { f(e) }

// lockedSink serialises events from parallel tasks.
type lockedSink struct {
	mu   sync.Mutex
	sink EventSink
}

func (l *lockedSink) emit(e Event) {
	if l == nil || l.sink == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sink.Event(e)
}

// Interruption is a stop waiting for a person. Resume answers it by ID.
type Interruption struct {
	ID    string          `json:"id"`   // the task's id; key of Command.ResumeMap
	Node  string          `json:"node"` // node that asked (or that the static breakpoint is at)
	When  When            `json:"when"`
	Value json.RawMessage `json:"value,omitempty"` // the payload, JSON so it reads the same after a restart
}

// Decode unmarshals the payload into v.
func (i Interruption) Decode(v any) error { return json.Unmarshal(i.Value, v) }

// When says where an interrupt happened.
type When string

const (
	During When = "during" // Interrupt called inside the node
	Before When = "before" // static breakpoint before the node
	After  When = "after"  // static breakpoint after the node
)

// Runtime is what a node can do besides reading the state: stream tokens,
// report progress, read its Send argument and ask a person (Interrupt). It
// is passed explicitly rather than hidden in the context.
type Runtime struct {
	node, taskID string
	step         int
	arg          any // Send argument: the Go value, or json.RawMessage after a restart
	answers      []json.RawMessage
	asked        int
	sink         *lockedSink
}

// Node is the name of the running node.
func (rt *Runtime) Node() string { return rt.node }

// TaskID is the id of the running task: the id of an interrupt it asks
// (Interruption.ID), stable while the task waits and across a restart, so
// a node can name what it asks about (a tool call's id) before it asks.
func (rt *Runtime) TaskID() string { return rt.taskID }

// Step is the number of the step the node runs in.
func (rt *Runtime) Step() int { return rt.step }

// Token streams a piece of model output.
func (rt *Runtime) Token(text string) {
	rt.sink.emit(Event{Kind: EventToken, Step: rt.step, Node: rt.node, TaskID: rt.taskID, Text: text})
}

// Emit reports a named custom event (tool_selected, evaluation_result, ...).
func (rt *Runtime) Emit(name string, payload any) {
	rt.sink.emit(Event{Kind: EventCustom, Step: rt.step, Node: rt.node, TaskID: rt.taskID, Name: name, Payload: payload})
}

// ArgAs returns the argument this task was sent with (Send).
func ArgAs[T any](rt *Runtime) (T, error) {
	v, err := decodeAs[T](rt.arg)
	if err != nil {
		return v, fmt.Errorf("node %q: send argument: %w", rt.node, err)
	}
	return v, nil
}

// interruptSignal travels up from Interrupt to the engine as an error.
type interruptSignal struct {
	payload json.RawMessage
	asked   int // answers the node had used before this question
}

func (*interruptSignal) Error() string { return "graph: node interrupted" }

// IsInterrupt reports whether err is the signal Interrupt returns, for
// nodes that need to tell it apart from real failures.
func IsInterrupt(err error) bool {
	var s *interruptSignal
	return errors.As(err, &s)
}

// Answers returns the answers this task has had so far, in the order they
// came. A node that asks about several things and matches each answer to
// its question itself (by an id the answer carries) reads them here, and
// asks what is still open with AskNext: unlike Interrupt's order, that
// stays right when the node's questions change between its runs (a
// question settled meanwhile is simply not asked).
func Answers[T any](rt *Runtime) ([]T, error) {
	out := make([]T, len(rt.answers))
	for i, raw := range rt.answers {
		v, err := decodeAs[T](raw)
		if err != nil {
			return nil, fmt.Errorf("node %q: resume value %d: %w", rt.node, i, err)
		}
		out[i] = v
	}
	return out, nil
}

// AskNext asks a person a new question, after every answer the task has
// had: it returns the error the node must return as is, and the answer
// arrives in Answers when the node runs again.
func AskNext(rt *Runtime, payload any) error {
	rt.asked = len(rt.answers)
	_, err := Interrupt[json.RawMessage](rt, payload)
	return err
}

// Interrupt asks a person. The first time, it returns an error the node must
// return as is: the run stops and the caller gets payload. After a resume
// the node runs again from its start, and this call returns the answer
// (decoded into T); a node that asks several times gets its earlier answers
// back in order, so it must ask in the same order each run.
func Interrupt[T any](rt *Runtime, payload any) (T, error) {
	var zero T
	i := rt.asked
	rt.asked++
	if i < len(rt.answers) {
		v, err := decodeAs[T](rt.answers[i])
		if err != nil {
			return zero, fmt.Errorf("node %q: resume value %d: %w", rt.node, i, err)
		}
		return v, nil
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return zero, fmt.Errorf("node %q: interrupt payload: %w", rt.node, err)
	}
	return zero, &interruptSignal{payload: b, asked: i}
}
