package graph_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// strState is LangGraph's {"foo": Annotated[str, operator.add]}.
type strState struct {
	Foo string `json:"foo"`
}

var fooAdd = graph.Reduce("foo", func(s *strState) *string { return &s.Foo }, func(a, b string) string { return a + b })

// appendFoo returns a node that appends text to foo and counts its runs.
func appendFoo(text string, calls *atomic.Int32) graph.NodeFunc[strState] {
	return func(ctx context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
		if calls != nil {
			calls.Add(1)
		}
		return graph.Update{fooAdd.Add(text)}, nil
	}
}

func mustCompile[S any](t testing.TB, b *graph.Builder[S], opts ...graph.Option) *graph.Graph[S] {
	t.Helper()
	g, err := b.Compile(opts...)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return g
}

// recorder collects events for assertions on the stream.
type recorder struct {
	mu     sync.Mutex
	events []graph.Event
}

func (r *recorder) Event(e graph.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		s := string(e.Kind)
		if e.Node != "" {
			s += ":" + e.Node
		}
		out = append(out, s)
	}
	return out
}

// updates returns node_end events as LangGraph's stream_mode="updates".
func (r *recorder) updates() []graph.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []graph.Event
	for _, e := range r.events {
		if e.Kind == graph.EventNodeEnd {
			out = append(out, e)
		}
	}
	return out
}

func ctxT(t testing.TB) context.Context { return t.Context() }
