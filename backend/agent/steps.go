package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
		answers, err := graph.Answers[api.ApprovalDecision](rt)
		if err != nil {
			return nil, err
		}
		byID := make(map[string]api.ApprovalDecision, len(answers))
		for _, d := range answers {
			byID[d.Version] = d
		}
		results := make([]State, n)
		waits := make([]*graph.Interruption, n)
		errs := make([]error, n)
		// A plan offered again after its work was cut keeps what its
		// unchanged steps found (keep.go): those make no call.
		kept := matchKept(s.Plan, s.Kept)
		run := func(i int, from State) {
			if k := kept[i]; k != nil {
				results[i] = withKept(from, i, *k)
				reuse(rt, s, i, results[i])
				again := *k
				again.Card.SubTaskID = s.Plan[i].ID
				rt.Emit(eventKept, again)
				return
			}
			if results[i], waits[i], errs[i] = a.runStep(ctx, step, stepThread(s, rt, i), from, i, rt, byID); errs[i] != nil || waits[i] != nil {
				return
			}
			if k, ok := keptOf(s.Plan[i], from, results[i]); ok {
				rt.Emit(eventKept, k)
			}
		}
		if par := min(a.parallel(), n-s.Current); par <= 1 {
			from := s
			for i := s.Current; i < n; i++ {
				if run(i, from); errs[i] != nil || waits[i] != nil {
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
		// The loops' checkpoints are only for the person's answers: gone
		// once the node is done with them (what a cut run's finished
		// sub-tasks found goes on in State.Kept instead: keep.go).
		forget := func() {
			for i := s.Current; i < n; i++ {
				if err := step.DeleteThread(context.WithoutCancel(ctx), stepThread(s, rt, i)); err != nil {
					a.log.Warn("delete a sub-task's checkpoints", "session", s.Session, "err", err)
				}
			}
		}
		if err := errors.Join(errs...); err != nil {
			forget()
			return nil, err
		}
		// A sub-task waits for the person (a tool call its gate holds):
		// the turn asks, in the plan's order, one question at a time. The
		// answer comes back to this node, which resumes that sub-task's
		// loop from its checkpoint; the sub-tasks that ended are read back
		// from theirs, so nothing runs twice.
		for _, w := range waits {
			if w != nil {
				return nil, graph.AskNext(rt, w.Value)
			}
		}
		forget()
		return a.mergeSteps(s, results), nil
	}, nil
}

// stepThread names the checkpoint thread of sub-task i's loop in this run
// of the node: under the conversation's thread (ForgetThreads deletes it
// with the conversation) and the node's task, which keeps its id when the
// node runs again after the person's answer.
func stepThread(s State, rt *graph.Runtime, i int) string {
	return s.Session + stepThreadSep + rt.TaskID() + "/" + strconv.Itoa(i)
}

// stepThreadSep separates a conversation's thread from a sub-task's.
const stepThreadSep = "/step/"

// parallel is how many sub-tasks may run at once: what one Ollama server
// answers at once, times the hosts when several share the calls (the
// settings' ollama_host lists them, separated by commas), so that each
// host gets its share.
func (a *Agent) parallel() int {
	n, hosts := max(a.opt.Parallel, 1), 1
	if a.deps.Settings != nil {
		s := a.deps.Settings()
		if s.ParallelRequests > 0 {
			n = s.ParallelRequests
		}
		hosts = max(1, len(slices.DeleteFunc(strings.Split(s.OllamaHost, ","), func(h string) bool { return strings.TrimSpace(h) == "" })))
	}
	return n * hosts
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
	g, err := b.Compile(graph.WithCheckpointer(a.saves.Checkpointer))
	if err != nil {
		return nil, fmt.Errorf("recommendation loop: %w", err)
	}
	return g, nil
}

// runStep runs sub-task i's loop on thread from state from, reporting its
// progress through rt, and returns the state it ended in, or the question
// it waits on. A loop that ran before in this node's task (the node runs
// again after each of the person's answers) goes on from its checkpoint:
// one that ended is read back, one that waits resumes with its answer
// from answers (by the version the decision carries) or goes on waiting.
func (a *Agent) runStep(ctx context.Context, g *graph.Graph[State], thread string, from State, i int, rt *graph.Runtime, answers map[string]api.ApprovalDecision) (State, *graph.Interruption, error) {
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
	// One save where the loop ends (done, waiting, failed): what a later
	// run of the node needs, without a write per step.
	cfg := graph.Config{ThreadID: thread, StepLimit: a.opt.StepLimit, Events: events, Durability: graph.DurabilityExit}
	var res graph.Result[State]
	snap, err := g.GetState(ctx, graph.Config{ThreadID: thread})
	switch {
	case errors.Is(err, graph.ErrNoCheckpoint):
		from.Current, from.StepOnly = i, i
		from.Scratch, from.Iterations, from.EvalRounds, from.Missing, from.SubSources = nil, 0, 0, "", nil
		// What this sub-task's calls cost and retried, added up by mergeSteps.
		from.Retries, from.Usage = nil, usage{}
		res, err = g.Invoke(ctx, cfg, a.f.copyOf(from))
	case err != nil:
		return State{}, nil, fmt.Errorf("sub-task %s: %w", from.Plan[i].ID, err)
	case len(snap.Interrupts) > 0:
		in := snap.Interrupts[0]
		var req approvalRequest
		if err := in.Decode(&req); err != nil {
			return State{}, nil, fmt.Errorf("sub-task %s: read what it waits for: %w", from.Plan[i].ID, err)
		}
		d, ok := answers[req.version()]
		if !ok {
			return State{}, &in, nil
		}
		res, err = g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{in.ID: d}})
	case len(snap.Next) == 0:
		return snap.Values, nil, nil
	default: // stopped or failed before: go on from where it was
		res, err = g.Resume(ctx, cfg, graph.Command{})
	}
	if err != nil {
		return State{}, nil, err
	}
	if res.Interrupted() {
		return State{}, &res.Interrupts[0], nil
	}
	return res.State, nil, nil
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
