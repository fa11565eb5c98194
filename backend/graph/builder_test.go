package graph_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

func noop(_ context.Context, _ strState, _ *graph.Runtime) (graph.Update, error) { return nil, nil }

func TestCompileValidation(t *testing.T) {
	route := func(strState) string { return "x" }
	tests := []struct {
		name  string
		build func(b *graph.Builder[strState])
		opts  []graph.Option
		want  []string // every listed problem must be reported
	}{
		{"no start edge", func(b *graph.Builder[strState]) { b.AddNode("a", noop) },
			nil, []string{"no edge from START", `node "a" is unreachable`}},
		{"unknown target", func(b *graph.Builder[strState]) {
			b.AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", "ghost")
		}, nil, []string{`edge "a" -> "ghost": unknown target "ghost"`}},
		{"unknown source", func(b *graph.Builder[strState]) {
			b.AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("ghost", "a")
		}, nil, []string{`edge from unknown node "ghost"`}},
		{"port to unknown node", func(b *graph.Builder[strState]) {
			b.AddNode("a", noop).AddEdge(graph.Start, "a").
				AddConditionalEdges("a", route, map[string]string{"yes": graph.End, "no": "ghost"})
		}, nil, []string{`conditional edge "a" port "no": unknown target "ghost"`}},
		{"unreachable", func(b *graph.Builder[strState]) {
			b.AddNode("a", noop).AddNode("island", noop).AddEdge(graph.Start, "a")
		}, nil, []string{`node "island" is unreachable from START`}},
		{"reserved and duplicate names", func(b *graph.Builder[strState]) {
			b.AddNode(graph.End, noop).AddNode("a", noop).AddNode("a", noop).AddEdge(graph.Start, "a")
		}, nil, []string{`node name "__end__" is reserved`, `node "a" added twice`}},
		{"breakpoint on unknown node", func(b *graph.Builder[strState]) {
			b.AddNode("a", noop).AddEdge(graph.Start, "a")
		}, []graph.Option{graph.WithInterruptBefore("ghost"), graph.WithInterruptAfter("ghost2")},
			[]string{`interrupt before unknown node "ghost"`, `interrupt after unknown node "ghost2"`}},
		{"unknown destination", func(b *graph.Builder[strState]) {
			b.AddNode("a", noop, "ghost").AddEdge(graph.Start, "a")
		}, nil, []string{`node "a": unknown destination "ghost"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := graph.New(fooAdd)
			tc.build(b)
			_, err := b.Compile(tc.opts...)
			if !errors.Is(err, graph.ErrInvalidGraph) {
				t.Fatalf("err = %v, want ErrInvalidGraph", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestDestinationsMakeNodesReachable(t *testing.T) {
	b := graph.New(fooAdd)
	b.AddNode("a", func(_ context.Context, _ strState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{graph.Goto("b")}, nil
	}, "b")
	b.AddNode("b", appendFoo("b", nil))
	b.AddEdge(graph.Start, "a")
	res, err := mustCompile(t, b).Invoke(ctxT(t), graph.Config{}, nil)
	if err != nil || res.State.Foo != "b" {
		t.Fatalf("goto: %+v %v", res, err)
	}
}

// Both nodes wait for each other: the step only finishes if they really
// run at the same time.
func TestNodesInOneStepRunInParallel(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	meet := func(text string) graph.NodeFunc[strState] {
		return func(_ context.Context, _ strState, _ *graph.Runtime) (graph.Update, error) {
			wg.Done()
			wg.Wait()
			return graph.Update{fooAdd.Add(text)}, nil
		}
	}
	b := graph.New(fooAdd)
	b.AddNode("a", meet("a")).AddNode("b", meet("b")).AddNode("join", appendFoo("+", nil))
	b.AddEdge(graph.Start, "a").AddEdge(graph.Start, "b").AddEdge("a", "join").AddEdge("b", "join")
	res, err := mustCompile(t, b).Invoke(ctxT(t), graph.Config{}, nil)
	// Updates merge in task order (a before b); join runs once.
	if err != nil || res.State.Foo != "ab+" {
		t.Fatalf("fan-out: %+v %v", res, err)
	}
}

func TestNodeFailures(t *testing.T) {
	tests := []struct {
		name string
		node graph.NodeFunc[strState]
		want string
	}{
		{"error wraps node name", func(context.Context, strState, *graph.Runtime) (graph.Update, error) {
			return nil, errors.New("boom")
		}, `graph: node "n": boom`},
		{"panic becomes error", func(context.Context, strState, *graph.Runtime) (graph.Update, error) {
			panic("kaboom")
		}, "panic: kaboom"},
		{"goto unknown node", func(context.Context, strState, *graph.Runtime) (graph.Update, error) {
			return graph.Update{graph.Goto("ghost")}, nil
		}, `route to "ghost"`},
		{"send unknown node", func(context.Context, strState, *graph.Runtime) (graph.Update, error) {
			return graph.Update{graph.Send("ghost", 1)}, nil
		}, `send to "ghost"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := graph.New(fooAdd)
			b.AddNode("n", tc.node).AddEdge(graph.Start, "n")
			_, err := mustCompile(t, b).Invoke(ctxT(t), graph.Config{}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRouterUnknownPort(t *testing.T) {
	b := graph.New(fooAdd)
	b.AddNode("n", noop).AddEdge(graph.Start, "n").
		AddConditionalEdges("n", func(strState) string { return "maybe" }, map[string]string{"yes": graph.End})
	_, err := mustCompile(t, b).Invoke(ctxT(t), graph.Config{}, nil)
	var nerr *graph.NodeError
	if !errors.Is(err, graph.ErrUnknownPort) || !errors.As(err, &nerr) || nerr.Node != "n" {
		t.Fatalf("err = %v, want ErrUnknownPort from node n", err)
	}
}

func TestResumeNeedsCheckpointer(t *testing.T) {
	b := graph.New(fooAdd)
	b.AddNode("n", noop).AddEdge(graph.Start, "n")
	g := mustCompile(t, b)
	if _, err := g.Resume(ctxT(t), graph.Config{ThreadID: "1"}, graph.Command{}); !errors.Is(err, graph.ErrNoCheckpointer) {
		t.Fatalf("err = %v", err)
	}
	g = mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	if _, err := g.Resume(ctxT(t), graph.Config{ThreadID: "none"}, graph.Command{}); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("unknown thread: err = %v", err)
	}
	if _, err := g.Invoke(ctxT(t), graph.Config{ThreadID: "1"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Resume(ctxT(t), graph.Config{ThreadID: "1"}, graph.Command{Resume: "x"}); !errors.Is(err, graph.ErrNoInterrupt) {
		t.Fatalf("answer with nothing pending: err = %v", err)
	}
}
