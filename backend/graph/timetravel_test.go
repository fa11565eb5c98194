package graph_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

type stepsState struct {
	Steps   []string `json:"steps"`
	Attempt int      `json:"attempt"`
}

var (
	stepsField   = graph.Append("steps", func(s *stepsState) *[]string { return &s.Steps })
	attemptField = graph.LastValue("attempt", func(s *stepsState) *int { return &s.Attempt })
)

func TestCheckpointRecovery(t *testing.T) {
	ctx := ctxT(t)
	b := graph.New(stepsField, attemptField)
	b.AddNode("node1", func(_ context.Context, s stepsState, _ *graph.Runtime) (graph.Update, error) {
		if s.Attempt == 1 {
			return nil, errors.New("Simulated failure")
		}
		return graph.Update{stepsField.Add("node1")}, nil
	})
	b.AddNode("node2", func(_ context.Context, s stepsState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{stepsField.Add("node2")}, nil
	})
	b.AddEdge(graph.Start, "node1").AddEdge("node1", "node2")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}

	_, err := g.Invoke(ctx, cfg, graph.Update{stepsField.Add("start"), attemptField.Set(1)})
	var nerr *graph.NodeError
	if !errors.As(err, &nerr) || nerr.Node != "node1" || !strings.Contains(err.Error(), "Simulated failure") {
		t.Fatalf("err = %v, want node1's failure", err)
	}
	snap, err := g.GetState(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stepsState{Steps: []string{"start"}, Attempt: 1}, snap.Values); diff != "" {
		t.Fatalf("values (-want +got):\n%s", diff)
	}
	if !cmp.Equal(snap.Next, []string{"node1"}) || !strings.Contains(snap.Tasks[0].Error, "Simulated failure") {
		t.Fatalf("snapshot: %+v", snap)
	}

	res, err := g.Invoke(ctx, cfg, graph.Update{attemptField.Set(2)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stepsState{Steps: []string{"start", "node1", "node2"}, Attempt: 2}, res.State); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
	hist, err := g.History(ctx, cfg, 0)
	if err != nil || len(hist) != 6 {
		t.Fatalf("history: %d checkpoints, %v; want 6", len(hist), err)
	}
	failed := 0
	for _, h := range hist {
		if len(h.Tasks) > 0 && strings.Contains(h.Tasks[0].Error, "Simulated failure") {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d checkpoints record the failure, want 1", failed)
	}
}

type valueState struct {
	Value int `json:"value"`
}

var valueAdd = graph.Reduce("value", func(s *valueState) *int { return &s.Value }, func(a, b int) int { return a + b })

func TestPendingWritesResume(t *testing.T) {
	ctx := ctxT(t)
	var oneCalls, twoCalls atomic.Int32
	var twoFails atomic.Bool
	twoFails.Store(true)
	b := graph.New(valueAdd)
	b.AddNode("one", func(_ context.Context, _ valueState, _ *graph.Runtime) (graph.Update, error) {
		oneCalls.Add(1)
		return graph.Update{valueAdd.Add(2)}, nil
	})
	b.AddNode("two", func(_ context.Context, _ valueState, _ *graph.Runtime) (graph.Update, error) {
		twoCalls.Add(1)
		time.Sleep(10 * time.Millisecond) // finish after "one"
		if twoFails.Load() {
			return nil, errors.New("I'm not good")
		}
		return graph.Update{valueAdd.Add(3)}, nil
	})
	b.AddEdge(graph.Start, "one").AddEdge(graph.Start, "two")
	saver := graph.NewMemorySaver()
	g := mustCompile(t, b, graph.WithCheckpointer(saver))
	cfg := graph.Config{ThreadID: "1"}

	if _, err := g.Invoke(ctx, cfg, graph.Update{valueAdd.Add(1)}); err == nil || !strings.Contains(err.Error(), "I'm not good") {
		t.Fatalf("err = %v", err)
	}
	if oneCalls.Load() != 1 || twoCalls.Load() != 1 {
		t.Fatalf("calls one=%d two=%d", oneCalls.Load(), twoCalls.Load())
	}
	snap, _ := g.GetState(ctx, cfg)
	if snap.Values.Value != 1 || !cmp.Equal(snap.Next, []string{"one", "two"}) ||
		snap.Metadata != (graph.Metadata{Source: graph.SourceLoop, Step: 0}) {
		t.Fatalf("snapshot: %+v", snap)
	}
	if !snap.Tasks[0].Done || snap.Tasks[1].Done || !strings.Contains(snap.Tasks[1].Error, "I'm not good") {
		t.Fatalf("tasks: %+v", snap.Tasks)
	}
	// The saved writes: one's value and done marker, two's error, from different tasks.
	saved, _ := saver.Get(ctx, "1", "")
	byTask := map[string][]string{}
	for _, w := range saved.Writes {
		byTask[w.TaskID] = append(byTask[w.TaskID], w.Channel)
	}
	if len(byTask) != 2 || !cmp.Equal(byTask[snap.Tasks[0].ID], []string{"value", "__done__"}) ||
		!cmp.Equal(byTask[snap.Tasks[1].ID], []string{"__error__"}) {
		t.Fatalf("pending writes: %v", byTask)
	}

	// resume: "one" succeeded before, so only "two" runs; no new checkpoint.
	if _, err := g.Resume(ctx, cfg, graph.Command{}); err == nil {
		t.Fatal("want the failure again")
	}
	if oneCalls.Load() != 1 || twoCalls.Load() != 2 {
		t.Fatalf("calls one=%d two=%d, want 1 2", oneCalls.Load(), twoCalls.Load())
	}
	if again, _ := g.GetState(ctx, cfg); again.CheckpointID != snap.CheckpointID {
		t.Fatal("a failed step wrote a checkpoint")
	}
	twoFails.Store(false)
	res, err := g.Resume(ctx, cfg, graph.Command{})
	if err != nil || res.State.Value != 6 {
		t.Fatalf("value = %d (%v), want 1+2+3", res.State.Value, err)
	}
}

func abcGraph(t *testing.T, calls map[string]*atomic.Int32, opts ...graph.Option) *graph.Graph[strState] {
	b := graph.New(fooAdd)
	for _, n := range []string{"a", "b", "c"} {
		calls[n] = &atomic.Int32{}
		b.AddNode(n, appendFoo("|"+n, calls[n]))
	}
	b.AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", "c")
	return mustCompile(t, b, append([]graph.Option{graph.WithCheckpointer(graph.NewMemorySaver())}, opts...)...)
}

// checkpointBefore finds the snapshot whose next node is node.
func checkpointBefore[S any](t *testing.T, hist []graph.Snapshot[S], node string) graph.Snapshot[S] {
	t.Helper()
	for _, h := range hist {
		if cmp.Equal(h.Next, []string{node}) {
			return h
		}
	}
	t.Fatalf("no checkpoint before %q", node)
	return graph.Snapshot[S]{}
}

func TestReplayRerunsNodesAfterCheckpoint(t *testing.T) {
	ctx := ctxT(t)
	calls := map[string]*atomic.Int32{}
	g := abcGraph(t, calls)
	cfg := graph.Config{ThreadID: "1"}
	if _, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("x")}); err != nil {
		t.Fatal(err)
	}
	hist, _ := g.History(ctx, cfg, 0)
	beforeB := checkpointBefore(t, hist, "b")
	res, err := g.Resume(ctx, graph.Config{ThreadID: "1", CheckpointID: beforeB.CheckpointID}, graph.Command{})
	if err != nil || res.State.Foo != "x|a|b|c" {
		t.Fatalf("replay: %+v %v", res, err)
	}
	if calls["a"].Load() != 1 || calls["b"].Load() != 2 || calls["c"].Load() != 2 {
		t.Fatalf("calls a=%d b=%d c=%d, want 1 2 2", calls["a"].Load(), calls["b"].Load(), calls["c"].Load())
	}
	after, _ := g.History(ctx, cfg, 0)
	// The old branch is still there; the replay added a fork and two steps.
	if len(after) != len(hist)+3 {
		t.Fatalf("history %d -> %d, want +3", len(hist), len(after))
	}
	fork := after[2]
	if fork.Metadata.Source != graph.SourceFork || fork.ParentID != beforeB.CheckpointID {
		t.Fatalf("fork checkpoint: %+v", fork)
	}
}

func TestForkRerunsWithModifiedState(t *testing.T) {
	ctx := ctxT(t)
	calls := map[string]*atomic.Int32{}
	g := abcGraph(t, calls)
	cfg := graph.Config{ThreadID: "1"}
	if _, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("x")}); err != nil {
		t.Fatal(err)
	}
	hist, _ := g.History(ctx, cfg, 0)
	beforeB := checkpointBefore(t, hist, "b")
	forkID, err := g.UpdateState(ctx, graph.Config{ThreadID: "1", CheckpointID: beforeB.CheckpointID}, graph.Update{fooAdd.Add("|edited")}, "")
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := g.GetState(ctx, cfg)
	if snap.CheckpointID != forkID || snap.ParentID != beforeB.CheckpointID || !cmp.Equal(snap.Next, []string{"b"}) {
		t.Fatalf("fork snapshot: %+v", snap)
	}
	res, err := g.Resume(ctx, cfg, graph.Command{})
	if err != nil || res.State.Foo != "x|a|edited|b|c" {
		t.Fatalf("resume fork: %+v %v", res, err)
	}
	if calls["a"].Load() != 1 || calls["b"].Load() != 2 || calls["c"].Load() != 2 {
		t.Fatalf("calls a=%d b=%d c=%d", calls["a"].Load(), calls["b"].Load(), calls["c"].Load())
	}
	// The original run is still in history, untouched.
	after, _ := g.History(ctx, cfg, 0)
	if len(after) != len(hist)+3 || after[len(after)-len(hist)].Values.Foo != "x|a|b|c" {
		t.Fatalf("history lost the original branch")
	}
}

func TestReplayFromBeforeInterruptRefires(t *testing.T) {
	ctx := ctxT(t)
	var asked atomic.Int32
	b := graph.New(fooAdd)
	b.AddNode("a", appendFoo("|a", nil))
	b.AddNode("ask", func(_ context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
		asked.Add(1)
		v, err := graph.Interrupt[string](rt, "ok?")
		if err != nil {
			return nil, err
		}
		return graph.Update{fooAdd.Add("|" + v)}, nil
	})
	b.AddEdge(graph.Start, "a").AddEdge("a", "ask")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	g.Invoke(ctx, cfg, nil)
	if res, err := g.Resume(ctx, cfg, graph.Command{Resume: "yes"}); err != nil || res.State.Foo != "|a|yes" {
		t.Fatalf("first answer: %+v %v", res, err)
	}
	hist, _ := g.History(ctx, cfg, 0)
	beforeAsk := checkpointBefore(t, hist, "ask")
	res, err := g.Resume(ctx, graph.Config{ThreadID: "1", CheckpointID: beforeAsk.CheckpointID}, graph.Command{})
	if err != nil || !res.Interrupted() {
		t.Fatalf("replay did not re-ask: %+v %v", res, err)
	}
	res, err = g.Resume(ctx, cfg, graph.Command{Resume: "no"})
	if err != nil || res.State.Foo != "|a|no" || asked.Load() != 4 {
		t.Fatalf("second answer: %+v %v (asked %d)", res, err, asked.Load())
	}
}

type listState struct {
	Items []string `json:"items"`
}

var itemsField = graph.Append("items", func(s *listState) *[]string { return &s.Items })

func TestSendDedupeOnResume(t *testing.T) {
	ctx := ctxT(t)
	var twoCalls, flakyCalls atomic.Int32
	b := graph.New(itemsField)
	b.AddNode("1", func(_ context.Context, s listState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{itemsField.Add("1"), graph.Send("2", 3), graph.Send("2", 4), graph.Send("flaky", 5), graph.Goto("3.1")}, nil
	}, "2", "flaky", "3.1")
	b.AddNode("2", func(_ context.Context, s listState, rt *graph.Runtime) (graph.Update, error) {
		twoCalls.Add(1)
		n, err := graph.ArgAs[int](rt)
		if err != nil {
			return nil, err
		}
		return graph.Update{itemsField.Add("2|" + string(rune('0'+n)))}, nil
	})
	b.AddNode("3.1", func(_ context.Context, s listState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{itemsField.Add("3.1")}, nil
	})
	b.AddNode("flaky", func(_ context.Context, s listState, rt *graph.Runtime) (graph.Update, error) {
		if flakyCalls.Add(1) == 1 {
			if _, err := graph.Interrupt[any](rt, "Bahh"); err != nil {
				return nil, err
			}
		}
		n, _ := graph.ArgAs[int](rt)
		return graph.Update{itemsField.Add("flaky|" + string(rune('0'+n)))}, nil
	})
	b.AddEdge(graph.Start, "1")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	res, err := g.Invoke(ctx, cfg, graph.Update{itemsField.Add("0")})
	if err != nil || !res.Interrupted() || res.Interrupts[0].Node != "flaky" {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	if twoCalls.Load() != 2 || flakyCalls.Load() != 1 {
		t.Fatalf("calls two=%d flaky=%d", twoCalls.Load(), flakyCalls.Load())
	}
	rec := &recorder{}
	res, err = g.Resume(ctx, graph.Config{ThreadID: "1", Events: rec}, graph.Command{})
	if err != nil {
		t.Fatal(err)
	}
	// "2" does not run again: its writes were saved before the interrupt.
	if twoCalls.Load() != 2 || flakyCalls.Load() != 2 {
		t.Fatalf("after resume calls two=%d flaky=%d, want 2 2", twoCalls.Load(), flakyCalls.Load())
	}
	if ups := rec.updates(); len(ups) != 1 || ups[0].Node != "flaky" {
		t.Fatalf("updates on resume: %+v", ups)
	}
	want := []string{"0", "1", "3.1", "2|3", "2|4", "flaky|5"}
	if diff := cmp.Diff(want, res.State.Items); diff != "" {
		t.Fatalf("items (-want +got):\n%s", diff)
	}
}

func TestRecursionLimit(t *testing.T) {
	ctx := ctxT(t)
	var calls atomic.Int32
	b := graph.New(fooAdd)
	b.AddNode("loop", appendFoo(".", &calls))
	b.AddEdge(graph.Start, "loop").AddEdge("loop", "loop")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	for _, tc := range []struct{ limit, want int }{{0, graph.DefaultStepLimit}, {5, 5}} {
		calls.Store(0)
		_, err := g.Invoke(ctx, graph.Config{ThreadID: "t", StepLimit: tc.limit}, nil)
		if !errors.Is(err, graph.ErrRecursionLimit) || int(calls.Load()) != tc.want {
			t.Fatalf("limit %d: err %v after %d calls, want ErrRecursionLimit after %d", tc.limit, err, calls.Load(), tc.want)
		}
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(ctxT(t))
	started := make(chan struct{})
	b := graph.New(fooAdd)
	b.AddNode("a", appendFoo("|a", nil))
	b.AddNode("slow", func(ctx context.Context, s strState, _ *graph.Runtime) (graph.Update, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	b.AddEdge(graph.Start, "a").AddEdge("a", "slow")
	saver := graph.NewMemorySaver()
	g := mustCompile(t, b, graph.WithCheckpointer(saver))
	go func() { <-started; cancel() }()
	_, err := g.Invoke(ctx, graph.Config{ThreadID: "1"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	snap, err := g.GetState(ctxT(t), graph.Config{ThreadID: "1"})
	if err != nil || snap.Values.Foo != "|a" || !cmp.Equal(snap.Next, []string{"slow"}) || snap.Tasks[0].Done {
		t.Fatalf("after cancel: %+v %v", snap, err)
	}
}

func TestCommandUpdateOnFinishedThread(t *testing.T) {
	ctx := ctxT(t)
	calls := map[string]*atomic.Int32{}
	g := abcGraph(t, calls)
	cfg := graph.Config{ThreadID: "1"}
	if _, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("x")}); err != nil {
		t.Fatal(err)
	}
	res, err := g.Resume(ctx, cfg, graph.Command{Update: graph.Update{fooAdd.Add("|note")}})
	if err != nil || res.State.Foo != "x|a|b|c|note" {
		t.Fatalf("resume: %+v %v", res, err)
	}
	// The edit is a checkpoint of its own, so the next run starts from it.
	res, err = g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("|again")})
	if err != nil || res.State.Foo != "x|a|b|c|note|again|a|b|c" {
		t.Fatalf("next run: %+v %v", res, err)
	}
}
