package graph_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// The agent of test_pregel.py::test_conditional_state_graph: a scripted
// model answers with an AgentAction (call a tool) or an AgentFinish.
type agentAction struct {
	Tool      string `json:"tool"`
	ToolInput string `json:"tool_input"`
	Log       string `json:"log"`
}

type agentFinish struct {
	ReturnValues map[string]string `json:"return_values"`
	Log          string            `json:"log"`
}

// agentOutcome is Python's AgentAction | AgentFinish | None.
type agentOutcome struct {
	Action *agentAction `json:"action,omitempty"`
	Finish *agentFinish `json:"finish,omitempty"`
}

func (o agentOutcome) String() string {
	switch {
	case o.Action != nil:
		return fmt.Sprintf("action(%s,%s,%s)", o.Action.Tool, o.Action.ToolInput, o.Action.Log)
	case o.Finish != nil:
		return fmt.Sprintf("finish(%s,%s)", o.Finish.ReturnValues["answer"], o.Finish.Log)
	}
	return "none"
}

type agentStep struct {
	Action      agentAction `json:"action"`
	Observation string      `json:"observation"`
}

type agentState struct {
	Input             string       `json:"input"`
	AgentOutcome      agentOutcome `json:"agent_outcome"`
	IntermediateSteps []agentStep  `json:"intermediate_steps"`
}

var (
	agInput   = graph.LastValue("input", func(s *agentState) *string { return &s.Input })
	agOutcome = graph.LastValue("agent_outcome", func(s *agentState) *agentOutcome { return &s.AgentOutcome })
	agSteps   = graph.Append("intermediate_steps", func(s *agentState) *[]agentStep { return &s.IntermediateSteps })
)

// fakeListLLM is FakeStreamingListLLM: it answers from a list, starting
// over after the last answer.
type fakeListLLM struct {
	mu        sync.Mutex
	i         int
	responses []string
}

func (l *fakeListLLM) next() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.responses[l.i]
	l.i = (l.i + 1) % len(l.responses)
	return r
}

func (l *fakeListLLM) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.i = 0
}

func conditionalWorkflow(llm *fakeListLLM) *graph.Builder[agentState] {
	b := graph.New(agInput, agOutcome, agSteps)
	b.AddNode("agent", func(context.Context, agentState, *graph.Runtime) (graph.Update, error) {
		out := llm.next()
		parts := strings.Split(out, ":")
		if parts[0] == "finish" {
			return graph.Update{agOutcome.Set(agentOutcome{Finish: &agentFinish{ReturnValues: map[string]string{"answer": parts[1]}, Log: out}})}, nil
		}
		return graph.Update{agOutcome.Set(agentOutcome{Action: &agentAction{Tool: parts[1], ToolInput: parts[2], Log: out}})}, nil
	})
	b.AddNode("tools", func(_ context.Context, s agentState, _ *graph.Runtime) (graph.Update, error) {
		action := *s.AgentOutcome.Action
		if action.Tool != "search_api" {
			return nil, fmt.Errorf("unknown tool %q", action.Tool)
		}
		return graph.Update{agSteps.Add(agentStep{Action: action, Observation: "result for " + action.ToolInput})}, nil
	})
	b.AddEdge(graph.Start, "agent")
	b.AddConditionalEdges("agent", func(s agentState) string {
		if s.AgentOutcome.Finish != nil {
			return "exit"
		}
		return "continue"
	}, map[string]string{"continue": "tools", "exit": graph.End})
	b.AddEdge("tools", "agent")
	return b
}

// agentUpdates renders node_end events as stream_mode="updates" chunks.
func agentUpdates(r *recorder) []string {
	var out []string
	for _, e := range r.updates() {
		for _, w := range e.Update {
			switch v := w.Value.(type) {
			case agentOutcome:
				out = append(out, e.Node+": "+v.String())
			case graph.ListOp[agentStep]:
				for _, st := range v.Items {
					out = append(out, fmt.Sprintf("%s: step(%s -> %s)", e.Node, st.Action.Log, st.Observation))
				}
			default:
				out = append(out, fmt.Sprintf("%s: %s=%v", e.Node, w.Field, w.Value))
			}
		}
	}
	return out
}

// Port of test_pregel.py::test_conditional_state_graph: the agent/tools
// loop run plainly, then with interrupt_after agent and with
// interrupt_before tools, editing the agent's outcome at each stop.
// Differences: "input" is a normal field here (the original's is
// UntrackedValue, so its snapshots lack it); UpdateState names the node
// ("agent") that LangGraph infers; the original's last part,
// interrupt_before="*", has no counterpart (breakpoints are named).
func TestConditionalStateGraph(t *testing.T) {
	ctx := ctxT(t)
	llm := &fakeListLLM{responses: []string{"tool:search_api:query", "tool:search_api:another", "finish:answer"}}
	query := agentAction{Tool: "search_api", ToolInput: "query", Log: "tool:search_api:query"}
	another := agentAction{Tool: "search_api", ToolInput: "another", Log: "tool:search_api:another"}
	question := graph.Update{agInput.Set("what is weather in sf")}

	app := mustCompile(t, conditionalWorkflow(llm))
	res, err := app.Invoke(ctx, graph.Config{}, question)
	if err != nil {
		t.Fatal(err)
	}
	want := agentState{
		Input:             "what is weather in sf",
		IntermediateSteps: []agentStep{{query, "result for query"}, {another, "result for another"}},
		AgentOutcome:      agentOutcome{Finish: &agentFinish{ReturnValues: map[string]string{"answer": "answer"}, Log: "finish:answer"}},
	}
	if diff := cmp.Diff(want, res.State); diff != "" {
		t.Fatalf("invoke (-want +got):\n%s", diff)
	}
	rec := &recorder{}
	if _, err := app.Invoke(ctx, graph.Config{Events: rec}, question); err != nil {
		t.Fatal(err)
	}
	wantUpdates := []string{
		"agent: action(search_api,query,tool:search_api:query)",
		"tools: step(tool:search_api:query -> result for query)",
		"agent: action(search_api,another,tool:search_api:another)",
		"tools: step(tool:search_api:another -> result for another)",
		"agent: finish(answer,finish:answer)",
	}
	if diff := cmp.Diff(wantUpdates, agentUpdates(rec)); diff != "" {
		t.Fatalf("stream (-want +got):\n%s", diff)
	}

	edited := agentOutcome{Action: &agentAction{Tool: "search_api", ToolInput: "query", Log: "tool:search_api:a different query"}}
	nice := agentOutcome{Finish: &agentFinish{ReturnValues: map[string]string{"answer": "a really nice answer"}, Log: "finish:a really nice answer"}}
	for _, tc := range []struct {
		name, thread string
		opt          graph.Option
		when         graph.When
	}{
		{"interrupt_after agent", "1", graph.WithInterruptAfter("agent"), graph.After},
		{"interrupt_before tools", "2", graph.WithInterruptBefore("tools"), graph.Before},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm.reset()
			g := mustCompile(t, conditionalWorkflow(llm), graph.WithCheckpointer(graph.NewMemorySaver()), tc.opt)
			cfg := graph.Config{ThreadID: tc.thread}
			run := func(resume bool) []string {
				t.Helper()
				rec := &recorder{}
				c := graph.Config{ThreadID: tc.thread, Events: rec}
				var res graph.Result[agentState]
				var err error
				if resume {
					res, err = g.Resume(ctx, c, graph.Command{})
				} else {
					res, err = g.Invoke(ctx, c, question)
				}
				if err != nil || len(res.Interrupts) != 1 || res.Interrupts[0].When != tc.when {
					t.Fatalf("want a stop %s: %+v %v", tc.when, res, err)
				}
				return agentUpdates(rec)
			}
			checkState := func(values agentState, next string, meta graph.Metadata, parent string) {
				t.Helper()
				snap, err := g.GetState(ctx, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(values, snap.Values); diff != "" {
					t.Fatalf("values (-want +got):\n%s", diff)
				}
				if strings.Join(snap.Next, ",") != next || snap.Metadata != meta || (parent != "" && snap.ParentID != parent) {
					t.Fatalf("snapshot: next %v, metadata %+v, parent %s; want %q %+v %s", snap.Next, snap.Metadata, snap.ParentID, next, meta, parent)
				}
			}
			latest := func() string {
				t.Helper()
				snap, err := g.GetState(ctx, cfg)
				if err != nil {
					t.Fatal(err)
				}
				return snap.CheckpointID
			}

			if diff := cmp.Diff(wantUpdates[:1], run(false)); diff != "" {
				t.Fatalf("first run (-want +got):\n%s", diff)
			}
			checkState(agentState{Input: "what is weather in sf", AgentOutcome: agentOutcome{Action: &query}},
				"tools", graph.Metadata{Source: graph.SourceLoop, Step: 1}, "")

			parent := latest()
			if _, err := g.UpdateState(ctx, cfg, graph.Update{agOutcome.Set(edited)}, "agent"); err != nil {
				t.Fatal(err)
			}
			checkState(agentState{Input: "what is weather in sf", AgentOutcome: edited},
				"tools", graph.Metadata{Source: graph.SourceUpdate, Step: 2}, parent)

			wantResume := []string{
				"tools: step(tool:search_api:a different query -> result for query)",
				"agent: action(search_api,another,tool:search_api:another)",
			}
			if diff := cmp.Diff(wantResume, run(true)); diff != "" {
				t.Fatalf("resume (-want +got):\n%s", diff)
			}

			parent = latest()
			if _, err := g.UpdateState(ctx, cfg, graph.Update{agOutcome.Set(nice)}, "agent"); err != nil {
				t.Fatal(err)
			}
			checkState(agentState{Input: "what is weather in sf", AgentOutcome: nice,
				IntermediateSteps: []agentStep{{*edited.Action, "result for query"}}},
				"", graph.Metadata{Source: graph.SourceUpdate, Step: 5}, parent)
		})
	}
}
