package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// pending is what the writes saved against a checkpoint say about its step.
type pending struct {
	done       map[string]Update            // tasks that finished, with their writes
	answers    map[string][]json.RawMessage // resume values recorded per task
	interrupts map[string]json.RawMessage   // open interrupt payload per task
	asked      map[string]int               // answers the open question follows, per task
	errors     map[string]string            // last error per task
	null       Update                       // a Command's update and goto
	before     bool                         // the step already stopped at a before-breakpoint
}

func parsePending(writes []PendingWrite) *pending {
	p := &pending{}
	for _, w := range writes {
		if w.TaskID == "" {
			if w.Channel == chanBefore {
				p.before = true
				continue
			}
			p.null = append(p.null, Write{Field: w.Channel, Value: w.Value})
			continue
		}
		switch w.Channel {
		case chanDone:
			setKey(&p.done, w.TaskID, p.done[w.TaskID])
		case chanError:
			var msg string
			_ = json.Unmarshal(w.Value, &msg)
			setKey(&p.errors, w.TaskID, msg)
		case chanInterrupt:
			setKey(&p.interrupts, w.TaskID, w.Value)
		case chanAsked:
			var n int
			if json.Unmarshal(w.Value, &n) == nil {
				setKey(&p.asked, w.TaskID, n)
			}
		case chanResume:
			var answers []json.RawMessage
			_ = json.Unmarshal(w.Value, &answers)
			setKey(&p.answers, w.TaskID, answers)
		default:
			if p.done == nil {
				p.done = map[string]Update{}
			}
			p.done[w.TaskID] = append(p.done[w.TaskID], Write{Field: w.Channel, Value: w.Value})
		}
	}
	// Writes without the done marker belong to a task that never finished.
	for id := range p.done {
		if !hasDone(writes, id) {
			delete(p.done, id)
		}
	}
	return p
}

func hasDone(writes []PendingWrite, task string) bool {
	return slices.ContainsFunc(writes, func(w PendingWrite) bool { return w.TaskID == task && w.Channel == chanDone })
}

func setKey[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[k] = v
}

// open lists the tasks waiting on an answer, in task order.
func (p *pending) open(tasks []Task) []Task {
	var out []Task
	for _, t := range tasks {
		if _, asked := p.interrupts[t.ID]; asked {
			if _, done := p.done[t.ID]; !done {
				out = append(out, t)
			}
		}
	}
	return out
}

// resume records the command's answers and update as writes against the
// checkpoint (so a crash right after still resumes with them) and mirrors
// them into p.
func (p *pending) resume(tasks []Task, cmd Command) ([]PendingWrite, error) {
	open := p.open(tasks)
	answer := map[string]any{}
	switch {
	case cmd.ResumeMap != nil:
		for id, v := range cmd.ResumeMap {
			if !slices.ContainsFunc(open, func(t Task) bool { return t.ID == id }) {
				return nil, fmt.Errorf("%w: no pending interrupt has id %q", ErrNoInterrupt, id)
			}
			answer[id] = v
		}
	case cmd.Resume != nil:
		switch len(open) {
		case 0:
			if !p.before {
				return nil, ErrNoInterrupt
			}
			// A value answering a static breakpoint has no node to go to;
			// LangGraph accepts it (Command(resume=...) at interrupt_before)
			// and so do we, dropping it.
		case 1:
			answer[open[0].ID] = cmd.Resume
		default:
			return nil, fmt.Errorf("%w (%d pending)", ErrAmbiguousResume, len(open))
		}
	}
	var writes []PendingWrite
	for _, id := range sortedKeys(answer) {
		b, err := json.Marshal(answer[id])
		if err != nil {
			return nil, fmt.Errorf("graph: encode resume value: %w", err)
		}
		prev := p.answers[id]
		if n, ok := p.asked[id]; ok && n < len(prev) {
			// An answer recorded by a resume whose run never reached the
			// node: this one replaces it.
			prev = prev[:n]
		}
		list := append(slices.Clone(prev), b)
		enc, err := json.Marshal(list)
		if err != nil {
			return nil, fmt.Errorf("graph: encode resume values: %w", err)
		}
		setKey(&p.answers, id, list)
		writes = append(writes, PendingWrite{TaskID: id, Idx: idxResume, Channel: chanResume, Value: enc})
	}
	null := slices.Clone(cmd.Update)
	if len(cmd.Goto) > 0 {
		null = append(null, Goto(cmd.Goto...))
	}
	for i, w := range null {
		b, err := json.Marshal(w.Value)
		if err != nil {
			return nil, fmt.Errorf("graph: encode command update %q: %w", w.Field, err)
		}
		writes = append(writes, PendingWrite{Idx: len(p.null) + i, Channel: w.Field, Value: b})
	}
	p.null = append(p.null, null...)
	return writes, nil
}

// applyNull applies a Command's update to st and adds its goto targets to
// the step's tasks. It does not follow edges: the update is a correction,
// not a node.
func (g *Graph[S]) applyNull(st *S, cpID string, tasks []Task, null Update) ([]Task, error) {
	var gotos []string
	var writes Update
	for _, w := range null {
		if w.Field == gotoField {
			nodes, err := decodeAs[[]string](w.Value)
			if err != nil {
				return nil, fmt.Errorf("graph: command goto: %w", err)
			}
			gotos = append(gotos, nodes...)
			continue
		}
		writes = append(writes, w)
	}
	if err := g.applyWrites(st, writes); err != nil {
		return nil, fmt.Errorf("graph: command update: %w", err)
	}
	out := slices.Clone(tasks)
	for _, n := range gotos {
		if n == End || slices.ContainsFunc(out, func(t Task) bool { return t.Node == n && t.Arg == nil }) {
			continue
		}
		if g.nodes[n] == nil {
			return nil, fmt.Errorf("graph: command goto %q: %w", n, ErrUnknownNode)
		}
		out = append(out, Task{ID: taskID(cpID, len(out), n), Node: n})
	}
	return out, nil
}

// applyPending brings st up to date with what was saved against a
// checkpoint since it was written: a Command's update and goto, and the
// writes of tasks that already finished. It returns the tasks still to run.
// LangGraph's get_state and update_state do the same for the newest
// checkpoint, so a half-done parallel step shows what it has done.
func (g *Graph[S]) applyPending(st *S, cpID string, tasks []Task, pend *pending) ([]Task, error) {
	tasks, err := g.applyNull(st, cpID, tasks, pend.null)
	if err != nil {
		return nil, err
	}
	var writes Update
	var left []Task
	for _, t := range tasks {
		done, ok := pend.done[t.ID]
		if !ok {
			left = append(left, t)
			continue
		}
		for _, w := range done {
			if w.Field != gotoField && w.Field != sendField {
				writes = append(writes, w)
			}
		}
	}
	if err := g.applyWrites(st, writes); err != nil {
		return nil, fmt.Errorf("graph: apply finished tasks' writes: %w", err)
	}
	return left, nil
}

// applyWrites runs every field's reducer once over all of its writes of the
// step, fields in name order so that results never depend on map order.
func (g *Graph[S]) applyWrites(st *S, writes Update) error {
	if len(writes) == 0 {
		return nil
	}
	byField := map[string][]any{}
	for _, w := range writes {
		byField[w.Field] = append(byField[w.Field], w.Value)
	}
	for _, name := range sortedKeys(byField) {
		f := g.fields[name]
		if f == nil {
			return fmt.Errorf("%w %q", ErrUnknownField, name)
		}
		if err := f.apply(st, byField[name]); err != nil {
			return err
		}
	}
	return nil
}

// advance ends a step: it merges the tasks' updates into st and works out
// the next step's tasks from edges, routers, Goto and Send. Routers see the
// merged state. As in LangGraph, writes of edge-triggered tasks apply
// before those of Send tasks, while the next step lists Send tasks first.
func (g *Graph[S]) advance(st *S, cpID string, ran []Task, updates []Update) ([]Task, error) {
	var writes Update
	var sends []SendPacket
	pull := map[string]bool{}
	order := make([]int, 0, len(ran))
	for _, sent := range []bool{false, true} {
		for i, t := range ran {
			if (t.Arg != nil && t.Node != Start) == sent {
				order = append(order, i)
			}
		}
	}
	for _, i := range order {
		for _, w := range updates[i] {
			switch w.Field {
			case gotoField:
				nodes, err := decodeAs[[]string](w.Value)
				if err != nil {
					return nil, &NodeError{Node: ran[i].Node, Err: fmt.Errorf("goto: %w", err)}
				}
				for _, n := range nodes {
					pull[n] = true
				}
			case sendField:
				p, err := decodeAs[SendPacket](w.Value)
				if err != nil {
					return nil, &NodeError{Node: ran[i].Node, Err: fmt.Errorf("send: %w", err)}
				}
				sends = append(sends, p)
			default:
				writes = append(writes, w)
			}
		}
	}
	if err := g.applyWrites(st, writes); err != nil {
		return nil, fmt.Errorf("graph: merge step: %w", err)
	}
	seen := map[string]bool{}
	for _, t := range ran {
		if seen[t.Node] {
			continue
		}
		seen[t.Node] = true
		for _, to := range g.edges[t.Node] {
			pull[to] = true
		}
		for _, br := range g.branches[t.Node] {
			to, err := route(br, *st)
			if err != nil {
				return nil, &NodeError{Node: t.Node, Err: err}
			}
			pull[to] = true
		}
	}
	delete(pull, End)
	names := sortedKeys(pull)
	slices.SortStableFunc(names, func(a, b string) int { return g.nodeIndex(a) - g.nodeIndex(b) })
	var next []Task
	for _, p := range sends {
		if g.nodes[p.Node] == nil {
			return nil, fmt.Errorf("graph: send to %q: %w", p.Node, ErrUnknownNode)
		}
		b, err := json.Marshal(p.Arg)
		if err != nil {
			return nil, fmt.Errorf("graph: encode send to %q: %w", p.Node, err)
		}
		next = append(next, Task{ID: taskID(cpID, len(next), p.Node), Node: p.Node, Arg: b, arg: p.Arg})
	}
	for _, n := range names {
		if g.nodes[n] == nil {
			return nil, fmt.Errorf("graph: route to %q: %w", n, ErrUnknownNode)
		}
		next = append(next, Task{ID: taskID(cpID, len(next), n), Node: n})
	}
	return next, nil
}

// ErrUnknownPort is a router answer that names no port of its edges.
var ErrUnknownPort = errors.New("graph: router chose an unknown port")

func route[S any](br branch[S], st S) (to string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("router panic: %v", p)
		}
	}()
	port := br.route(st)
	if br.ports == nil {
		return port, nil
	}
	to, ok := br.ports[port]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrUnknownPort, port)
	}
	return to, nil
}
