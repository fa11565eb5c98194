package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// Decisions: a turn that carries the person's decision resumes the run
// waiting on a plan (approve_plan) or a tool call (the tools node's gate),
// answering the interrupt by its id. The decision must name the question
// it answers (api.ApprovalDecision.Version): the chat service checks it
// against the session in the same statement that takes the decision, and
// decide checks it against the checkpoint again, so a decision can never
// land on a plan the person has not seen.
//
// When the work after a decision does not finish (an error, Stop, or a
// killed process: Reoffer), the approval is offered again, as the person
// left it: the approved plan with their edits, a fresh version and a
// note (api.PlanApproval.Again). Nothing runs without the person:
// offering again makes no model call.

var _ chat.Reofferer = (*Agent)(nil)

// decide resumes the thread's run with the person's decision.
func (a *Agent) decide(ctx context.Context, cfg graph.Config, d api.ApprovalDecision) (graph.Result[State], error) {
	var zero graph.Result[State]
	snap, err := a.g.GetState(ctx, graph.Config{ThreadID: cfg.ThreadID})
	if errors.Is(err, graph.ErrNoCheckpoint) || err == nil && len(snap.Interrupts) == 0 {
		return zero, ErrNoPendingPlan
	}
	if err != nil {
		return zero, fmt.Errorf("load session %s: %w", cfg.ThreadID, err)
	}
	in := snap.Interrupts[0]
	var req approvalRequest
	if err := in.Decode(&req); err != nil {
		return zero, fmt.Errorf("read what session %s waits for: %w", cfg.ThreadID, err)
	}
	if v := req.version(); v != d.Version {
		return zero, &chat.Error{Info: api.ErrorInfo{Code: api.ErrPlanChanged,
			Message: "The decision answers something that no longer waits.", Hint: "Look at what waits now, then decide again."}}
	}
	return a.g.Resume(ctx, cfg, graph.Command{ResumeMap: map[string]any{in.ID: d}})
}

// isRefusal tells a decision refused before anything ran from a failure
// of the work after it.
func isRefusal(err error) bool {
	var ce *chat.Error
	return errors.As(err, &ce)
}

// Reoffer implements chat.Reofferer: the session's decision d was being
// carried out when the process was killed; the question waits again.
func (a *Agent) Reoffer(ctx context.Context, sessionID string, d api.ApprovalDecision) (api.TurnResult, error) {
	a.waitSession(ctx, sessionID)
	res, err := a.reoffer(ctx, sessionID, d, api.AgainInterrupted, nil)
	out := api.TurnResult{SessionID: sessionID, ToolsUsed: []string{}, Sources: []api.Source{}}
	if err != nil || !res.Interrupted() {
		return out, err
	}
	err = a.describeWait(&out, res)
	return out, err
}

// reoffer asks again for the decision d answered, from where the run
// waited for it, with why (again): the plan as the person approved it, or
// the tool call. It returns a result that is not interrupted when there
// is nothing to ask again (a simple answer's tool call whose work failed
// after it ran: the turn just failed). A plan offered again keeps what
// its finished sub-tasks found (kept: those of the run that was cut, and
// those kept from before it), for approving it again (keep.go).
func (a *Agent) reoffer(ctx context.Context, sessionID string, d api.ApprovalDecision, again api.AgainReason, kept []keptStep) (graph.Result[State], error) {
	var zero graph.Result[State]
	thread := graph.Config{ThreadID: sessionID}
	snap, err := a.g.GetState(ctx, thread)
	if errors.Is(err, graph.ErrNoCheckpoint) {
		return zero, nil
	}
	if err != nil {
		return zero, fmt.Errorf("load session %s: %w", sessionID, err)
	}
	upd := graph.Update{a.f.again.Set(string(again))}
	from := snap.CheckpointID
	if len(snap.Interrupts) > 0 {
		// The process died after taking the decision and before the run
		// moved past the question (the decision's answer may be saved):
		// ask again from a copy of that point, with the person's edits.
		var req approvalRequest
		if err := snap.Interrupts[0].Decode(&req); err != nil {
			return zero, fmt.Errorf("read what session %s waits for: %w", sessionID, err)
		}
		if req.version() != d.Version {
			return zero, nil // not the question d answered: nothing of d to offer
		}
		if req.Approval != nil && d.Action == api.ActionApprove {
			plan := snap.Values.Plan
			if len(d.SubTasks) > 0 {
				if edited, err := validateEdited(d.SubTasks); err == nil {
					plan = edited
					upd = append(upd, a.f.plan.Set(plan))
				}
			}
			upd = append(upd, a.f.kept.Set(keepFor(plan, snap.Values.Kept, kept)))
		}
	} else {
		// The run went on after the decision and stopped: go back to this
		// run's plan approval, with the plan as approved.
		if from, err = a.approvalPoint(ctx, sessionID); err != nil || from == "" {
			return zero, err
		}
		if snap.Values.Decision == string(api.ActionApprove) {
			upd = append(upd, a.f.plan.Set(snap.Values.Plan), a.f.kept.Set(keepFor(snap.Values.Plan, snap.Values.Kept, kept)))
		}
	}
	if _, err := a.g.UpdateState(ctx, graph.Config{ThreadID: sessionID, CheckpointID: from}, upd, ""); err != nil {
		return zero, fmt.Errorf("offer again in session %s: %w", sessionID, err)
	}
	res, err := a.g.Resume(ctx, graph.Config{ThreadID: sessionID, StepLimit: a.opt.StepLimit, Durability: graph.DurabilityExit}, graph.Command{})
	if err != nil {
		return zero, fmt.Errorf("offer again in session %s: %w", sessionID, err)
	}
	return res, nil
}

// approvalPoint is the checkpoint of the thread's newest run just before
// its plan approval, or "" when the run has none (a simple answer).
func (a *Agent) approvalPoint(ctx context.Context, sessionID string) (string, error) {
	history, err := a.g.History(ctx, graph.Config{ThreadID: sessionID}, 0)
	if err != nil {
		return "", fmt.Errorf("load session %s: %w", sessionID, err)
	}
	for _, snap := range history { // newest first, back to this run's start
		for _, node := range snap.Next {
			if a.approvers[node] {
				return snap.CheckpointID, nil
			}
		}
		if snap.Metadata.Source == graph.SourceInput {
			break
		}
	}
	return "", nil
}

// describeWait fills result with what the interrupted run waits for and
// the words that ask for it.
func (a *Agent) describeWait(result *api.TurnResult, res graph.Result[State]) error {
	var req approvalRequest
	if err := res.Interrupts[0].Decode(&req); err != nil {
		return fmt.Errorf("read what the run waits for: %w", err)
	}
	lang := res.State.Lang
	switch {
	case req.ToolCall != nil:
		tc := *req.ToolCall
		result.ToolCall = &tc
		result.Response = fmt.Sprintf(msgToolAsk.in(lang), tc.Tool)
		result.TextKey, result.TextArgs = keyToolAsk, map[string]string{"tool": tc.Tool}
		if tc.Again != "" {
			result.Response = fmt.Sprintf(msgToolAgain.in(lang), tc.Tool)
			result.TextKey = keyToolAgain
			if tc.Again == api.AgainStopped { // the person's Stop, not the app closing
				result.Response = fmt.Sprintf(msgToolStopped.in(lang), tc.Tool)
				result.TextKey = keyToolStopped
			}
		}
	case req.Approval != nil:
		plan := *req.Approval
		result.Plan = &plan
		intro, key := msgPlanIntro.in(lang), keyPlanIntro
		if req.Note != "" {
			intro, key = strings.TrimSpace(req.Note+" "+intro), keyPlanFallback
			if req.Note == msgPlanRecovered.in(lang) {
				key = keyPlanRecovered
			}
		}
		if plan.Again != "" {
			intro, key = msgPlanAgain.in(lang), keyPlanAgain
			if plan.Again == api.AgainFailed {
				intro, key = msgPlanFailed.in(lang), keyPlanFailed
			}
		}
		if req.Problem != "" {
			// The problem's words come from the plan's check, in English
			// inside a sentence of the person's language: kept as written.
			intro, key = req.Problem, ""
		}
		result.Response, result.TextKey = intro, key
	default:
		return errors.New("the run waits for something unknown")
	}
	return nil
}

var (
	msgToolAsk = phrases{
		ko: "%s 도구를 사용하려고 해요. 실행할지 정해 주세요.",
		en: "I would like to use %s. Please decide whether it may run.",
	}
	msgToolAgain = phrases{
		ko: "%s 도구 호출을 결정한 뒤 작업이 끝나기 전에 Wayfinder가 닫혔어요. 이미 실행됐을 수도 있어요. 다시 정해 주세요.",
		en: "Wayfinder closed after you decided on this %s call and before the work finished; it may have run already. Please decide again.",
	}
	msgToolStopped = phrases{
		ko: "%s 도구 호출이 끝나기 전에 중지하셨어요. 일부는 이미 실행됐을 수 있어요. 다시 실행하거나 거부해 주세요.",
		en: "You stopped this %s call before it finished; it may have done part of its work. Run it again, or deny it.",
	}
	msgPlanAgain = phrases{
		ko: "승인한 계획의 작업이 끝나기 전에 멈췄어요. 수정한 내용 그대로 여기 있어요 — 다시 승인하면 이어서 진행해요.",
		en: "The work on the plan you approved stopped before it finished. Here it is, with your edits — approve it again to go on.",
	}
	msgPlanFailed = phrases{
		ko: "승인한 계획의 작업이 오류로 끝나기 전에 멈췄어요. 수정한 내용 그대로 여기 있어요 — 다시 승인하면 한 번 더 해 볼게요. 도구를 찾은 단계는 제목과 설명을 고치지 않으면 그대로 둬요.",
		en: "The work on the plan you approved failed before it finished. Here it is, with your edits — approve it again to try once more; a step that has a tool keeps it unless you change its title or description.",
	}
)
