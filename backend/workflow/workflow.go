// Package workflow turns a JSON workflow definition (nodes, edges, ports:
// what a visual editor draws) into a runnable graph.Graph, through a
// registry of node types. Wayfinder's own agent is such a definition,
// embedded in the binary, and a person can point the app at their own file;
// since that file is hand-written, every mistake in it is reported, all at
// once, with the node or edge it concerns (seed 003's validate_graph, made
// precise).
package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Pseudo-node types: they mark where a run begins and ends and map to
// graph.Start and graph.End; they have no code.
const (
	TypeStart = "start"
	TypeEnd   = "end"
)

// Definition is a workflow as stored in JSON.
type Definition struct {
	Name  string `json:"name,omitempty"`
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Node is one instance of a node type; Config is passed to the type's Build.
type Node struct {
	ID     string          `json:"id"`
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config,omitempty"`
}

// Edge connects two nodes; SourcePort names the output of a routing node.
type Edge struct {
	Source     string `json:"source"`
	Target     string `json:"target"`
	SourcePort string `json:"source_port,omitempty"`
}

// maxDefinitionSize bounds what Parse reads: a workflow is a few kilobytes,
// and a mistaken path to a huge file should fail fast.
const maxDefinitionSize = 1 << 20

// ErrInvalid marks every problem found in a definition.
var ErrInvalid = errors.New("workflow: invalid definition")

// ValidationError lists every problem of a definition, one line each.
type ValidationError struct {
	Problems []string
}

func (e *ValidationError) Error() string {
	return "workflow: invalid definition:\n  " + strings.Join(e.Problems, "\n  ")
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// Parse decodes a definition. It checks the JSON only; Validate checks
// the graph.
func Parse(data []byte) (Definition, error) {
	var d Definition
	if len(data) > maxDefinitionSize {
		return d, fmt.Errorf("parse workflow: %d bytes is over the %d byte limit", len(data), maxDefinitionSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d); err != nil {
		return Definition{}, fmt.Errorf("parse workflow: %w", err)
	}
	if dec.More() {
		return Definition{}, errors.New("parse workflow: trailing data after the definition")
	}
	return d, nil
}

// Validate checks d against the node types of reg and returns a
// *ValidationError listing every problem, or nil.
func Validate[S any](d Definition, reg *Registry[S]) error {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }

	byID := map[string]Node{}
	var uniq []Node
	var starts, ends []string
	for i, n := range d.Nodes {
		switch {
		case n.ID == "":
			add("node %d: empty id", i)
			continue
		case byID[n.ID].ID != "":
			add("node %q: id used twice", n.ID)
			continue
		}
		byID[n.ID] = n
		uniq = append(uniq, n)
		switch n.Type {
		case TypeStart:
			starts = append(starts, n.ID)
		case TypeEnd:
			ends = append(ends, n.ID)
		case "":
			add("node %q: no type", n.ID)
		default:
			if _, ok := reg.types[n.Type]; !ok {
				add("node %q: unknown node type %q (known: %s)", n.ID, n.Type, strings.Join(reg.Types(), ", "))
			}
		}
	}
	switch len(starts) {
	case 0:
		add("no start node (want exactly one node of type %q)", TypeStart)
	case 1:
	default:
		add("%d start nodes %q (want exactly one)", len(starts), starts)
	}
	if len(ends) == 0 {
		add("no end node (want at least one node of type %q)", TypeEnd)
	}

	out := map[string][]Edge{}
	in := map[string]int{}
	seen := map[Edge]bool{}
	for i, e := range d.Edges {
		src, srcOK := byID[e.Source]
		tgt, tgtOK := byID[e.Target]
		if !srcOK {
			add("edge %d (%q -> %q): unknown source %q", i, e.Source, e.Target, e.Source)
		}
		if !tgtOK {
			add("edge %d (%q -> %q): unknown target %q", i, e.Source, e.Target, e.Target)
		}
		if !srcOK || !tgtOK {
			continue
		}
		switch {
		case src.Type == TypeEnd:
			add("edge %d (%q -> %q): an end node has no outgoing edges", i, e.Source, e.Target)
			continue
		case tgt.Type == TypeStart:
			add("edge %d (%q -> %q): a start node has no incoming edges", i, e.Source, e.Target)
			continue
		case seen[e]:
			add("edge %d (%q -> %q): duplicate edge", i, e.Source, e.Target)
			continue
		}
		seen[e] = true
		out[e.Source] = append(out[e.Source], e)
		in[e.Target]++
	}

	for _, id := range starts {
		if n := len(out[id]); n != 1 {
			add("start node %q: %d outgoing edges (want exactly one)", id, n)
		}
	}
	for _, n := range uniq {
		if n.Type == TypeStart || n.Type == TypeEnd {
			continue
		}
		switch {
		case len(out[n.ID]) == 0 && in[n.ID] == 0:
			add("node %q: isolated (no edges)", n.ID)
			continue
		case in[n.ID] == 0:
			add("node %q: no incoming edge", n.ID)
		case len(out[n.ID]) == 0:
			add("node %q: no outgoing edge (connect it to an end node)", n.ID)
		}
		if t, ok := reg.types[n.Type]; ok && len(t.Ports) > 0 {
			p = append(p, checkPorts(n.ID, t.Ports, out[n.ID])...)
		}
	}
	if len(p) > 0 {
		return &ValidationError{Problems: p}
	}
	return nil
}

// checkPorts: every port of a routing node is wired exactly once, and no
// edge leaves through a port the type does not have.
func checkPorts(id string, ports []string, edges []Edge) []string {
	var p []string
	wired := map[string]int{}
	for _, e := range edges {
		switch {
		case e.SourcePort == "":
			p = append(p, fmt.Sprintf("node %q: edge to %q has no source_port (ports: %s)", id, e.Target, strings.Join(ports, ", ")))
		case !slices.Contains(ports, e.SourcePort):
			p = append(p, fmt.Sprintf("node %q: unknown port %q (ports: %s)", id, e.SourcePort, strings.Join(ports, ", ")))
		default:
			wired[e.SourcePort]++
		}
	}
	for _, port := range ports {
		switch wired[port] {
		case 0:
			p = append(p, fmt.Sprintf("node %q: port %q is not wired", id, port))
		case 1:
		default:
			p = append(p, fmt.Sprintf("node %q: port %q is wired %d times", id, port, wired[port]))
		}
	}
	return p
}
