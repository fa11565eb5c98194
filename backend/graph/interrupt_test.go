package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// pipeState mirrors the channels input -> inbox -> output of the Pregel test.
type pipeState struct {
	Input  int `json:"input"`
	Inbox  int `json:"inbox"`
	Output int `json:"output"`
}

// Port of test_pregel.py::test_invoke_two_processes_in_out_interrupt.
// The original wires raw Pregel channels (input -> one -> inbox -> two ->
// output); this engine only has the StateGraph shape, whose every input runs
// a __start__ step first. So each of the three inputs adds one checkpoint:
// 11 in history where the original has 8, steps shifted accordingly, and
// the values and next nodes of each are otherwise the original's.
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
	type entry struct {
		Values pipeState
		Next   string
	}
	wantEntries := []entry{
		{pipeState{Input: 3, Inbox: 4, Output: 5}, ""},
		{pipeState{Input: 3, Inbox: 4, Output: 4}, "two"},
		{pipeState{Input: 3, Inbox: 21, Output: 4}, "one"},
		{pipeState{Input: 20, Inbox: 21, Output: 4}, graph.Start},
		{pipeState{Input: 20, Inbox: 21, Output: 4}, "two"},
		{pipeState{Input: 20, Inbox: 3, Output: 4}, "one"},
		{pipeState{Input: 2, Inbox: 3, Output: 4}, graph.Start},
		{pipeState{Input: 2, Inbox: 3, Output: 4}, ""},
		{pipeState{Input: 2, Inbox: 3}, "two"},
		{pipeState{Input: 2}, "one"},
		{pipeState{}, graph.Start},
	}
	var gotEntries []entry
	for _, h := range hist {
		gotEntries = append(gotEntries, entry{h.Values, strings.Join(h.Next, ",")})
	}
	if diff := cmp.Diff(wantEntries, gotEntries); diff != "" {
		t.Fatalf("history values/next (-want +got):\n%s", diff)
	}

	// re-running from any previous checkpoint re-runs the nodes after it
	replay := func(cp string) ([]string, graph.Result[pipeState]) {
		t.Helper()
		rec := &recorder{}
		res, err := g.Resume(ctx, graph.Config{ThreadID: "1", CheckpointID: cp, Events: rec}, graph.Command{})
		if err != nil {
			t.Fatalf("replay from %s: %v", cp, err)
		}
		return updateStrings(rec), res
	}
	if ups, _ := replay(hist[0].CheckpointID); len(ups) != 0 {
		t.Fatalf("replay of the final checkpoint ran %v", ups)
	}
	if ups, _ := replay(hist[1].CheckpointID); !cmp.Equal(ups, []string{"two:output=5"}) {
		t.Fatalf("replay before two: %v", ups)
	}
	if ups, res := replay(hist[2].CheckpointID); !cmp.Equal(ups, []string{"one:inbox=4"}) || !res.Interrupted() {
		t.Fatalf("replay before one: %v, interrupted %v; want one's update, then the interrupt", ups, res.Interrupted())
	}
}

// updateStrings renders node_end events like LangGraph's
// stream_mode="updates": node:field=value.
func updateStrings(r *recorder) []string {
	var out []string
	for _, e := range r.updates() {
		for _, w := range e.Update {
			out = append(out, fmt.Sprintf("%s:%s=%v", e.Node, w.Field, w.Value))
		}
	}
	return out
}

type marketState struct {
	MyKey  string `json:"my_key"`
	Market string `json:"market"`
}

// Port of test_pregel.py::test_dynamic_interrupt. The original's thread 1
// runs with durability="exit" and so lists only the loop:0 checkpoint; here
// every step is saved, so the snapshot's metadata is checked instead.
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
	interrupted := snap.CheckpointID
	snap, _ = g.GetState(ctx, thread1)
	if snap.ParentID != interrupted || len(snap.Next) != 0 || len(snap.Tasks) != 0 || len(snap.Interrupts) != 0 ||
		snap.Metadata != (graph.Metadata{Source: graph.SourceUpdate, Step: 1}) ||
		snap.Values != (marketState{MyKey: "value ⛰️", Market: "DE"}) {
		t.Fatalf("after update as END: %+v", snap)
	}
}

// Port of test_pregel.py::test_interrupt_multiple, both resume styles
// ("null": a bare value; "map": keyed by interrupt id). The first resume
// also updates the state; the second streams values, which start with the
// state the resume begins from.
func TestInterruptMultiple(t *testing.T) {
	type state struct {
		MyKey string `json:"my_key"`
	}
	myKey := graph.Reduce("my_key", func(s *state) *string { return &s.MyKey }, func(a, b string) string { return a + b })
	for _, style := range []string{"null", "map"} {
		t.Run(style, func(t *testing.T) {
			ctx := ctxT(t)
			b := graph.New(myKey)
			b.AddNode("node", func(_ context.Context, s state, rt *graph.Runtime) (graph.Update, error) {
				answer, err := graph.Interrupt[string](rt, map[string]int{"value": 1})
				if err != nil {
					return nil, err
				}
				answer2, err := graph.Interrupt[string](rt, map[string]int{"value": 2})
				if err != nil {
					return nil, err
				}
				return graph.Update{myKey.Add(answer + " " + answer2)}, nil
			})
			b.AddEdge(graph.Start, "node")
			g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
			resume := func(in graph.Interruption, v string) graph.Command {
				if style == "null" {
					return graph.Command{Resume: v}
				}
				return graph.Command{ResumeMap: map[string]any{in.ID: v}}
			}
			cfg := graph.Config{ThreadID: "1"}
			// The original's input also has "market", which is not in the state: dropped.
			res, err := g.Invoke(ctx, cfg, graph.Update{myKey.Add("DE")})
			if err != nil || len(res.Interrupts) != 1 || string(res.Interrupts[0].Value) != `{"value":1}` {
				t.Fatalf("first: %+v %v", res, err)
			}
			cmd := resume(res.Interrupts[0], "answer 1")
			cmd.Update = graph.Update{myKey.Add(" foofoo ")}
			res, err = g.Resume(ctx, cfg, cmd)
			if err != nil || len(res.Interrupts) != 1 || string(res.Interrupts[0].Value) != `{"value":2}` {
				t.Fatalf("second: %+v %v", res, err)
			}
			rec := &recorder{}
			if _, err = g.Resume(ctx, graph.Config{ThreadID: "1", Events: rec}, resume(res.Interrupts[0], "answer 2")); err != nil {
				t.Fatal(err)
			}
			var values []string
			for _, e := range rec.events {
				if e.Kind == graph.EventValues {
					values = append(values, e.Values.(state).MyKey)
				}
			}
			if diff := cmp.Diff([]string{"DE foofoo ", "DE foofoo answer 1 answer 2"}, values); diff != "" {
				t.Fatalf("values (-want +got):\n%s", diff)
			}
		})
	}
}

// Port of test_pregel.py::test_interrupt_loop: ask until the answer is a
// number of at least 18.
func TestInterruptLoop(t *testing.T) {
	ctx := ctxT(t)
	type state struct {
		Age   int    `json:"age"`
		Other string `json:"other"`
	}
	age := graph.LastValue("age", func(s *state) *int { return &s.Age })
	other := graph.LastValue("other", func(s *state) *string { return &s.Other })
	b := graph.New(age, other)
	b.AddNode("node", func(_ context.Context, s state, rt *graph.Runtime) (graph.Update, error) {
		question := "How old are you?"
		for range 10 {
			v, err := graph.Interrupt[string](rt, question)
			if err != nil {
				return nil, err
			}
			if n, err := strconv.Atoi(v); err == nil && n >= 18 {
				return graph.Update{age.Set(n)}, nil
			}
			question = "invalid response"
		}
		return nil, errors.New("no valid age after 10 answers")
	})
	b.AddEdge(graph.Start, "node")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	asked := func(res graph.Result[state], err error) string {
		t.Helper()
		var q string
		if err != nil || len(res.Interrupts) != 1 || res.Interrupts[0].Decode(&q) != nil {
			t.Fatalf("want one question: %+v %v", res, err)
		}
		return q
	}
	if q := asked(g.Invoke(ctx, cfg, graph.Update{other.Set("")})); q != "How old are you?" {
		t.Fatalf("first question %q", q)
	}
	for _, answer := range []string{"13", "15"} {
		if q := asked(g.Resume(ctx, cfg, graph.Command{Resume: answer})); q != "invalid response" {
			t.Fatalf("after %q: question %q", answer, q)
		}
	}
	rec := &recorder{}
	res, err := g.Resume(ctx, graph.Config{ThreadID: "1", Events: rec}, graph.Command{Resume: "19"})
	if err != nil || res.Interrupted() || !cmp.Equal(updateStrings(rec), []string{"node:age=19"}) {
		t.Fatalf("final: %+v %v, updates %v", res, err, updateStrings(rec))
	}
}

// Port of test_pregel.py::test_multiple_interrupt_state_persistence: the
// state does not change while a node is between its interrupts, only when
// it returns.
func TestMultipleInterruptStatePersistence(t *testing.T) {
	ctx := ctxT(t)
	type state struct {
		Steps []string `json:"steps"`
	}
	steps := graph.Append("steps", func(s *state) *[]string { return &s.Steps })
	b := graph.New(steps)
	b.AddNode("node", func(_ context.Context, s state, rt *graph.Runtime) (graph.Update, error) {
		first, err := graph.Interrupt[string](rt, "First interrupt")
		if err != nil {
			return nil, err
		}
		second, err := graph.Interrupt[string](rt, "Second interrupt")
		if err != nil {
			return nil, err
		}
		return graph.Update{steps.Add(first, second)}, nil
	})
	b.AddEdge(graph.Start, "node")
	app := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	stateSteps := func() []string {
		t.Helper()
		snap, err := app.GetState(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return snap.Values.Steps
	}
	if _, err := app.Invoke(ctx, cfg, graph.Update{steps.Add()}); err != nil {
		t.Fatal(err)
	}
	if got := stateSteps(); len(got) != 0 {
		t.Fatalf("after the first interrupt: steps %v, want none", got)
	}
	if _, err := app.Resume(ctx, cfg, graph.Command{Resume: "step1"}); err != nil {
		t.Fatal(err)
	}
	if got := stateSteps(); len(got) != 0 {
		t.Fatalf("after the second interrupt: steps %v, want none", got)
	}
	res, err := app.Resume(ctx, cfg, graph.Command{Resume: "step2"})
	if err != nil || !cmp.Equal(res.State.Steps, []string{"step1", "step2"}) {
		t.Fatalf("result: %+v %v", res, err)
	}
	if got := stateSteps(); !cmp.Equal(got, []string{"step1", "step2"}) {
		t.Fatalf("state steps %v", got)
	}
}

// test_pregel.py::test_node_before_interrupt_resume_graph_api is newer
// than the copy of LangGraph's tests available here, so this is still
// built from its name: the node upstream of an interrupting node does not
// run again on resume; the interrupting node does (from its start).
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

// Port of test_pregel.py::test_command_with_static_breakpoints: at a
// static breakpoint, Command(resume=...) continues the run; the value has
// no interrupt to answer and is dropped.
func TestCommandWithStaticBreakpoints(t *testing.T) {
	ctx := ctxT(t)
	type state struct {
		Foo string `json:"foo"`
	}
	foo := graph.LastValue("foo", func(s *state) *string { return &s.Foo })
	suffix := func(text string) graph.NodeFunc[state] {
		return func(_ context.Context, s state, _ *graph.Runtime) (graph.Update, error) {
			return graph.Update{foo.Set(s.Foo + text)}, nil
		}
	}
	b := graph.New(foo)
	b.AddNode("node1", suffix("|node-1")).AddNode("node2", suffix("|node-2"))
	b.AddEdge(graph.Start, "node1").AddEdge("node1", "node2")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()), graph.WithInterruptBefore("node1"))
	cfg := graph.Config{ThreadID: uuid.NewString()}
	res, err := g.Invoke(ctx, cfg, graph.Update{foo.Set("abc")})
	if err != nil || !res.Interrupted() || res.Interrupts[0].When != graph.Before || res.Interrupts[0].Node != "node1" {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	res, err = g.Resume(ctx, cfg, graph.Command{Resume: "node1"})
	if err != nil || res.Interrupted() || res.State.Foo != "abc|node-1|node-2" {
		t.Fatalf("resume: %+v %v", res, err)
	}
}

// Port of test_pregel.py::test_command_goto_with_static_breakpoints.
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

// test_pregel.py::test_null_resume_disallowed_with_multiple_interrupts is
// newer than the copy of LangGraph's tests available here; built from its
// name and the rule of langgraph#6108 that added it: with several
// interrupts pending, a bare resume value is an error ("you must specify the
// interrupt id when resuming") and answers go by interrupt id. Deliberately
// stricter: an id that matches no pending interrupt is an error here, where
// LangGraph ignores it (langgraph#8836) and leaves the run waiting.
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

// test_pregel.py::test_interrupt_stream_mode_values is newer than the copy
// of LangGraph's tests available here; built from its name. The order
// follows LangGraph's loop: values after each step (the input step
// included), the interrupt last; a resumed run first reports the state it
// resumes from (PregelLoop emits values when resuming).
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
	want = []string{"values", "node_start:ask", "token:ask", "node_end:ask", "values"}
	if diff := cmp.Diff(want, rec.kinds()); diff != "" {
		t.Fatalf("resume events (-want +got):\n%s", diff)
	}
}

// A resume whose run stops before the asking node runs again (a process
// killed right after the answer was saved) must not answer the question:
// the next resume's value does. Without the record of how many answers the
// open question follows, the cut answer would be used and the new one
// queued for a question never asked. The node also sees its task id, which
// is the interrupt's id, so it can name what it asks about.
func TestCutResumeIsReplaced(t *testing.T) {
	ctx := ctxT(t)
	type state struct {
		Got []string `json:"got"`
	}
	got := graph.Append("got", func(s *state) *[]string { return &s.Got })
	b := graph.New(got)
	var ids []string
	b.AddNode("ask", func(_ context.Context, s state, rt *graph.Runtime) (graph.Update, error) {
		ids = append(ids, rt.TaskID())
		first, err := graph.Interrupt[string](rt, "first?")
		if err != nil {
			return nil, err
		}
		second, err := graph.Interrupt[string](rt, "second?")
		if err != nil {
			return nil, err
		}
		return graph.Update{got.Add(first, second)}, nil
	})
	b.AddEdge(graph.Start, "ask").AddEdge("ask", graph.End)
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	res, err := g.Invoke(ctx, cfg, graph.Update{got.Add()})
	if err != nil || len(res.Interrupts) != 1 {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	id := res.Interrupts[0].ID
	if ids[0] != id {
		t.Fatalf("the node saw task id %q, the interrupt is %q", ids[0], id)
	}
	if res, err = g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{id: "one"}}); err != nil || len(res.Interrupts) != 1 || res.Interrupts[0].ID != id {
		t.Fatalf("first answer: %+v %v", res, err)
	}
	// The cut resume: its answer is saved, then the run stops before the node.
	cut, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := g.Resume(cut, cfg, graph.Command{ResumeMap: map[string]any{id: "lost"}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cut resume: %v", err)
	}
	snap, err := g.GetState(ctx, cfg)
	if err != nil || len(snap.Interrupts) != 1 || string(snap.Interrupts[0].Value) != `"second?"` {
		t.Fatalf("after the cut: %+v %v", snap, err)
	}
	res, err = g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{id: "two"}})
	if err != nil || res.Interrupted() || !cmp.Equal(res.State.Got, []string{"one", "two"}) {
		t.Fatalf("after the cut, the next answer must be used: %+v %v", res.State, err)
	}
}

// A node that matches answers to its questions by id (Answers, AskNext)
// asks only what is still open: a question settled meanwhile is skipped,
// and the answers of the others do not shift, as they would with
// Interrupt's order (the answer to "b" would be read as the answer to
// "a" once "a" needs no asking).
func TestAnswersByID(t *testing.T) {
	ctx := ctxT(t)
	type state struct {
		Done []string `json:"done"`
	}
	type answer struct {
		ID, Value string
	}
	done := graph.Append("done", func(s *state) *[]string { return &s.Done })
	b := graph.New(done)
	var settled atomic.Bool // "a" needs no question once settled elsewhere
	b.AddNode("ask", func(_ context.Context, s state, rt *graph.Runtime) (graph.Update, error) {
		answers, err := graph.Answers[answer](rt)
		if err != nil {
			return nil, err
		}
		byID := map[string]string{}
		for _, a := range answers {
			byID[a.ID] = a.Value
		}
		var got []string
		for _, q := range []string{"a", "b", "c"} {
			v, ok := byID[q]
			switch {
			case ok:
				got = append(got, q+"="+v)
			case q == "a" && settled.Load():
				got = append(got, "a=settled")
			default:
				return nil, graph.AskNext(rt, q)
			}
		}
		return graph.Update{done.Add(got...)}, nil
	})
	b.AddEdge(graph.Start, "ask").AddEdge("ask", graph.End)
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	question := func(res graph.Result[state], err error) (string, string) {
		t.Helper()
		var q string
		if err != nil || len(res.Interrupts) != 1 || res.Interrupts[0].Decode(&q) != nil {
			t.Fatalf("want one question: %+v %v", res, err)
		}
		return q, res.Interrupts[0].ID
	}
	answerWith := func(id string, a answer) graph.Command { return graph.Command{ResumeMap: map[string]any{id: a}} }

	cfg := graph.Config{ThreadID: "1"}
	q, id := question(g.Invoke(ctx, cfg, graph.Update{done.Add()}))
	if q != "a" {
		t.Fatalf("first question %q", q)
	}
	if q, _ = question(g.Resume(ctx, cfg, answerWith(id, answer{"a", "1"}))); q != "b" {
		t.Fatalf("second question %q", q)
	}
	settled.Store(true) // answered already: its answer still counts
	if q, _ = question(g.Resume(ctx, cfg, answerWith(id, answer{"b", "2"}))); q != "c" {
		t.Fatalf("third question %q", q)
	}
	res, err := g.Resume(ctx, cfg, answerWith(id, answer{"c", "3"}))
	if err != nil || res.Interrupted() || !cmp.Equal(res.State.Done, []string{"a=1", "b=2", "c=3"}) {
		t.Fatalf("final: %+v %v", res.State, err)
	}

	// Settled before it was asked: never asked.
	cfg = graph.Config{ThreadID: "2"}
	if q, id = question(g.Invoke(ctx, cfg, graph.Update{done.Add()})); q != "b" {
		t.Fatalf("with a settled, first question %q", q)
	}
	if q, _ = question(g.Resume(ctx, cfg, answerWith(id, answer{"b", "2"}))); q != "c" {
		t.Fatalf("then %q", q)
	}
}
