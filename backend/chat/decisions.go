package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// The person's decisions: a plan to approve, revise or cancel, a tool call
// to run once, always or deny; checked against what the session waits on,
// described in the conversation, and offered again after a crash.

// Decide answers the plan or the tool call a session is waiting on, and
// runs the rest of the turn like Send: the reply arrives as events. A
// decision whose Version is not what the session waits for is refused
// with ErrPlanChanged or ErrToolCallChanged and what waits now.
func (s *Service) Decide(ctx context.Context, sessionID string, d api.ApprovalDecision) (api.SendAck, error) {
	t, err := s.beginDecision(ctx, sessionID, d, watch{})
	if err != nil {
		return api.SendAck{}, err
	}
	return t.ack, nil
}

// AskDecision is Decide run to its end, for the command line.
func (s *Service) AskDecision(ctx context.Context, sessionID string, d api.ApprovalDecision, onText func(string), opts ...AskOption) (api.Message, error) {
	t, err := s.beginDecision(ctx, sessionID, d, watching(onText, opts))
	if err != nil {
		return api.Message{}, err
	}
	return s.wait(ctx, t)
}

// PendingDecision returns the reply whose question the session waits on
// (its Result.Plan is the plan, or its Result.ToolCall the tool call); ok
// is false when nothing waits.
func (s *Service) PendingDecision(ctx context.Context, sessionID string) (reply api.Message, ok bool, err error) {
	sess, err := s.store.Session(ctx, sessionID)
	if err != nil || !sess.PendingApproval {
		return api.Message{}, false, sessionError(err)
	}
	msgs, err := s.store.Messages(ctx, sessionID)
	if err != nil {
		return api.Message{}, false, err
	}
	// The newest question: after an approval whose work failed, the
	// session waits on it again, with the failed reply after it.
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Status == api.StatusAwaitingApproval && m.Result != nil && waits(*m.Result) {
			return m, true, nil
		}
	}
	return api.Message{}, false, fmt.Errorf("session %s waits for a decision but holds no plan or tool call", sessionID)
}

func (s *Service) beginDecision(ctx context.Context, sessionID string, d api.ApprovalDecision, w watch) (*turn, error) {
	text, err := describeDecision(d)
	if err != nil {
		return nil, err
	}
	return s.start(ctx, sessionID, "", "", text, &d, w, false)
}

// describeDecision is how a decision appears in the conversation.
func describeDecision(d api.ApprovalDecision) (string, error) {
	switch d.Action {
	case api.ActionRunOnce:
		return "▶ Allowed the tool call once.", nil
	case api.ActionAlways:
		return "▶ Allowed the tool call, and this tool from now on.", nil
	case api.ActionDeny:
		return "✕ Denied the tool call.", nil
	case api.ActionApprove:
		if len(d.SubTasks) > 0 {
			return fmt.Sprintf("✓ Approved the plan (%d steps, edited).", len(d.SubTasks)), nil
		}
		return "✓ Approved the plan.", nil
	case api.ActionRevise:
		if strings.TrimSpace(d.Feedback) == "" {
			return "", userError(api.ErrFeedbackEmpty, "Say what should change in the plan.", "Write your feedback, then choose Re-plan.")
		}
		if err := Validate(d.Feedback); err != nil {
			return "", err
		}
		return "↻ Revise the plan: " + d.Feedback, nil
	case api.ActionCancel:
		return "✕ Cancelled the plan.", nil
	}
	return "", userError(api.ErrUnknownDecision, fmt.Sprintf("Unknown decision %q.", d.Action), "Approve, revise or cancel a plan; run once, always or deny a tool call.")
}

// awaitOther settles a decision that came while another turn of the
// session runs, so that of decisions sent at once exactly one applies and
// the others hear why, instead of "busy": after another decision the
// store took, this one answers something decided; after one it refused,
// this one may still apply. A turn that is not a decision only blocks a
// decision for what it has just asked (it is finishing); any other is
// stale. It returns nil when the caller may try to claim the session again.
func (s *Service) awaitOther(ctx context.Context, sessionID string, d api.ApprovalDecision, other *turn) error {
	if other.decision != nil {
		select {
		case <-other.stored:
		case <-ctx.Done():
			return ctx.Err()
		}
		if other.ok {
			return s.decisionRefused(ctx, sessionID, d)
		}
	} else if aw, err := s.store.Awaiting(ctx, sessionID); err != nil || aw == nil || awaitingVersion(aw) != d.Version {
		return s.decisionRefused(ctx, sessionID, d)
	}
	select {
	case <-other.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// isToolAction tells a decision about a tool call from one about a plan.
func isToolAction(a api.ApprovalAction) bool {
	return a == api.ActionRunOnce || a == api.ActionAlways || a == api.ActionDeny
}

// decisionRefused says why a decision was not taken: what it answered no
// longer waits. The refusal carries what waits now, so the person sees it
// instead of having their decision applied to something they never saw.
func (s *Service) decisionRefused(ctx context.Context, sessionID string, d api.ApprovalDecision) error {
	aw, err := s.store.Awaiting(ctx, sessionID)
	if err != nil {
		return sessionError(err)
	}
	info := api.ErrorInfo{Code: api.ErrPlanChanged, Awaiting: aw}
	if isToolAction(d.Action) {
		info.Code = api.ErrToolCallChanged
	}
	switch {
	case aw == nil:
		info.Message, info.Hint = "This was already decided; nothing waits for a decision now.", "The reply to that decision is in the conversation."
	case info.Code == api.ErrPlanChanged:
		info.Message, info.Hint = "The plan changed; here is the current one.", "Look at it, then decide again."
	default:
		info.Message, info.Hint = "The tool call changed; here is what waits now.", "Look at it, then decide again."
	}
	return &Error{Info: info}
}

func awaitingVersion(aw *api.Awaiting) string {
	switch {
	case aw.Plan != nil:
		return aw.Plan.Version
	case aw.ToolCall != nil:
		return aw.ToolCall.ID
	}
	return ""
}

// waits reports whether a result asks the person for a decision.
func waits(r api.TurnResult) bool { return r.Plan != nil || r.ToolCall != nil }

// announceAwaiting tells every window that a reply waits for the person.
func (s *Service) announceAwaiting(turnID string, reply api.Message) {
	r := reply.Result
	if r.Plan != nil {
		s.events.Emit(api.EventApproval, api.ApprovalRequired{
			SessionID: reply.SessionID, TurnID: turnID, MessageID: reply.ID, Approval: *r.Plan,
		})
	} else {
		s.events.Emit(api.EventToolApproval, api.ToolApprovalRequired{
			SessionID: reply.SessionID, TurnID: turnID, MessageID: reply.ID, ToolCall: *r.ToolCall,
		})
	}
	s.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: reply.SessionID})
}

// Recover offers again the decisions whose turns a killed process cut
// short (a person approved a plan, with edits, and the app was closed
// before the work on it finished): each waits for the person as it did,
// with what they decided, and the interrupted reply says so. It runs once
// at start, after the store marked cut replies interrupted and before any
// turn; it returns how many it offered again.
func (s *Service) Recover(ctx context.Context) (int, error) {
	cuts, err := s.store.CutDecisions(ctx)
	if err != nil || len(cuts) == 0 {
		return 0, err
	}
	r, canOffer := s.responder.(Reofferer)
	n := 0
	var errs []error
	for _, c := range cuts {
		reply := c.Reply
		if reply.ID == "" {
			// No reply to offer it in: stop waiting rather than wait forever.
			errs = append(errs, s.store.SetPendingApproval(ctx, c.SessionID, false))
			continue
		}
		waiting := ""
		if canOffer {
			res, err := r.Reoffer(ctx, c.SessionID, c.Decision)
			switch {
			case err != nil:
				s.opt.Logger.Warn("offer a cut decision again", "session", c.SessionID, "err", err)
				errs = append(errs, err)
			case waits(res):
				res.SessionID = c.SessionID
				reply.Status, reply.Result = api.StatusAwaitingApproval, &res
				reply.Content = strings.TrimSpace(reply.Content + "\n\n" + res.Response)
				waiting = awaitingVersion(&api.Awaiting{Plan: res.Plan, ToolCall: res.ToolCall})
				n++
			}
		}
		errs = append(errs, s.store.EndTurn(ctx, reply, waiting, true))
	}
	return n, errors.Join(errs...)
}
