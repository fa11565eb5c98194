package graph_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

type chatMsg struct {
	ID       string `json:"id"`
	Role     string `json:"role"`
	Content  string `json:"content"`
	ToolCall string `json:"tool_call,omitempty"` // query for the search tool
}

type reactState struct {
	Messages []chatMsg `json:"messages"`
}

var reactMessages = graph.Messages("messages", func(s *reactState) *[]chatMsg { return &s.Messages }, func(m *chatMsg) *string { return &m.ID })

// reactGraph is LangGraph's agent <-> tools loop with a scripted model:
// it calls the search tool until it has seen two results, then answers.
func reactGraph(t testing.TB, searched *[]string, opts ...graph.Option) *graph.Graph[reactState] {
	var modelCalls atomic.Int32
	b := graph.New(reactMessages)
	b.AddNode("agent", func(_ context.Context, s reactState, _ *graph.Runtime) (graph.Update, error) {
		n := modelCalls.Add(1)
		results := 0
		for _, m := range s.Messages {
			if m.Role == "tool" {
				results++
			}
		}
		if results >= 2 {
			return graph.Update{reactMessages.Add(chatMsg{ID: "ai-final", Role: "ai", Content: "answer"})}, nil
		}
		q := "query " + string(rune('0'+n))
		return graph.Update{reactMessages.Add(chatMsg{ID: "ai-" + q, Role: "ai", ToolCall: q})}, nil
	})
	b.AddNode("tools", func(_ context.Context, s reactState, _ *graph.Runtime) (graph.Update, error) {
		last := s.Messages[len(s.Messages)-1]
		if searched != nil {
			*searched = append(*searched, last.ToolCall)
		}
		return graph.Update{reactMessages.Add(chatMsg{Role: "tool", Content: "result for " + last.ToolCall})}, nil
	})
	b.AddEdge(graph.Start, "agent")
	b.AddConditionalEdges("agent", func(s reactState) string {
		if s.Messages[len(s.Messages)-1].ToolCall != "" {
			return "continue"
		}
		return "exit"
	}, map[string]string{"continue": "tools", "exit": graph.End})
	b.AddEdge("tools", "agent")
	return mustCompile(t, b, opts...)
}

// The agent's own shape (a messages-based ReAct loop, no LangGraph
// original): a person edits the tool call at a breakpoint before tools.
// TestConditionalStateGraph is the port of LangGraph's test.
func TestReActEditToolCallAtBreakpoint(t *testing.T) {
	ctx := ctxT(t)

	// Without breakpoints the loop runs to the answer.
	res, err := reactGraph(t, nil).Invoke(ctx, graph.Config{}, graph.Update{reactMessages.Add(chatMsg{ID: "h", Role: "human", Content: "what is weather in sf"})})
	if err != nil || len(res.State.Messages) != 6 || res.State.Messages[5].Content != "answer" {
		t.Fatalf("plain run: %+v %v", res.State.Messages, err)
	}

	// With a breakpoint before tools, and the tool call edited by a person.
	var searched []string
	g := reactGraph(t, &searched, graph.WithCheckpointer(graph.NewMemorySaver()), graph.WithInterruptBefore("tools"))
	cfg := graph.Config{ThreadID: "1"}
	res, err = g.Invoke(ctx, cfg, graph.Update{reactMessages.Add(chatMsg{ID: "h", Role: "human", Content: "what is weather in sf"})})
	if err != nil || !res.Interrupted() || res.Interrupts[0].Node != "tools" || res.Interrupts[0].When != graph.Before {
		t.Fatalf("first stop: %+v %v", res, err)
	}
	snap, _ := g.GetState(ctx, cfg)
	if !cmp.Equal(snap.Next, []string{"tools"}) || len(snap.Interrupts) != 1 {
		t.Fatalf("snapshot: %+v", snap)
	}
	last := snap.Values.Messages[len(snap.Values.Messages)-1]
	last.ToolCall = "a different query"
	if _, err := g.UpdateState(ctx, cfg, graph.Update{reactMessages.Add(last)}, "agent"); err != nil {
		t.Fatal(err)
	}
	snap, _ = g.GetState(ctx, cfg)
	if len(snap.Values.Messages) != 2 || snap.Values.Messages[1].ToolCall != "a different query" || !cmp.Equal(snap.Next, []string{"tools"}) {
		t.Fatalf("after edit: %+v", snap)
	}
	// Resume runs the edited call, then stops before the second tool call.
	res, err = g.Resume(ctx, cfg, graph.Command{})
	if err != nil || !res.Interrupted() {
		t.Fatalf("second stop: %+v %v", res, err)
	}
	res, err = g.Resume(ctx, cfg, graph.Command{})
	if err != nil || res.Interrupted() {
		t.Fatalf("final: %+v %v", res, err)
	}
	if diff := cmp.Diff([]string{"a different query", "query 2"}, searched); diff != "" {
		t.Fatalf("searched (-want +got):\n%s", diff)
	}
	var roles []string
	for _, m := range res.State.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "human,ai,tool,ai,tool,ai" {
		t.Fatalf("roles = %s", got)
	}
}

type subTask struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type rec struct {
	SubtaskID string `json:"subtask_id"`
	Tool      string `json:"tool"`
}

type planState struct {
	Plan  []subTask `json:"plan"`
	Recs  []rec     `json:"recs"`
	Guide string    `json:"guide"`
}

// Map-reduce as the agent's recommend step uses it: one Send per approved
// sub-task, run in parallel, merged by id, and a single join afterwards.
func TestSendMapReduce(t *testing.T) {
	plan := graph.MergeByID("plan", func(s *planState) *[]subTask { return &s.Plan }, func(x subTask) string { return x.ID })
	recs := graph.MergeByID("recs", func(s *planState) *[]rec { return &s.Recs }, func(x rec) string { return x.SubtaskID })
	guide := graph.LastValue("guide", func(s *planState) *string { return &s.Guide })
	var guideRuns atomic.Int32
	b := graph.New(plan, recs, guide)
	b.AddNode("dispatch", func(_ context.Context, s planState, _ *graph.Runtime) (graph.Update, error) {
		var u graph.Update
		for _, st := range s.Plan {
			u = append(u, graph.Send("recommend", st))
		}
		return u, nil
	}, "recommend")
	b.AddNode("recommend", func(_ context.Context, _ planState, rt *graph.Runtime) (graph.Update, error) {
		st, err := graph.ArgAs[subTask](rt)
		if err != nil {
			return nil, err
		}
		return graph.Update{recs.Add(rec{SubtaskID: st.ID, Tool: "tool for " + st.Title})}, nil
	})
	b.AddNode("guide", func(_ context.Context, s planState, _ *graph.Runtime) (graph.Update, error) {
		guideRuns.Add(1)
		var lines []string
		for _, r := range s.Recs {
			lines = append(lines, r.SubtaskID+": "+r.Tool)
		}
		return graph.Update{guide.Set(strings.Join(lines, "\n"))}, nil
	})
	b.AddEdge(graph.Start, "dispatch").AddEdge("recommend", "guide")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	res, err := g.Invoke(ctxT(t), graph.Config{ThreadID: "1"}, graph.Update{plan.Add(
		subTask{"1", "대본 작성"}, subTask{"2", "영상 생성"}, subTask{"3", "자막"})})
	if err != nil {
		t.Fatal(err)
	}
	want := "1: tool for 대본 작성\n2: tool for 영상 생성\n3: tool for 자막"
	if res.State.Guide != want || guideRuns.Load() != 1 {
		t.Fatalf("guide %q after %d runs", res.State.Guide, guideRuns.Load())
	}
}

// A Command's update is saved before the resumed step runs: a resume that
// fails still has it applied on the next try, exactly once.
func TestCommandUpdateSurvivesFailedResume(t *testing.T) {
	ctx := ctxT(t)
	var fail atomic.Bool
	fail.Store(true)
	b := graph.New(fooAdd)
	b.AddNode("ask", func(_ context.Context, s strState, rt *graph.Runtime) (graph.Update, error) {
		a, err := graph.Interrupt[string](rt, "?")
		if err != nil {
			return nil, err
		}
		if fail.Load() {
			return nil, errors.New("flaky")
		}
		return graph.Update{fooAdd.Add("|" + a)}, nil
	})
	b.AddEdge(graph.Start, "ask")
	g := mustCompile(t, b, graph.WithCheckpointer(graph.NewMemorySaver()))
	cfg := graph.Config{ThreadID: "1"}
	g.Invoke(ctx, cfg, graph.Update{fooAdd.Add("x")})
	if _, err := g.Resume(ctx, cfg, graph.Command{Resume: "yes", Update: graph.Update{fooAdd.Add("|edit")}}); err == nil {
		t.Fatal("want flaky failure")
	}
	snap, _ := g.GetState(ctx, cfg)
	if snap.Values.Foo != "x|edit" {
		t.Fatalf("pending update not visible: %q", snap.Values.Foo)
	}
	fail.Store(false)
	res, err := g.Resume(ctx, cfg, graph.Command{})
	if err != nil || res.State.Foo != "x|edit|yes" {
		t.Fatalf("retry: %+v %v", res, err)
	}
}
