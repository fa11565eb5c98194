package graph_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// gatedSaver holds back the Put of one step's checkpoint until released,
// and can fail the Put of another.
type gatedSaver struct {
	*graph.MemorySaver
	holdStep int           // step whose checkpoint waits for release
	release  chan struct{} // closed to let it through
	late     atomic.Bool   // the wait ran out instead
	failStep int           // step whose checkpoint cannot be saved (0: none)
}

var errDiskFull = errors.New("disk full")

func (s *gatedSaver) Put(ctx context.Context, cp graph.Checkpoint) error {
	if s.release != nil && cp.Metadata.Step == s.holdStep {
		select {
		case <-s.release:
		case <-time.After(5 * time.Second): // a synchronous save never gets released
			s.late.Store(true)
		}
	}
	if s.failStep != 0 && cp.Metadata.Step == s.failStep {
		return errDiskFull
	}
	return s.MemorySaver.Put(ctx, cp)
}

// With async durability the step after a checkpoint runs while that
// checkpoint is being saved, and the run returns only once all are saved.
func TestAsyncDurabilitySavesWhileNextStepRuns(t *testing.T) {
	saver := &gatedSaver{MemorySaver: graph.NewMemorySaver(), holdStep: 1, release: make(chan struct{})}
	b := graph.New(fooAdd)
	b.AddNode("a", appendFoo("a", nil))
	b.AddNode("b", func(ctx context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
		close(saver.release) // step 1 (after a) is still being saved now
		return graph.Update{fooAdd.Add("b")}, nil
	})
	b.AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", graph.End)
	g := mustCompile(t, b, graph.WithCheckpointer(saver))
	cfg := graph.Config{ThreadID: "t", Durability: graph.DurabilityAsync}
	res, err := g.Invoke(ctxT(t), cfg, graph.Update{fooAdd.Add(">")})
	if err != nil || res.State.Foo != ">ab" {
		t.Fatalf("invoke: %+v, %v", res, err)
	}
	if saver.late.Load() {
		t.Error("node b only ran after the checkpoint before it was saved")
	}
	hist, err := g.History(ctxT(t), cfg, 0)
	if err != nil || len(hist) != 4 || hist[0].CheckpointID != res.CheckpointID {
		t.Fatalf("history after return: %d checkpoints, newest %v, %v; want 4 ending at the result", len(hist), hist, err)
	}
}

// hitlState drives a graph with parallel tasks and a question to a person.
type hitlState struct {
	Log []string `json:"log"`
}

var logAppend = graph.Reduce("log", func(s *hitlState) *[]string { return &s.Log },
	func(a, b []string) []string { return append(append([]string{}, a...), b...) })

func hitlGraph(t *testing.T, saver graph.Checkpointer) *graph.Graph[hitlState] {
	b := graph.New(logAppend)
	add := func(name string) {
		b.AddNode(name, func(ctx context.Context, s hitlState, rt *graph.Runtime) (graph.Update, error) {
			return graph.Update{logAppend.Add([]string{name})}, nil
		})
	}
	add("left")
	add("right")
	b.AddNode("ask", func(ctx context.Context, s hitlState, rt *graph.Runtime) (graph.Update, error) {
		answer, err := graph.Interrupt[string](rt, "ok?")
		if err != nil {
			return nil, err
		}
		return graph.Update{logAppend.Add([]string{"ask:" + answer})}, nil
	})
	add("done")
	b.AddEdge(graph.Start, "left").AddEdge(graph.Start, "right")
	b.AddEdge("left", "ask").AddEdge("right", "ask").AddEdge("ask", "done").AddEdge("done", graph.End)
	return mustCompile(t, b, graph.WithCheckpointer(saver))
}

// Both durabilities leave the same history behind: same steps, values,
// next nodes and interrupts, through parallel tasks, an interrupt, a
// resume and a second run.
func TestDurabilitiesKeepTheSameHistory(t *testing.T) {
	histories := map[graph.Durability][]graph.Snapshot[hitlState]{}
	for _, d := range []graph.Durability{graph.DurabilitySync, graph.DurabilityAsync} {
		g := hitlGraph(t, graph.NewMemorySaver())
		cfg := graph.Config{ThreadID: "t", Durability: d}
		res, err := g.Invoke(ctxT(t), cfg, graph.Update{logAppend.Add([]string{"in"})})
		if err != nil || !res.Interrupted() {
			t.Fatalf("durability %d: invoke: %+v, %v", d, res, err)
		}
		// What a person sees once the question is reported is saved.
		snap, err := g.GetState(ctxT(t), cfg)
		if err != nil || len(snap.Interrupts) != 1 || !cmp.Equal(snap.Next, []string{"ask"}) {
			t.Fatalf("durability %d: state at the question: %+v, %v", d, snap, err)
		}
		if res, err = g.Resume(ctxT(t), cfg, graph.Command{Resume: "yes"}); err != nil || res.Interrupted() {
			t.Fatalf("durability %d: resume: %+v, %v", d, res, err)
		}
		if _, err := g.Invoke(ctxT(t), cfg, graph.Update{logAppend.Add([]string{"again"})}); err != nil {
			t.Fatal(err)
		}
		if histories[d], err = g.History(ctxT(t), cfg, 0); err != nil {
			t.Fatal(err)
		}
	}
	ignore := cmpopts.IgnoreFields(graph.Snapshot[hitlState]{}, "CheckpointID", "ParentID", "CreatedAt", "Tasks", "Interrupts")
	if diff := cmp.Diff(histories[graph.DurabilitySync], histories[graph.DurabilityAsync], ignore); diff != "" {
		t.Errorf("async history differs from sync (-sync +async):\n%s", diff)
	}
}

// A checkpoint that cannot be saved fails the run in both modes, with the
// store's error.
func TestSaveFailureFailsTheRun(t *testing.T) {
	for _, c := range []struct {
		d        graph.Durability
		failStep int
	}{{graph.DurabilitySync, 1}, {graph.DurabilityAsync, 1}, {graph.DurabilityExit, 4}} {
		saver := &gatedSaver{MemorySaver: graph.NewMemorySaver(), failStep: c.failStep}
		var last atomic.Int32
		b := graph.New(fooAdd)
		for _, n := range []string{"a", "b", "c", "d"} {
			b.AddNode(n, appendFoo(n, &last))
		}
		b.AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", "d").AddEdge("d", graph.End)
		g := mustCompile(t, b, graph.WithCheckpointer(saver))
		_, err := g.Invoke(ctxT(t), graph.Config{ThreadID: "t", Durability: c.d}, graph.Update{fooAdd.Add(">")})
		if !errors.Is(err, errDiskFull) {
			t.Errorf("durability %d: err = %v, want the save failure", c.d, err)
		}
		// An async run may have run ahead of its saves; a sync one stops at once.
		if n := last.Load(); c.d == graph.DurabilitySync && n != 1 {
			t.Errorf("%d nodes ran after the failed save of step 1, want 0", n-1)
		}
	}
}

// Stopping a run keeps the steps it finished, as a synchronous run does.
func TestStopKeepsFinishedSteps(t *testing.T) {
	for _, d := range []graph.Durability{graph.DurabilityAsync, graph.DurabilityExit} {
		b := graph.New(fooAdd)
		ctx, cancel := context.WithCancel(ctxT(t))
		b.AddNode("a", appendFoo("a", nil))
		b.AddNode("b", func(ctx context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		})
		b.AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", graph.End)
		g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
		cfg := graph.Config{ThreadID: "t", Durability: d}
		if _, err := g.Invoke(ctx, cfg, graph.Update{fooAdd.Add(">")}); !errors.Is(err, context.Canceled) {
			t.Fatalf("durability %d: err = %v, want canceled", d, err)
		}
		snap, err := g.GetState(ctxT(t), cfg)
		if err != nil || snap.Values.Foo != ">a" || !cmp.Equal(snap.Next, []string{"b"}) {
			t.Errorf("durability %d: after stop: %+v, %v; want foo \">a\" waiting at b", d, snap, err)
		}
	}
}

// With exit durability a run stores nothing while it runs, then one
// checkpoint where it stops, hung off the one it started from. Each stop
// (an interrupt, the end) looks as it does in a synchronous run.
func TestExitDurabilitySavesWhereTheRunStops(t *testing.T) {
	type stop struct {
		snap graph.Snapshot[hitlState]
		err  error
	}
	stops := map[graph.Durability][]stop{}
	for _, d := range []graph.Durability{graph.DurabilitySync, graph.DurabilityExit} {
		g := hitlGraph(t, graph.NewMemorySaver())
		cfg := graph.Config{ThreadID: "t", Durability: d}
		look := func() {
			snap, err := g.GetState(ctxT(t), cfg)
			stops[d] = append(stops[d], stop{snap, err})
		}
		if _, err := g.Invoke(ctxT(t), cfg, graph.Update{logAppend.Add([]string{"in"})}); err != nil {
			t.Fatal(err)
		}
		look()
		if _, err := g.Resume(ctxT(t), cfg, graph.Command{Resume: "yes"}); err != nil {
			t.Fatal(err)
		}
		look()
		if d != graph.DurabilityExit {
			continue
		}
		hist, err := g.History(ctxT(t), cfg, 0)
		if err != nil || len(hist) != 2 || hist[0].ParentID != hist[1].CheckpointID || hist[1].ParentID != "" {
			t.Errorf("exit history: %+v, %v; want the interrupt's checkpoint, then the end's hung off it", hist, err)
		}
	}
	ignore := cmpopts.IgnoreFields(graph.Snapshot[hitlState]{}, "CheckpointID", "ParentID", "CreatedAt", "Tasks", "Metadata")
	ignoreIDs := cmpopts.IgnoreFields(graph.Interruption{}, "ID")
	if diff := cmp.Diff(stops[graph.DurabilitySync], stops[graph.DurabilityExit], ignore, ignoreIDs, cmp.AllowUnexported(stop{}), cmpopts.EquateErrors()); diff != "" {
		t.Errorf("exit stops differ from sync (-sync +exit):\n%s", diff)
	}

	// Nothing is stored while the run runs.
	saver := graph.NewMemorySaver()
	var g *graph.Graph[strState]
	b := graph.New(fooAdd)
	b.AddNode("a", appendFoo("a", nil))
	b.AddNode("b", func(ctx context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
		if hist, err := g.History(ctx, graph.Config{ThreadID: "t"}, 0); len(hist) != 0 || !errors.Is(err, graph.ErrNoCheckpoint) && err != nil {
			t.Errorf("during the run the store holds %d checkpoints (%v), want none", len(hist), err)
		}
		return graph.Update{fooAdd.Add("b")}, nil
	})
	b.AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", graph.End)
	g = mustCompile(t, b, graph.WithCheckpointer(saver))
	res, err := g.Invoke(ctxT(t), graph.Config{ThreadID: "t", Durability: graph.DurabilityExit}, graph.Update{fooAdd.Add(">")})
	if err != nil || res.State.Foo != ">ab" {
		t.Fatalf("invoke: %+v, %v", res, err)
	}
	if snap, err := g.GetState(ctxT(t), graph.Config{ThreadID: "t"}); err != nil || snap.CheckpointID != res.CheckpointID || snap.Values.Foo != ">ab" {
		t.Errorf("after the run: %+v, %v; want the result stored", snap, err)
	}
}

// A step that fails in an exit-durable run keeps the writes of its tasks
// that finished, so a resume runs only the one that failed.
func TestExitDurabilityKeepsFinishedTasksOfAFailedStep(t *testing.T) {
	var okRuns, flakyRuns atomic.Int32
	b := graph.New(logAppend)
	b.AddNode("ok", func(ctx context.Context, s hitlState, rt *graph.Runtime) (graph.Update, error) {
		okRuns.Add(1)
		return graph.Update{logAppend.Add([]string{"ok"})}, nil
	})
	b.AddNode("flaky", func(ctx context.Context, s hitlState, rt *graph.Runtime) (graph.Update, error) {
		if flakyRuns.Add(1) == 1 {
			return nil, errDiskFull
		}
		return graph.Update{logAppend.Add([]string{"flaky"})}, nil
	})
	b.AddEdge(graph.Start, "ok").AddEdge(graph.Start, "flaky").AddEdge("ok", graph.End).AddEdge("flaky", graph.End)
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "t", Durability: graph.DurabilityExit}
	if _, err := g.Invoke(ctxT(t), cfg, graph.Update{logAppend.Add([]string{"in"})}); !errors.Is(err, errDiskFull) {
		t.Fatalf("invoke: %v, want the node's failure", err)
	}
	res, err := g.Resume(ctxT(t), cfg, graph.Command{})
	if err != nil || !cmp.Equal(res.State.Log, []string{"in", "ok", "flaky"}) {
		t.Fatalf("resume: %+v, %v", res, err)
	}
	if okRuns.Load() != 1 || flakyRuns.Load() != 2 {
		t.Errorf("ok ran %d times, flaky %d; want 1 and 2", okRuns.Load(), flakyRuns.Load())
	}
}

// failStart fails the save of the checkpoint after the __start__ step while
// armed.
type failStart struct {
	*graph.MemorySaver
	armed atomic.Bool
}

func (s *failStart) Put(ctx context.Context, cp graph.Checkpoint) error {
	if s.armed.Load() && cp.Metadata.Step == 0 {
		return errDiskFull
	}
	return s.MemorySaver.Put(ctx, cp)
}

// A run's input is used as given, but a resume after the input step failed
// decodes it from the checkpoint, in both durabilities.
func TestInputReplayedFromCheckpoint(t *testing.T) {
	for _, d := range []graph.Durability{graph.DurabilitySync, graph.DurabilityAsync} {
		saver := &failStart{MemorySaver: graph.NewMemorySaver()}
		b := graph.New(fooAdd)
		b.AddNode("a", appendFoo("a", nil))
		b.AddEdge(graph.Start, "a").AddEdge("a", graph.End)
		g := mustCompile(t, b, graph.WithCheckpointer(saver))
		cfg := graph.Config{ThreadID: "t", Durability: d}
		saver.armed.Store(true)
		if _, err := g.Invoke(ctxT(t), cfg, graph.Update{fooAdd.Add("입력>")}); !errors.Is(err, errDiskFull) {
			t.Fatalf("durability %d: invoke = %v, want the save failure", d, err)
		}
		saver.armed.Store(false)
		res, err := g.Resume(ctxT(t), cfg, graph.Command{})
		if err != nil || res.State.Foo != "입력>a" {
			t.Errorf("durability %d: resume = %+v, %v; want the input decoded again, then a", d, res, err)
		}
	}
}
