package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// Plan sizes: the model proposes 2-7 steps; a person's edit may keep 1-10.
const (
	minPlanSteps  = 2
	maxPlanSteps  = 7
	maxEditSteps  = 10
	maxTitleRunes = 200
)

// planOut is the planner's structured output.
type planOut struct {
	SubTasks []planStep `json:"sub_tasks" desc:"2 to 7 steps in order"`
}

type planStep struct {
	ID     string `json:"id" desc:"s1, s2, ..."`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// Validate refuses plans a person could not use, so the model gets one
// chance to repair them.
func (p *planOut) Validate() error {
	n := 0
	for _, st := range p.SubTasks {
		if strings.TrimSpace(st.Title) != "" {
			n++
		}
	}
	if n < minPlanSteps || n > maxPlanSteps {
		return fmt.Errorf("the plan needs %d to %d sub-tasks with titles, got %d", minPlanSteps, maxPlanSteps, n)
	}
	return nil
}

// checkMended refuses a plan mended from a reply cut short inside a step:
// closing the cut text would offer a step cut mid-word ("썸" for "썸네일
// 제작") or its detail cut mid-sentence. The model is asked again, and if
// that breaks too the steps that came through whole are kept
// (planFromBroken). A reply mended otherwise (prose around it, a missing
// last bracket, single quotes) is whole.
func (p *planOut) checkMended(raw string) error {
	whole, ok := stepElements(raw, len(p.SubTasks))
	if ok && len(whole) < len(p.SubTasks) {
		return fmt.Errorf("the reply was cut short after %d whole sub-tasks", len(whole))
	}
	return nil
}

// planner splits the task into sub-tasks; on a re-plan it sees its previous
// plan and the person's feedback (seed 004's user_feedback).
func (a *Agent) planner(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	c := a.newCall(rt)
	var setTask graph.Update
	if strings.TrimSpace(s.Task) == "" {
		// A workflow without a router (a person's own) plans the message
		// itself.
		s.Task = s.Input
		setTask = graph.Update{a.f.task.Set(s.Input)}
	}
	if len(s.Feedback) > 0 {
		c.trace(api.TracePlanning, say(api.TracePlanRevising, "feedback", s.Feedback[len(s.Feedback)-1]))
	} else {
		c.trace(api.TracePlanning, say(api.TracePlanSplitting))
	}
	out, ok, broken, err := structuredOr[planOut](ctx, c, withPersona(plannerMessages(s), a.tuned(ctx).systemPrompt))
	if err != nil {
		return nil, err
	}
	note := ""
	if !ok {
		// Both replies broken: the steps that came through whole, which
		// the person sees, edits and approves as any plan, and is told
		// where they came from (planFromBroken).
		out.SubTasks = planFromBroken(broken)
		if len(out.SubTasks) > 0 {
			c.trace(api.TraceRetry, say(api.TracePlanRecovered, "count", strconv.Itoa(len(out.SubTasks))))
			note = msgPlanRecovered.in(s.Lang)
		} else {
			c.trace(api.TraceRetry, say(api.TraceJSONDefault))
		}
	}
	var steps []api.SubTask
	for _, st := range out.SubTasks {
		if strings.TrimSpace(st.Title) != "" {
			steps = append(steps, api.SubTask{ID: strings.TrimSpace(st.ID), Title: strings.TrimSpace(st.Title), Detail: strings.TrimSpace(st.Detail)})
		}
	}
	if len(steps) == 0 {
		// Safe fallback: the task as one step, which the person can edit.
		steps = []api.SubTask{{ID: "s1", Title: cutRunes(s.Task, 80)}}
		if steps[0].Title != s.Task {
			steps[0].Detail = s.Task // the whole task when the title had to be cut
		}
		note = msgPlanFallback.in(s.Lang)
	}
	steps = assignIDs(steps)
	upd := append(setTask, a.f.plan.Set(steps), a.f.round.Set(s.Round+1), a.f.planNote.Set(note), a.f.decision.Set(""))
	return c.update(upd), nil
}

// assignIDs gives every step a unique id, keeping the ids it has.
func assignIDs(steps []api.SubTask) []api.SubTask {
	out := make([]api.SubTask, len(steps))
	used := map[string]bool{}
	for _, st := range steps {
		if st.ID != "" {
			used[st.ID] = true
		}
	}
	seen := map[string]bool{}
	next := 1
	for i, st := range steps {
		if st.ID == "" || seen[st.ID] {
			for used[fmt.Sprintf("s%d", next)] {
				next++
			}
			st.ID = fmt.Sprintf("s%d", next)
			used[st.ID] = true
		}
		seen[st.ID] = true
		out[i] = st
	}
	return out
}

// ErrInvalidPlan says why an edited plan cannot be used.
var ErrInvalidPlan = errors.New("invalid plan")

// validateEdited checks a person's edited plan: 1-10 steps, every title
// non-empty, ids unique (steps added in the editor get ids here).
func validateEdited(steps []api.SubTask) ([]api.SubTask, error) {
	if len(steps) == 0 || len(steps) > maxEditSteps {
		return nil, fmt.Errorf("%w: a plan has 1 to %d steps, this one has %d", ErrInvalidPlan, maxEditSteps, len(steps))
	}
	out := make([]api.SubTask, len(steps))
	ids := map[string]bool{}
	for i, st := range steps {
		st.ID, st.Title, st.Detail = strings.TrimSpace(st.ID), strings.TrimSpace(st.Title), strings.TrimSpace(st.Detail)
		switch {
		case st.Title == "":
			return nil, fmt.Errorf("%w: step %d has no title", ErrInvalidPlan, i+1)
		case utf8.RuneCountInString(st.Title) > maxTitleRunes:
			return nil, fmt.Errorf("%w: the title of step %d is longer than %d characters", ErrInvalidPlan, i+1, maxTitleRunes)
		case st.ID != "" && ids[st.ID]:
			return nil, fmt.Errorf("%w: two steps have the id %q", ErrInvalidPlan, st.ID)
		}
		if st.ID != "" {
			ids[st.ID] = true
		}
		out[i] = st
	}
	return assignIDs(out), nil
}

// planRequest is the payload of the approval interrupt: the plan, and why
// the previous answer could not be used when the person is asked again.
type planRequest struct {
	Approval api.PlanApproval `json:"approval"`
	Note     string           `json:"note,omitempty"`
	Problem  string           `json:"problem,omitempty"`
}

// approvePlan stops the run until the person decides (seed 004's human
// review, as a dynamic interrupt so the plan travels with it and survives
// a restart in the checkpoint). An unusable decision asks again. Each
// question has its own version (questionID): a decision names the one it
// answers, so it cannot land on a plan the person has not seen.
func (a *Agent) approvePlan(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	req := planRequest{Approval: api.PlanApproval{Round: s.Round, Task: s.Task, SubTasks: s.Plan, Again: api.AgainReason(s.Again)}, Note: s.PlanNote}
	for asked := 0; ; asked++ {
		req.Approval.Version = questionID(rt, asked)
		d, err := graph.Interrupt[api.ApprovalDecision](rt, req)
		if err != nil {
			return nil, err
		}
		switch d.Action {
		case api.ActionApprove:
			plan := s.Plan
			if len(d.SubTasks) > 0 {
				if plan, err = validateEdited(d.SubTasks); err != nil {
					req.Problem = fmt.Sprintf(msgEditProblem.in(s.Lang), strings.TrimPrefix(err.Error(), ErrInvalidPlan.Error()+": "))
					continue
				}
			}
			rt.Emit(eventTrace, say(api.TracePlanApproved, "count", strconv.Itoa(len(plan))).event(api.TracePlanning, rt.Node()))
			return graph.Update{a.f.decision.Set(string(api.ActionApprove)), a.f.plan.Set(plan), a.f.current.Set(0),
				a.f.scratch.RemoveAll(), a.f.iterations.Set(0), a.f.again.Set("")}, nil
		case api.ActionRevise:
			fb := strings.TrimSpace(d.Feedback)
			if fb == "" {
				req.Problem = fmt.Sprintf(msgEditProblem.in(s.Lang), "no feedback was given")
				continue
			}
			// The feedback may change what every step needs: nothing of
			// a cut run is kept for the new plan.
			return graph.Update{a.f.decision.Set(string(api.ActionRevise)), a.f.feedback.Add(fb), a.f.again.Set(""), a.f.kept.Set(nil)}, nil
		case api.ActionCancel:
			return graph.Update{a.f.decision.Set(string(api.ActionCancel)), a.f.again.Set(""), a.f.kept.Set(nil)}, nil
		default:
			req.Problem = fmt.Sprintf(msgEditProblem.in(s.Lang), fmt.Sprintf("unknown decision %q", d.Action))
		}
	}
}

// questionID names the n-th question (from 0) a task asks: the task's id,
// which is the interrupt's, stays while the run waits and across restarts,
// and changes with every new plan, re-plan or plan offered again.
func questionID(rt *graph.Runtime, n int) string {
	return rt.TaskID() + "." + strconv.Itoa(n)
}

func routeApproval(s State) string {
	switch s.Decision {
	case string(api.ActionApprove), string(api.ActionRevise):
		return s.Decision
	}
	return string(api.ActionCancel)
}
