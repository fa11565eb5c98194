// The person's decisions (decisions.go): plans and tool calls approved,
// revised, refused or cut short, and offered again.

package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// planner proposes a plan on a new message and finishes on a decision.
func planner(t *testing.T, decisions *[]api.ApprovalDecision) responderFunc {
	return func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		out.Trace(api.TraceEvent{Kind: api.TracePlanning, Node: "planner"})
		if turn.Decision == nil {
			out.Text("Here is a plan.")
			return api.TurnResult{Plan: &api.PlanApproval{Version: "v1", Round: 1, Task: turn.Text, SubTasks: []api.SubTask{{ID: "1", Title: "Script"}, {ID: "2", Title: "Video"}}}}, nil
		}
		if turn.Stored != nil && !turn.Stored() {
			return api.TurnResult{}, nil // refused: acts on nothing
		}
		*decisions = append(*decisions, *turn.Decision)
		out.Text("Guide for " + string(turn.Decision.Action))
		return api.TurnResult{}, nil
	}
}

func TestPlanApprovalFlow(t *testing.T) {
	var decisions []api.ApprovalDecision
	svc, st, rec := newService(t, planner(t, &decisions))
	ctx := context.Background()
	ack, err := svc.Send(ctx, "", "유튜브 쇼츠 만들기")
	if err != nil {
		t.Fatal(err)
	}
	req := rec.wait(t, api.EventApproval).(api.ApprovalRequired)
	if req.Approval.Round != 1 || len(req.Approval.SubTasks) != 2 || req.MessageID != ack.AssistantMessageID {
		t.Fatalf("approval = %+v", req)
	}
	trace := rec.wait(t, api.EventTrace).(api.TraceEvent)
	if trace.SessionID != ack.SessionID || trace.TurnID != ack.TurnID || trace.Kind != api.TracePlanning {
		t.Fatalf("trace = %+v", trace)
	}
	waitIdle(t, svc, ack.SessionID)
	sess, _ := st.Session(ctx, ack.SessionID)
	msgs, _ := st.Messages(ctx, ack.SessionID)
	if !sess.PendingApproval || msgs[1].Status != api.StatusAwaitingApproval || msgs[1].Result.Plan == nil {
		t.Fatalf("pending not stored: %+v %+v", sess, msgs[1])
	}
	// A new message is refused while the plan waits, and nothing is saved;
	// so is a bad decision.
	if _, err := svc.Send(ctx, ack.SessionID, "something else"); codeOf(err) != api.ErrPlanWaiting {
		t.Fatalf("new message while a plan waits: %v", err)
	}
	if again, _ := st.Messages(ctx, ack.SessionID); len(again) != len(msgs) {
		t.Fatalf("a refused message was saved: %d messages, want %d", len(again), len(msgs))
	}
	for d, code := range map[*api.ApprovalDecision]api.ErrorCode{{Action: "maybe", Version: "v1"}: api.ErrUnknownDecision, {Action: api.ActionRevise, Feedback: "  ", Version: "v1"}: api.ErrFeedbackEmpty} {
		if _, err := svc.Decide(ctx, ack.SessionID, *d); codeOf(err) != code {
			t.Fatalf("decision %+v: %v, want %s", *d, err, code)
		}
	}
	// A decision that does not name the plan it answers, or names another,
	// is refused with the plan that waits, and nothing is saved.
	for _, v := range []string{"", "v0"} {
		_, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: v})
		var ce *Error
		if !errors.As(err, &ce) || ce.Info.Code != api.ErrPlanChanged || ce.Info.Awaiting == nil || ce.Info.Awaiting.Plan == nil ||
			ce.Info.Awaiting.Plan.Version != "v1" || ce.Info.Awaiting.MessageID != ack.AssistantMessageID {
			t.Fatalf("decision for version %q: %v %+v", v, err, ce)
		}
	}
	if again, _ := st.Messages(ctx, ack.SessionID); len(again) != len(msgs) {
		t.Fatalf("a refused decision was saved: %d messages, want %d", len(again), len(msgs))
	}
	edited := []api.SubTask{{ID: "2", Title: "Video first"}, {ID: "1", Title: "Script"}}
	dack, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, SubTasks: edited, Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	if len(decisions) != 1 || decisions[0].SubTasks[0].Title != "Video first" {
		t.Fatalf("responder got %+v", decisions)
	}
	msgs, _ = st.Messages(ctx, ack.SessionID)
	sess, _ = st.Session(ctx, ack.SessionID)
	if sess.PendingApproval || len(msgs) != 4 || msgs[2].ID != dack.UserMessage.ID || msgs[2].Content != "✓ Approved the plan (2 steps, edited)." || msgs[3].Content != "Guide for approve" {
		t.Fatalf("after decision: %+v %+v", sess, msgs)
	}
	if d := msgs[2].Decision; d == nil || d.Version != "v1" || len(d.SubTasks) != 2 || d.SubTasks[0].Title != "Video first" {
		t.Fatalf("the decision is not kept with its message: %+v", d)
	}
	_, err = svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionCancel, Version: "v1"})
	if ce := (*Error)(nil); !errors.As(err, &ce) || ce.Info.Code != api.ErrPlanChanged || ce.Info.Awaiting != nil {
		t.Fatalf("decision with no plan waiting: %v", err)
	}
	if err := st.DeleteSession(ctx, ack.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Send(ctx, ack.SessionID, "hello?"); codeOf(err) != api.ErrSessionNotFound {
		t.Fatalf("message to a deleted conversation: %v", err)
	}
}

// A decision whose work fails gets its approval offered again by the
// responder (edits kept, a new version): the reply keeps its error and
// waits, the session waits for the new version only, and approving that
// goes on. A responder with nothing to offer again leaves the session free.
func TestFailedDecisionOffersTheApprovalAgain(t *testing.T) {
	fail, offer := true, true
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		if turn.Decision == nil {
			return api.TurnResult{Plan: &api.PlanApproval{Version: "v1", Round: 1, SubTasks: []api.SubTask{{ID: "s1", Title: "a"}}}}, nil
		}
		if fail {
			out.Text("half a guide")
			res := api.TurnResult{}
			if offer {
				res.Plan = &api.PlanApproval{Version: "v2", Round: 1, SubTasks: turn.Decision.SubTasks, Again: api.AgainFailed}
			}
			return res, errors.New("ollama went away")
		}
		out.Text("the guide")
		return api.TurnResult{}, nil
	}))
	ctx := context.Background()
	ack, _ := svc.Send(ctx, "", "plan my video")
	waitIdle(t, svc, ack.SessionID)
	edited := []api.SubTask{{ID: "s1", Title: "a, edited"}}
	dack, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: "v1", SubTasks: edited})
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	if sess, _ := st.Session(ctx, ack.SessionID); !sess.PendingApproval {
		t.Fatal("the plan is no longer waiting after the decision's turn failed")
	}
	msgs, _ := st.Messages(ctx, ack.SessionID)
	last := msgs[len(msgs)-1]
	if last.ID != dack.AssistantMessageID || last.Status != api.StatusAwaitingApproval || last.Error == nil || last.Result.Plan == nil ||
		last.Result.Plan.Version != "v2" || last.Result.Plan.SubTasks[0].Title != "a, edited" || last.Content != "half a guide" {
		t.Fatalf("the failed reply does not offer the plan again: %+v", last)
	}
	if req := rec.wait(t, api.EventApproval).(api.ApprovalRequired); req.Approval.Version != "v1" {
		t.Fatalf("first approval event %+v", req)
	}
	if _, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: "v1"}); codeOf(err) != api.ErrPlanChanged {
		t.Fatalf("the old version still answers: %v", err)
	}
	fail = false
	if _, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: "v2"}); err != nil {
		t.Fatalf("approving again: %v", err)
	}
	waitIdle(t, svc, ack.SessionID)
	msgs, _ = st.Messages(ctx, ack.SessionID)
	if last := msgs[len(msgs)-1]; last.Content != "the guide" || last.Status != api.StatusComplete {
		t.Fatalf("last message: %+v", last)
	}
	if sess, _ := st.Session(ctx, ack.SessionID); sess.PendingApproval {
		t.Fatal("still pending after a successful decision")
	}

	// Nothing offered again: the turn failed, and the session takes messages.
	fail, offer = true, false
	ack, _ = svc.Send(ctx, "", "plan another video")
	waitIdle(t, svc, ack.SessionID)
	if _, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	if sess, _ := st.Session(ctx, ack.SessionID); sess.PendingApproval {
		t.Fatal("waiting with nothing offered")
	}
	if _, err := svc.Send(ctx, ack.SessionID, "hello"); err != nil {
		t.Fatalf("a new message after the failed decision: %v", err)
	}
	waitIdle(t, svc, ack.SessionID)
}

// Of 15 decisions sent at once for one plan, mixed approve, revise and
// cancel, exactly one applies; the others are refused with "the plan
// changed" and what waits now, and the responder sees only the one. A
// revise that wins brings a new plan, which the old version cannot
// answer: the next round decides on that, until nothing waits.
func TestConcurrentDecisionsOneApplies(t *testing.T) {
	var mu sync.Mutex
	var seen []api.ApprovalDecision
	plans := 0
	svc, st, _ := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		if turn.Stored != nil && !turn.Stored() {
			return api.TurnResult{}, nil
		}
		newPlan := func() (api.TurnResult, error) {
			mu.Lock()
			plans++
			v := fmt.Sprintf("v%d", plans)
			mu.Unlock()
			return api.TurnResult{Plan: &api.PlanApproval{Version: v, Round: plans, SubTasks: []api.SubTask{{ID: "s1", Title: v}}}}, nil
		}
		if turn.Decision == nil {
			return newPlan()
		}
		mu.Lock()
		seen = append(seen, *turn.Decision)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond) // the work after a decision takes a while
		if turn.Decision.Action == api.ActionRevise {
			return newPlan()
		}
		out.Text("done")
		return api.TurnResult{}, nil
	}))
	ctx := context.Background()
	ack, err := svc.Send(ctx, "", "plan my video")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	actions := []api.ApprovalAction{api.ActionApprove, api.ActionRevise, api.ActionCancel}
	var stale []string
	for round := 1; ; round++ {
		aw, err := st.Awaiting(ctx, ack.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		if aw == nil {
			break
		}
		if round > 20 {
			t.Fatal("still waiting after 20 rounds")
		}
		cur := aw.Plan.Version
		errs := make([]error, 15)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range errs {
			d := api.ApprovalDecision{Action: actions[(i+round)%3], Version: cur, Feedback: fmt.Sprintf("change %d", i)}
			wg.Go(func() {
				<-start
				_, errs[i] = svc.Decide(ctx, ack.SessionID, d)
			})
		}
		close(start)
		wg.Wait()
		applied := 0
		for _, err := range errs {
			switch codeOf(err) {
			case "":
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				applied++
			case api.ErrPlanChanged:
			default:
				t.Fatalf("round %d: a decision was refused with %v, want %s", round, err, api.ErrPlanChanged)
			}
		}
		if applied != 1 {
			t.Fatalf("round %d: %d of 15 decisions applied, want exactly 1", round, applied)
		}
		waitIdle(t, svc, ack.SessionID)
		mu.Lock()
		if len(seen) != round || seen[round-1].Version != cur {
			t.Fatalf("round %d: the responder saw %+v", round, seen)
		}
		mu.Unlock()
		stale = append(stale, cur)
		// Every version decided before is refused, with what waits now.
		now, _ := st.Awaiting(ctx, ack.SessionID)
		for _, v := range stale {
			_, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionRevise, Feedback: "again", Version: v})
			var ce *Error
			if !errors.As(err, &ce) || ce.Info.Code != api.ErrPlanChanged || (now == nil) != (ce.Info.Awaiting == nil) ||
				now != nil && ce.Info.Awaiting.Plan.Version != now.Plan.Version {
				t.Fatalf("round %d: a decision for %s: %v, want the current plan %+v", round, v, err, now)
			}
		}
	}
	msgs, _ := st.Messages(ctx, ack.SessionID)
	decisions := 0
	for _, m := range msgs {
		if m.Decision != nil {
			decisions++
		}
	}
	if decisions != len(stale) {
		t.Fatalf("%d decisions saved for %d rounds", decisions, len(stale))
	}
}

// A decision whose turn a killed process cut short waits again after the
// restart: Recover asks the responder (Reofferer) with the decision as
// made, edits included, and the interrupted reply offers what it returns.
func TestRecoverCutDecision(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// As chat would leave it when killed in the decision's turn.
	first, plan := store.NewTurn("s1", "plan my video")
	plan.Status = api.StatusAwaitingApproval
	plan.Result = &api.TurnResult{Plan: &api.PlanApproval{Version: "v1", SubTasks: []api.SubTask{{ID: "s1", Title: "a"}}}}
	if err := st.StartTurn(ctx, "plan my video", first, plan); err != nil {
		t.Fatal(err)
	}
	if err := st.EndTurn(ctx, plan, "v1", false); err != nil {
		t.Fatal(err)
	}
	edited := []api.SubTask{{ID: "s1", Title: "a, edited"}}
	user, reply := store.NewTurn("s1", "✓ Approved the plan (1 steps, edited).")
	user.Decision = &api.ApprovalDecision{Action: api.ActionApprove, Version: "v1", SubTasks: edited}
	if err := st.StartTurn(ctx, "", user, reply); err != nil {
		t.Fatal(err)
	}
	reply.Content = "half"
	if err := st.UpdateMessage(ctx, reply); err != nil {
		t.Fatal(err)
	}
	if n, err := st.MarkInterrupted(ctx); err != nil || n != 1 {
		t.Fatalf("mark interrupted: %d %v", n, err)
	}

	r := &reofferer{}
	svc := New(st, r, newRecorder(), Options{})
	n, err := svc.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("recover: %d %v", n, err)
	}
	if len(r.got) != 1 || r.got[0].Version != "v1" || r.got[0].SubTasks[0].Title != "a, edited" {
		t.Fatalf("the responder was asked with %+v", r.got)
	}
	msgs, _ := st.Messages(ctx, "s1")
	last := msgs[len(msgs)-1]
	if last.ID != reply.ID || last.Status != api.StatusAwaitingApproval || last.Result.Plan.Version != "v2" ||
		last.Result.Plan.SubTasks[0].Title != "a, edited" || last.Content != "half\n\nAgain." {
		t.Fatalf("the cut reply does not offer the plan again: %+v", last)
	}
	if aw, _ := st.Awaiting(ctx, "s1"); aw == nil || aw.Plan.Version != "v2" {
		t.Fatalf("the session waits for %+v", aw)
	}
	if n, _ := svc.Recover(ctx); n != 0 {
		t.Fatalf("recovered twice: %d", n)
	}
	svc.Shutdown()
	st.Close()
}

type reofferer struct{ got []api.ApprovalDecision }

func (r *reofferer) Respond(context.Context, Turn, Output) (api.TurnResult, error) {
	return api.TurnResult{}, nil
}

func (r *reofferer) Reoffer(_ context.Context, _ string, d api.ApprovalDecision) (api.TurnResult, error) {
	r.got = append(r.got, d)
	return api.TurnResult{Response: "Again.", Plan: &api.PlanApproval{Version: "v2", SubTasks: d.SubTasks, Again: api.AgainInterrupted}}, nil
}

// A tool call waits like a plan: its own event, the session waiting for
// the call's id; a decision names the call, and one for another call or
// action kind is refused with what waits.
func TestToolCallApproval(t *testing.T) {
	var got []api.ApprovalDecision
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		if turn.Stored != nil && !turn.Stored() {
			return api.TurnResult{}, nil
		}
		if turn.Decision == nil {
			out.Text("May I?")
			return api.TurnResult{ToolCall: &api.ToolApproval{ID: "c1", Tool: "read_file", Arguments: `{"path":"a.md"}`, Reason: api.ReasonUntrusted}}, nil
		}
		got = append(got, *turn.Decision)
		out.Text("read it")
		return api.TurnResult{ToolCalls: []api.ToolCallRecord{{ID: "c1", Tool: "read_file", Arguments: `{"path":"a.md"}`, Decision: api.ToolDecidedOnce}}}, nil
	}))
	ctx := context.Background()
	ack, _ := svc.Send(ctx, "", "what is in a.md?")
	req := rec.wait(t, api.EventToolApproval).(api.ToolApprovalRequired)
	if req.ToolCall.ID != "c1" || req.MessageID != ack.AssistantMessageID {
		t.Fatalf("tool approval event %+v", req)
	}
	waitIdle(t, svc, ack.SessionID)
	// A message, an edit or another answer is refused, naming the tool
	// call (not a plan) and what to do; the call comes with it.
	for name, try := range map[string]func() error{
		"send":       func() error { _, err := svc.Send(ctx, ack.SessionID, "never mind"); return err },
		"regenerate": func() error { _, err := svc.Regenerate(ctx, ack.SessionID); return err },
		"edit":       func() error { _, err := svc.EditLast(ctx, ack.SessionID, "what is in b.md?"); return err },
	} {
		err := try()
		var ce *Error
		if !errors.As(err, &ce) || ce.Info.Code != api.ErrToolCallWaiting || !strings.Contains(ce.Info.Message, "tool call") ||
			strings.Contains(ce.Info.Message, "plan") || !strings.Contains(ce.Info.Hint, "deny") ||
			ce.Info.Awaiting == nil || ce.Info.Awaiting.ToolCall == nil || ce.Info.Awaiting.ToolCall.ID != "c1" {
			t.Fatalf("%s while a call waits: %v", name, err)
		}
	}
	for _, d := range []api.ApprovalDecision{{Action: api.ActionRunOnce, Version: "c0"}, {Action: api.ActionApprove, Version: "c2"}} {
		_, err := svc.Decide(ctx, ack.SessionID, d)
		var ce *Error
		want := api.ErrToolCallChanged
		if d.Action == api.ActionApprove {
			want = api.ErrPlanChanged
		}
		if !errors.As(err, &ce) || ce.Info.Code != want || ce.Info.Awaiting == nil || ce.Info.Awaiting.ToolCall == nil || ce.Info.Awaiting.ToolCall.ID != "c1" {
			t.Fatalf("decision %+v: %v", d, err)
		}
	}
	if _, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionRunOnce, Version: "c1"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	msgs, _ := st.Messages(ctx, ack.SessionID)
	if len(got) != 1 || got[0].Version != "c1" || len(msgs) != 4 || msgs[2].Content != "▶ Allowed the tool call once." ||
		msgs[3].Result.ToolCalls[0].Decision != api.ToolDecidedOnce {
		t.Fatalf("after the decision: %+v %+v", got, msgs)
	}
	if sess, _ := st.Session(ctx, ack.SessionID); sess.PendingApproval {
		t.Fatal("still waiting")
	}
}

// Deciding on a plan tells the windows at once that the conversation no
// longer waits (the sidebar's "plan waiting"), before the guide is written.
func TestDecisionAnnouncesTheSessionAtOnce(t *testing.T) {
	release := make(chan struct{})
	svc, _, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		if turn.Decision == nil {
			return api.TurnResult{Plan: &api.PlanApproval{Version: "v1", Round: 1, Task: turn.Text, SubTasks: []api.SubTask{{ID: "1", Title: "Script"}}}}, nil
		}
		<-release // the guide takes its time
		return api.TurnResult{}, nil
	}))
	defer close(release)
	ctx := context.Background()
	ack, err := svc.Send(ctx, "", "make a video")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	rec.mu.Lock()
	before := len(rec.events)
	rec.mu.Unlock()
	if _, err := svc.Decide(ctx, ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		rec.mu.Lock()
		for _, e := range rec.events[before:] {
			if c, ok := e.payload.(api.SessionsChanged); ok && e.name == api.EventSessions && c.SessionID == ack.SessionID {
				rec.mu.Unlock()
				return
			}
		}
		rec.mu.Unlock()
		select {
		case <-rec.notify:
		case <-deadline:
			t.Fatal("no sessions event while the approved turn runs")
		}
	}
}

// The reply that proposed a plan keeps what the person decided, and the
// steps as they approved them (renamed, reordered, one removed), so the
// conversation read back from the store shows the plan that was carried
// out; it no longer waits.
func TestDecidedPlanIsStoredAsDecided(t *testing.T) {
	proposed := []api.SubTask{{ID: "1", Title: "Script"}, {ID: "2", Title: "Edit"}, {ID: "3", Title: "Upload"}}
	edited := []api.SubTask{{ID: "2", Title: "Edit the video"}, {ID: "1", Title: "Write the script"}}
	for _, tc := range []struct {
		name string
		d    api.ApprovalDecision
		want []api.SubTask
	}{
		{"approved with edits", api.ApprovalDecision{Action: api.ActionApprove, SubTasks: edited}, edited},
		{"approved as proposed", api.ApprovalDecision{Action: api.ActionApprove}, proposed},
		{"cancelled", api.ApprovalDecision{Action: api.ActionCancel}, proposed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, st, _ := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
				if turn.Decision == nil {
					return api.TurnResult{Plan: &api.PlanApproval{Version: "v1", Round: 1, Task: turn.Text, SubTasks: proposed}}, nil
				}
				return api.TurnResult{Response: "done"}, nil
			}))
			ctx := context.Background()
			ack, err := svc.Send(ctx, "", "make a video")
			if err != nil {
				t.Fatal(err)
			}
			waitIdle(t, svc, ack.SessionID)
			tc.d.Version = "v1"
			if _, err := svc.Decide(ctx, ack.SessionID, tc.d); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, svc, ack.SessionID)
			msgs, err := st.Messages(ctx, ack.SessionID)
			if err != nil || len(msgs) != 4 {
				t.Fatalf("messages %+v %v", msgs, err)
			}
			plan := msgs[1]
			if plan.Status != api.StatusComplete || plan.Result == nil || plan.Result.Plan == nil {
				t.Fatalf("the plan's reply %+v", plan)
			}
			if got := plan.Result.Plan; got.Decided != tc.d.Action || !cmp.Equal(got.SubTasks, tc.want) {
				t.Fatalf("stored plan %+v, want decided %q with %+v", got, tc.d.Action, tc.want)
			}
			hist, err := st.History(ctx, ack.SessionID)
			if err != nil || hist[1].Status != api.StatusComplete {
				t.Fatalf("history %+v %v", hist, err)
			}
		})
	}
}
