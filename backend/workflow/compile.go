package workflow

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// NodeType is what a registry knows about one kind of node. Dependencies
// (model client, tools, stores) are captured by Build's closure when the
// type is registered; config is what differs per instance in the file.
type NodeType[S any] struct {
	// Build makes the node for one instance from its config.
	Build func(config json.RawMessage) (graph.NodeFunc[S], error)
	// Ports lists the named outputs of a routing node; each must be wired.
	Ports []string
	// Route makes the router choosing among Ports for one instance. Nil
	// means the fallback router: always the first outgoing edge.
	Route func(config json.RawMessage) (graph.Router[S], error)
}

// Registry maps type names to node types. It is an explicit value, not a
// global, so tests and the app can each build their own.
type Registry[S any] struct {
	types map[string]NodeType[S]
}

// NewRegistry returns an empty registry.
func NewRegistry[S any]() *Registry[S] { return &Registry[S]{types: map[string]NodeType[S]{}} }

// Register adds a node type under name.
func (r *Registry[S]) Register(name string, t NodeType[S]) error {
	switch {
	case name == "" || name == TypeStart || name == TypeEnd:
		return fmt.Errorf("register node type %q: reserved name", name)
	case t.Build == nil:
		return fmt.Errorf("register node type %q: no Build", name)
	case r.types[name].Build != nil:
		return fmt.Errorf("register node type %q: already registered", name)
	}
	r.types[name] = t
	return nil
}

// Types lists the registered type names, sorted.
func (r *Registry[S]) Types() []string {
	names := make([]string, 0, len(r.types))
	for n := range r.types {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Compile validates d and builds its graph over the state fields. Start and
// end nodes become graph.Start and graph.End; a node with ports, or with
// several targets, gets conditional edges; any other node a direct edge.
// opts (checkpointer, breakpoints by node id) pass through to graph.Compile.
func Compile[S any](d Definition, reg *Registry[S], fields []graph.Field[S], opts ...graph.Option) (*graph.Graph[S], error) {
	if err := Validate(d, reg); err != nil {
		return nil, err
	}
	kind := map[string]string{}
	for _, n := range d.Nodes {
		kind[n.ID] = n.Type
	}
	target := func(id string) string {
		if kind[id] == TypeEnd {
			return graph.End
		}
		return id
	}
	b := graph.New(fields...)
	var problems []string
	for _, n := range d.Nodes {
		if n.Type == TypeStart || n.Type == TypeEnd {
			continue
		}
		fn, err := reg.types[n.Type].Build(n.Config)
		if err != nil {
			problems = append(problems, fmt.Sprintf("node %q (%s): config: %v", n.ID, n.Type, err))
			continue
		}
		b.AddNode(n.ID, fn)
	}
	bySource := map[string][]Edge{}
	var sources []string
	for _, e := range d.Edges {
		if len(bySource[e.Source]) == 0 {
			sources = append(sources, e.Source)
		}
		bySource[e.Source] = append(bySource[e.Source], e)
	}
	for _, src := range sources {
		edges := bySource[src]
		if kind[src] == TypeStart {
			b.AddEdge(graph.Start, target(edges[0].Target))
			continue
		}
		var cfg json.RawMessage
		for _, n := range d.Nodes {
			if n.ID == src {
				cfg = n.Config
			}
		}
		t := reg.types[kind[src]]
		if len(t.Ports) == 0 && len(edges) == 1 {
			b.AddEdge(src, target(edges[0].Target))
			continue
		}
		ports := map[string]string{}
		var first string
		for i, e := range edges {
			port := e.SourcePort
			if port == "" || ports[port] != "" {
				port = fmt.Sprintf("#%d", i) // unnamed or repeated: still addressable
			}
			ports[port] = target(e.Target)
			if i == 0 {
				first = port
			}
		}
		route := graph.Router[S](func(S) string { return first })
		if t.Route != nil {
			r, err := t.Route(cfg)
			if err != nil {
				problems = append(problems, fmt.Sprintf("node %q (%s): router: %v", src, kind[src], err))
				continue
			}
			if r != nil {
				route = r
			}
		}
		b.AddConditionalEdges(src, route, ports)
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	g, err := b.Compile(opts...)
	if err != nil {
		// graph.Compile lists one problem per line under a header line.
		lines := strings.Split(err.Error(), "\n")
		if len(lines) > 1 {
			lines = lines[1:]
		}
		return nil, &ValidationError{Problems: lines}
	}
	return g, nil
}
