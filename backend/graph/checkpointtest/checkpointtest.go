// Package checkpointtest is the contract every graph.Checkpointer must keep
// (the engine's resume, history and fork logic rely on each point), run
// against the in-memory saver and the SQLite one alike.
package checkpointtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// Run checks the contract on fresh savers made by newSaver.
func Run(t *testing.T, newSaver func(t *testing.T) graph.Checkpointer) {
	// Each point maps to LangGraph's checkpoint-conformance spec: EmptyThread
	// and PutThenGet to test_get_tuple/test_put, ListNewestFirst and
	// ThreadsAreIsolated to test_list, the Writes ones to test_put_writes
	// (idempotent, multiple tasks, cleared on the next checkpoint),
	// DeleteThread to test_delete_thread. Not covered, as the interface has
	// no such thing: namespaces, list filters and `before`, copy and prune.
	tests := []struct {
		name string
		fn   func(t *testing.T, ctx context.Context, s graph.Checkpointer)
	}{
		{"EmptyThread", emptyThread},
		{"PutThenGet", putThenGet},
		{"ListNewestFirst", listNewestFirst},
		{"ThreadsAreIsolated", threadsAreIsolated},
		{"WritesUpsertByTaskAndIdx", writesUpsert},
		{"WritesBelongToOneCheckpoint", writesScoped},
		{"DeleteThread", deleteThread},
		{"GraphResumesAcrossInstances", graphResumes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, t.Context(), newSaver(t)) })
	}
}

func checkpoint(thread, parent string, step int, values string) graph.Checkpoint {
	id := uuid.Must(uuid.NewV7()).String()
	return graph.Checkpoint{ThreadID: thread, ID: id, ParentID: parent,
		Values:    json.RawMessage(values),
		Next:      []graph.Task{{ID: "t-" + id[:8], Node: "plan"}, {ID: "s-" + id[:8], Node: "recommend", Arg: json.RawMessage(`{"subtask":"영상 편집"}`)}},
		Metadata:  graph.Metadata{Source: graph.SourceLoop, Step: step},
		CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
}

func mustPut(t *testing.T, ctx context.Context, s graph.Checkpointer, cps ...graph.Checkpoint) {
	t.Helper()
	for _, cp := range cps {
		if err := s.Put(ctx, cp); err != nil {
			t.Fatalf("put %s: %v", cp.ID, err)
		}
	}
}

// cmpOpts compares checkpoints by what they mean: JSON by value, times by instant.
var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b json.RawMessage) bool { return jsonEqual(a, b) }),
	cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) }),
	cmp.AllowUnexported(graph.Task{}),
}

func jsonEqual(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
}

func emptyThread(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	if _, err := s.Get(ctx, "nobody", ""); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("Get on empty thread: err = %v, want ErrNoCheckpoint", err)
	}
	list, err := s.List(ctx, "nobody", 0)
	if err != nil || len(list) != 0 {
		t.Fatalf("List on empty thread: %v, %v", list, err)
	}
}

func putThenGet(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	first := checkpoint("th", "", -1, `{"messages":["안녕하세요"],"n":1}`)
	first.Metadata.Source = graph.SourceInput
	second := checkpoint("th", first.ID, 0, `{"messages":["안녕하세요","반가워요"],"n":2}`)
	mustPut(t, ctx, s, first, second)

	got, err := s.Get(ctx, "th", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(second, got.Checkpoint, cmpOpts); diff != "" {
		t.Fatalf("latest (-want +got):\n%s", diff)
	}
	got, err = s.Get(ctx, "th", first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, got.Checkpoint, cmpOpts); diff != "" {
		t.Fatalf("by id (-want +got):\n%s", diff)
	}
	if _, err := s.Get(ctx, "th", uuid.Must(uuid.NewV7()).String()); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("unknown id: err = %v", err)
	}
}

func listNewestFirst(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	var want []string
	parent := ""
	for i := range 5 {
		cp := checkpoint("th", parent, i, fmt.Sprintf(`{"n":%d}`, i))
		mustPut(t, ctx, s, cp)
		want = append(want, cp.ID)
		parent = cp.ID
	}
	slices.Reverse(want)
	all, err := s.List(ctx, "th", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, c := range all {
		got = append(got, c.ID)
		if i+1 < len(all) && c.ParentID != all[i+1].ID {
			t.Fatalf("parent of %s = %s, want %s", c.ID, c.ParentID, all[i+1].ID)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	two, err := s.List(ctx, "th", 2)
	if err != nil || len(two) != 2 || two[0].ID != want[0] || two[1].ID != want[1] {
		t.Fatalf("limit 2: %v, %v", two, err)
	}
}

func threadsAreIsolated(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	a := checkpoint("a", "", 0, `{"who":"a"}`)
	b := checkpoint("b", "", 0, `{"who":"b"}`)
	mustPut(t, ctx, s, a, b)
	if err := s.PutWrites(ctx, "a", a.ID, []graph.PendingWrite{{TaskID: "x", Idx: 0, Channel: "c", Value: json.RawMessage(`1`)}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "b", "")
	if err != nil || got.ID != b.ID || len(got.Writes) != 0 {
		t.Fatalf("thread b sees %+v, %v", got, err)
	}
	if _, err := s.Get(ctx, "b", a.ID); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("thread b reads a's checkpoint: err = %v", err)
	}
}

func writesUpsert(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	cp := checkpoint("th", "", 0, `{}`)
	mustPut(t, ctx, s, cp)
	put := func(w ...graph.PendingWrite) {
		t.Helper()
		if err := s.PutWrites(ctx, "th", cp.ID, w); err != nil {
			t.Fatal(err)
		}
	}
	put(graph.PendingWrite{TaskID: "t1", Idx: 0, Channel: "messages", Value: json.RawMessage(`"첫째"`)},
		graph.PendingWrite{TaskID: "t1", Idx: 1, Channel: "plan", Value: json.RawMessage(`[1]`)},
		graph.PendingWrite{TaskID: "t1", Idx: -1, Channel: "__done__", Value: json.RawMessage(`true`)})
	put(graph.PendingWrite{TaskID: "t2", Idx: -4, Channel: "__resume__", Value: json.RawMessage(`["a"]`)})
	put(graph.PendingWrite{TaskID: "t2", Idx: -4, Channel: "__resume__", Value: json.RawMessage(`["a","b"]`)})

	got, err := s.Get(ctx, "th", cp.ID)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]string{}
	var t1Order []int
	for _, w := range got.Writes {
		byKey[fmt.Sprintf("%s/%d/%s", w.TaskID, w.Idx, w.Channel)] = string(w.Value)
		if w.TaskID == "t1" && w.Idx >= 0 {
			t1Order = append(t1Order, w.Idx)
		}
	}
	want := map[string]string{
		"t1/0/messages": `"첫째"`, "t1/1/plan": `[1]`, "t1/-1/__done__": `true`,
		"t2/-4/__resume__": `["a","b"]`,
	}
	if diff := cmp.Diff(want, byKey); diff != "" {
		t.Fatalf("writes (-want +got):\n%s", diff)
	}
	if !slices.Equal(t1Order, []int{0, 1}) {
		t.Fatalf("a task's writes out of order: %v", t1Order)
	}
}

func writesScoped(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	one := checkpoint("th", "", 0, `{}`)
	two := checkpoint("th", one.ID, 1, `{}`)
	mustPut(t, ctx, s, one, two)
	if err := s.PutWrites(ctx, "th", one.ID, []graph.PendingWrite{{TaskID: "t", Idx: 0, Channel: "c", Value: json.RawMessage(`1`)}}); err != nil {
		t.Fatal(err)
	}
	latest, err := s.Get(ctx, "th", "")
	if err != nil || latest.ID != two.ID || len(latest.Writes) != 0 {
		t.Fatalf("latest: %+v %v", latest, err)
	}
	list, err := s.List(ctx, "th", 0)
	if err != nil || len(list) != 2 || len(list[1].Writes) != 1 || len(list[0].Writes) != 0 {
		t.Fatalf("list: %+v %v", list, err)
	}
}

// deleteThread is the conformance suite's delete_thread capability
// (spec/test_delete_thread.py, minus namespaces, which we do not have),
// which LangGraph counts among the base ones every checkpointer must have.
func deleteThread(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	d, ok := s.(graph.ThreadDeleter)
	if !ok {
		t.Fatalf("%T does not implement graph.ThreadDeleter", s)
	}
	gone := checkpoint("gone", "", 0, `{"n":1}`)
	kept := checkpoint("kept", "", 0, `{"n":2}`)
	mustPut(t, ctx, s, gone, checkpoint("gone", gone.ID, 1, `{"n":3}`), kept)
	for _, cp := range []graph.Checkpoint{gone, kept} {
		w := []graph.PendingWrite{{TaskID: "t", Idx: 0, Channel: "c", Value: json.RawMessage(`1`)}}
		if err := s.PutWrites(ctx, cp.ThreadID, cp.ID, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.DeleteThread(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "gone", ""); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("Get after delete: err = %v, want ErrNoCheckpoint", err)
	}
	if _, err := s.Get(ctx, "gone", gone.ID); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("Get by id after delete: err = %v, want ErrNoCheckpoint", err)
	}
	if list, err := s.List(ctx, "gone", 0); err != nil || len(list) != 0 {
		t.Fatalf("List after delete: %d checkpoints, %v", len(list), err)
	}
	got, err := s.Get(ctx, "kept", "")
	if err != nil || got.ID != kept.ID || len(got.Writes) != 1 {
		t.Fatalf("other thread after delete: %+v, %v", got, err)
	}
	// test_delete_thread_blocks_late_writes: a run still going when its
	// thread is deleted must not bring it back.
	mustPut(t, ctx, s, checkpoint("gone", gone.ID, 99, `{"n":4}`))
	late := []graph.PendingWrite{{TaskID: "late", Idx: 0, Channel: "ch", Value: json.RawMessage(`"late-write"`)}}
	if err := s.PutWrites(ctx, "gone", gone.ID, late); err != nil {
		t.Fatalf("late write after delete: %v, want it dropped without error", err)
	}
	if _, err := s.Get(ctx, "gone", ""); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("Get after late writes: err = %v, want ErrNoCheckpoint", err)
	}
	if list, err := s.List(ctx, "gone", 0); err != nil || len(list) != 0 {
		t.Fatalf("List after late writes: %d checkpoints, %v", len(list), err)
	}
	if err := d.DeleteThread(ctx, "nobody"); err != nil {
		t.Fatalf("deleting an unknown thread: %v", err)
	}
}

type qa struct {
	Answers []string `json:"answers"`
}

// graphResumes runs the engine over the saver: an interrupt answered by a
// second, independently compiled graph must continue where the first
// stopped.
func graphResumes(t *testing.T, ctx context.Context, s graph.Checkpointer) {
	answers := graph.Append("answers", func(q *qa) *[]string { return &q.Answers })
	build := func() *graph.Graph[qa] {
		b := graph.New(answers)
		b.AddNode("ask", func(_ context.Context, _ qa, rt *graph.Runtime) (graph.Update, error) {
			a, err := graph.Interrupt[string](rt, "이름이 뭐예요?")
			if err != nil {
				return nil, err
			}
			return graph.Update{answers.Add(a)}, nil
		})
		b.AddEdge(graph.Start, "ask")
		g, err := b.Compile(graph.WithCheckpointer(s))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	cfg := graph.Config{ThreadID: "th"}
	res, err := build().Invoke(ctx, cfg, nil)
	if err != nil || !res.Interrupted() {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	res, err = build().Resume(ctx, cfg, graph.Command{Resume: "지수"})
	if err != nil || !slices.Equal(res.State.Answers, []string{"지수"}) {
		t.Fatalf("resume: %+v %v", res, err)
	}
	hist, err := build().History(ctx, cfg, 0)
	if err != nil || len(hist) != 3 {
		t.Fatalf("history: %d entries, %v", len(hist), err)
	}
}
