package agent

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// stepCalls counts the fake model's calls about each sub-task (the
// reviewer's and the scout's, which name it).
type stepCalls struct {
	mu    sync.Mutex
	bySub map[string]int
}

func countCalls(e *env) *stepCalls {
	c := &stepCalls{bySub: map[string]int{}}
	e.fake.OnFunc(func(req ollama.ChatRequest) bool {
		if !isReviewer(req) && !isScout(req) {
			return false
		}
		id := "?"
		for _, m := range req.Messages {
			if sm := subTaskRe.FindStringSubmatch(m.Content); m.Role == "user" && sm != nil {
				id = sm[1]
			}
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.bySub[id]++
		return false // counted only: the rules after it answer
	}, nil)
	return c
}

// reset starts counting again and returns what was counted.
func (c *stepCalls) reset() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	bySub := c.bySub
	c.bySub = map[string]int{}
	return bySub
}

// The person approves a three-step plan and stops it once the first step
// has its tool (its reviewer answered, the second's hangs); approving the
// plan offered again asks the model about the steps that had no tool
// only, or also about a step the person changed, and the guide has all
// three cards. So it does after a restart between the stop and the
// approval: what was kept is in the checkpoint.
func TestApprovingAgainKeepsTheStepsDone(t *testing.T) {
	edit := func(p *api.PlanApproval) []api.SubTask {
		steps := slices.Clone(p.SubTasks)
		steps[0].Detail = "60초 분량의 카페 소개 대본"
		return steps
	}
	reorder := func(p *api.PlanApproval) []api.SubTask {
		s := p.SubTasks
		return []api.SubTask{s[1], s[0], s[2]}
	}
	for _, tc := range []struct {
		name    string
		edit    func(*api.PlanApproval) []api.SubTask // the person's edits before approving again; nil: none
		restart bool
		fail    bool           // the second step fails instead of being stopped
		asked   map[string]int // model calls about each sub-task after approving again
		cards   []string       // the final reply's cards, in the plan's order
	}{
		{"unchanged", nil, false, false, map[string]int{"s2": 1, "s3": 1}, []string{"ChatGPT", "Vrew", "Canva"}},
		{"after a restart", nil, true, false, map[string]int{"s2": 1, "s3": 1}, []string{"ChatGPT", "Vrew", "Canva"}},
		{"the first step edited", edit, false, false, map[string]int{"s1": 1, "s2": 1, "s3": 1}, []string{"ChatGPT", "Vrew", "Canva"}},
		{"steps only moved", reorder, false, false, map[string]int{"s2": 1, "s3": 1}, []string{"Vrew", "ChatGPT", "Canva"}},
		{"after a failure", nil, false, true, map[string]int{"s2": 1, "s3": 1}, []string{"ChatGPT", "Vrew", "Canva"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			calls := countCalls(e)
			hold := holdReviewer(e, "s2", tc.fail)
			scriptComplex(e)
			a := e.agent(Options{})
			first, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
			if first.Plan == nil {
				t.Fatal("no plan")
			}
			stopped, err := approveAndStop(a, first.Plan, hold.asked, &output{})
			switch {
			case stopped.Plan == nil || len(stopped.Recommendations) != 1 || stopped.Recommendations[0].Tool != "ChatGPT":
				t.Fatalf("cut by %v, offered again %+v with cards %+v", err, stopped.Plan, stopped.Recommendations)
			case tc.fail && (err == nil || errors.Is(err, context.Canceled) || stopped.Plan.Again != api.AgainFailed || stopped.TextKey != keyPlanFailed):
				t.Fatalf("the failure: %v, again %q, line %s", err, stopped.Plan.Again, stopped.TextKey)
			case !tc.fail && (!errors.Is(err, context.Canceled) || stopped.Plan.Again != api.AgainStopped ||
				stopped.TextKey != keyPlanStopped || stopped.TextArgs["done"] != "“대본 작성”"):
				t.Fatalf("the stop: %v, again %q, line %s %v", err, stopped.Plan.Again, stopped.TextKey, stopped.TextArgs)
			}
			a.Wait()
			hold.release()
			if tc.restart {
				a.Close()
				a = e.agent(Options{})
			}
			calls.reset()

			d := api.ApprovalDecision{Action: api.ActionApprove, Version: stopped.Plan.Version}
			if tc.edit != nil {
				d.SubTasks = tc.edit(stopped.Plan)
			}
			final, out := turn(t, a, chat.Turn{SessionID: "s1", Decision: &d})
			if bySub := calls.reset(); !maps.Equal(bySub, tc.asked) {
				t.Errorf("after approving again the model was asked about %v, want %v", bySub, tc.asked)
			}
			// The turn's calls since the person's message: the router, the
			// planner, the steps that ran and the guide.
			want := 3
			for _, n := range tc.asked {
				want += n
			}
			if final.LLMCalls != want {
				t.Errorf("the turn reports %d model calls, want %d", final.LLMCalls, want)
			}
			var cards []string
			for _, r := range final.Recommendations {
				cards = append(cards, r.Tool)
			}
			if !slices.Equal(cards, tc.cards) || len(final.Steps) != 3 || final.Response == "" {
				t.Fatalf("the guide's cards: %v for steps %+v (guide %q), want %v", cards, final.Steps, final.Response, tc.cards)
			}
			for i, r := range final.Recommendations {
				if r.SubTaskID != final.Steps[i].ID || len(r.Sources) == 0 {
					t.Errorf("card %d: %+v for step %+v", i, r, final.Steps[i])
				}
			}
			// The kept card reaches the reply as it runs, as a found one does.
			var shown []string
			for _, ev := range out.kinds(api.TraceEvaluation) {
				if ev.Recommendation != nil {
					shown = append(shown, ev.Recommendation.Tool)
				}
			}
			if slices.Sort(shown); !slices.Equal(shown, []string{"Canva", "ChatGPT", "Vrew"}) {
				t.Errorf("cards shown while it ran: %v", shown)
			}
			a.Wait()
		})
	}
}

// approveAndStop approves plan in conversation s1 and stops the run
// (chat.ErrStopped), as the person pressing Stop does, once stop hears
// of the call it waits for; a run that ends first is not stopped.
func approveAndStop(a *Agent, plan *api.PlanApproval, stop <-chan struct{}, out chat.Output) (api.TurnResult, error) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go func() {
		select {
		case <-stop:
			cancel(chat.ErrStopped)
		case <-ctx.Done():
		}
	}()
	return a.Respond(ctx, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Version}}, out)
}

// reviewerHold makes the reviewer of one step (or, for "!s2", of every
// other step) hang, or answer HTTP 500 when fail, until release; asked
// hears of each call it holds.
type reviewerHold struct {
	mu    sync.Mutex
	on    bool
	asked chan struct{}
}

func holdReviewer(e *env, step string, fail bool) *reviewerHold {
	h := &reviewerHold{on: true, asked: make(chan struct{}, 8)}
	step, not := strings.CutPrefix(step, "!")
	e.fake.OnFunc(func(req ollama.ChatRequest) bool {
		m := subTaskRe.FindStringSubmatch(lastMessage(req).Content)
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.on && isReviewer(req) && m != nil && (m[1] == step) != not
	}, func(ollama.ChatRequest) ollamatest.Reply {
		if fail {
			return ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "boom"}}
		}
		select {
		case h.asked <- struct{}{}:
		default:
		}
		return ollamatest.Reply{Delay: time.Hour}
	})
	return h
}

func (h *reviewerHold) release() {
	h.mu.Lock()
	h.on = false
	h.mu.Unlock()
}

// A plan re-planned from the person's feedback keeps nothing of the run
// that was cut: the feedback may change what each step needs.
func TestRevisingAStoppedPlanKeepsNothing(t *testing.T) {
	e := newEnv(t)
	calls := countCalls(e)
	hold := holdReviewer(e, "s2", false)
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
	e.fake.On(isPlanner, ollamatest.Reply{JSON: firstPlan()}) // the same words again
	scriptComplex(e)
	a := e.agent(Options{})
	first, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	stopped, _ := approveAndStop(a, first.Plan, hold.asked, &output{})
	if stopped.Plan == nil {
		t.Fatal("not offered again")
	}
	a.Wait()
	hold.release()
	revised, _ := turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRevise, Version: stopped.Plan.Version, Feedback: "무료 도구만"}})
	if revised.Plan == nil {
		t.Fatal("no revised plan")
	}
	calls.reset()
	turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: revised.Plan.Version}})
	if bySub := calls.reset(); !maps.Equal(bySub, map[string]int{"s1": 1, "s2": 1, "s3": 1}) {
		t.Errorf("after the re-plan the model was asked about %v, want every step", bySub)
	}
	a.Wait()
}

// stepEnded says whether sub-task i's loop of conversation conv has ended
// (its checkpoint saved, with nothing next).
func stepEnded(t *testing.T, a *Agent, conv string, i int) bool {
	saver := a.saves.Checkpointer.(interface {
		Threads(context.Context) ([]string, error)
	})
	threads, err := saver.Threads(context.Background())
	if err != nil {
		t.Error(err)
		return true
	}
	for _, th := range threads {
		if !strings.HasPrefix(th, conv+stepThreadSep) || !strings.HasSuffix(th, "/"+strconv.Itoa(i)) {
			continue
		}
		if snap, err := a.g.GetState(context.Background(), graph.Config{ThreadID: th}); err == nil && len(snap.Next) == 0 {
			return true
		}
	}
	return false
}

// cardOutput is an output that tells when a card is shown.
type cardOutput struct {
	output
	cards chan string
}

func (o *cardOutput) Trace(e api.TraceEvent) {
	o.output.Trace(e)
	if e.Recommendation != nil {
		o.cards <- e.Recommendation.Tool
	}
}

// With sub-tasks run at once, a stop keeps those that ended, whichever
// they are: here the second, while the first and the third wait on the
// model; approving again asks about those two only.
func TestApprovingAgainKeepsTheStepsDoneInParallel(t *testing.T) {
	e := newEnv(t)
	calls := countCalls(e)
	hold := holdReviewer(e, "!s2", false) // steps 1 and 3 hang
	scriptComplex(e)
	a := e.agent(Options{Parallel: 3})
	first, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	ctx, cancel := context.WithCancelCause(context.Background())
	out := &cardOutput{cards: make(chan string, 8)}
	go func() {
		<-hold.asked
		<-hold.asked
		<-out.cards
		// The card shows before its loop ends: stop once the loop's end
		// is saved, as a person who read the card would.
		for n := 0; n < 2000 && !stepEnded(t, a, "s1", 1); n++ {
			time.Sleep(5 * time.Millisecond)
		}
		cancel(chat.ErrStopped)
	}()
	stopped, err := a.Respond(ctx, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: first.Plan.Version}}, out)
	if !errors.Is(err, context.Canceled) || stopped.Plan == nil {
		t.Fatalf("the stop: %v, offered again %+v", err, stopped.Plan)
	}
	if want := map[string]string{"done": "“영상 편집”", "left": "“대본 작성”, “썸네일 제작”"}; stopped.TextKey != keyPlanStopped || !maps.Equal(stopped.TextArgs, want) {
		t.Fatalf("the line: %s %v, want %v", stopped.TextKey, stopped.TextArgs, want)
	}
	a.Wait()
	hold.release()
	calls.reset()
	final, _ := turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: stopped.Plan.Version}})
	if bySub := calls.reset(); !maps.Equal(bySub, map[string]int{"s1": 1, "s3": 1}) {
		t.Errorf("after approving again the model was asked about %v, want s1 and s3 once", bySub)
	}
	var cards []string
	for _, r := range final.Recommendations {
		cards = append(cards, r.Tool)
	}
	if !slices.Equal(cards, []string{"ChatGPT", "Vrew", "Canva"}) {
		t.Fatalf("the guide's cards: %v", cards)
	}
	a.Wait()
}
