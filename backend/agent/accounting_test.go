package agent

import (
	"context"
	"fmt"
	"sync"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// updates records the chat service's message updates.
type updates struct {
	mu  sync.Mutex
	got []api.MessageUpdated
}

func (u *updates) Emit(name string, payload any) {
	if name != api.EventMessageUpdated {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.got = append(u.got, payload.(api.MessageUpdated))
}

func (u *updates) last() (api.MessageUpdated, int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.got) == 0 {
		return api.MessageUpdated{}, 0
	}
	return u.got[len(u.got)-1], len(u.got)
}

// chatWorld is the agent behind the chat service, on a real store.
func chatWorld(t *testing.T, e *env) (*chat.Service, *Agent, *store.Store, *updates) {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := e.agent(Options{}).deps.Tools
	a, err := New(Deps{Model: func() (Model, string) { return e.client, testModel }, Tools: reg, Retriever: e.docs, Memory: e.mem, DB: st.DB()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &updates{}
	svc := chat.New(st, a, ev, chat.Options{Classify: llm.Classify})
	t.Cleanup(func() { svc.Shutdown(); a.Close() })
	return svc, a, st, ev
}

// promptTokensOf adds up what the fake reported for every chat request:
// each reply sets its own count, 10 tokens per message sent.
func scriptTokens(e *env) {
	e.fake.OnFunc(func(ollama.ChatRequest) bool { return true }, func(req ollama.ChatRequest) ollamatest.Reply {
		r := replyFor(req)
		r.PromptTokens, r.CompletionTokens = 10*len(req.Messages), 3
		return r
	})
}

// The turn's accounting counts every model call it caused, those after the
// answer (the summary, reflection) included, once they are done: the
// stored reply then says what the server saw, and every window is told.
func TestAccountingCountsEveryCall(t *testing.T) {
	e := newEnv(t)
	scriptTokens(e)
	svc, a, st, ev := chatWorld(t, e)
	ctx := context.Background()

	session := ""
	for i := range 6 { // the sixth turn's conversation is long enough to fold
		before := e.fake.ChatRequests()
		msg, err := svc.Ask(ctx, session, fmt.Sprintf("내 프로젝트 이야기 %d: 손으로 만든 컵을 팔아", i), nil)
		if err != nil {
			t.Fatal(err)
		}
		session = msg.SessionID
		answered := msg.Result.LLMCalls
		a.Wait()
		reqs := e.fake.ChatRequests()[len(before):]
		saved, err := st.Messages(ctx, session)
		if err != nil {
			t.Fatal(err)
		}
		r := saved[len(saved)-1].Result
		wantPrompt, roles := 0, map[string]int{}
		for _, req := range reqs {
			wantPrompt += 10 * len(req.Messages)
			roles[roleName(req)]++
		}
		if r.LLMCalls != len(reqs) || r.PromptTokens != wantPrompt || r.CompletionTokens != 3*len(reqs) {
			t.Fatalf("turn %d: the reply counts %d calls, %d/%d tokens; the server saw %d (%v), %d/%d",
				i, r.LLMCalls, r.PromptTokens, r.CompletionTokens, len(reqs), roles, wantPrompt, 3*len(reqs))
		}
		if roles["reflection"] != 1 || answered >= r.LLMCalls {
			t.Fatalf("turn %d: calls %v; %d reported at the answer", i, roles, answered)
		}
		if i == 5 && roles["summary"] != 1 {
			t.Fatalf("turn %d made no summary: %v", i, roles)
		}
		up, n := ev.last()
		if n != i+1 || up.Message.ID != saved[len(saved)-1].ID || up.Message.Result.LLMCalls != r.LLMCalls {
			t.Fatalf("turn %d: %d updates, last %+v", i, n, up)
		}
	}
}

// A task's reply counts the calls before the plan's approval too (router,
// planner), and the plan's own reply counts its part.
func TestAccountingAcrossTheApproval(t *testing.T) {
	e := newEnv(t)
	scriptComplex(e)
	svc, a, st, _ := chatWorld(t, e)
	ctx := context.Background()

	plan, err := svc.Ask(ctx, "", shortsTask, nil)
	if err != nil || plan.Result.Plan == nil {
		t.Fatalf("ask: %+v, %v", plan, err)
	}
	if n := e.chatCalls(); plan.Result.LLMCalls != n || n != 2 {
		t.Fatalf("the plan reports %d calls, the server saw %d", plan.Result.LLMCalls, n)
	}
	revised, err := svc.AskDecision(ctx, plan.SessionID, api.ApprovalDecision{Action: api.ActionRevise, Feedback: "무료 도구만", Version: plan.Result.Plan.Version}, nil)
	if err != nil || revised.Result.Plan == nil || revised.Result.LLMCalls != 3 {
		t.Fatalf("revised: %+v, %v", revised.Result, err)
	}
	done, err := svc.AskDecision(ctx, plan.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: revised.Result.Plan.Version}, nil)
	if err != nil || done.Status != api.StatusComplete {
		t.Fatalf("approve: %+v, %v", done, err)
	}
	a.Wait()
	saved, _ := st.Messages(ctx, plan.SessionID)
	if got, n := saved[len(saved)-1].Result.LLMCalls, e.chatCalls(); got != n {
		t.Fatalf("the task's reply counts %d calls, the server saw %d", got, n)
	}
}

// roleName names the agent role of a recorded request, for messages.
func roleName(req ollama.ChatRequest) string {
	for name, m := range map[string]ollamatest.Matcher{"answer": isAnswer, "router": isRouter, "summary": isSummary,
		"reflection": isMemory, "planner": isPlanner, "scout": isScout, "reviewer": isReviewer, "guide": isGuide} {
		if m(req) {
			return name
		}
	}
	return "other"
}

// replyFor is a plain reply for every role.
func replyFor(req ollama.ChatRequest) ollamatest.Reply {
	switch roleName(req) {
	case "router":
		return ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}}
	case "reflection":
		return ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{{Text: "컵을 판다", Kind: "fact"}}}}
	case "summary":
		return ollamatest.Reply{Text: "컵 가게 이야기."}
	}
	return ollamatest.Reply{Text: "좋아요."}
}
