package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/tools"
	"github.com/wayfinder-app/wayfinder/backend/workflow"
)

// A failed model call is retried inside the client; the agent counts every
// attempt, shows the retry in the trace and records it in the state (seed
// 003's fallback record).
func TestRetryIsRecorded(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "안녕하세요!"})
	e.fake.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "overloaded"})

	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "안녕"})
	if res.Response != "안녕하세요!" || res.LLMCalls != 2 || e.chatCalls() != 2 {
		t.Fatalf("result = %+v, fake saw %d calls", res, e.chatCalls())
	}
	if len(out.kinds(api.TraceRetry)) != 1 {
		t.Fatalf("trace = %+v", out.traces)
	}
	a.Wait() // the turn's checkpoint is saved with the after-turn work
	snap, err := a.g.GetState(context.Background(), graph.Config{ThreadID: "s1"})
	if err != nil || len(snap.Values.Retries) != 1 || snap.Values.Retries[0].Attempt != 1 {
		t.Fatalf("retries in state = %+v, %v", snap.Values.Retries, err)
	}
}

// Memories enter the prompt within the token budget.
func TestMemoriesWithinBudget(t *testing.T) {
	e := newEnv(t)
	for _, m := range []string{"무료 도구를 선호함", strings.Repeat("아주 긴 기억 ", 100), "카페를 운영함"} {
		e.mem.Add(context.Background(), m, "fact")
	}
	a := e.agent(Options{MemoryTokens: 40})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "네!"})
	turn(t, a, chat.Turn{SessionID: "s1", Text: "안녕"})
	sys := promptText(e.requests(isAnswer)[0])
	if !strings.Contains(sys, "- 무료 도구를 선호함") || strings.Contains(sys, "아주 긴 기억") || strings.Contains(sys, "카페를 운영함") {
		t.Fatalf("memories in the prompt:\n%s", sys)
	}
}

// web_search is offered to the recommendation loop only when enabled, and
// never to the simple path.
func TestToolsets(t *testing.T) {
	e := newEnv(t)
	on := false
	a := e.agent(Options{})
	a.deps.Settings = func() api.Settings { return api.Settings{WebSearchEnabled: on} }
	names := func(set string) string {
		var out []string
		for _, s := range a.toolset(context.Background(), nil, set, State{Input: "우리 회사 휴가 규정 알려줘"}).Schemas() {
			out = append(out, s.Function.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names("answer"); got != "calculator,get_time,retrieve_docs,read_memory" {
		t.Fatalf("answer tools = %s", got)
	}
	if got := names("recommend"); got != "calculator,get_time,retrieve_docs,search_catalog" {
		t.Fatalf("recommend tools (web off) = %s", got)
	}
	// The standard registry of the tests has no search provider, so turning
	// it on adds nothing rather than failing.
	on = true
	if got := names("recommend"); got != "calculator,get_time,retrieve_docs,search_catalog" {
		t.Fatalf("recommend tools without a provider = %s", got)
	}
	withSearch, err := tools.Standard(nil, tools.Deps{Retriever: e.docs, Memory: e.mem, Search: tools.NoProvider{}})
	if err != nil {
		t.Fatal(err)
	}
	a.deps.Tools = withSearch
	if got := names("recommend"); got != "calculator,get_time,retrieve_docs,search_catalog,web_search" {
		t.Fatalf("recommend tools (web on) = %s", got)
	}
	if got := names("answer"); got != "calculator,get_time,retrieve_docs,read_memory" {
		t.Fatalf("answer tools (web on) = %s", got)
	}
	on = false
	if got := names("recommend"); got != "calculator,get_time,retrieve_docs,search_catalog" {
		t.Fatalf("recommend tools (web off again) = %s", got)
	}
	a.deps.Tools, err = tools.Standard(nil, tools.Deps{Retriever: e.docs, Memory: e.mem, Weather: &tools.OpenMeteo{}})
	if err != nil {
		t.Fatal(err)
	}
	a.deps.Settings = func() api.Settings { return api.Settings{WeatherEnabled: true} }
	if got := names("answer"); got != "calculator,get_time,retrieve_docs,read_memory,get_weather" {
		t.Fatalf("answer tools (weather on) = %s", got)
	}
	a.deps.Tools, err = tools.Standard(nil, tools.Deps{Retriever: e.docs, Memory: e.mem, Wikipedia: &tools.Wikipedia{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names("answer"); got != "calculator,get_time,retrieve_docs,read_memory" {
		t.Fatalf("answer tools (wikipedia off) = %s", got)
	}
	a.deps.Settings = func() api.Settings { return api.Settings{WikipediaEnabled: true} }
	if got := names("answer"); got != "calculator,get_time,retrieve_docs,read_memory,search_wikipedia" {
		t.Fatalf("answer tools (wikipedia on) = %s", got)
	}
	if got := names("recommend"); got != "calculator,get_time,retrieve_docs,search_catalog,search_wikipedia" {
		t.Fatalf("recommend tools (wikipedia on) = %s", got)
	}
	// run_python follows its own setting in every loop.
	a.deps.Settings = func() api.Settings { return api.Settings{RunPythonEnabled: true} }
	if got := names("answer"); got != "calculator,get_time,retrieve_docs,read_memory,run_python" {
		t.Fatalf("answer tools (python on) = %s", got)
	}
	if got := names("recommend"); got != "calculator,get_time,retrieve_docs,search_catalog,run_python" {
		t.Fatalf("recommend tools (python on) = %s", got)
	}
	if strings.Contains(scoutPrompt(false), "web_search") || !strings.Contains(scoutPrompt(true), "web_search") {
		t.Fatal("the scout prompt does not follow the web search setting")
	}
}

// A person's own workflow file runs through the same node types, with
// per-instance config; a broken one is refused with every problem listed.
func TestCustomWorkflow(t *testing.T) {
	e := newEnv(t)
	def := `{"name": "answer only",
	  "nodes": [{"id": "in", "type": "start"}, {"id": "ctx", "type": "load_context"},
	    {"id": "ans", "type": "answer", "config": {"max_iterations": 2}},
	    {"id": "run", "type": "tools", "config": {"toolset": "answer"}},
	    {"id": "bye", "type": "finish"}, {"id": "out", "type": "end"}],
	  "edges": [{"source": "in", "target": "ctx"}, {"source": "ctx", "target": "ans"},
	    {"source": "ans", "target": "run", "source_port": "tools"}, {"source": "ans", "target": "bye", "source_port": "done"},
	    {"source": "run", "target": "ans"}, {"source": "bye", "target": "out"}]}`
	a := e.agent(Options{Workflow: []byte(def)})
	e.fake.On(isAnswer, ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("get_time", nil)}})
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "Make me a plan for a podcast"})
	if len(e.requests(isAnswer)) != 2 || !strings.HasPrefix(res.Response, "I stopped after 2 rounds") {
		t.Fatalf("result = %+v after %d calls", res, len(e.requests(isAnswer)))
	}

	// New and CheckWorkflow (doctor's check) find the same problems.
	model := func() (Model, string) { return e.client, testModel }
	if err := CheckWorkflow([]byte(def)); err != nil {
		t.Fatalf("check of a good workflow: %v", err)
	}
	for broken, want := range map[string]string{
		strings.Replace(def, `{"source": "ans", "target": "bye", "source_port": "done"},`, "", 1): `node "ans": port "done" is not wired`,
		strings.Replace(def, `"toolset": "answer"`, `"toolset": "everything"`, 1):                 `toolset must be "answer" or "recommend", got "everything"`,
	} {
		_, err := New(Deps{Model: model}, Options{Workflow: []byte(broken)})
		if !errors.Is(err, workflow.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("New: err = %v, want %q", err, want)
		}
		if err := CheckWorkflow([]byte(broken)); !errors.Is(err, workflow.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckWorkflow: err = %v, want %q", err, want)
		}
	}
}

// The embedded workflow is valid and has every node type of the registry.
func TestDefaultWorkflow(t *testing.T) {
	d, err := workflow.Parse(DefaultWorkflow())
	if err != nil {
		t.Fatal(err)
	}
	a := &Agent{f: newFields()}
	reg, err := a.registry()
	if err != nil {
		t.Fatal(err)
	}
	if err := workflow.Validate(d, reg); err != nil {
		t.Fatal(err)
	}
	// The loop of one sub-task runs inside recommend_steps; a workflow
	// file may still wire recommend and evaluate itself (one at a time).
	used := map[string]bool{TypeRecommend: true, TypeEvaluate: true}
	for _, n := range d.Nodes {
		used[n.Type] = true
	}
	for _, typ := range reg.Types() {
		if !used[typ] {
			t.Errorf("node type %q is not in the default workflow", typ)
		}
	}
}

// Stopping a turn cancels the model call and returns a cancellation.
func TestStopCancelsTurn(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Chunks: []string{"a", "b", "c", "d"}, ChunkDelay: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	out := &output{}
	go func() {
		for out.String() == "" {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := a.Respond(ctx, chat.Turn{SessionID: "s1", Text: "hello"}, out)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// recorder is a chat.EventSink that keeps event names.
type recorder struct{}

func (recorder) Emit(string, any) {}

// Through the chat service, as the app wires it: a plan is stored as
// awaiting approval, the decision resumes it, and a failed turn keeps the
// person's message.
func TestThroughChatService(t *testing.T) {
	e := newEnv(t)
	scriptComplex(e)
	st, err := store.Open(context.Background(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := e.agent(Options{}).deps.Tools
	a, err := New(Deps{Model: func() (Model, string) { return e.client, testModel }, Tools: reg, Retriever: e.docs, Memory: e.mem, DB: st.DB()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	svc := chat.New(st, a, recorder{}, chat.Options{Classify: llm.Classify})
	defer svc.Shutdown()
	ctx := context.Background()

	msg, err := svc.Ask(ctx, "", shortsTask, nil)
	if err != nil || msg.Status != api.StatusAwaitingApproval || msg.Result.Plan == nil {
		t.Fatalf("ask: %+v, %v", msg, err)
	}
	sess, _ := st.Session(ctx, msg.SessionID)
	if !sess.PendingApproval {
		t.Fatal("the session is not marked pending")
	}
	var streamed strings.Builder
	msg, err = svc.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: msg.Result.Plan.Version}, func(s string) { streamed.WriteString(s) })
	if err != nil || msg.Status != api.StatusComplete || len(msg.Result.Recommendations) != 3 || !strings.Contains(streamed.String(), "카페 쇼츠 가이드") {
		t.Fatalf("decision: %+v, %v", msg, err)
	}

	e.fake.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultDrop})
	_, err = svc.Ask(ctx, msg.SessionID, "안녕", nil)
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Info.Code != api.ErrOllamaUnreachable && ce.Info.Code != api.ErrStreamDropped {
		t.Fatalf("failed turn: %v", err)
	}
	all, _ := st.Messages(ctx, msg.SessionID)
	if !slices.ContainsFunc(all, func(m api.Message) bool { return m.Role == api.RoleUser && m.Content == "안녕" }) {
		t.Fatal("the person's message was lost")
	}
	a.Wait()
}

// Reflection through the real long-term memory store: memories are saved
// with their session, restatements are dropped, and load_context finds them.
func TestLongTermMemoryAdapter(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ms, err := memory.Open(ctx, e.openDB(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	lt := LongTerm{Store: ms, Changed: func() { changed++ }}
	a, err := New(Deps{Model: func() (Model, string) { return e.client, testModel }, Memory: lt, DB: e.openDB()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "좋아요!"})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{
		{Text: "커피를 좋아한다", Kind: "preference"}, {Text: "커피를 좋아한다", Kind: "preference"}, {Text: "x", Kind: "wish"}}}})

	turn(t, a, chat.Turn{SessionID: "s1", Text: "나는 커피를 정말 좋아해"})
	a.Wait()
	all, err := ms.List(ctx)
	if err != nil || len(all) != 1 || all[0].Text != "커피를 좋아한다" || all[0].SessionID != "s1" || all[0].Kind != memory.KindPreference ||
		all[0].Origin != memory.OriginReflection {
		t.Fatalf("memories = %+v, %v", all, err)
	}
	if changed != 2 { // each write, the restatement too, tells the windows
		t.Fatalf("Changed called %d times, want 2", changed)
	}
	turn(t, a, chat.Turn{SessionID: "s2", Text: "커피 추천해 줄래"})
	if sys := promptText(e.requests(isAnswer)[1]); !strings.Contains(sys, "- 커피를 좋아한다") {
		t.Fatalf("memory not injected:\n%s", sys)
	}
	a.Wait()
}

// Empty and out-of-scope messages end politely, in the person's language;
// the empty one costs no model call.
func TestPoliteEnds(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "  "})
	if res.Response != msgEmpty.en || out.String() != msgEmpty.en || e.chatCalls() != 0 {
		t.Fatalf("empty: %+v after %d calls", res, e.chatCalls())
	}
	// A refusal the model does not explain is not obeyed (small models fill
	// the schema at random); one with a reason ends the turn.
	e.fake.Script(ollamatest.Reply{JSON: routeDecision{Route: RouteSimple, OutOfScope: true}})
	res, _ = turn(t, a, chat.Turn{SessionID: "s0", Text: "카페 이름 추천해줘"})
	a.Wait()
	if res.Response == msgOutOfScope.ko {
		t.Fatalf("unexplained refusal obeyed: %+v", res)
	}
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple, OutOfScope: true, Reason: "asks to break into a network"}})
	calls := e.chatCalls()
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Text: "이웃집 와이파이 비밀번호를 몰래 알아내고 싶어"})
	a.Wait()
	if res.Response != msgOutOfScope.ko || res.LLMCalls != 1 || e.chatCalls() != calls+1 {
		t.Fatalf("out of scope: %+v", res)
	}
}

// Reflection failing (the model is down by then) never touches the answer.
func TestReflectionFailureIsHarmless(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "좋은 선택이에요."})
	e.fake.On(isMemory, ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "boom"}})
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "나는 무료 도구만 쓰고 싶어"})
	a.Wait()
	if res.Response != "좋은 선택이에요." || len(e.mem.All()) != 0 || len(e.requests(isMemory)) == 0 {
		t.Fatalf("result %+v, memories %+v", res, e.mem.All())
	}
}

// Sessions run side by side on one agent (and one SQLite file) without
// mixing their state.
func TestConcurrentSessions(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Text: "echo: " + lastMessage(req).Content}
	})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	errs := make(chan error, 6)
	for i := range 6 {
		go func() {
			id := fmt.Sprintf("s%d", i)
			for j := range 3 {
				text := fmt.Sprintf("%s 안녕 %d", id, j)
				res, err := a.Respond(context.Background(), chat.Turn{SessionID: id, Text: text}, &output{})
				if err == nil && res.Response != "echo: "+text {
					err = fmt.Errorf("session %s got %q", id, res.Response)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 6 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	a.Wait()
}

// Reflection starts only once the chat service has saved the reply, so it
// does not compete with that save.
func TestAfterTurnWaitsForTheSavedReply(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	saved := make(chan struct{})
	var early atomic.Bool
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "좋은 선택이에요."})
	e.fake.OnFunc(isMemory, func(ollama.ChatRequest) ollamatest.Reply {
		select {
		case <-saved:
		default:
			early.Store(true)
		}
		return ollamatest.Reply{JSON: memoryOut{}}
	})
	turn(t, a, chat.Turn{SessionID: "s1", Text: "나는 무료 도구만 쓰고 싶어", Saved: saved})
	time.Sleep(20 * time.Millisecond) // time enough for work that does not wait to start
	close(saved)
	a.Wait()
	if early.Load() {
		t.Error("reflection ran before the reply was saved")
	}
	if len(e.requests(isMemory)) != 1 {
		t.Errorf("%d reflection calls after the save, want 1", len(e.requests(isMemory)))
	}
}

// A turn that ends with an answer saves its checkpoint after the reply is
// saved, with the after-turn work, or when shutdown gives up waiting for it;
// a turn that stops at a plan saves it before it reports the plan.
func TestWhenATurnSavesItsCheckpoint(t *testing.T) {
	newest := func(t *testing.T, a *Agent, session string) *graph.Snapshot[State] {
		t.Helper()
		snap, err := a.g.GetState(context.Background(), graph.Config{ThreadID: session})
		if errors.Is(err, graph.ErrNoCheckpoint) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return &snap
	}
	answer := func(e *env) {
		e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
		e.fake.On(isAnswer, ollamatest.Reply{Text: "좋은 선택이에요."})
		e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	}
	t.Run("answer, after the reply", func(t *testing.T) {
		e := newEnv(t)
		answer(e)
		a := e.agent(Options{})
		saved := make(chan struct{})
		turn(t, a, chat.Turn{SessionID: "s1", Text: "나는 무료 도구만 쓰고 싶어", Saved: saved})
		time.Sleep(20 * time.Millisecond) // time enough for a save that does not wait
		if snap := newest(t, a, "s1"); snap != nil {
			t.Fatalf("checkpoint saved before the reply: next %v", snap.Next)
		}
		close(saved)
		a.Wait()
		// A new process finds the finished run.
		if snap := newest(t, e.agent(Options{}), "s1"); snap == nil || len(snap.Next) != 0 || snap.Values.Response != "좋은 선택이에요." {
			t.Fatalf("after the reply was saved: %+v", snap)
		}
	})
	t.Run("answer, at shutdown", func(t *testing.T) {
		e := newEnv(t)
		answer(e)
		a := e.agent(Options{})
		turn(t, a, chat.Turn{SessionID: "s1", Text: "나는 무료 도구만 쓰고 싶어", Saved: make(chan struct{})})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := a.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("shutdown while the reply is never saved: %v", err)
		}
		if snap := newest(t, e.agent(Options{}), "s1"); snap == nil || len(snap.Next) != 0 {
			t.Fatalf("after shutdown: %+v", snap)
		}
	})
	t.Run("plan, before it is reported", func(t *testing.T) {
		e := newEnv(t)
		scriptComplex(e)
		a := e.agent(Options{})
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask, Saved: make(chan struct{})})
		if res.Plan == nil {
			t.Fatal("no plan")
		}
		if snap := newest(t, e.agent(Options{}), "s1"); snap == nil || len(snap.Interrupts) != 1 {
			t.Fatalf("when the plan was reported: %+v", snap)
		}
	})
}

// A turn runs while the person's message is being saved (chat.Turn.Stored).
// A turn whose message was refused runs no tool and leaves no checkpoint,
// so the plan the session waits for stays the one approved next.
func TestRefusedTurnLeavesNoTrace(t *testing.T) {
	e := newEnv(t)
	scriptComplex(e)
	e.fake.On(isAnswer, ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("calculator", map[string]any{"expression": "123 * 456"})}})
	a := e.agent(Options{})
	plan, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	if plan.Plan == nil {
		t.Fatal("no plan")
	}

	ctx, cancel := context.WithCancel(context.Background())
	refused := func() bool { cancel(); return false } // as the chat service does
	out := &output{}
	if _, err := a.Respond(ctx, chat.Turn{SessionID: "s1", Text: "123 * 456 계산해줘", Stored: refused}, out); !errors.Is(err, errNotStored) {
		t.Fatalf("refused turn: %v", err)
	}
	if tools := out.kinds(api.TraceToolSelected); len(tools) != 0 {
		t.Fatalf("the refused turn ran tools: %+v", tools)
	}
	fresh := e.agent(Options{}) // reads the database, not this agent's memory
	if snap, err := fresh.g.GetState(context.Background(), graph.Config{ThreadID: "s1"}); err != nil || len(snap.Interrupts) != 1 {
		t.Fatalf("after a refused turn the newest checkpoint is not the plan: %+v, %v", snap, err)
	}
	res, _ := turn(t, fresh, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
	if res.Response == "" || res.Plan != nil {
		t.Fatalf("approving after a refused turn: %+v", res)
	}
}
