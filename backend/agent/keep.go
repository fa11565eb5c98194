package agent

import (
	"slices"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// Keeping the work of a cut plan: each sub-task costs one model call or
// more (tens of seconds each with a local model on a laptop), so an
// approved plan whose work was stopped or failed part way, offered again,
// keeps what its finished sub-tasks found. Approving it again runs only
// the sub-tasks that had no tool, and those the person changed.
//
// Every sub-task whose loop ends (recommendSteps) is reported as a
// keptStep event; the turn's sink collects them, and when the work is cut
// the plan is offered again with them in its state (State.Kept, written
// by reoffer into the checkpoint of the approval, so a restart keeps them
// too). A plan re-planned from the person's feedback drops them: the
// feedback may change what each step needs.
//
// A sub-task is matched by its words, not its id: the same title and
// description. A step the person renamed or described anew, added or
// whose words changed runs again; a step only moved keeps its tool.

// keptStep is what one finished sub-task found: its card, the passages it
// gave the model and the tool calls it made (a later step's identical
// call is answered from them, as in one run).
type keptStep struct {
	Title    string             `json:"title"`
	Detail   string             `json:"detail,omitempty"`
	Card     api.Recommendation `json:"card"`
	Sources  []api.Source       `json:"sources,omitempty"`
	ToolRuns []ToolRun          `json:"tool_runs,omitempty"`
	Notice   string             `json:"notice,omitempty"`
}

// eventKept names the custom event of a sub-task that found its tool;
// payload keptStep.
const eventKept = "kept"

// sameStep says whether k was found for a step with st's words.
func (k keptStep) sameStep(st api.SubTask) bool {
	return k.Title == st.Title && k.Detail == st.Detail
}

// matchKept pairs each step of plan with a kept result for the same words,
// each kept result used at most once (two steps with the same words each
// need their own); nil where a step has none.
func matchKept(plan []api.SubTask, kept []keptStep) []*keptStep {
	out := make([]*keptStep, len(plan))
	used := make([]bool, len(kept))
	for i, st := range plan {
		for j := range kept {
			if !used[j] && kept[j].sameStep(st) {
				used[j], out[i] = true, &kept[j]
				break
			}
		}
	}
	return out
}

// keepFor is what stays of the finished sub-tasks for plan: for each of
// its steps the newest result with its words (found in the run that was
// cut, then kept from before it), in the plan's order. Bounded by the
// plan's length.
func keepFor(plan []api.SubTask, earlier, now []keptStep) []keptStep {
	var out []keptStep
	for _, k := range matchKept(plan, append(slices.Clone(now), earlier...)) {
		if k != nil {
			out = append(out, *k)
		}
	}
	return out
}

// keptOf is what sub-task st found, from the state its loop started in
// (from) and the one it ended in (done); false when it recorded no card.
func keptOf(st api.SubTask, from, done State) (keptStep, bool) {
	j := slices.IndexFunc(done.Recommendations, func(r api.Recommendation) bool { return r.SubTaskID == st.ID })
	if j < 0 {
		return keptStep{}, false
	}
	had := make(map[string]bool, len(from.ToolRuns))
	for _, r := range from.ToolRuns {
		had[r.Key] = true
	}
	var runs []ToolRun
	for _, r := range done.ToolRuns {
		if !had[r.Key] {
			runs = append(runs, r)
		}
	}
	k := keptStep{Title: st.Title, Detail: st.Detail, Card: done.Recommendations[j], Sources: without(done.Sources, from.Sources), ToolRuns: runs}
	if done.Notice != from.Notice {
		k.Notice = done.Notice
	}
	return k, true
}

// withKept is the state sub-task i of from's plan ends in when it reuses
// k instead of running: its card under the step's id now, its passages
// and tool calls added, and no model call of this run.
func withKept(from State, i int, k keptStep) State {
	s := from
	card := k.Card
	card.SubTaskID = from.Plan[i].ID
	s.Recommendations = append(slices.DeleteFunc(slices.Clone(from.Recommendations),
		func(r api.Recommendation) bool { return r.SubTaskID == card.SubTaskID }), card)
	s.Sources = append(slices.Clone(from.Sources), without(k.Sources, from.Sources)...)
	had := make(map[string]bool, len(from.ToolRuns))
	for _, r := range from.ToolRuns {
		had[r.Key] = true
	}
	s.ToolRuns = slices.Clone(from.ToolRuns)
	for _, r := range k.ToolRuns {
		if !had[r.Key] {
			s.ToolRuns = append(s.ToolRuns, r)
		}
	}
	if k.Notice != "" {
		s.Notice = k.Notice
	}
	s.Current, s.StepOnly = i+1, i
	s.Retries, s.Usage = nil, usage{}
	return s
}

// reuse reports sub-task i's kept result as the loop's would be: its card
// in the trace (the reply shows it at once, as found) and the kept event.
func reuse(rt *graph.Runtime, s State, i int, done State) {
	card := done.Recommendations[slices.IndexFunc(done.Recommendations, func(r api.Recommendation) bool { return r.SubTaskID == s.Plan[i].ID })]
	at := s
	at.Current = i
	ev := say(api.TraceStepRecommend, stepArgs(at, "step", s.Plan[i].Title, "tool", card.Tool)...).event(api.TraceEvaluation, rt.Node())
	ev.Recommendation = &card
	rt.Emit(eventTrace, ev)
}
