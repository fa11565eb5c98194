package workflow_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/workflow"
)

// A definition from JSON, a registry with one node type, and a run.
func Example() {
	type State struct {
		Trail []string `json:"trail"`
	}
	trail := graph.Append("trail", func(s *State) *[]string { return &s.Trail })

	reg := workflow.NewRegistry[State]()
	_ = reg.Register("say", workflow.NodeType[State]{
		Build: func(config json.RawMessage) (graph.NodeFunc[State], error) {
			var cfg struct{ Text string }
			if err := json.Unmarshal(config, &cfg); err != nil {
				return nil, err
			}
			return func(context.Context, State, *graph.Runtime) (graph.Update, error) {
				return graph.Update{trail.Add(cfg.Text)}, nil
			}, nil
		},
	})

	def, err := workflow.Parse([]byte(`{
	  "nodes": [
	    {"id": "start", "type": "start"},
	    {"id": "hello", "type": "say", "config": {"text": "안녕하세요"}},
	    {"id": "bye", "type": "say", "config": {"text": "goodbye"}},
	    {"id": "end", "type": "end"}
	  ],
	  "edges": [
	    {"source": "start", "target": "hello"},
	    {"source": "hello", "target": "bye"},
	    {"source": "bye", "target": "end"}
	  ]
	}`))
	if err != nil {
		panic(err)
	}
	g, err := workflow.Compile(def, reg, []graph.Field[State]{trail})
	if err != nil {
		panic(err)
	}
	res, err := g.Invoke(context.Background(), graph.Config{}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.State.Trail)
	// Output: [안녕하세요 goodbye]
}
