package graph_test

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// A three-node graph that stops to ask a person for their name, and goes on
// when the answer arrives.
func Example() {
	type State struct {
		Log  []string `json:"log"`
		Name string   `json:"name"`
	}
	logField := graph.Append("log", func(s *State) *[]string { return &s.Log })
	name := graph.LastValue("name", func(s *State) *string { return &s.Name })

	b := graph.New(logField, name)
	b.AddNode("greet", func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		return graph.Update{logField.Add("hello")}, nil
	})
	b.AddNode("ask", func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		answer, err := graph.Interrupt[string](rt, "what is your name?")
		if err != nil {
			return nil, err // the run pauses here
		}
		return graph.Update{name.Set(answer), logField.Add("asked")}, nil
	})
	b.AddNode("reply", func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		return graph.Update{logField.Add("nice to meet you, " + s.Name)}, nil
	})
	b.AddEdge(graph.Start, "greet").AddEdge("greet", "ask").AddEdge("ask", "reply").AddEdge("reply", graph.End)
	g, err := b.Compile(graph.WithCheckpointer(graph.NewMemorySaver()))
	if err != nil {
		panic(err)
	}

	ctx := context.Background()
	cfg := graph.Config{ThreadID: "demo"}
	res, err := g.Invoke(ctx, cfg, nil)
	if err != nil {
		panic(err)
	}
	var question string
	_ = res.Interrupts[0].Decode(&question)
	fmt.Println("paused at", res.Interrupts[0].Node, "asking:", question)

	res, err = g.Resume(ctx, cfg, graph.Command{Resume: "지수"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.State.Log)
	// Output:
	// paused at ask asking: what is your name?
	// [hello asked nice to meet you, 지수]
}
