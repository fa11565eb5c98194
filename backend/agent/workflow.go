package agent

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/workflow"
)

// DefaultWorkflow is Wayfinder's agent graph as a workflow definition
// (DESIGN.md "The agent graph"). It is data rather than code so that the UI
// can draw it and a person can swap in their own file built from the same
// node types.
//
//go:embed workflow.json
var defaultWorkflow []byte

// DefaultWorkflow returns a copy of the embedded definition.
func DefaultWorkflow() []byte { return bytes.Clone(defaultWorkflow) }

// Node types of the registry, as named in workflow files.
const (
	TypeLoadContext = "load_context"
	TypeRouter      = "router"
	TypeRetrieve    = "retrieve"
	TypeAnswer      = "answer"
	TypeTools       = "tools"
	TypePlanner     = "planner"
	TypeApprovePlan = "approve_plan"
	TypeRecommend   = "recommend"
	TypeEvaluate    = "evaluate"
	TypeSteps       = "recommend_steps"
	TypeGuide       = "guide"
	TypeFinish      = "finish"
)

// registry lists the agent's node types, bound to a.
func (a *Agent) registry() (*workflow.Registry[State], error) {
	fixed := func(fn graph.NodeFunc[State]) func(json.RawMessage) (graph.NodeFunc[State], error) {
		return func(json.RawMessage) (graph.NodeFunc[State], error) { return fn, nil }
	}
	configured := func(mk func(loopConfig) graph.NodeFunc[State]) func(json.RawMessage) (graph.NodeFunc[State], error) {
		return func(raw json.RawMessage) (graph.NodeFunc[State], error) {
			cfg, err := parseConfig(raw)
			if err != nil {
				return nil, err
			}
			return mk(cfg), nil
		}
	}
	router := func(r graph.Router[State]) func(json.RawMessage) (graph.Router[State], error) {
		return func(json.RawMessage) (graph.Router[State], error) { return r, nil }
	}
	types := map[string]workflow.NodeType[State]{
		TypeLoadContext: {Build: fixed(a.loadContext)},
		TypeRouter: {Build: fixed(a.router), Ports: []string{RouteSimple, RouteComplex, RouteEnd},
			Route: router(routeRouter)},
		TypeRetrieve: {Build: fixed(a.retrieve)},
		TypeAnswer: {Build: configured(a.answer), Ports: []string{"tools", "done"},
			Route: router(routeLoop("done"))},
		TypeTools: {Build: func(raw json.RawMessage) (graph.NodeFunc[State], error) {
			cfg, err := parseConfig(raw)
			if err != nil {
				return nil, err
			}
			if cfg.Toolset != "answer" && cfg.Toolset != "recommend" {
				return nil, fmt.Errorf("toolset must be \"answer\" or \"recommend\", got %q", cfg.Toolset)
			}
			return a.runTools(cfg), nil
		}},
		TypePlanner:     {Build: fixed(a.planner)},
		TypeApprovePlan: {Build: fixed(a.approvePlan), Ports: []string{"approve", "revise", "cancel"}, Route: router(routeApproval)},
		TypeRecommend: {Build: configured(a.recommend), Ports: []string{"tools", "evaluate"},
			Route: router(routeRecommend)},
		TypeEvaluate: {Build: configured(a.evaluate), Ports: []string{"continue", "done"}, Route: router(routeEvaluate)},
		TypeSteps: {Build: func(raw json.RawMessage) (graph.NodeFunc[State], error) {
			cfg, err := parseConfig(raw)
			if err != nil {
				return nil, err
			}
			return a.recommendSteps(cfg)
		}},
		TypeGuide:  {Build: fixed(a.guide)},
		TypeFinish: {Build: fixed(a.finish)},
	}
	reg := workflow.NewRegistry[State]()
	for name, t := range types {
		if err := reg.Register(name, t); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// parseConfig reads a node's config; unknown keys are an error so that a
// typo in a workflow file is not silently ignored.
func parseConfig(raw json.RawMessage) (loopConfig, error) {
	var cfg loopConfig
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return cfg, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("read config: %w", err)
	}
	if cfg.MaxIterations < 0 || cfg.MaxIterations > 50 || cfg.MaxRounds < 0 || cfg.MaxRounds > 50 {
		return cfg, fmt.Errorf("limits must be between 0 (default) and 50")
	}
	return cfg, nil
}

// compile builds the graph of a workflow definition.
func (a *Agent) compile(def []byte, cp graph.Checkpointer) (*graph.Graph[State], error) {
	d, err := workflow.Parse(def)
	if err != nil {
		return nil, err
	}
	reg, err := a.registry()
	if err != nil {
		return nil, err
	}
	g, err := workflow.Compile(d, reg, a.f.all(), graph.WithCheckpointer(cp))
	if err != nil {
		return nil, fmt.Errorf("compile workflow %q: %w", d.Name, err)
	}
	a.approvers = map[string]bool{}
	for _, n := range d.Nodes {
		if n.Type == TypeApprovePlan {
			a.approvers[n.ID] = true
		}
	}
	return g, nil
}

// CheckWorkflow reports what New would find wrong with a workflow
// definition, without anything to run it on: `wayfinder doctor` beside an
// open app, which owns the data folder.
func CheckWorkflow(def []byte) error {
	a := &Agent{f: newFields()}
	_, err := a.compile(def, graph.NewMemorySaver())
	return err
}
