package agent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// talk is a conversation as the chat service keeps it: every turn's
// message and reply join the history the next turn gets.
type talk struct {
	t       *testing.T
	a       *Agent
	session string
	history []api.Message
}

func (c *talk) say(text string) (api.TurnResult, *output) {
	c.t.Helper()
	res, out := turn(c.t, c.a, chat.Turn{SessionID: c.session, History: c.history, Text: text})
	c.a.Wait() // the summary is written before the next message, as a person types slower
	n := len(c.history)
	c.history = append(c.history,
		api.Message{ID: fmt.Sprintf("m%03d", n), Role: api.RoleUser, Content: text, Status: api.StatusComplete},
		api.Message{ID: fmt.Sprintf("m%03d", n+1), Role: api.RoleAssistant, Content: res.Response, Status: api.StatusComplete})
	return res, out
}

// summariseByEcho makes the fake summariser keep every line of what it is
// given (the carried summary and the transcript) but the headers, so a fact
// reaches a later prompt exactly when the window hands it on.
func summariseByEcho(e *env) {
	e.fake.OnFunc(isSummary, func(req ollama.ChatRequest) ollamatest.Reply {
		var kept []string
		for _, l := range strings.Split(lastMessage(req).Content, "\n") {
			if l != "" && !strings.HasPrefix(l, "요약할 대화:") && !strings.HasPrefix(l, "그 전 대화의 요약") &&
				!strings.HasPrefix(l, "Conversation to summarise:") && !strings.HasPrefix(l, "Summary of the conversation before") {
				kept = append(kept, l)
			}
		}
		return ollamatest.Reply{Text: strings.Join(kept, "\n")}
	})
}

// Facts given 12 and 3 exchanges before a question reach every call that
// answers it: the simple answer, and the planner, scout, reviewer and
// guide of a task. The old one has been summarised (and its summary has
// slid out of the window and been carried into a newer one).
func TestEarlierFactsReachEveryCall(t *testing.T) {
	const (
		oldFact    = "내 카페 이름은 블루 랜턴이야"
		recentFact = "예산은 370만 원이야"
	)
	play := func(t *testing.T, e *env, last string) (*talk, api.TurnResult) {
		c := &talk{t: t, a: e.agent(Options{}), session: "s1"}
		for i := 1; i <= 15; i++ {
			text := fmt.Sprintf("%d번째 이야기: 오늘은 메뉴 사진을 정리했어", i)
			switch i {
			case 16 - 12:
				text = oldFact
			case 16 - 3:
				text = recentFact
			}
			c.say(text)
		}
		res, _ := c.say(last)
		return c, res
	}
	check := func(t *testing.T, e *env, role string, match ollamatest.Matcher) {
		t.Helper()
		reqs := e.requests(match)
		if len(reqs) == 0 {
			t.Fatalf("no %s call", role)
		}
		req := reqs[len(reqs)-1]
		sys, all := systemOf(req), promptText(req)
		if !strings.Contains(sys, "블루 랜턴") || !strings.Contains(sys, "[대화 기록") {
			t.Errorf("%s: the old fact is not in the summaries:\n%s", role, sys)
		}
		if !strings.Contains(all, recentFact) {
			t.Errorf("%s: the recent fact is not in the prompt:\n%s", role, all)
		}
	}

	t.Run("answer", func(t *testing.T) {
		e := newEnv(t)
		summariseByEcho(e)
		e.fake.On(isAnswer, ollamatest.Reply{Text: "네, 알겠어요."})
		e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
		_, res := play(t, e, "내 카페 이름이랑 예산이 뭐였지?")
		if res.LLMCalls != 1 {
			t.Errorf("the question made %d calls before its answer, want 1 (summaries are made after turns)", res.LLMCalls)
		}
		check(t, e, "answer", isAnswer)
		// The window slid: four summaries were made and three are kept,
		// the first carried into the fourth.
		sums := e.requests(isSummary)
		if len(sums) < 4 || !strings.Contains(lastMessage(sums[3]).Content, "그 전 대화의 요약") {
			t.Fatalf("%d summaries; the fourth did not carry the first", len(sums))
		}
	})
	t.Run("task", func(t *testing.T) {
		e := newEnv(t)
		summariseByEcho(e)
		// The first review asks for more, so that the scout is called too.
		e.fake.OnFunc(isReviewer, func(req ollama.ChatRequest) ollamatest.Reply {
			if len(e.requests(isReviewer)) == 1 {
				return ollamatest.Reply{JSON: review{Sufficient: false, Missing: "가격"}}
			}
			return scriptedReview(req)
		})
		scriptComplex(e)
		e.fake.On(isAnswer, ollamatest.Reply{Text: "네, 알겠어요."})
		c, res := play(t, e, shortsTask)
		if res.Plan == nil {
			t.Fatalf("no plan: %+v", res)
		}
		check(t, e, "planner", isPlanner)
		res, _ = turn(t, c.a, chat.Turn{SessionID: c.session, History: c.history, Text: "✓", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: res.Plan.Version}})
		c.a.Wait()
		if len(res.Recommendations) != 3 {
			t.Fatalf("recommendations: %+v", res.Recommendations)
		}
		check(t, e, "scout", isScout)
		check(t, e, "reviewer", isReviewer)
		check(t, e, "guide", isGuide)
	})
}

// A conversation whose summary fell behind (24 unsummarised messages that
// fit the context) keeps every message verbatim: none is cut.
func TestBehindSummaryKeepsEveryMessage(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "네."})
	e.fake.On(isSummary, ollamatest.Reply{Text: "요약"})
	var pairs []string
	for i := range 12 {
		pairs = append(pairs, fmt.Sprintf("질문 %d", i), fmt.Sprintf("답 %d", i))
	}
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", History: msgs(pairs...), Text: "다음은?"})
	if res.LLMCalls != 1 {
		t.Fatalf("%d calls before the answer, want 1", res.LLMCalls)
	}
	got := e.requests(isAnswer)[0].Messages
	// The preamble and the answer's instructions, the 24 messages, the
	// question (no data block, so no data key).
	if len(got) != 2+24+1 || got[2].Content != "질문 0" || got[25].Content != "답 11" {
		t.Fatalf("sent %d messages: %+v", len(got), got)
	}
	a.Wait()
	if n := len(e.requests(isSummary)); n != 1 {
		t.Fatalf("summaries after the turn: %d, want 1", n)
	}
}

// With a small context (num_ctx 2048) the unsummarised messages do not
// fit the history's share: the oldest are summarised before the answer,
// the newest that fit are sent verbatim, and the summary holds the rest.
func TestSmallContextFoldsWhatDoesNotFit(t *testing.T) {
	e := newEnv(t)
	client, err := llm.New(e.fake.URL(), llm.WithRetry(2, time.Millisecond), llm.WithNumCtx(2048))
	if err != nil {
		t.Fatal(err)
	}
	e.client = client
	a := e.agent(Options{})
	summariseByEcho(e)
	e.fake.On(isAnswer, ollamatest.Reply{Text: "네."})

	// Eight messages of about 154 tokens each: 1232 tokens, where the
	// history may take 716.
	var pairs []string
	for i := range 8 {
		pairs = append(pairs, fmt.Sprintf("Note %d: ", i)+strings.Repeat("lorem ipsum ", 50))
	}
	history := msgs(pairs...)
	b := newBudget(2048)
	res, out := turn(t, a, chat.Turn{SessionID: "s1", History: history, Text: "What did note 0 say?"})
	a.Wait()

	sums := e.requests(isSummary)
	if len(sums) != 1 || res.LLMCalls != 2 {
		t.Fatalf("summaries %d, calls %d: want the summary before the answer", len(sums), res.LLMCalls)
	}
	folded := lastMessage(sums[0]).Content
	req := e.requests(isAnswer)[0]
	var kept []string
	for _, m := range req.Messages[2 : len(req.Messages)-1] { // without the system messages and the question
		kept = append(kept, m.Content[:6])
	}
	// Four fit (4 x 154 = 616 <= 716); the four oldest are in the summary
	// prompt and, echoed, in the answer's system prompt.
	if strings.Join(kept, ",") != "Note 4,Note 5,Note 6,Note 7" {
		t.Fatalf("sent verbatim: %v", kept)
	}
	for i := range 4 {
		note := fmt.Sprintf("Note %d:", i)
		if !strings.Contains(folded, note) || !strings.Contains(systemOf(req), note) {
			t.Fatalf("%s is neither verbatim nor summarised:\nsummary prompt:\n%s\nsystem:\n%s", note, folded, systemOf(req))
		}
	}
	if strings.Contains(folded, "Note 4:") {
		t.Fatalf("a message that fits was summarised:\n%s", folded)
	}
	if req.Options["num_ctx"] != float64(2048) {
		t.Fatalf("num_ctx = %v", req.Options["num_ctx"])
	}
	if kept, _ := historyInput(history[4:]); msgTokens(kept) > b.history {
		n := msgTokens(kept)
		t.Fatalf("the kept history takes %d tokens, more than its %d", n, b.history)
	}
	if len(out.kinds(api.TracePlanning)) == 0 || !strings.Contains(fmt.Sprint(out.traces), string(api.TraceSummarizing)) {
		t.Fatalf("the person was not told: %+v", out.traces)
	}
	// The next turn starts from the folded point: nothing is summarised
	// twice, nothing is lost.
	history = append(history, api.Message{ID: "m100", Role: api.RoleUser, Content: "What did note 0 say?"},
		api.Message{ID: "m101", Role: api.RoleAssistant, Content: res.Response})
	turn(t, a, chat.Turn{SessionID: "s1", History: history, Text: "ok"})
	a.Wait()
	if sums := e.requests(isSummary); len(sums) > 1 && strings.Contains(lastMessage(sums[1]).Content, "Note 0:") &&
		!strings.Contains(lastMessage(sums[1]).Content, "그 전 대화의 요약") {
		t.Fatalf("folded messages summarised again:\n%s", lastMessage(sums[1]).Content)
	}
	if !strings.Contains(systemOf(e.requests(isAnswer)[1]), "Note 0:") {
		t.Fatalf("note 0 left the window:\n%s", systemOf(e.requests(isAnswer)[1]))
	}
}
