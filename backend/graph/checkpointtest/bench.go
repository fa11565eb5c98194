package checkpointtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// Benchmarks shared by the in-memory and SQLite savers, so their numbers
// measure the same work.

// BenchMsg is a chat message of the benchmark's ReAct state.
type BenchMsg struct {
	ID       string `json:"id"`
	Role     string `json:"role"`
	Content  string `json:"content"`
	ToolCall string `json:"tool_call,omitempty"`
}

// BenchState is shaped like an agent's: a conversation and a few counters.
type BenchState struct {
	Messages []BenchMsg `json:"messages"`
	Calls    int        `json:"calls"`
	Steps    int        `json:"steps"`
}

var (
	benchMessages = graph.Messages("messages", func(s *BenchState) *[]BenchMsg { return &s.Messages }, func(m *BenchMsg) *string { return &m.ID })
	benchCalls    = graph.Reduce("calls", func(s *BenchState) *int { return &s.Calls }, func(a, b int) int { return a + b })
	benchSteps    = graph.Reduce("steps", func(s *BenchState) *int { return &s.Steps }, func(a, b int) int { return a + b })
)

// BenchStep measures the engine's cost per step: a node that does nothing
// but count, looping steps times per run.
func BenchStep(b *testing.B, cp graph.Checkpointer, steps int) {
	gb := graph.New(benchMessages, benchCalls, benchSteps)
	gb.AddNode("tick", func(_ context.Context, _ BenchState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{benchSteps.Add(1)}, nil
	})
	gb.AddEdge(graph.Start, "tick")
	gb.AddConditionalEdges("tick", func(s BenchState) string {
		if s.Steps < steps {
			return "again"
		}
		return "stop"
	}, map[string]string{"again": "tick", "stop": graph.End})
	run(b, gb, cp, steps, nil)
}

// BenchReAct measures a 20-step ReAct loop (agent and tools alternating, ten
// times each) whose conversation grows every step, as an agent's does.
func BenchReAct(b *testing.B, cp graph.Checkpointer) {
	const rounds = 10
	gb := graph.New(benchMessages, benchCalls, benchSteps)
	gb.AddNode("agent", func(_ context.Context, s BenchState, rt *graph.Runtime) (graph.Update, error) {
		rt.Token("thinking")
		m := BenchMsg{Role: "assistant", Content: "검색이 필요합니다 — I need to look this up."}
		if s.Calls < rounds {
			m.ToolCall = fmt.Sprintf(`{"name":"retrieve_docs","arguments":{"query":"step %d"}}`, s.Calls)
		}
		return graph.Update{benchMessages.Add(m), benchCalls.Add(1)}, nil
	})
	gb.AddNode("tools", func(_ context.Context, s BenchState, _ *graph.Runtime) (graph.Update, error) {
		return graph.Update{benchMessages.Add(BenchMsg{Role: "tool", Content: "CapCut: free video editor with auto captions, 한국어 지원."})}, nil
	})
	gb.AddEdge(graph.Start, "agent")
	gb.AddConditionalEdges("agent", func(s BenchState) string {
		if s.Messages[len(s.Messages)-1].ToolCall != "" {
			return "tools"
		}
		return "end"
	}, map[string]string{"tools": "tools", "end": graph.End})
	gb.AddEdge("tools", "agent")
	input := graph.Update{benchMessages.Add(BenchMsg{Role: "user", Content: "유튜브 쇼츠 만드는 도구 추천해줘"})}
	run(b, gb, cp, 2*rounds+1, input)
}

func run(b *testing.B, gb *graph.Builder[BenchState], cp graph.Checkpointer, steps int, input graph.Update) {
	var opts []graph.Option
	if cp != nil {
		opts = append(opts, graph.WithCheckpointer(cp))
	}
	g, err := gb.Compile(opts...)
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	sink := graph.EventSinkFunc(func(graph.Event) {})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		cfg := graph.Config{ThreadID: fmt.Sprintf("bench-%d", i), StepLimit: steps + 1, Events: sink}
		res, err := g.Invoke(ctx, cfg, input)
		if err != nil || res.Interrupted() {
			b.Fatalf("run: %v", err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
}
