package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"
)

// Write is one value a node writes to one field of the state. Values travel
// through checkpoints as JSON, so after a restart Value may be a
// json.RawMessage; fields decode it into their own type before reducing.
type Write struct {
	Field string `json:"field"`
	Value any    `json:"value"`
}

// UnmarshalJSON keeps Value raw: only the field knows its Go type.
func (w *Write) UnmarshalJSON(b []byte) error {
	var raw struct {
		Field string          `json:"field"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	w.Field, w.Value = raw.Field, raw.Value
	return nil
}

// Update is everything one node wrote in one step. Build it from the
// methods of the fields (Set, Add, Remove, ...) and from Goto and Send.
type Update []Write

// Reserved field names for control-flow writes; they are not state.
const (
	gotoField = "__goto__"
	sendField = "__send__"
)

// Goto routes to the named nodes in the next step, besides any edges.
func Goto(nodes ...string) Write { return Write{Field: gotoField, Value: nodes} }

// SendPacket asks for one run of Node with its own argument (LangGraph's Send).
type SendPacket struct {
	Node string `json:"node"`
	Arg  any    `json:"arg"`
}

// Send schedules Node in the next step with arg, readable through ArgAs.
// Several sends to the same node run as separate, parallel tasks: this is
// how map-reduce fans out.
func Send(node string, arg any) Write {
	return Write{Field: sendField, Value: SendPacket{Node: node, Arg: arg}}
}

// Field is one reducer-managed part of the state S. It is sealed: build
// fields with LastValue, Reduce, Append, MergeByID, DedupeBy and Messages,
// and hand them to New.
type Field[S any] interface {
	Name() string
	apply(s *S, values []any) error
}

// core is the shared half of every field: a name and a reducer that sees
// all values written in one step at once (so last-value can refuse two).
type core[S, V any] struct {
	name   string
	reduce func(s *S, vals []V) error
}

func (c core[S, V]) Name() string { return c.name }

func (c core[S, V]) write(v V) Write { return Write{Field: c.name, Value: v} }

func (c core[S, V]) apply(s *S, values []any) error {
	typed := make([]V, 0, len(values))
	for _, v := range values {
		tv, err := decodeAs[V](v)
		if err != nil {
			return fmt.Errorf("field %q: %w", c.name, err)
		}
		typed = append(typed, tv)
	}
	if err := c.reduce(s, typed); err != nil {
		return fmt.Errorf("field %q: %w", c.name, err)
	}
	return nil
}

// decodeAs turns a value that is either already a T or JSON (after a
// checkpoint round trip) into a T.
func decodeAs[T any](v any) (T, error) {
	var zero T
	switch x := v.(type) {
	case T:
		return x, nil
	case json.RawMessage:
		var out T
		if err := json.Unmarshal(x, &out); err != nil {
			return zero, fmt.Errorf("decode %T: %w", zero, err)
		}
		return out, nil
	case nil:
		return zero, nil
	}
	// A value of a convertible shape (say map from an untyped caller):
	// go through JSON rather than refusing it.
	b, err := json.Marshal(v)
	if err != nil {
		return zero, fmt.Errorf("value of type %T for %T: %w", v, zero, err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		return zero, fmt.Errorf("value of type %T for %T: %w", v, zero, err)
	}
	return out, nil
}

// ErrConcurrentUpdate means two writes reached a last-value field in one
// step; it is ambiguous which should win, so LangGraph refuses, and so do we.
var ErrConcurrentUpdate = errors.New("graph: several writes to a last-value field in one step")

// ValueField keeps the last value written.
type ValueField[S, T any] struct{ core[S, T] }

// LastValue declares a field where each write replaces the value; two
// writes in one step are an error (ErrConcurrentUpdate).
func LastValue[S, T any](name string, at func(*S) *T) ValueField[S, T] {
	return ValueField[S, T]{core[S, T]{name: name, reduce: func(s *S, vals []T) error {
		if len(vals) > 1 {
			return fmt.Errorf("%w (%d writes)", ErrConcurrentUpdate, len(vals))
		}
		*at(s) = vals[0]
		return nil
	}}}
}

// Set writes v.
func (f ValueField[S, T]) Set(v T) Write { return f.write(v) }

// ReduceField folds every write into the current value.
type ReduceField[S, T any] struct{ core[S, T] }

// Reduce declares a field combined with fn (LangGraph's Annotated[T, op]):
// counters with addition, strings with concatenation.
func Reduce[S, T any](name string, at func(*S) *T, fn func(cur, w T) T) ReduceField[S, T] {
	return ReduceField[S, T]{core[S, T]{name: name, reduce: func(s *S, vals []T) error {
		p := at(s)
		for _, v := range vals {
			*p = fn(*p, v)
		}
		return nil
	}}}
}

// Add folds v into the field.
func (f ReduceField[S, T]) Add(v T) Write { return f.write(v) }

// ListOp is the write value of the list fields: items to merge in, or a
// replacement of the whole list.
type ListOp[T any] struct {
	Items   []T  `json:"items"`
	Replace bool `json:"replace,omitempty"`
}

// ListField is a list with a merge rule (append, merge by id, dedupe).
type ListField[S, T any] struct{ core[S, ListOp[T]] }

// Add merges items into the list by the field's rule.
func (f ListField[S, T]) Add(items ...T) Write { return f.write(ListOp[T]{Items: items}) }

// Replace drops the current list and sets items, e.g. for a re-plan.
func (f ListField[S, T]) Replace(items ...T) Write {
	return f.write(ListOp[T]{Items: items, Replace: true})
}

// listField builds a list field from a merge of one item list into another.
// The merge returns a new slice: states handed to nodes and events are
// never changed underneath them.
func listField[S, T any](name string, at func(*S) *[]T, merge func(cur, add []T) []T) ListField[S, T] {
	return ListField[S, T]{core[S, ListOp[T]]{name: name, reduce: func(s *S, ops []ListOp[T]) error {
		p := at(s)
		for _, op := range ops {
			if op.Replace {
				*p = merge(nil, op.Items)
				continue
			}
			*p = merge(*p, op.Items)
		}
		return nil
	}}}
}

// Append declares a list that only grows (LangGraph's operator.add).
func Append[S, T any](name string, at func(*S) *[]T) ListField[S, T] {
	return listField(name, at, func(cur, add []T) []T {
		return append(slices.Clip(cur), add...)
	})
}

// MergeByID declares a list where an item whose id is already present
// replaces it in place and a new id is appended (seed 003's todos).
func MergeByID[S, T any](name string, at func(*S) *[]T, id func(T) string) ListField[S, T] {
	return listField(name, at, func(cur, add []T) []T {
		out := slices.Clone(cur)
		for _, it := range add {
			i := slices.IndexFunc(out, func(x T) bool { return id(x) == id(it) })
			if i >= 0 {
				out[i] = it
				continue
			}
			out = append(out, it)
		}
		return out
	})
}

// DedupeBy declares a list that keeps the first item for each key (seed
// 003's memory refs, deduplicated by file name).
func DedupeBy[S, T any](name string, at func(*S) *[]T, key func(T) string) ListField[S, T] {
	return listField(name, at, func(cur, add []T) []T {
		out := slices.Clone(cur)
		for _, it := range add {
			if !slices.ContainsFunc(out, func(x T) bool { return key(x) == key(it) }) {
				out = append(out, it)
			}
		}
		return out
	})
}

// MessageOp is one entry of a messages write: a message to add or replace,
// a removal by id, or the remove-all marker.
type MessageOp[T any] struct {
	Msg       *T     `json:"msg,omitempty"`
	Remove    string `json:"remove,omitempty"`
	RemoveAll bool   `json:"remove_all,omitempty"`
}

// ErrUnknownMessage is a removal of a message id that is not in the list.
var ErrUnknownMessage = errors.New("graph: remove of unknown message id")

// MessagesField implements LangGraph's add_messages.
type MessagesField[S, T any] struct{ core[S, []MessageOp[T]] }

// Messages declares a conversation: messages without an id get one, a
// message with a known id replaces that message in place, Remove deletes by
// id (an unknown id is ErrUnknownMessage), and RemoveAll clears everything
// before it. id returns a pointer to the message's id so it can be filled.
func Messages[S, T any](name string, at func(*S) *[]T, id func(*T) *string) MessagesField[S, T] {
	return MessagesField[S, T]{core[S, []MessageOp[T]]{name: name, reduce: func(s *S, writes [][]MessageOp[T]) error {
		p := at(s)
		out := slices.Clone(*p)
		for _, ops := range writes {
			var err error
			if out, err = addMessages(out, ops, id); err != nil {
				return err
			}
		}
		*p = out
		return nil
	}}}
}

func addMessages[T any](out []T, ops []MessageOp[T], id func(*T) *string) ([]T, error) {
	// Everything up to the last remove-all marker is moot.
	if last := slices.IndexFunc(reversed(ops), func(o MessageOp[T]) bool { return o.RemoveAll }); last >= 0 {
		ops = ops[len(ops)-last:]
		out = nil
	}
	removed := map[string]bool{}
	for _, op := range ops {
		switch {
		case op.Remove != "":
			i := slices.IndexFunc(out, func(m T) bool { return *id(&m) == op.Remove })
			if i < 0 {
				if removed[op.Remove] {
					continue // removing twice in one write is fine, as in add_messages
				}
				return nil, fmt.Errorf("%w %q", ErrUnknownMessage, op.Remove)
			}
			out = slices.Delete(out, i, i+1)
			removed[op.Remove] = true
		case op.Msg != nil:
			m := *op.Msg
			if *id(&m) == "" {
				*id(&m) = uuid.NewString()
			}
			mid := *id(&m)
			if i := slices.IndexFunc(out, func(x T) bool { return *id(&x) == mid }); i >= 0 {
				out[i] = m
				continue
			}
			out = append(out, m)
		}
	}
	return out, nil
}

func reversed[T any](s []T) []T {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// Add appends msgs, replacing any message with the same id.
func (f MessagesField[S, T]) Add(msgs ...T) Write {
	ops := make([]MessageOp[T], len(msgs))
	for i := range msgs {
		ops[i] = MessageOp[T]{Msg: &msgs[i]}
	}
	return f.write(ops)
}

// Remove deletes the messages with these ids.
func (f MessagesField[S, T]) Remove(ids ...string) Write {
	ops := make([]MessageOp[T], len(ids))
	for i, id := range ids {
		ops[i] = MessageOp[T]{Remove: id}
	}
	return f.write(ops)
}

// RemoveAll clears the conversation.
func (f MessagesField[S, T]) RemoveAll() Write {
	return f.write([]MessageOp[T]{{RemoveAll: true}})
}

// Replace clears the conversation and sets msgs (remove-all, then add).
func (f MessagesField[S, T]) Replace(msgs ...T) Write {
	ops := []MessageOp[T]{{RemoveAll: true}}
	for i := range msgs {
		ops = append(ops, MessageOp[T]{Msg: &msgs[i]})
	}
	return f.write(ops)
}
