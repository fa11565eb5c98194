package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// pipeState mirrors the channels input -> inbox -> output of the Pregel test.
type pipeState struct {
	Input  int `json:"input"`
	Inbox  int `json:"inbox"`
	Output int `json:"output"`
}

func TestInvokeTwoProcessesInOutInterrupt(t *testing.T) {
	ctx := ctxT(t)
	input := graph.LastValue("input", func(s *pipeState) *int { return &s.Input })
	inbox := graph.LastValue("inbox", func(s *pipeState) *int { return &s.Inbox })
	output := graph.LastValue("output", func(s *pipeState) *int { return &s.Output })
	b := graph.New(input, inbox, output)
	b.AddNode("one", func(_ context.Context, s pipeState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{inbox.Set(s.Input + 1)}, nil
	})
	b.AddNode("two", func(_ context.Context, s pipeState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{output.Set(s.Inbox + 1)}, nil
	})
	b.AddEdge(graph.Start, "one").AddEdge("one", "two").AddEdge("two", graph.End)
	saver := graph.NewMemorySaver()
	g := mustCompile(t, b, graph.WithCheckpointer(saver), graph.WithInterruptAfter("one"))
	thread1 := graph.Config{ThreadID: "1"}
	thread2 := graph.Config{ThreadID: "2"}

	// start execution, stop at inbox
	res, err := g.Invoke(ctx, thread1, graph.Update{input.Set(2)})
	if err != nil || !res.Interrupted() || res.Interrupts[0].When != graph.After {
		t.Fatalf("invoke: %+v, %v", res, err)
	}
	if res.State.Inbox != 3 {
		t.Fatalf("inbox = %d, want 3", res.State.Inbox)
	}
	// resume execution, finish
	res, err = g.Resume(ctx, thread1, graph.Command{})
	if err != nil || res.Interrupted() || res.State.Output != 4 {
		t.Fatalf("resume: %+v, %v", res, err)
	}
	// start again, stop at inbox
	if res, _ = g.Invoke(ctx, thread1, graph.Update{input.Set(20)}); res.State.Inbox != 21 {
		t.Fatalf("inbox = %d, want 21", res.State.Inbox)
	}
	// a new input replaces the interrupted run
	if res, _ = g.Invoke(ctx, thread1, graph.Update{input.Set(3)}); !res.Interrupted() {
		t.Fatal("want interrupt after one")
	}
	if res, err = g.Resume(ctx, thread1, graph.Command{}); err != nil || res.State.Output != 5 {
		t.Fatalf("resume: output %d, %v", res.State.Output, err)
	}

	// thread 2: stop at inbox, update as "one", resume
	if _, err := g.Invoke(ctx, thread2, graph.Update{input.Set(20)}); err != nil {
		t.Fatal(err)
	}
	snap, err := g.GetState(ctx, thread2)
	if err != nil || snap.Values.Inbox != 21 || !cmp.Equal(snap.Next, []string{"two"}) {
		t.Fatalf("snapshot: %+v, %v", snap, err)
	}
	if _, err := g.UpdateState(ctx, thread2, graph.Update{inbox.Set(25)}, "one"); err != nil {
		t.Fatal(err)
	}
	if res, err = g.Resume(ctx, thread2, graph.Command{}); err != nil || res.State.Output != 26 {
		t.Fatalf("resume thread2: output %d, %v", res.State.Output, err)
	}
	if snap, _ = g.GetState(ctx, thread2); len(snap.Next) != 0 {
		t.Fatalf("next = %v, want none", snap.Next)
	}

	// history of thread 1, newest first
	hist, err := g.History(ctx, thread1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hist {
		got = append(got, fmt.Sprintf("%s:%d", h.Metadata.Source, h.Metadata.Step))
	}
	want := []string{"loop:9", "loop:8", "loop:7", "input:6", "loop:5", "loop:4", "input:3", "loop:2", "loop:1", "loop:0", "input:-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("history (-want +got):\n%s", diff)
	}
	for i := 0; i+1 < len(hist); i++ {
		if hist[i].ParentID != hist[i+1].CheckpointID {
			t.Fatalf("checkpoint %d: parent %s, want %s", i, hist[i].ParentID, hist[i+1].CheckpointID)
		}
		if hist[i].CheckpointID <= hist[i+1].CheckpointID {
			t.Fatalf("ids not sortable by time: %s <= %s", hist[i].CheckpointID, hist[i+1].CheckpointID)
		}
	}
}

type marketState struct {
	MyKey  string `json:"my_key"`
	Market string `json:"market"`
}

func TestDynamicInterrupt(t *testing.T) {
	ctx := ctxT(t)
	myKey := graph.Reduce("my_key", func(s *marketState) *string { return &s.MyKey }, func(a, b string) string { return a + b })
	market := graph.LastValue("market", func(s *marketState) *string { return &s.Market })
	var calls atomic.Int32
	build := func() *graph.Builder[marketState] {
		b := graph.New(myKey, market)
		b.AddNode("tool_two", func(_ context.Context, s marketState, rt *graph.Runtime) (graph.Update, error) {
			calls.Add(1)
			answer := " all good"
			if s.Market == "DE" {
				var err error
				if answer, err = graph.Interrupt[string](rt, "Just because..."); err != nil {
					return nil, err
				}
			}
			return graph.Update{myKey.Add(answer)}, nil
		})
		return b.AddEdge(graph.Start, "tool_two")
	}

	// Without a checkpointer the interrupt is still reported.
	g := mustCompile(t, build())
	res, err := g.Invoke(ctx, graph.Config{}, graph.Update{myKey.Add("value"), market.Set("DE")})
	if err != nil || len(res.Interrupts) != 1 || string(res.Interrupts[0].Value) != `"Just because..."` {
		t.Fatalf("invoke: %+v, %v", res, err)
	}
	if res.State != (marketState{MyKey: "value", Market: "DE"}) || calls.Load() != 1 {
		t.Fatalf("state %+v, calls %d (interrupts are not retried)", res.State, calls.Load())
	}
	if res, _ = g.Invoke(ctx, graph.Config{}, graph.Update{myKey.Add("value"), market.Set("US")}); res.State.MyKey != "value all good" {
		t.Fatalf("US: %+v", res.State)
	}

	g = mustCompile(t, build(), graph.WithCheckpointer(graph.NewMemorySaver()))
	// missing thread id
	if _, err := g.Invoke(ctx, graph.Config{}, graph.Update{market.Set("DE")}); !errors.Is(err, graph.ErrNoThreadID) {
		t.Fatalf("err = %v, want ErrNoThreadID", err)
	}

	// flow: interrupt -> resume with answer
	thread2 := graph.Config{ThreadID: "2"}
	if res, err = g.Invoke(ctx, thread2, graph.Update{myKey.Add("value ⛰️"), market.Set("DE")}); err != nil || !res.Interrupted() {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	rec := &recorder{}
	res, err = g.Resume(ctx, graph.Config{ThreadID: "2", Events: rec}, graph.Command{Resume: " my answer"})
	if err != nil || res.State.MyKey != "value ⛰️ my answer" {
		t.Fatalf("resume: %+v %v", res, err)
	}
	ups := rec.updates()
	if len(ups) != 1 || ups[0].Node != "tool_two" || ups[0].Update[0].Value != " my answer" {
		t.Fatalf("updates = %+v", ups)
	}

	// flow: interrupt -> clear tasks by updating as END
	thread1 := graph.Config{ThreadID: "1"}
	if _, err := g.Invoke(ctx, thread1, graph.Update{myKey.Add("value ⛰️"), market.Set("DE")}); err != nil {
		t.Fatal(err)
	}
	snap, err := g.GetState(ctx, thread1)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(snap.Next, []string{"tool_two"}) || len(snap.Interrupts) != 1 || snap.Tasks[0].Interrupt == nil ||
		snap.Metadata != (graph.Metadata{Source: graph.SourceLoop, Step: 0}) {
		t.Fatalf("snapshot: %+v", snap)
	}
	if _, err := g.UpdateState(ctx, thread1, nil, graph.End); err != nil {
		t.Fatal(err)
	}
	snap, _ = g.GetState(ctx, thread1)
	if len(snap.Next) != 0 || len(snap.Tasks) != 0 || len(snap.Interrupts) != 0 ||
		snap.Metadata != (graph.Metadata{Source: graph.SourceUpdate, Step: 1}) ||
		snap.Values != (marketState{MyKey: "value ⛰️", Market: "DE"}) {
		t.Fatalf("after update as END: %+v", snap)
	}
}

type myKeyState struct {
	MyKey string `json:"my_key"`
}

var myKeyLast = graph.LastValue("my_key", func(s *myKeyState) *string { return &s.MyKey })

func TestInterruptMultiple(t *testing.T) {
	ctx := ctxT(t)
	b := graph.New(myKeyLast)
	b.AddNode("node", func(_ context.Context, s myKeyState, rt *graph.Runtime) (graph.Update, error) {
		a1, err := graph.Interrupt[string](rt, map[string]int{"value": 1})
		if err != nil {
			return nil, err
		}
		a2, err := graph.Interrupt[string](rt, map[string]int{"value": 2})
		if err != nil {
			return nil, err
		}
		return graph.Update{myKeyLast.Set(a1 + " " + a2)}, nil
	})
	b.AddEdge(graph.Start, "node")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	res, err := g.Invoke(ctx, cfg, graph.Update{myKeyLast.Set("DE")})
	if err != nil || string(res.Interrupts[0].Value) != `{"value":1}` {
		t.Fatalf("first: %+v %v", res, err)
	}
	// by value
	res, err = g.Resume(ctx, cfg, graph.Command{Resume: "answer 1"})
	if err != nil || string(res.Interrupts[0].Value) != `{"value":2}` {
		t.Fatalf("second: %+v %v", res, err)
	}
	// by id
	res, err = g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{res.Interrupts[0].ID: "answer 2"}})
	if err != nil || res.Interrupted() || res.State.MyKey != "answer 1 answer 2" {
		t.Fatalf("done: %+v %v", res, err)
	}
}

type ageState struct {
	Age int `json:"age"`
}

func TestInterruptLoop(t *testing.T) {
	ctx := ctxT(t)
	age := graph.LastValue("age", func(s *ageState) *int { return &s.Age })
	b := graph.New(age)
	b.AddNode("ask_age", func(_ context.Context, s ageState, rt *graph.Runtime) (graph.Update, error) {
		question := "How old are you?"
		for range 10 {
			v, err := graph.Interrupt[string](rt, question)
			if err != nil {
				return nil, err
			}
			if n, err := strconv.Atoi(v); err == nil && n >= 18 {
				return graph.Update{age.Set(n)}, nil
			}
			question = fmt.Sprintf("'%s -> invalid response", v)
		}
		return nil, errors.New("gave up")
	})
	b.AddEdge(graph.Start, "ask_age")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	res, _ := g.Invoke(ctx, cfg, nil)
	want := "How old are you?"
	for _, answer := range []string{"foo", "ten", "17"} {
		var got string
		if err := res.Interrupts[0].Decode(&got); err != nil || got != want {
			t.Fatalf("question = %q (%v), want %q", got, err, want)
		}
		var err error
		if res, err = g.Resume(ctx, cfg, graph.Command{Resume: answer}); err != nil {
			t.Fatal(err)
		}
		want = fmt.Sprintf("'%s -> invalid response", answer)
	}
	if res, _ = g.Resume(ctx, cfg, graph.Command{Resume: "18"}); res.Interrupted() || res.State.Age != 18 {
		t.Fatalf("final: %+v", res)
	}
}

func TestMultipleInterruptStatePersistence(t *testing.T) {
	ctx := ctxT(t)
	saver := graph.NewMemorySaver()
	var runs atomic.Int32
	build := func() *graph.Graph[myKeyState] {
		b := graph.New(myKeyLast)
		b.AddNode("gather", func(_ context.Context, s myKeyState, rt *graph.Runtime) (graph.Update, error) {
			runs.Add(1)
			var parts []string
			for _, q := range []string{"name?", "city?", "job?"} {
				a, err := graph.Interrupt[string](rt, q)
				if err != nil {
					return nil, err
				}
				parts = append(parts, a)
			}
			return graph.Update{myKeyLast.Set(fmt.Sprint(parts))}, nil
		})
		b.AddEdge(graph.Start, "gather")
		return mustCompile(t, b, graph.WithCheckpointer(saver))
	}
	cfg := graph.Config{ThreadID: "t"}
	res, err := build().Invoke(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Each answer goes through a freshly compiled graph on the same saver:
	// everything the node needs must come from the checkpoint.
	for i, a := range []string{"지수", "Seoul", "baker"} {
		if res, err = build().Resume(ctx, cfg, graph.Command{Resume: a}); err != nil {
			t.Fatal(err)
		}
		if i < 2 && !res.Interrupted() {
			t.Fatalf("answer %d: not interrupted", i)
		}
	}
	if res.State.MyKey != "[지수 Seoul baker]" || runs.Load() != 4 {
		t.Fatalf("state %q after %d runs", res.State.MyKey, runs.Load())
	}
}

func TestNodeBeforeInterruptResumeGraphAPI(t *testing.T) {
	ctx := ctxT(t)
	var before, asker, after atomic.Int32
	b := graph.New(fooAdd)
	b.AddNode("before", appendFoo("|before", &before))
	b.AddNode("asker", func(_ context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
		asker.Add(1)
		a, err := graph.Interrupt[string](rt, "continue?")
		if err != nil {
			return nil, err
		}
		return graph.Update{fooAdd.Add("|" + a)}, nil
	})
	b.AddNode("after", appendFoo("|after", &after))
	b.AddEdge(graph.Start, "before").AddEdge("before", "asker").AddEdge("asker", "after")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	if _, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("start")}); err != nil {
		t.Fatal(err)
	}
	res, err := g.Resume(ctx, cfg, graph.Command{Resume: "yes"})
	if err != nil || res.State.Foo != "start|before|yes|after" {
		t.Fatalf("resume: %+v %v", res, err)
	}
	if before.Load() != 1 || asker.Load() != 2 || after.Load() != 1 {
		t.Fatalf("runs before=%d asker=%d after=%d, want 1 2 1", before.Load(), asker.Load(), after.Load())
	}
}

func TestCommandWithStaticBreakpoints(t *testing.T) {
	ctx := ctxT(t)
	b := graph.New(fooAdd)
	b.AddNode("node1", appendFoo("|node-1", nil)).AddNode("node2", appendFoo("|node-2", nil))
	b.AddEdge(graph.Start, "node1").AddEdge("node1", "node2")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()), graph.WithInterruptBefore("node1"))
	cfg := graph.Config{ThreadID: "1"}
	res, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("abc")})
	if err != nil || !res.Interrupted() || res.Interrupts[0].When != graph.Before || res.Interrupts[0].Node != "node1" {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	res, err = g.Resume(ctx, cfg, graph.Command{Update: graph.Update{fooAdd.Add("|def")}})
	if err != nil || res.State.Foo != "abc|def|node-1|node-2" {
		t.Fatalf("resume: %+v %v", res, err)
	}
}

func TestCommandGotoWithStaticBreakpoints(t *testing.T) {
	ctx := ctxT(t)
	b := graph.New(fooAdd)
	b.AddNode("node1", appendFoo("|node-1", nil)).AddNode("node2", appendFoo("|node-2", nil))
	b.AddEdge(graph.Start, "node1").AddEdge("node1", "node2")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()), graph.WithInterruptBefore("node1"))
	cfg := graph.Config{ThreadID: "1"}
	if _, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("abc")}); err != nil {
		t.Fatal(err)
	}
	res, err := g.Resume(ctx, cfg, graph.Command{Goto: []string{"node2"}})
	if err != nil || res.State.Foo != "abc|node-1|node-2|node-2" {
		t.Fatalf("resume: %+v %v", res, err)
	}
}

func TestNullResumeDisallowedWithMultipleInterrupts(t *testing.T) {
	ctx := ctxT(t)
	b := graph.New(fooAdd)
	asker := func(q string) graph.NodeFunc[strState] {
		return func(_ context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
			a, err := graph.Interrupt[string](rt, q)
			if err != nil {
				return nil, err
			}
			return graph.Update{fooAdd.Add("|" + q + "=" + a)}, nil
		}
	}
	b.AddNode("a", asker("a")).AddNode("b", asker("b"))
	b.AddEdge(graph.Start, "a").AddEdge(graph.Start, "b")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	res, err := g.Invoke(ctx, cfg, nil)
	if err != nil || len(res.Interrupts) != 2 {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	if _, err := g.Resume(ctx, cfg, graph.Command{Resume: "x"}); !errors.Is(err, graph.ErrAmbiguousResume) {
		t.Fatalf("bare value: err = %v, want ErrAmbiguousResume", err)
	}
	if _, err := g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{"nope": "x"}}); !errors.Is(err, graph.ErrNoInterrupt) {
		t.Fatalf("unknown id: err = %v, want ErrNoInterrupt", err)
	}
	ids := map[string]string{}
	for _, in := range res.Interrupts {
		ids[in.Node] = in.ID
	}
	// Answer only one: the other node asks again.
	res, err = g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{ids["a"]: "1"}})
	if err != nil || len(res.Interrupts) != 1 || res.Interrupts[0].Node != "b" {
		t.Fatalf("partial: %+v %v", res, err)
	}
	res, err = g.Resume(ctx, cfg, graph.Command{Resume: "2"})
	if err != nil || res.State.Foo != "|a=1|b=2" {
		t.Fatalf("final: %+v %v", res, err)
	}
}

type ioState struct {
	Input  string `json:"input"`
	Output string `json:"output"`
}

func TestInterruptStreamModeValues(t *testing.T) {
	ctx := ctxT(t)
	input := graph.LastValue("input", func(s *ioState) *string { return &s.Input })
	output := graph.LastValue("output", func(s *ioState) *string { return &s.Output })
	b := graph.New(input, output)
	b.AddNode("prep", func(_ context.Context, s ioState, rt *graph.Runtime) (graph.Update, error) {
		rt.Emit("progress", "prepping")
		return graph.Update{input.Set(s.Input + "!")}, nil
	})
	b.AddNode("ask", func(_ context.Context, s ioState, rt *graph.Runtime) (graph.Update, error) {
		rt.Token("thinking")
		v, err := graph.Interrupt[string](rt, "Provide value")
		if err != nil {
			return nil, err
		}
		return graph.Update{output.Set(v)}, nil
	})
	b.AddEdge(graph.Start, "prep").AddEdge("prep", "ask")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	rec := &recorder{}
	cfg := graph.Config{ThreadID: "1", Events: rec}
	if _, err := g.Invoke(ctx, cfg, graph.Update{input.Set("x")}); err != nil {
		t.Fatal(err)
	}
	want := []string{"values", "node_start:prep", "custom:prep", "node_end:prep", "values", "node_start:ask", "token:ask", "interrupt"}
	if diff := cmp.Diff(want, rec.kinds()); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	var vals []ioState
	for _, e := range rec.events {
		if e.Kind == graph.EventValues {
			vals = append(vals, e.Values.(ioState))
		}
	}
	if diff := cmp.Diff([]ioState{{Input: "x"}, {Input: "x!"}}, vals); diff != "" {
		t.Fatalf("values (-want +got):\n%s", diff)
	}
	last := rec.events[len(rec.events)-1]
	if string(last.Interrupts[0].Value) != `"Provide value"` {
		t.Fatalf("interrupt payload %s", last.Interrupts[0].Value)
	}
	rec.events = nil
	if _, err := g.Resume(ctx, cfg, graph.Command{Resume: "v"}); err != nil {
		t.Fatal(err)
	}
	want = []string{"node_start:ask", "token:ask", "node_end:ask", "values"}
	if diff := cmp.Diff(want, rec.kinds()); diff != "" {
		t.Fatalf("resume events (-want +got):\n%s", diff)
	}
}
