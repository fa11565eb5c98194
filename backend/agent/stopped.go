package agent

import (
	"slices"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// sayWhatWasDone fills result, an approved plan offered again after its
// work was cut (api.AgainStopped, api.AgainFailed), with the cards its
// finished sub-tasks found (kept: State.Kept of the plan offered again),
// in the plan's order, so the reply keeps them; a plan the person stopped
// says in one line which steps got a tool, which did not, and that
// approving it again goes on with those (keep.go). That line is the only
// message about the stop: the plan dialog has no notice of its own (it
// said nearly the same words, in the app's register, under the
// assistant's).
func sayWhatWasDone(result *api.TurnResult, lang string, again api.AgainReason, kept []keptStep) {
	plan := result.Plan
	if plan == nil || plan.Again == "" || result.TextKey == "" {
		return // no plan offered again, or a problem the check wrote
	}
	var done, left []string
	var recs []api.Recommendation
	for i, k := range matchKept(plan.SubTasks, kept) {
		st := plan.SubTasks[i]
		if k == nil {
			left = append(left, quote(st.Title))
			continue
		}
		card := k.Card
		card.SubTaskID = st.ID
		recs = append(recs, card)
		done = append(done, quote(st.Title))
	}
	if len(recs) > 0 {
		result.Recommendations, result.Steps = recs, slices.Clone(plan.SubTasks)
	}
	if again != api.AgainStopped {
		return
	}
	key, args := keyPlanStopped, map[string]string{"done": strings.Join(done, ", "), "left": strings.Join(left, ", ")}
	switch {
	case len(done) == 0:
		key, args = keyPlanStoppedNone, nil
	case len(left) == 0:
		key, args = keyPlanStoppedGuide, nil
	}
	result.Response, _ = Line(key, args, lang)
	result.TextKey, result.TextArgs = key, args
}

// quote puts a step's title in quotation marks, as the lines name things.
func quote(title string) string { return "“" + title + "”" }

var (
	// msgPlanStopped: some steps got a tool before the person stopped.
	// {done} and {left} are the steps' titles, quoted.
	msgPlanStopped = phrases{
		ko: "계획 작업을 중지하셨어요. 도구를 찾은 단계(위에 있어요): {done}. 하지 못한 단계: {left}. 안내서도 아직 쓰지 않았어요. 승인한 계획 그대로 여기 있어요 — 다시 승인하면 찾은 도구는 그대로 두고 남은 단계부터 이어서 진행해요. 제목이나 설명을 고친 단계는 도구를 다시 찾아요.",
		en: "You stopped the work on the plan. Tools found (above) for: {done}. Not done: {left}, and the guide. Here is the plan as you approved it — approve it again to go on with the steps left, keeping the tools found; a step whose title or description you change is looked at again.",
	}
	msgPlanStoppedNone = phrases{
		ko: "계획 작업을 중지하셨어요. 아직 어느 단계의 도구도 찾기 전이었고, 안내서도 쓰지 않았어요. 승인한 계획 그대로 여기 있어요 — 다시 승인하면 진행해요.",
		en: "You stopped the work on the plan before a tool was found for any step; no guide was written. Here is the plan as you approved it — approve it again to run it.",
	}
	msgPlanStoppedGuide = phrases{
		ko: "계획 작업을 중지하셨어요. 모든 단계의 도구를 찾았지만(위에 있어요) 안내서는 다 쓰지 못했어요. 승인한 계획 그대로 여기 있어요 — 다시 승인하면 찾은 도구로 안내서만 다시 써요. 제목이나 설명을 고친 단계는 도구를 다시 찾아요.",
		en: "You stopped the work on the plan after a tool was found for every step (above); the guide was not finished. Here is the plan as you approved it — approve it again to write the guide with the tools found; a step whose title or description you change is looked at again.",
	}
)
