package agent

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

const shortsTask = "카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어"

func firstPlan() planOut {
	return planOut{SubTasks: []planStep{
		{ID: "s1", Title: "대본 작성", Detail: "30초 분량의 카페 소개 대본"},
		{ID: "s2", Title: "영상 편집", Detail: "촬영본을 세로 영상으로 편집"},
		{ID: "s3", Title: "썸네일 제작", Detail: "눈에 띄는 썸네일"},
	}}
}

func revisedPlan() planOut {
	return planOut{SubTasks: []planStep{
		{ID: "s1", Title: "대본 작성", Detail: "무료 도구로 대본 작성"},
		{ID: "s2", Title: "영상 편집", Detail: "무료 편집기로 자막까지"},
		{ID: "s3", Title: "썸네일 제작", Detail: "무료 디자인 도구로 썸네일"},
	}}
}

var subTaskRe = regexp.MustCompile(`Sub-task (s\d+)`)

// scriptComplex scripts every role of the complex path: the reviewer picks
// a tool by sub-task from Wayfinder's first search, except for s4, where
// it asks for more and the scout searches (two independent calls at
// once); the guide cites [1].
func scriptComplex(e *env) {
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
	e.fake.On(isPlanner, ollamatest.Reply{JSON: firstPlan()}, ollamatest.Reply{JSON: revisedPlan()})
	e.fake.OnFunc(isScout, func(req ollama.ChatRequest) ollamatest.Reply {
		if lastMessage(req).Role == "tool" {
			return ollamatest.Reply{Text: "Found a good candidate."}
		}
		id := "s1"
		for _, m := range req.Messages { // the sub-task follows the conversation
			if sm := subTaskRe.FindStringSubmatch(m.Content); m.Role == "user" && sm != nil {
				id = sm[1]
			}
		}
		query := map[string]string{"s1": "ChatGPT script", "s2": "Vrew video", "s3": "Canva thumbnail", "s4": "YouTube upload"}[id]
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{
			toolCall("search_catalog", map[string]any{"query": query}),
			toolCall("get_time", map[string]any{}),
		}}
	})
	e.fake.OnFunc(isReviewer, scriptedReview)
	e.fake.On(isGuide, ollamatest.Reply{Chunks: []string{"# 카페 쇼츠 가이드\n\n", "1. 대본: ChatGPT [1]\n", "2. 편집: Vrew [2]\n", "3. 썸네일: Canva [3]\n"}})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{
		{Text: "무료 도구를 선호함", Kind: "preference"}, {Text: "카페를 운영함", Kind: "fact"}, {Text: "", Kind: "fact"}}}})
}

// scriptedReview is the reviewer of scriptComplex: a tool per sub-task,
// and for s4, until the scout has searched, a request for more.
func scriptedReview(req ollama.ChatRequest) ollamatest.Reply {
	id := subTaskRe.FindStringSubmatch(lastMessage(req).Content)[1]
	if id == "s4" && !strings.Contains(lastMessage(req).Content, "YouTube upload") {
		// The first search found nothing about uploading: the scout
		// is asked to look further.
		return ollamatest.Reply{JSON: review{Sufficient: false, Missing: "유튜브 업로드 도구"}}
	}
	r := map[string]review{
		"s1": {Sufficient: true, Tool: "ChatGPT", Why: "한국어 대본을 빠르게 씁니다", URL: "https://chatgpt.com", Pricing: "free, Plus $20/month"},
		"s2": {Sufficient: true, Tool: "Vrew", Why: "자동 한국어 자막", URL: "https://vrew.ai", Pricing: "free plan, Pro $9.99/month", Alternatives: []string{"CapCut"}},
		"s3": {Sufficient: true, Tool: "Canva", Why: "썸네일 템플릿", URL: "https://canva-pro-free.example.com", Pricing: "free"},
		"s4": {Sufficient: true, Tool: "YouTube Studio", Why: "업로드", URL: "https://studio.youtube.com", Pricing: "free"},
	}[id]
	return ollamatest.Reply{JSON: r}
}

// Seed 004's whole flow: plan, interrupt, revise with feedback, re-plan,
// edit one sub-task, approve, one recommendation per sub-task, a streamed
// guide with citations, and reflection writing memories.
func TestComplexFlow(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	scriptComplex(e)

	// 1. The plan, and the run stops for the person.
	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	first := res
	if res.Plan == nil || res.Plan.Round != 1 || len(res.Plan.SubTasks) != 3 || res.Plan.Task != shortsTask {
		t.Fatalf("plan = %+v", res.Plan)
	}
	if res.Response != msgPlanIntro.ko || out.String() != res.Response || res.LLMCalls != 2 {
		t.Fatalf("result = %+v, streamed %q", res, out.String())
	}
	// The window shows the introduction from its key, in the language of the moment.
	if res.TextKey != keyPlanIntro {
		t.Fatalf("the plan's introduction has key %q", res.TextKey)
	}

	// 2. Revise: the planner sees its previous plan and the feedback.
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Text: "↻ Revise", Decision: &api.ApprovalDecision{Action: api.ActionRevise, Feedback: "무료 도구만 써 줘", Version: res.Plan.Version}})
	// The calls count from the person's message: router, planner, planner.
	if res.Plan == nil || res.Plan.Round != 2 || res.Plan.SubTasks[0].Detail != "무료 도구로 대본 작성" || res.LLMCalls != 3 {
		t.Fatalf("revised plan = %+v", res)
	}
	if res.Plan.Version == "" || res.Plan.Version == first.Plan.Version {
		t.Fatalf("the re-plan kept version %q", res.Plan.Version)
	}
	replan := lastMessage(e.requests(isPlanner)[1]).Content
	if !strings.Contains(replan, "Your previous plan:\n1. [s1] 대본 작성") || !strings.Contains(replan, "- 무료 도구만 써 줘") {
		t.Fatalf("re-plan prompt:\n%s", replan)
	}

	// 3. Approve with one sub-task edited and one added (no id yet).
	edited := append(append([]api.SubTask(nil), res.Plan.SubTasks...), api.SubTask{Title: "업로드", Detail: "유튜브에 올리기"})
	edited[1].Title = "영상 편집과 자막"
	res, out = turn(t, a, chat.Turn{SessionID: "s1", Text: "✓ Approved", Decision: &api.ApprovalDecision{Action: api.ActionApprove, SubTasks: edited, Version: res.Plan.Version}})
	if res.Plan != nil {
		t.Fatalf("still waiting: %+v", res.Plan)
	}
	var ids, tools []string
	for _, r := range res.Recommendations {
		ids = append(ids, r.SubTaskID)
		tools = append(tools, r.Tool)
	}
	if strings.Join(ids, ",") != "s1,s2,s3,s4" || strings.Join(tools, ",") != "ChatGPT,Vrew,Canva,YouTube Studio" {
		t.Fatalf("recommendations %v %v", ids, tools)
	}
	if len(res.Steps) != 4 || res.Steps[1].Title != "영상 편집과 자막" || res.Steps[3].ID != "s4" {
		t.Fatalf("approved steps in the result: %+v", res.Steps)
	}
	if r := res.Recommendations[1]; r.URL != "https://vrew.ai" || r.Alternatives[0] != "CapCut" || len(r.Sources) == 0 {
		t.Fatalf("recommendation = %+v", r)
	}
	// Canva is in the built-in catalog: its card links to the catalog's
	// URL, not the one the model made up, and says so; YouTube Studio is
	// not, so the model's URL stays, unmarked (the window warns).
	if r := res.Recommendations[2]; r.URL != "https://www.canva.com" || !r.URLFromCatalog {
		t.Fatalf("catalog tool's card = %+v", r)
	}
	if r := res.Recommendations[3]; r.URL != "https://studio.youtube.com" || r.URLFromCatalog {
		t.Fatalf("unknown tool's card = %+v", r)
	}
	if got := lastMessage(e.requests(isReviewer)[1]).Content; !strings.Contains(got, "Sub-task s2: 영상 편집과 자막") {
		t.Fatalf("the reviewer did not get the edited title: %q", got)
	}
	// Each sub-task starts with Wayfinder's own search of the catalog and
	// the documents with the sub-task's words, then the reviewer; the
	// scout is asked only for s4, where the reviewer found something
	// missing (two tool calls, run in parallel), and the reviewer again;
	// then the guide; and the three calls before the approval.
	scouts := e.requests(isScout)
	if len(scouts) != 1 || !strings.Contains(scouts[0].Messages[2].Content, "Sub-task s4: 업로드") ||
		!strings.Contains(scouts[0].Messages[2].Content, "유튜브 업로드 도구") {
		t.Fatalf("scout calls: %d, first %+v", len(scouts), scouts)
	}
	if res.LLMCalls != 3+3+1+3 {
		t.Fatalf("llm calls = %d", res.LLMCalls)
	}
	if strings.Join(res.ToolsUsed, ",") != "calculator,get_time,retrieve_docs,search_catalog" {
		t.Fatalf("tools used = %v", res.ToolsUsed)
	}
	if !strings.HasPrefix(res.Response, "# 카페 쇼츠 가이드") || !strings.Contains(res.Response, "ChatGPT [1]") ||
		len(res.Sources) == 0 || res.Sources[0].ID != "cat-chatgpt" {
		t.Fatalf("guide:\n%s\nsources %+v", res.Response, res.Sources)
	}
	for _, r := range res.Recommendations[:3] {
		if len(r.Sources) == 0 || r.Sources[0].Title != r.Tool {
			t.Fatalf("the %s card points at %+v", r.Tool, r.Sources)
		}
	}
	if strings.TrimSpace(out.String()) != strings.TrimSpace(res.Response) {
		t.Fatalf("streamed text differs from the response:\n%q\n%q", out.String(), res.Response)
	}
	if guide := lastMessage(e.requests(isGuide)[0]).Content; !strings.Contains(guide, "Total cost (computed with the calculator): $29.99") {
		t.Fatalf("guide prompt lacks the computed total:\n%s", guide)
	}
	if len(out.kinds(api.TraceEvaluation)) != 5 || len(out.kinds(api.TraceSources)) == 0 {
		t.Fatalf("trace = %+v", out.traces)
	}

	// 4. Reflection ran after the answer and wrote the memories.
	a.Wait()
	mems := e.mem.All()
	if len(mems) != 2 || mems[0].Text != "무료 도구를 선호함" || mems[0].Kind != "preference" {
		t.Fatalf("memories = %+v", mems)
	}
	if in := lastMessage(e.requests(isMemory)[0]).Content; !strings.Contains(in, "Person's feedback on the plan: 무료 도구만 써 줘") {
		t.Fatalf("reflection input:\n%s", in)
	}
}

// Cancel ends the turn with a short message and frees the session.
func TestComplexCancel(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	scriptComplex(e)
	e.fake.On(isAnswer, ollamatest.Reply{Text: "안녕하세요!"})

	plan, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	res, out := turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionCancel, Version: plan.Plan.Version}})
	// Nothing was asked after the plan: the two calls are the router's and
	// the planner's.
	if res.Response != msgCancelled.ko || out.String() != msgCancelled.ko || res.LLMCalls != 2 || res.Plan != nil || res.TextKey != keyCancelled {
		t.Fatalf("result = %+v", res)
	}
	a.Wait()
	if len(e.requests(isMemory)) != 0 {
		t.Fatal("a cancelled plan was reflected on")
	}
	if _, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}}, &output{}); !errors.Is(err, ErrNoPendingPlan) {
		t.Fatalf("decision without a plan: %v", err)
	}
	if res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "안녕"}); res.Response != "안녕하세요!" || res.TextKey != "" {
		t.Fatalf("next message: %+v", res)
	}
}

// A pending approval survives quitting: a new Agent on the same SQLite
// file resumes the plan.
func TestApprovalSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	scriptComplex(e)
	first := e.agent(Options{})
	res, _ := turn(t, first, chat.Turn{SessionID: "s1", Text: shortsTask})
	if res.Plan == nil {
		t.Fatal("no plan")
	}
	first.Close()

	second := e.agent(Options{})
	res, _ = turn(t, second, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: res.Plan.Version}})
	if len(res.Recommendations) != 3 || !strings.HasPrefix(res.Response, "# 카페 쇼츠 가이드") {
		t.Fatalf("after restart: %+v", res)
	}
	if len(e.requests(isPlanner)) != 1 || len(e.requests(isRouter)) != 1 {
		t.Fatal("nodes before the interrupt ran again")
	}
	second.Wait()
}

// An unusable edit asks again, with the reason, instead of failing.
func TestApprovalInvalidEditAsksAgain(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	scriptComplex(e)
	first, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})

	bad := []api.SubTask{{ID: "s1", Title: "대본"}, {ID: "s1", Title: "편집"}}
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, SubTasks: bad, Version: first.Plan.Version}})
	if res.Plan == nil || !strings.Contains(res.Response, `two steps have the id "s1"`) || res.TextKey != "" {
		t.Fatalf("result = %+v", res)
	}
	// Asked again, it is a new question: the first one's version no longer answers.
	if res.Plan.Version == first.Plan.Version {
		t.Fatalf("asked again with the same version %q", res.Plan.Version)
	}
	if _, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: first.Plan.Version}}, &output{}); codeOf(err) != api.ErrPlanChanged {
		t.Fatalf("a decision for the question before: %v", err)
	}
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, SubTasks: []api.SubTask{{Title: "대본 작성"}}, Version: res.Plan.Version}})
	if len(res.Recommendations) != 1 || res.Recommendations[0].SubTaskID != "s1" {
		t.Fatalf("result = %+v", res)
	}
	a.Wait()
}

// Broken JSON from the planner: one repair attempt, then a one-step plan
// the person can edit, with a note saying so.
func TestPlannerBrokenJSON(t *testing.T) {
	t.Run("repaired", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
		e.fake.On(isPlanner, ollamatest.Reply{JSON: planOut{SubTasks: []planStep{{ID: "s1", Title: "only one"}}}}, ollamatest.Reply{JSON: firstPlan()})
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
		reqs := e.requests(isPlanner)
		if len(reqs) != 2 || !strings.Contains(lastMessage(reqs[1]).Content, "the plan needs 2 to 7 sub-tasks") {
			t.Fatalf("planner calls = %d", len(reqs))
		}
		if res.Plan == nil || len(res.Plan.SubTasks) != 3 {
			t.Fatalf("plan = %+v", res.Plan)
		}
	})
	t.Run("fallback", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
		e.fake.On(isPlanner, ollamatest.Reply{Text: "1. write a script 2. edit"})
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
		if len(e.requests(isPlanner)) != 2 || res.Plan == nil || len(res.Plan.SubTasks) != 1 || res.Plan.SubTasks[0].Title != shortsTask {
			t.Fatalf("plan = %+v", res.Plan)
		}
		if !strings.HasPrefix(res.Response, msgPlanFallback.ko) || res.TextKey != keyPlanFallback {
			t.Fatalf("response %q", res.Response)
		}
	})
}

// The reviewer passes what is missing back to the scout, at most
// MaxEvalRounds times, then records what was found.
func TestSufficiencyCheckPassesMissingBack(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{MaxEvalRounds: 2})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
	e.fake.On(isPlanner, ollamatest.Reply{JSON: planOut{SubTasks: []planStep{{ID: "s1", Title: "영상 편집"}, {ID: "s2", Title: "자막"}}}})
	e.fake.On(isScout, ollamatest.Reply{Text: "Not sure yet."})
	e.fake.On(isReviewer, ollamatest.Reply{JSON: review{Sufficient: false, Missing: "가격 정보"}})
	e.fake.On(isGuide, ollamatest.Reply{Text: "# Guide"})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})

	plan, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
	a.Wait()
	if n := len(e.requests(isReviewer)); n != 4 {
		t.Fatalf("reviews = %d, want 2 per sub-task", n)
	}
	if got := lastMessage(e.requests(isScout)[1]).Content; !strings.Contains(got, "still missing:\n<data-") || !strings.Contains(got, "\n가격 정보\n</data-") {
		t.Fatalf("second scout call did not get what is missing: %q", got)
	}
	// The reviewer never gave a usable pick: the best match of the
	// searches stands in, and says so in the person's language.
	if len(res.Recommendations) != 2 || res.Recommendations[0].Tool != "Vrew" || res.Recommendations[0].Why != msgRecFallback.ko {
		t.Fatalf("recommendations = %+v", res.Recommendations)
	}
	if !strings.Contains(lastMessage(e.requests(isGuide)[0]).Content, msgRecGuard.ko) {
		t.Fatal("the guide was not told that some steps hit the limit")
	}
}

// Ollama going away after the approval (while recommending) does not lose
// the plan nor the person's edits: the failed turn offers the approved
// plan again, edits included, under a new version, and approving it goes
// on without planning again.
func TestApprovalAfterFailedRecommendation(t *testing.T) {
	e := newEnv(t)
	scriptComplex(e)
	a := e.agent(Options{})
	first, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	if first.Plan == nil {
		t.Fatal("no plan")
	}
	edited := append([]api.SubTask(nil), first.Plan.SubTasks[:2]...)
	edited[1].Title = "영상 편집과 자막"
	e.fake.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "overloaded"})
	out := &output{}
	res, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, SubTasks: edited, Version: first.Plan.Version}}, out)
	if err == nil {
		t.Fatal("recommending succeeded with Ollama failing")
	}
	again := res.Plan
	if again == nil || again.Again != api.AgainFailed || again.Version == "" || again.Version == first.Plan.Version ||
		len(again.SubTasks) != 2 || again.SubTasks[1].Title != "영상 편집과 자막" {
		t.Fatalf("the failed turn did not offer the approved plan again: %+v", again)
	}
	if res.Response != msgPlanFailed.ko || out.String() != msgPlanFailed.ko || res.TextKey != keyPlanFailed {
		t.Fatalf("offered again with %q, streamed %q", res.Response, out.String())
	}
	e.fake.Reset()
	scriptComplex(e)
	if _, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: first.Plan.Version}}, &output{}); codeOf(err) != api.ErrPlanChanged {
		t.Fatalf("the first plan's version still answers: %v", err)
	}
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: again.Version}})
	if len(res.Recommendations) != 2 || res.Steps[1].Title != "영상 편집과 자막" || !strings.HasPrefix(res.Response, "# 카페 쇼츠 가이드") {
		t.Fatalf("approval after the failure: %+v", res)
	}
	if len(e.requests(isPlanner)) != 0 {
		t.Fatal("the task was planned again instead of resuming the approved plan")
	}
	a.Wait()
}

// codeOf is the code of a refusal the agent returns.
func codeOf(err error) api.ErrorCode {
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce.Info.Code
	}
	return ""
}

// A process killed after the approval was taken (its answer even saved
// in the checkpoint) and before the work on it: after the restart,
// Reoffer asks again for the plan as approved, edits included, under a
// new version; approving that once goes on with the edited plan, and the
// cut answer is not used.
func TestReofferAfterCrash(t *testing.T) {
	e := newEnv(t)
	scriptComplex(e)
	first := e.agent(Options{})
	plan, _ := turn(t, first, chat.Turn{SessionID: "s1", Text: shortsTask})
	edited := []api.SubTask{plan.Plan.SubTasks[0], {Title: "업로드"}}
	d := api.ApprovalDecision{Action: api.ActionApprove, SubTasks: edited, Version: plan.Plan.Version}
	// The cut turn: its answer reaches the checkpoint, then the process dies.
	snap, err := first.g.GetState(context.Background(), graph.Config{ThreadID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	cut, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := first.g.Resume(cut, graph.Config{ThreadID: "s1"}, graph.Command{ResumeMap: map[string]any{snap.Interrupts[0].ID: d}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cut resume: %v", err)
	}
	first.Close()

	second := e.agent(Options{})
	res, err := second.Reoffer(context.Background(), "s1", d)
	if err != nil {
		t.Fatal(err)
	}
	again := res.Plan
	if again == nil || again.Again != api.AgainInterrupted || again.Version == plan.Plan.Version || len(again.SubTasks) != 2 ||
		again.SubTasks[1].Title != "업로드" || res.Response != msgPlanAgain.ko {
		t.Fatalf("offered again: %+v", res)
	}
	if _, err := second.Reoffer(context.Background(), "s1", d); err != nil {
		t.Fatalf("a second Reoffer for the old version: %v", err)
	}
	res, _ = turn(t, second, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: again.Version}})
	if len(res.Steps) != 2 || res.Steps[1].Title != "업로드" || len(res.Recommendations) != 2 {
		t.Fatalf("after approving again: %+v", res)
	}
	if len(e.requests(isPlanner)) != 1 {
		t.Fatal("planned again")
	}
	second.Wait()
}
