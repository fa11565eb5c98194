package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

type msg struct {
	ID   string `json:"id"`
	Role string `json:"role"`
	Text string `json:"text"`
}

type todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type ref struct {
	File  string `json:"file"`
	Score int    `json:"score"`
}

type richState struct {
	Messages []msg  `json:"messages"`
	Todos    []todo `json:"todos"`
	Refs     []ref  `json:"refs"`
	Answer   string `json:"answer"`
	Calls    int    `json:"calls"`
	Done     bool   `json:"done"`
}

var (
	fMessages = graph.Messages("messages", func(s *richState) *[]msg { return &s.Messages }, func(m *msg) *string { return &m.ID })
	fTodos    = graph.MergeByID("todos", func(s *richState) *[]todo { return &s.Todos }, func(t todo) string { return t.ID })
	fRefs     = graph.DedupeBy("refs", func(s *richState) *[]ref { return &s.Refs }, func(r ref) string { return r.File })
	fAnswer   = graph.LastValue("answer", func(s *richState) *string { return &s.Answer })
	fCalls    = graph.Reduce("calls", func(s *richState) *int { return &s.Calls }, func(a, b int) int { return a + b })
	fDone     = graph.LastValue("done", func(s *richState) *bool { return &s.Done })
)

// applyRich runs updates as the writes of one node through a one-node graph.
func applyRich(t *testing.T, initial graph.Update, upd graph.Update) (richState, error) {
	t.Helper()
	b := graph.New[richState](fMessages, fTodos, fRefs, fAnswer, fCalls, fDone)
	b.AddNode("n", func(_ context.Context, _ richState, _ *graph.Runtime) (graph.Update, error) { return upd, nil })
	b.AddEdge(graph.Start, "n")
	g := mustCompile(t, b)
	res, err := g.Invoke(ctxT(t), graph.Config{}, initial)
	return res.State, err
}

func TestReducers(t *testing.T) {
	hi := msg{ID: "1", Role: "user", Text: "hi"}
	hello := msg{ID: "2", Role: "assistant", Text: "hello"}
	base := graph.Update{fMessages.Add(hi, hello), fTodos.Add(todo{"a", "A"}, todo{"b", "B"}), fRefs.Add(ref{"x.pdf", 1})}
	tests := []struct {
		name    string
		upd     graph.Update
		want    func(*richState)
		wantErr error
	}{
		{"message replaces by id", graph.Update{fMessages.Add(msg{ID: "2", Role: "assistant", Text: "hey"})},
			func(s *richState) { s.Messages[1].Text = "hey" }, nil},
		{"message appends", graph.Update{fMessages.Add(msg{ID: "3", Text: "안녕"})},
			func(s *richState) { s.Messages = append(s.Messages, msg{ID: "3", Text: "안녕"}) }, nil},
		{"remove by id", graph.Update{fMessages.Remove("1")},
			func(s *richState) { s.Messages = []msg{hello} }, nil},
		{"remove unknown id", graph.Update{fMessages.Remove("9")}, nil, graph.ErrUnknownMessage},
		// test_messages_state.py::test_duplicate_remove_message
		{"same id removed twice in one write", graph.Update{fMessages.Remove("2", "2")},
			func(s *richState) { s.Messages = []msg{hi} }, nil},
		{"remove all", graph.Update{fMessages.RemoveAll()},
			func(s *richState) { s.Messages = nil }, nil},
		{"replace messages", graph.Update{fMessages.Replace(msg{ID: "9", Text: "only"})},
			func(s *richState) { s.Messages = []msg{{ID: "9", Text: "only"}} }, nil},
		{"todo merged by id", graph.Update{fTodos.Add(todo{"b", "B2"}, todo{"c", "C"})},
			func(s *richState) { s.Todos = []todo{{"a", "A"}, {"b", "B2"}, {"c", "C"}} }, nil},
		{"todos replaced", graph.Update{fTodos.Replace(todo{"z", "Z"})},
			func(s *richState) { s.Todos = []todo{{"z", "Z"}} }, nil},
		{"refs deduped by file", graph.Update{fRefs.Add(ref{"x.pdf", 5}, ref{"y.md", 2}, ref{"y.md", 3})},
			func(s *richState) { s.Refs = []ref{{"x.pdf", 1}, {"y.md", 2}} }, nil},
		{"counter adds", graph.Update{fCalls.Add(2), fCalls.Add(3)},
			func(s *richState) { s.Calls = 5 }, nil},
		{"last value", graph.Update{fAnswer.Set("42"), fDone.Set(true)},
			func(s *richState) { s.Answer, s.Done = "42", true }, nil},
		{"two writes to a last value", graph.Update{fAnswer.Set("a"), fAnswer.Set("b")}, nil, graph.ErrConcurrentUpdate},
		{"undeclared field", graph.Update{{Field: "nope", Value: 1}}, nil, graph.ErrUnknownField},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := applyRich(t, base, tc.upd)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _ := applyRich(t, base, nil)
			tc.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("state (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMessagesGetIDs(t *testing.T) {
	got, err := applyRich(t, graph.Update{fMessages.Add(msg{Text: "a"}, msg{Text: "b"})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 2 || got.Messages[0].ID == "" || got.Messages[0].ID == got.Messages[1].ID {
		t.Fatalf("messages without ids: %+v", got.Messages)
	}
}

func TestParallelWritesToLastValueFail(t *testing.T) {
	b := graph.New[richState](fAnswer, fCalls)
	b.AddNode("a", func(_ context.Context, _ richState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{fAnswer.Set("a"), fCalls.Add(1)}, nil
	})
	b.AddNode("b", func(_ context.Context, _ richState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{fAnswer.Set("b"), fCalls.Add(1)}, nil
	})
	b.AddEdge(graph.Start, "a").AddEdge(graph.Start, "b")
	_, err := mustCompile(t, b).Invoke(ctxT(t), graph.Config{}, nil)
	if !errors.Is(err, graph.ErrConcurrentUpdate) {
		t.Fatalf("err = %v, want ErrConcurrentUpdate", err)
	}
}

// Port of test_pregel.py::test_remove_message_via_state_update: a chatbot
// answers "Hi", the answer is removed by id with UpdateState, one message is
// left, and deleting the thread leaves no checkpoint and no history.
func TestRemoveMessageViaStateUpdate(t *testing.T) {
	ctx := ctxT(t)
	b := graph.New[richState](fMessages)
	b.AddNode("chatbot", func(_ context.Context, s richState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{fMessages.Add(msg{Role: "ai", Text: "Hello! How can I help you"})}, nil
	})
	b.AddEdge(graph.Start, "chatbot").AddEdge("chatbot", graph.End)
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	out, err := g.Invoke(ctx, cfg, graph.Update{fMessages.Add(msg{Role: "human", Text: "Hi"})})
	if err != nil {
		t.Fatal(err)
	}
	last := out.State.Messages[len(out.State.Messages)-1]
	// LangGraph infers as_node (chatbot, the last writer); asNode "" keeps
	// the pending tasks, of which there are none: the same outcome.
	if _, err := g.UpdateState(ctx, cfg, graph.Update{fMessages.Remove(last.ID)}, ""); err != nil {
		t.Fatal(err)
	}
	snap, _ := g.GetState(ctx, cfg)
	if len(snap.Values.Messages) != 1 || snap.Values.Messages[0].Text != "Hi" {
		t.Fatalf("messages = %+v, want only Hi", snap.Values.Messages)
	}
	// test_messages_state.py::test_remove_nonexistent_message, through the graph.
	if _, err := g.UpdateState(ctx, cfg, graph.Update{fMessages.Remove(last.ID)}, ""); !errors.Is(err, graph.ErrUnknownMessage) {
		t.Fatalf("removing twice: err = %v, want ErrUnknownMessage", err)
	}

	if err := g.DeleteThread(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.GetState(ctx, cfg); !errors.Is(err, graph.ErrNoCheckpoint) {
		t.Fatalf("state after delete: err = %v, want ErrNoCheckpoint", err)
	}
	if hist, err := g.History(ctx, cfg, 0); err != nil || len(hist) != 0 {
		t.Fatalf("history after delete: %d entries, %v", len(hist), err)
	}
}

// Writes must survive the JSON round trip of a checkpoint unchanged.
func TestWriteJSONRoundTrip(t *testing.T) {
	upd := graph.Update{fMessages.Add(msg{ID: "1", Text: "한국어"}), fTodos.Add(todo{"a", "A"}), fAnswer.Set("x"), fCalls.Add(2)}
	b, err := json.Marshal(upd)
	if err != nil {
		t.Fatal(err)
	}
	var back graph.Update
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	direct, err1 := applyRich(t, nil, upd)
	decoded, err2 := applyRich(t, nil, back)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if diff := cmp.Diff(direct, decoded); diff != "" {
		t.Fatalf("round trip (-direct +decoded):\n%s", diff)
	}
}

// A write built by hand with a JSON-shaped value (as a UI or script would
// send) is converted to the field's type rather than refused.
func TestUntypedWritesConvert(t *testing.T) {
	got, err := applyRich(t, graph.Update{
		{Field: "todos", Value: map[string]any{"items": []any{map[string]any{"id": "a", "title": "A"}}}},
		{Field: "calls", Value: float64(3)},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(richState{Todos: []todo{{"a", "A"}}, Calls: 3}, got); diff != "" {
		t.Fatalf("state (-want +got):\n%s", diff)
	}
	if _, err := applyRich(t, graph.Update{{Field: "calls", Value: "three"}}, nil); err == nil {
		t.Fatal("a string for an int field was accepted")
	}
}

func TestIsInterrupt(t *testing.T) {
	b := graph.New[richState](fAnswer)
	var seen []bool
	b.AddNode("n", func(_ context.Context, _ richState, rt *graph.Runtime) (graph.Update, error) {
		_, err := graph.Interrupt[string](rt, "q")
		seen = append(seen, graph.IsInterrupt(err), graph.IsInterrupt(errors.New("other")))
		return nil, fmt.Errorf("wrapped: %w", err)
	})
	b.AddEdge(graph.Start, "n")
	res, err := mustCompile(t, b).Invoke(ctxT(t), graph.Config{}, nil)
	if err != nil || !res.Interrupted() || !cmp.Equal(seen, []bool{true, false}) {
		t.Fatalf("res %+v err %v seen %v", res, err, seen)
	}
}
