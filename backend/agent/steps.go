package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// recommendSteps finds a tool for every sub-task of the approved plan,
// several at once when the model server can take several requests
// (Settings' parallel requests, else Options.Parallel): each sub-task runs
// the recommendation loop (recommend ⇄ recommend_tools → evaluate) as a
// small graph of its own, from the state the plan was approved in. Its
// progress and its card reach the person as it happens; the guide starts
// as soon as the last one is done. The results are merged in the plan's
// order, so they are the same whatever the order sub-tasks finish in.
//
// One at a time, each sub-task starts from the state the previous one left
// (passages numbered on, a repeated search answered from the earlier one),
// exactly as the loop in the main graph did.
func (a *Agent) recommendSteps(cfg loopConfig) (graph.NodeFunc[State], error) {
	step, err := a.stepGraph(cfg)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		n := len(s.Plan)
		if s.Current >= n {
			return nil, nil
		}
		results := make([]State, n)
		errs := make([]error, n)
		run := func(i int, from State) {
			results[i], errs[i] = a.runStep(ctx, step, from, i, rt)
		}
		if par := min(a.parallel(), n-s.Current); par <= 1 {
			from := s
			for i := s.Current; i < n; i++ {
				if run(i, from); errs[i] != nil {
					break
				}
				from = results[i]
			}
		} else {
			sem := make(chan struct{}, par)
			var wg sync.WaitGroup
			for i := s.Current; i < n; i++ {
				wg.Go(func() {
					select {
					case sem <- struct{}{}:
					case <-ctx.Done():
						errs[i] = ctx.Err()
						return
					}
					defer func() { <-sem }()
					run(i, s)
				})
			}
			wg.Wait()
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		return a.mergeSteps(s, results), nil
	}, nil
}

// parallel is how many sub-tasks may run at once.
func (a *Agent) parallel() int {
	if a.deps.Settings != nil {
		if n := a.deps.Settings().ParallelRequests; n > 0 {
			return n
		}
	}
	return max(a.opt.Parallel, 1)
}

// stepGraph is the recommendation loop of one sub-task.
func (a *Agent) stepGraph(cfg loopConfig) (*graph.Graph[State], error) {
	b := graph.New(a.f.all()...)
	b.AddNode(TypeRecommend, a.recommend(cfg))
	b.AddNode("recommend_tools", a.runTools(loopConfig{Toolset: "recommend"}))
	b.AddNode(TypeEvaluate, a.evaluate(cfg))
	b.AddEdge(graph.Start, TypeRecommend)
	b.AddConditionalEdges(TypeRecommend, routeRecommend, map[string]string{"tools": "recommend_tools", "evaluate": TypeEvaluate})
	b.AddEdge("recommend_tools", TypeEvaluate)
	b.AddConditionalEdges(TypeEvaluate, func(s State) string {
		if s.Current > s.StepOnly {
			return "done"
		}
		return "continue"
	}, map[string]string{"continue": TypeRecommend, "done": graph.End})
	g, err := b.Compile()
	if err != nil {
		return nil, fmt.Errorf("recommendation loop: %w", err)
	}
	return g, nil
}

// runStep runs sub-task i's loop from state from, reporting its progress
// through rt, and returns the state it ended in.
func (a *Agent) runStep(ctx context.Context, g *graph.Graph[State], from State, i int, rt *graph.Runtime) (State, error) {
	from.Current, from.StepOnly = i, i
	from.Scratch, from.Iterations, from.EvalRounds, from.Missing, from.SubSources = nil, 0, 0, "", nil
	// What this sub-task's calls cost and retried, added up by mergeSteps.
	from.Retries, from.Usage = nil, usage{}
	events := graph.EventSinkFunc(func(e graph.Event) {
		switch e.Kind {
		case graph.EventCustom:
			rt.Emit(e.Name, e.Payload)
		case graph.EventNodeStart:
			rt.Emit(eventTrace, api.TraceEvent{Kind: api.TraceNodeStarted, Node: e.Node})
		case graph.EventNodeEnd:
			rt.Emit(eventTrace, api.TraceEvent{Kind: api.TraceNodeFinished, Node: e.Node})
		}
	})
	res, err := g.Invoke(ctx, graph.Config{StepLimit: a.opt.StepLimit, Events: events}, a.f.copyOf(from))
	if err != nil {
		return State{}, err
	}
	if res.Interrupted() {
		// No step of the loop asks the person anything yet; one that does
		// must not be answered by running on.
		return State{}, fmt.Errorf("sub-task %s: a step asked for the person's decision, which runs one sub-task at a time only", from.Plan[i].ID)
	}
	return res.State, nil
}

// mergeSteps is the update that records the outcome of every sub-task
// from s.Current on (done[i] is where sub-task i's loop ended), in the
// plan's order.
func (a *Agent) mergeSteps(s State, done []State) graph.Update {
	var recs []api.Recommendation
	var srcs []api.Source
	var runs []ToolRun
	var retries []llm.RetryRecord
	var used usage
	notice := s.Notice
	for i := s.Current; i < len(s.Plan); i++ {
		r := done[i]
		if j := slices.IndexFunc(r.Recommendations, func(x api.Recommendation) bool { return x.SubTaskID == s.Plan[i].ID }); j >= 0 {
			recs = append(recs, r.Recommendations[j])
		}
		srcs = append(srcs, r.Sources...)
		runs = append(runs, r.ToolRuns...)
		retries = append(retries, r.Retries...)
		used = used.add(r.Usage)
		if r.Notice != "" {
			notice = r.Notice
		}
	}
	upd := graph.Update{a.f.recommendations.Add(recs...), a.f.sources.Add(srcs...), a.f.toolRuns.Add(runs...),
		a.f.current.Set(len(s.Plan)), a.f.scratch.RemoveAll(), a.f.iterations.Set(0), a.f.evalRounds.Set(0),
		a.f.missing.Set(""), a.f.subSources.Replace(), a.f.notice.Set(notice), a.f.usage.Add(used)}
	if len(retries) > 0 {
		upd = append(upd, a.f.retries.Add(retries...))
	}
	return upd
}
