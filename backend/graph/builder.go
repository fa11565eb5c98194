package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Start and End are the pseudo-nodes where a run begins and ends.
const (
	Start = "__start__"
	End   = "__end__"
)

// NodeFunc is a node: it reads the state and returns what it writes. It
// must not modify s (slices in it are shared with the engine). Returning an
// error fails the run; returning the error of Interrupt pauses it.
type NodeFunc[S any] func(ctx context.Context, s S, rt *Runtime) (Update, error)

// Router picks the port a conditional edge follows, from the state after
// the step.
type Router[S any] func(s S) string

type branch[S any] struct {
	route Router[S]
	ports map[string]string // port -> node; nil: the router returns node names
}

// Builder collects nodes and edges; Compile checks and freezes them.
type Builder[S any] struct {
	fields       map[string]Field[S]
	nodes        map[string]NodeFunc[S]
	order        []string // nodes in the order added, for stable messages
	edges        map[string][]string
	branches     map[string][]branch[S]
	destinations map[string][]string
	errs         []error
}

// New starts a graph over state S whose writable parts are fields.
func New[S any](fields ...Field[S]) *Builder[S] {
	b := &Builder[S]{
		fields:       map[string]Field[S]{},
		nodes:        map[string]NodeFunc[S]{},
		edges:        map[string][]string{},
		branches:     map[string][]branch[S]{},
		destinations: map[string][]string{},
	}
	for _, f := range fields {
		switch name := f.Name(); {
		case name == "" || strings.HasPrefix(name, "__"):
			b.errs = append(b.errs, fmt.Errorf("field name %q is reserved", name))
		case b.fields[name] != nil:
			b.errs = append(b.errs, fmt.Errorf("field %q declared twice", name))
		default:
			b.fields[name] = f
		}
	}
	return b
}

// AddNode adds a node. destinations names the nodes it may Goto or Send to,
// which makes them reachable for validation.
func (b *Builder[S]) AddNode(name string, fn NodeFunc[S], destinations ...string) *Builder[S] {
	switch {
	case name == "" || name == Start || name == End || strings.HasPrefix(name, "__"):
		b.errs = append(b.errs, fmt.Errorf("node name %q is reserved", name))
	case b.nodes[name] != nil:
		b.errs = append(b.errs, fmt.Errorf("node %q added twice", name))
	case fn == nil:
		b.errs = append(b.errs, fmt.Errorf("node %q has no function", name))
	default:
		b.nodes[name] = fn
		b.order = append(b.order, name)
		b.destinations[name] = destinations
	}
	return b
}

// AddEdge runs to after from. Several edges from one node fan out: all
// targets run in parallel in the next step.
func (b *Builder[S]) AddEdge(from, to string) *Builder[S] {
	b.edges[from] = append(b.edges[from], to)
	return b
}

// AddConditionalEdges routes from a node by route's answer: a port looked
// up in ports, or a node name when ports is nil.
func (b *Builder[S]) AddConditionalEdges(from string, route Router[S], ports map[string]string) *Builder[S] {
	if route == nil {
		b.errs = append(b.errs, fmt.Errorf("conditional edges from %q have no router", from))
		return b
	}
	b.branches[from] = append(b.branches[from], branch[S]{route: route, ports: ports})
	return b
}

// ErrInvalidGraph wraps every problem Compile finds.
var ErrInvalidGraph = errors.New("graph: invalid graph")

// Option configures a compiled graph.
type Option func(*options)

type options struct {
	checkpointer Checkpointer
	before       []string
	after        []string
}

// WithCheckpointer persists every step; required for interrupts to be
// resumable and for history.
func WithCheckpointer(c Checkpointer) Option { return func(o *options) { o.checkpointer = c } }

// WithInterruptBefore stops the run before these nodes run.
func WithInterruptBefore(nodes ...string) Option {
	return func(o *options) { o.before = append(o.before, nodes...) }
}

// WithInterruptAfter stops the run after these nodes ran.
func WithInterruptAfter(nodes ...string) Option {
	return func(o *options) { o.after = append(o.after, nodes...) }
}

// Compile validates the graph: every edge, port and destination names a
// node, START has an edge, END has none, and every node is reachable.
// All problems are reported together, joined under ErrInvalidGraph.
func (b *Builder[S]) Compile(opts ...Option) (*Graph[S], error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	errs := slices.Clone(b.errs)
	known := func(n string) bool { return n == End || b.nodes[n] != nil }
	for _, from := range b.sources() {
		if from != Start && b.nodes[from] == nil {
			errs = append(errs, fmt.Errorf("edge from unknown node %q", from))
		}
		for _, to := range b.edges[from] {
			if to == Start || !known(to) {
				errs = append(errs, fmt.Errorf("edge %q -> %q: unknown target %q", from, to, to))
			}
		}
		for _, br := range b.branches[from] {
			for _, port := range sortedKeys(br.ports) {
				if to := br.ports[port]; to == Start || !known(to) {
					errs = append(errs, fmt.Errorf("conditional edge %q port %q: unknown target %q", from, port, to))
				}
			}
		}
	}
	for _, n := range b.order {
		for _, d := range b.destinations[n] {
			if !known(d) {
				errs = append(errs, fmt.Errorf("node %q: unknown destination %q", n, d))
			}
		}
	}
	if len(b.edges[Start]) == 0 && len(b.branches[Start]) == 0 {
		errs = append(errs, errors.New("no edge from START"))
	}
	for _, n := range o.before {
		if b.nodes[n] == nil {
			errs = append(errs, fmt.Errorf("interrupt before unknown node %q", n))
		}
	}
	for _, n := range o.after {
		if b.nodes[n] == nil {
			errs = append(errs, fmt.Errorf("interrupt after unknown node %q", n))
		}
	}
	reach := b.reachable()
	for _, n := range b.order {
		if !reach[n] {
			errs = append(errs, fmt.Errorf("node %q is unreachable from START", n))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w:\n%w", ErrInvalidGraph, errors.Join(errs...))
	}
	g := &Graph[S]{
		fields:   b.fields,
		nodes:    b.nodes,
		edges:    b.edges,
		branches: b.branches,
		cp:       o.checkpointer,
		before:   setOf(o.before),
		after:    setOf(o.after),
		order:    map[string]int{},
	}
	for i, n := range b.order {
		g.order[n] = i
	}
	return g, nil
}

// sources lists every node with outgoing edges, sorted for stable errors.
func (b *Builder[S]) sources() []string {
	set := map[string]bool{}
	for k := range b.edges {
		set[k] = true
	}
	for k := range b.branches {
		set[k] = true
	}
	return sortedKeys(set)
}

func (b *Builder[S]) reachable() map[string]bool {
	seen := map[string]bool{Start: true}
	queue := []string{Start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		next := slices.Clone(b.edges[n])
		next = append(next, b.destinations[n]...)
		for _, br := range b.branches[n] {
			if br.ports == nil {
				// The router names nodes directly; anything may follow.
				next = append(next, b.order...)
			}
			for _, to := range br.ports {
				next = append(next, to)
			}
		}
		for _, to := range next {
			if !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return seen
}

func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
