package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// requests returns the recorded chat requests that match.
func (e *env) requests(match ollamatest.Matcher) []ollama.ChatRequest {
	var out []ollama.ChatRequest
	for _, r := range e.fake.ChatRequests() {
		if match(r) {
			out = append(out, r)
		}
	}
	return out
}

func lastMessage(req ollama.ChatRequest) ollama.Message { return req.Messages[len(req.Messages)-1] }

// Seed 001 scenario 1, with the model-call budget: a greeting is one call
// (the seed needed two), and nothing runs after it.
func TestScenarioGreeting(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Chunks: []string{"안녕하세요! ", "무엇을 ", "도와드릴까요?"}, PromptTokens: 50, CompletionTokens: 9})

	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "안녕하세요"})
	a.Wait()
	if got := e.chatCalls(); got != 1 {
		t.Fatalf("model calls = %d, want 1", got)
	}
	if res.Response != "안녕하세요! 무엇을 도와드릴까요?" || out.String() != res.Response {
		t.Fatalf("response %q, streamed %q", res.Response, out.String())
	}
	if res.LLMCalls != 1 || res.PromptTokens != 50 || res.CompletionTokens != 9 || len(res.ToolsUsed) != 0 || res.SessionID != "s1" || res.ExecutionMS < 0 {
		t.Fatalf("accounting = %+v", res)
	}
	if len(e.requests(isAnswer)[0].Tools) == 0 {
		t.Fatal("the answer call offers no tools")
	}
	var nodes []string
	for _, ev := range out.kinds(api.TraceNodeStarted) {
		nodes = append(nodes, ev.Node)
	}
	if got := strings.Join(nodes, ","); got != "load_context,router,retrieve,answer,finish" {
		t.Fatalf("nodes = %s", got)
	}
}

// Seed 001 scenario 2: two calls (the seed needed three), the calculator's
// exact result in the answer.
func TestScenarioCalculator(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if last := lastMessage(req); last.Role == "tool" {
			return ollamatest.Reply{Text: "123 × 456 = " + last.Content + " 입니다."}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("calculator", map[string]any{"expression": "123 * 456"})}}
	})

	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "123 * 456 계산해줘"})
	a.Wait()
	if got := e.chatCalls(); got != 2 || res.LLMCalls != 2 {
		t.Fatalf("model calls = %d (reported %d), want 2", got, res.LLMCalls)
	}
	if !strings.Contains(res.Response, "56088") || !strings.Contains(out.String(), "56088") {
		t.Fatalf("response %q", res.Response)
	}
	if strings.Join(res.ToolsUsed, ",") != "calculator" {
		t.Fatalf("tools used = %v", res.ToolsUsed)
	}
	if len(out.kinds(api.TraceToolSelected)) != 1 || len(out.kinds(api.TraceToolResult)) != 1 {
		t.Fatalf("trace = %+v", out.traces)
	}
}

// Seed 001 scenario 3: a document question is one model call plus the
// retrieval, with the passage in the prompt and the source returned.
func TestScenarioDocumentQuestion(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "연차는 15일, 병가는 10일입니다 [1]."})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{}}})

	history := msgs("안녕", "안녕하세요!", "123 * 456", "56088입니다.")
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", History: history, Text: "회사 휴가 정책이 뭐야?"})
	if res.LLMCalls != 1 || len(e.requests(isAnswer)) != 1 || len(e.requests(isRouter)) != 0 {
		t.Fatalf("model calls = %d, want 1", res.LLMCalls)
	}
	// A new question sees the conversation too (the preamble and the
	// answer's instructions, four earlier messages, the conversation's data
	// key, the passage, the question), the passage after it.
	got := e.requests(isAnswer)[0].Messages
	if len(got) != 9 || got[2].Content != "안녕" || got[5].Content != "56088입니다." || got[8].Content != "회사 휴가 정책이 뭐야?" ||
		!strings.HasPrefix(got[6].Content, "In this conversation, data blocks are between <data-") {
		t.Fatalf("sent %d messages: %+v", len(got), got)
	}
	if material := got[7].Content; got[7].Role != "user" || !strings.Contains(material, "연차 15일") || !strings.Contains(material, "[1] 휴가 정책") {
		t.Fatalf("the passage is not just before the question:\n%s", material)
	}
	if len(res.Sources) != 1 || res.Sources[0].ID != "hr-1" || res.Sources[0].Page != 3 {
		t.Fatalf("sources = %+v", res.Sources)
	}
	if strings.Join(res.ToolsUsed, ",") != "retrieve_docs" {
		t.Fatalf("tools used = %v", res.ToolsUsed)
	}
	a.Wait()
}

// Seed 001 scenario 4: past MAX_MESSAGES the old messages are summarised
// after the answer, and the next question is answered from the summary
// with no extra call before the answer.
func TestScenarioLongConversation(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isSummary, ollamatest.Reply{Text: "사용자 이름: 철수. 프로젝트 마감일: 3월 15일. 예산: 1억원."})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "좋아요."}, ollamatest.Reply{Text: "프로젝트 마감일은 3월 15일이라고 말씀하셨습니다."})

	history := msgs(
		"내 이름은 철수야", "반가워요, 철수님.",
		"프로젝트 마감일은 3월 15일이야", "3월 15일로 기억할게요.",
		"예산은 1억원이야", "알겠습니다.",
		"팀원은 다섯 명이야", "다섯 명이군요.",
		"회의는 매주 월요일이야", "월요일 회의, 알겠습니다.",
	)
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", History: history, Text: "고마워"})
	if res.LLMCalls != 1 {
		t.Fatalf("turn with 10 earlier messages made %d calls before answering, want 1", res.LLMCalls)
	}
	a.Wait() // the summary is made after the answer
	if n := len(e.requests(isSummary)); n != 1 {
		t.Fatalf("summaries = %d, want 1", n)
	}
	if got := lastMessage(e.requests(isSummary)[0]).Content; !strings.Contains(got, "3월 15일") || strings.Contains(got, "월요일 회의") {
		t.Fatalf("summarised the wrong messages:\n%s", got)
	}

	history = append(history, api.Message{ID: "m010", Role: api.RoleUser, Content: "고마워"},
		api.Message{ID: "m011", Role: api.RoleAssistant, Content: "좋아요."})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", History: history, Text: "아까 말한 프로젝트 마감일이 언제라고 했지?"})
	// Reflection may already run in the background: count the turn's own
	// calls, not the fake's total.
	if res.LLMCalls != 1 || len(e.requests(isAnswer)) != 2 || len(e.requests(isSummary)) != 1 {
		t.Fatalf("recall made %d calls, want 1", res.LLMCalls)
	}
	if !strings.Contains(res.Response, "3월 15일") {
		t.Fatalf("response %q", res.Response)
	}
	req := e.requests(isAnswer)[1]
	if sys := systemOf(req); !strings.Contains(sys, "[대화 기록 1]\n사용자 이름: 철수. 프로젝트 마감일: 3월 15일.") {
		t.Fatalf("system prompt lacks the summary:\n%s", sys)
	}
	// Seven folded, five recent kept, plus the two system messages and
	// the question (no data block, so no data key).
	if len(req.Messages) != 2+5+1 || req.Messages[2].Content != "다섯 명이군요." {
		t.Fatalf("sent %d messages, first %q", len(req.Messages), req.Messages[2].Content)
	}
	a.Wait()
}

// Seed 001 scenario 5: a new process on the same database remembers the
// person: the thread's checkpoint is read back from SQLite and the memory
// written by reflection reaches the prompt.
func TestScenarioNewProcessRemembers(t *testing.T) {
	e := newEnv(t)
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{{Text: "이름은 철수", Kind: "fact"}}}})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "반가워요, 철수님!"}, ollamatest.Reply{Text: "철수님이라고 하셨습니다."})

	first := e.agent(Options{})
	turn(t, first, chat.Turn{SessionID: "s1", Text: "내 이름은 철수야"})
	first.Close()

	second := e.agent(Options{})
	snap, err := second.g.GetState(context.Background(), graph.Config{ThreadID: "s1"})
	if err != nil || snap.Values.Input != "내 이름은 철수야" || snap.Values.Response != "반가워요, 철수님!" {
		t.Fatalf("state after restart = %+v, %v", snap.Values, err)
	}
	res, _ := turn(t, second, chat.Turn{SessionID: "s1", History: msgs("내 이름은 철수야", "반가워요, 철수님!"), Text: "내 이름이 뭐라고 했지?"})
	if res.Response != "철수님이라고 하셨습니다." {
		t.Fatalf("response %q", res.Response)
	}
	req := e.requests(isAnswer)[1]
	if !strings.Contains(promptText(req), "- 이름은 철수") || req.Messages[2].Content != "내 이름은 철수야" {
		t.Fatalf("the second process does not know the name: %+v", req.Messages)
	}
}

// Seed 001's error flow: calculator("abc") fails, the model reads the
// error observation and apologises; the turn does not fail.
func TestCalculatorErrorBecomesObservation(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if lastMessage(req).Role == "tool" {
			return ollamatest.Reply{Text: "죄송합니다. 계산식이 올바르지 않습니다."}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("calculator", map[string]any{"expression": "abc"})}}
	})

	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "abc를 계산해 주세요"})
	a.Wait()
	if res.Response != "죄송합니다. 계산식이 올바르지 않습니다." {
		t.Fatalf("response %q", res.Response)
	}
	obs := lastMessage(e.requests(isAnswer)[1])
	if obs.Role != "tool" || !strings.HasPrefix(obs.Content, "Error:") {
		t.Fatalf("observation = %+v", obs)
	}
}

// The iteration guard ends a loop that never finishes with a plain
// explanation and what was found, not an error.
func TestIterationGuard(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{MaxIterations: 3})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	var n atomic.Int32
	e.fake.OnFunc(isAnswer, func(ollama.ChatRequest) ollamatest.Reply {
		i := n.Add(1)
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("calculator", map[string]any{"expression": fmt.Sprintf("%d + 1", i)})}}
	})

	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "숫자를 계속 더해 보세요"})
	a.Wait()
	if got := len(e.requests(isAnswer)); got != 3 {
		t.Fatalf("answer calls = %d, want the limit 3", got)
	}
	if !strings.HasPrefix(res.Response, "도구를 3번 사용했지만") || !strings.Contains(res.Response, "- calculator: 4") {
		t.Fatalf("response %q", res.Response)
	}
	if !strings.Contains(out.String(), res.Response) {
		t.Fatal("the guard's explanation was not streamed")
	}
}

// A model that only calls a tool that does not exist gets error
// observations each time and the turn ends gracefully at the limit.
func TestUnknownToolEveryTime(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.On(isAnswer, ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("dance", map[string]any{"style": "salsa"})}})

	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "Please do a little dance for me"})
	a.Wait()
	reqs := e.requests(isAnswer)
	if len(reqs) != 5 {
		t.Fatalf("answer calls = %d, want the default limit 5", len(reqs))
	}
	if obs := lastMessage(reqs[1]); obs.Role != "tool" || !strings.Contains(obs.Content, "unknown tool \"dance\"") {
		t.Fatalf("observation = %+v", obs)
	}
	if len(res.ToolsUsed) != 0 || !strings.HasPrefix(res.Response, "I stopped after 5 rounds") {
		t.Fatalf("result = %+v", res)
	}
}

// A model that repeats the same call gets the earlier result back; the
// tool itself runs once per turn (seed 002's tool_history).
func TestRepeatedCallRunsOnce(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.On(isAnswer,
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("retrieve_docs", map[string]any{"query": "휴가", "top_k": 2})}},
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("retrieve_docs", map[string]any{"top_k": 2, "query": "휴가"})}},
		ollamatest.Reply{Text: "연차는 15일입니다 [1]."})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})

	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "Summarise our leave rules for the team"})
	a.Wait()
	var searched int
	for _, q := range e.docs.Queries() {
		if q == "휴가" {
			searched++
		}
	}
	if searched != 1 {
		t.Fatalf("retrieve_docs ran %d times for the same call, want 1", searched)
	}
	if obs := lastMessage(e.requests(isAnswer)[2]); !strings.HasPrefix(obs.Content, repeatNote) || !strings.Contains(obs.Content, "연차 15일") {
		t.Fatalf("repeat observation = %q", obs.Content)
	}
	if res.Response != "연차는 15일입니다 [1]." || len(res.Sources) != 1 {
		t.Fatalf("result = %+v", res)
	}
}

// Broken JSON from the router gets one repair attempt; when that fails
// too, the rules' lean decides (leanRoute): a task is planned, anything
// else answered directly.
func TestRouterBrokenJSON(t *testing.T) {
	t.Run("repaired", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		// Cut inside a value: beyond local mending, so the model is asked again.
		e.fake.On(isRouter, ollamatest.Reply{Text: `{"route": "simp`}, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
		e.fake.On(isAnswer, ollamatest.Reply{Text: "Sure."})
		e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
		res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "Tell me something nice about Seoul"})
		a.Wait()
		reqs := e.requests(isRouter)
		if len(reqs) != 2 || !strings.Contains(lastMessage(reqs[1]).Content, "could not be used") {
			t.Fatalf("router calls = %d; repair prompt missing", len(reqs))
		}
		if res.Response != "Sure." || res.LLMCalls != 3 || len(out.kinds(api.TraceRetry)) != 1 {
			t.Fatalf("result = %+v, traces %+v", res, out.traces)
		}
	})
	t.Run("mended locally", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		// A dangling comma and a missing brace are mended without a call.
		e.fake.On(isRouter, ollamatest.Reply{Text: "Here you go: {\"route\": \"simple\", "})
		e.fake.On(isAnswer, ollamatest.Reply{Text: "Sure."})
		e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "Tell me something nice about Seoul"})
		a.Wait()
		if len(e.requests(isRouter)) != 1 || res.Response != "Sure." || res.LLMCalls != 2 {
			t.Fatalf("router calls = %d, result %+v", len(e.requests(isRouter)), res)
		}
	})
	t.Run("fallback", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		e.fake.On(isRouter, ollamatest.Reply{Text: "I think this is simple"})
		e.fake.On(isAnswer, ollamatest.Reply{Text: "Seoul has great food."})
		e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "Tell me something nice about Seoul"})
		a.Wait()
		if len(e.requests(isRouter)) != 2 || res.Response != "Seoul has great food." {
			t.Fatalf("router calls = %d, result %+v", len(e.requests(isRouter)), res)
		}
	})
	t.Run("fallback plans a task", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		// Cut in half before "route", twice (the robustness test's case).
		cut := ollamatest.Reply{Text: `{"needs_documents":false,"out_of_scope":false`}
		e.fake.On(isRouter, cut, cut)
		e.fake.On(isPlanner, ollamatest.Reply{JSON: firstPlan()})
		res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
		if len(e.requests(isRouter)) != 2 || res.Plan == nil || len(res.Plan.SubTasks) != 3 || res.Plan.Task != shortsTask {
			t.Fatalf("router calls = %d, result %+v", len(e.requests(isRouter)), res)
		}
		var reasons []string
		for _, tr := range out.traces {
			if tr.Code == api.TraceRouted {
				reasons = append(reasons, tr.Args["route"]+" "+tr.Args["reason"])
			}
		}
		if want := RouteComplex + " " + reasonLeanTask; len(reasons) != 1 || reasons[0] != want {
			t.Fatalf("routed traces %q, want %q", reasons, want)
		}
	})
}

// A route the router's model gives with no reason is a schema filled, not
// the message read (the tiny test model's): where the rules' lean
// disagrees, it decides, so a request for a plan or several tasks is
// planned and a question answered, in English and Korean; a route with a
// reason, one the lean agrees with, a task's verb after earlier turns and
// a request one reply fulfils keep the model's route (modelRoute's table
// is TestModelRoute).
func TestRouterUnexplainedRoute(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		history    bool
		model, why string // the model's route and reason
		plan       bool
		reason     string // the routed trace's
	}{
		{"a task answered", "Plan a birthday party for 20 people next Saturday", false, RouteSimple, "", true, reasonUnexplainedTask},
		{"a Korean task answered", "다음 주 토요일 20명 생일 파티 계획 세워줘", false, RouteSimple, "", true, reasonUnexplainedTask},
		{"a question planned", "What is a good way to plan my week?", false, RouteComplex, "", false, reasonUnexplainedAnswer},
		{"a Korean question planned", "유튜브 영상 만들 때 뭐가 좋아?", false, RouteComplex, "", false, reasonUnexplainedAnswer},
		{"a reason given", "Plan a birthday party for 20 people next Saturday", false, RouteSimple, "A party plan fits in one reply.", false, "model"},
		{"a Korean reason given", "유튜브 영상 만들 때 뭐가 좋아?", false, RouteComplex, "영상 제작 전 과정을 계획해야 함", true, "model"},
		{"the lean agrees", "Plan a birthday party for 20 people next Saturday", false, RouteComplex, "", true, "model"},
		{"an edit of the last reply", "Make it shorter", true, RouteSimple, "", false, "model"},
		{"one reply's request", "Create a short bio for my LinkedIn", false, RouteSimple, "", false, "model"},
		{"한 번에 답할 요청", "자기소개 만들어줘", false, RouteSimple, "", false, "model"},
		{"several tasks answered", "Create a logo and build a landing page for my bakery", false, RouteSimple, "", true, reasonUnexplainedTask},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			a := e.agent(Options{})
			e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: tt.model, Reason: tt.why}})
			e.fake.On(isPlanner, ollamatest.Reply{JSON: firstPlan()})
			e.fake.On(isAnswer, ollamatest.Reply{Text: "Here is how."})
			e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
			var history []api.Message
			if tt.history {
				history = msgs("Write a short poem about spring", "Spring rain on the roofs…")
			}
			res, out := turn(t, a, chat.Turn{SessionID: "s1", History: history, Text: tt.text})
			a.Wait()
			if len(e.requests(isRouter)) != 1 || (res.Plan != nil) != tt.plan {
				t.Fatalf("router calls %d, plan %+v, response %q", len(e.requests(isRouter)), res.Plan, res.Response)
			}
			var reasons []string
			for _, tr := range out.traces {
				if tr.Code == api.TraceRouted {
					reasons = append(reasons, tr.Args["reason"])
				}
			}
			if len(reasons) != 1 || reasons[0] != tt.reason {
				t.Fatalf("routed reasons %q, want %q", reasons, tt.reason)
			}
		})
	}
}

// Ollama dying in the middle of a streamed answer ends the turn with a
// clear, classified error and the text streamed so far.
func TestOllamaDiesMidStream(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Chunks: []string{"안녕", "하세요", "!"}, Fault: ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2}})

	out := &output{}
	_, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Text: "안녕"}, out)
	a.Wait()
	if !errors.Is(err, llm.ErrStreamDropped) {
		t.Fatalf("err = %v, want a dropped stream", err)
	}
	if info := llm.Classify(err); info.Code != api.ErrStreamDropped {
		t.Fatalf("classified as %+v", info)
	}
	if out.String() != "안녕하세요" {
		t.Fatalf("streamed %q", out.String())
	}
	// The session is not stuck: the next message is answered.
	e.fake.Reset()
	e.fake.On(isAnswer, ollamatest.Reply{Text: "다시 안녕하세요!"})
	if res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "안녕"}); res.Response != "다시 안녕하세요!" {
		t.Fatalf("after the failure: %q", res.Response)
	}
}

// A small model that meets the tool list with an empty reply (the real
// tiny test model does: its call to a tool we do not have is dropped by
// Ollama) is asked once more without tools, instead of apologising.
func TestEmptyReplyWithToolsAsksAgainWithout(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if len(req.Tools) > 0 {
			return ollamatest.Reply{Text: ""}
		}
		return ollamatest.Reply{Text: "A plain answer."}
	})
	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "what is a good name for a café?"})
	a.Wait()
	if res.Response != "A plain answer." || !strings.Contains(out.String(), "A plain answer.") {
		t.Fatalf("response %q", res.Response)
	}
	if res.LLMCalls != 2 || len(out.kinds(api.TraceRetry)) != 1 {
		t.Fatalf("calls %d, trace %+v", res.LLMCalls, out.traces)
	}
}

// A search that finds nothing is said in the trace by its code, so the
// window words it in the person's language (the Korean trace showed the
// model's English "No documents matched … Try other words").
func TestNoMatchesIsSaidByItsCode(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	const query = "qqxz 없는말 zzkw"
	e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if last := lastMessage(req); last.Role == "tool" {
			return ollamatest.Reply{Text: "찾은 문서가 없습니다."}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("retrieve_docs", map[string]any{"query": query})}}
	})
	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "내 문서에서 qqxz 찾아 줘"})
	a.Wait()
	results := out.kinds(api.TraceToolResult)
	if len(results) != 1 || results[0].Code != api.TraceNoMatches || results[0].Args["query"] != query || results[0].Text != "Nothing matched “"+query+"”" || results[0].Tool != "retrieve_docs" {
		t.Fatalf("tool results in the trace = %+v", results)
	}
	// The reply's Details carry the same line by its code beside what the
	// model read, so they word it in the person's language too.
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Code != api.TraceNoMatches || res.ToolCalls[0].Args["query"] != query || !strings.Contains(res.ToolCalls[0].Result, "No documents matched") {
		t.Fatalf("message details: %+v", res.ToolCalls)
	}
}
