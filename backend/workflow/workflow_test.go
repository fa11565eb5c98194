package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/workflow"
)

type state struct {
	Input      string   `json:"input"`
	Difficulty string   `json:"difficulty"`
	Trail      []string `json:"trail"`
}

var (
	input      = graph.LastValue("input", func(s *state) *string { return &s.Input })
	difficulty = graph.LastValue("difficulty", func(s *state) *string { return &s.Difficulty })
	trail      = graph.Append("trail", func(s *state) *[]string { return &s.Trail })
	fields     = []graph.Field[state]{input, difficulty, trail}
)

// registry holds the node types the tests use: "say" appends its configured
// text; "classify" routes by input length; "fork" has ports but no router.
func registry(t testing.TB) *workflow.Registry[state] {
	reg := workflow.NewRegistry[state]()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(reg.Register("say", workflow.NodeType[state]{
		Build: func(raw json.RawMessage) (graph.NodeFunc[state], error) {
			var cfg struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(raw, &cfg); err != nil || cfg.Text == "" {
				return nil, errors.New(`want {"text": "..."}`)
			}
			return func(_ context.Context, _ state, _ *graph.Runtime) (graph.Update, error) {
				return graph.Update{trail.Add(cfg.Text)}, nil
			}, nil
		},
	}))
	var hardOver struct {
		HardOver int `json:"hard_over"`
	}
	must(reg.Register("classify", workflow.NodeType[state]{
		Build: func(raw json.RawMessage) (graph.NodeFunc[state], error) {
			cfg := hardOver
			if err := json.Unmarshal(raw, &cfg); err != nil {
				return nil, err
			}
			return func(_ context.Context, s state, _ *graph.Runtime) (graph.Update, error) {
				d := "easy"
				switch n := len([]rune(s.Input)); {
				case n == 0:
					d = "empty"
				case n > cfg.HardOver:
					d = "hard"
				}
				return graph.Update{difficulty.Set(d)}, nil
			}, nil
		},
		Ports: []string{"easy", "hard", "empty"},
		Route: func(json.RawMessage) (graph.Router[state], error) {
			return func(s state) string { return s.Difficulty }, nil
		},
	}))
	must(reg.Register("fork", workflow.NodeType[state]{
		Build: func(json.RawMessage) (graph.NodeFunc[state], error) {
			return func(context.Context, state, *graph.Runtime) (graph.Update, error) { return nil, nil }, nil
		},
		Ports: []string{"left", "right"},
	}))
	return reg
}

func loadTriage(t *testing.T) workflow.Definition {
	data, err := os.ReadFile("testdata/triage.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := workflow.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCompileRunsRoutes(t *testing.T) {
	g, err := workflow.Compile(loadTriage(t), registry(t), fields)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		input string
		want  []string
	}{
		{"안녕", []string{"memory", "쉬운 답"}},
		{"make a youtube shorts video", []string{"memory", "plan", "review"}},
		{"", []string{"memory"}},
	}
	for _, tc := range tests {
		res, err := g.Invoke(t.Context(), graph.Config{}, graph.Update{input.Set(tc.input)})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, res.State.Trail); diff != "" {
			t.Errorf("input %q: trail (-want +got):\n%s", tc.input, diff)
		}
	}
}

func TestFallbackRouterFollowsFirstEdge(t *testing.T) {
	d := def(`[{"id":"s","type":"start"},{"id":"a","type":"say","config":{"text":"a"}},
		{"id":"b","type":"say","config":{"text":"b"}},{"id":"c","type":"say","config":{"text":"c"}},
		{"id":"f","type":"fork"},{"id":"e","type":"end"}]`,
		`[{"source":"s","target":"a"},{"source":"a","target":"f"},{"source":"a","target":"c"},
		{"source":"f","target":"b","source_port":"left"},{"source":"f","target":"c","source_port":"right"},
		{"source":"b","target":"e"},{"source":"c","target":"e"}]`)
	g, err := workflow.Compile(d, registry(t), fields)
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Invoke(t.Context(), graph.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// a has two plain edges (f first), f has ports but no router (left first).
	if diff := cmp.Diff([]string{"a", "b"}, res.State.Trail); diff != "" {
		t.Fatalf("trail (-want +got):\n%s", diff)
	}
}

func TestBreakpointsByNodeID(t *testing.T) {
	g, err := workflow.Compile(loadTriage(t), registry(t), fields,
		graph.WithCheckpointer(graph.NewMemorySaver()), graph.WithInterruptBefore("plan01"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := graph.Config{ThreadID: "1"}
	res, err := g.Invoke(t.Context(), cfg, graph.Update{input.Set("a long and complex request")})
	if err != nil || !res.Interrupted() || res.Interrupts[0].Node != "plan01" {
		t.Fatalf("invoke: %+v %v", res, err)
	}
	if res, err = g.Resume(t.Context(), cfg, graph.Command{}); err != nil || len(res.State.Trail) != 3 {
		t.Fatalf("resume: %+v %v", res, err)
	}
}

func def(nodes, edges string) workflow.Definition {
	d, err := workflow.Parse([]byte(`{"nodes":` + nodes + `,"edges":` + edges + `}`))
	if err != nil {
		panic(err)
	}
	return d
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name         string
		nodes, edges string
		want         []string
	}{
		{"valid", `[{"id":"s","type":"start"},{"id":"a","type":"say"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"a"},{"source":"a","target":"e"}]`, nil},
		{"no start, no end", `[{"id":"a","type":"say"}]`, `[]`, []string{
			`no start node (want exactly one node of type "start")`,
			`no end node (want at least one node of type "end")`,
			`node "a": isolated (no edges)`}},
		{"two starts", `[{"id":"s1","type":"start"},{"id":"s2","type":"start"},{"id":"e","type":"end"}]`,
			`[{"source":"s1","target":"e"},{"source":"s2","target":"e"}]`, []string{
				`2 start nodes ["s1" "s2"] (want exactly one)`}},
		{"start without edge", `[{"id":"s","type":"start"},{"id":"e","type":"end"}]`, `[]`, []string{
			`start node "s": 0 outgoing edges (want exactly one)`}},
		{"unknown references", `[{"id":"s","type":"start"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"e"},{"source":"ghost","target":"e"},{"source":"s","target":"nowhere"}]`, []string{
				`edge 1 ("ghost" -> "e"): unknown source "ghost"`,
				`edge 2 ("s" -> "nowhere"): unknown target "nowhere"`}},
		{"unknown type and empty id", `[{"id":"s","type":"start"},{"id":"x","type":"teleport"},{"id":"","type":"say"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"x"},{"source":"x","target":"e"}]`, []string{
				`node "x": unknown node type "teleport" (known: classify, fork, say)`,
				`node 2: empty id`}},
		{"duplicate id", `[{"id":"s","type":"start"},{"id":"s","type":"end"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"e"}]`, []string{`node "s": id used twice`}},
		{"edges into start and out of end", `[{"id":"s","type":"start"},{"id":"a","type":"say"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"a"},{"source":"a","target":"e"},{"source":"e","target":"a"},{"source":"a","target":"s"}]`, []string{
				`edge 2 ("e" -> "a"): an end node has no outgoing edges`,
				`edge 3 ("a" -> "s"): a start node has no incoming edges`}},
		{"dead end and no way in", `[{"id":"s","type":"start"},{"id":"a","type":"say"},{"id":"b","type":"say"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"a"},{"source":"b","target":"e"}]`, []string{
				`node "a": no outgoing edge (connect it to an end node)`,
				`node "b": no incoming edge`}},
		{"ports", `[{"id":"s","type":"start"},{"id":"c","type":"classify"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"c"},{"source":"c","target":"e","source_port":"easy"},{"source":"c","target":"e"},
			  {"source":"c","target":"s2","source_port":"hard"},{"source":"c","target":"e","source_port":"weird"}]`, []string{
				`edge 3 ("c" -> "s2"): unknown target "s2"`,
				`node "c": edge to "e" has no source_port (ports: easy, hard, empty)`,
				`node "c": unknown port "weird" (ports: easy, hard, empty)`,
				`node "c": port "hard" is not wired`,
				`node "c": port "empty" is not wired`}},
		{"duplicate edge", `[{"id":"s","type":"start"},{"id":"e","type":"end"}]`,
			`[{"source":"s","target":"e"},{"source":"s","target":"e"}]`, []string{
				`edge 1 ("s" -> "e"): duplicate edge`}},
	}
	reg := registry(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := workflow.Validate(def(tc.nodes, tc.edges), reg)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected: %v", err)
				}
				return
			}
			var verr *workflow.ValidationError
			if !errors.As(err, &verr) || !errors.Is(err, workflow.ErrInvalid) {
				t.Fatalf("err = %v, want a ValidationError", err)
			}
			if diff := cmp.Diff(tc.want, verr.Problems); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompileReportsBuildAndGraphProblems(t *testing.T) {
	// a's config is invalid; b and c loop on each other, unreachable from start.
	d := def(`[{"id":"s","type":"start"},{"id":"a","type":"say","config":{"txt":"x"}},
		{"id":"b","type":"say","config":{"text":"b"}},{"id":"c","type":"say","config":{"text":"c"}},{"id":"e","type":"end"}]`,
		`[{"source":"s","target":"a"},{"source":"a","target":"e"},{"source":"b","target":"c"},{"source":"c","target":"b"}]`)
	_, err := workflow.Compile(d, registry(t), fields)
	if err == nil || !strings.Contains(err.Error(), `node "a" (say): config: want {"text": "..."}`) {
		t.Fatalf("err = %v", err)
	}
	d.Nodes[1].Config = json.RawMessage(`{"text":"a"}`)
	_, err = workflow.Compile(d, registry(t), fields)
	var verr *workflow.ValidationError
	if !errors.As(err, &verr) || !cmp.Equal(verr.Problems, []string{
		`node "b" is unreachable from START`, `node "c" is unreachable from START`}) {
		t.Fatalf("err = %#v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"nodes": 3}`, `{"nodes":[]} {"nodes":[]}`, `[]`} {
		if _, err := workflow.Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
	if _, err := workflow.Parse(make([]byte, 2<<20)); err == nil {
		t.Error("Parse accepted 2 MiB")
	}
}

func TestRegister(t *testing.T) {
	reg := registry(t)
	build := func(json.RawMessage) (graph.NodeFunc[state], error) { return nil, nil }
	for _, name := range []string{"", "start", "end", "say"} {
		if err := reg.Register(name, workflow.NodeType[state]{Build: build}); err == nil {
			t.Errorf("Register(%q) succeeded", name)
		}
	}
	if err := reg.Register("nobuild", workflow.NodeType[state]{}); err == nil {
		t.Error("Register without Build succeeded")
	}
}

// FuzzLoad: no input, however broken, may panic the loader, the validator
// or the compiler.
func FuzzLoad(f *testing.F) {
	if data, err := os.ReadFile("testdata/triage.json"); err == nil {
		f.Add(data)
	}
	reg := registry(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := workflow.Parse(data)
		if err != nil {
			return
		}
		if err := workflow.Validate(d, reg); err != nil {
			if !errors.Is(err, workflow.ErrInvalid) {
				t.Fatalf("validate returned a non-validation error: %v", err)
			}
			return
		}
		g, err := workflow.Compile(d, reg, fields)
		if err != nil {
			return
		}
		_, _ = g.Invoke(t.Context(), graph.Config{StepLimit: 10}, graph.Update{input.Set("fuzz")})
	})
}
