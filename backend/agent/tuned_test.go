package agent

import (
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// What the person tunes reaches the model: the global system prompt and
// temperature on every call that writes for them, a conversation's own
// settings over the global ones (its context size on every call, and in
// the budget), and calls that must return JSON stay at temperature 0.
func TestTunedSettingsReachTheCalls(t *testing.T) {
	e := newEnv(t)
	warm := 1.3
	global := api.Settings{SystemPrompt: "Answer like a pirate.", Temperature: &warm, MaxIterations: 5}
	a := e.agentWith(Options{}, func() api.Settings { return global })
	e.fake.On(isRouter, ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false}})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "Arr."})

	turn(t, a, chat.Turn{SessionID: "s1", Text: "How do I edit a video on my phone?"})
	ans := e.requests(isAnswer)[0]
	if !strings.HasSuffix(systemOf(ans), "[The person's instructions for your replies]\nAnswer like a pirate.") {
		t.Fatalf("the system prompt lacks the person's instructions:\n%s", systemOf(ans))
	}
	if ans.Options["temperature"] != 1.3 || ans.Options["num_ctx"] != float64(8192) {
		t.Fatalf("answer options %v", ans.Options)
	}
	a.Wait() // reflection, a JSON call
	for _, r := range e.fake.ChatRequests() {
		if !isAnswer(r) && (r.Options["temperature"] != float64(0) || strings.Contains(systemOf(r), "pirate")) {
			t.Fatalf("a JSON call is tuned too: %v\n%s", r.Options, systemOf(r))
		}
	}

	// A conversation's own settings win, and its context size is sent
	// with every call.
	cool, prompt, numCtx := 0.2, "한국어로 짧게 답해.", 4096
	turn(t, a, chat.Turn{SessionID: "s2", Text: "How do I edit a video on my phone?",
		Settings: &api.ConversationSettings{SystemPrompt: &prompt, Temperature: &cool, ContextTokens: &numCtx}})
	ans = e.requests(isAnswer)[1]
	if !strings.HasSuffix(systemOf(ans), prompt) || strings.Contains(systemOf(ans), "pirate") ||
		ans.Options["temperature"] != 0.2 || ans.Options["num_ctx"] != float64(4096) {
		t.Fatalf("the conversation's settings: options %v\n%s", ans.Options, systemOf(ans))
	}
	a.Wait()
	for _, r := range e.fake.ChatRequests()[len(e.fake.ChatRequests())-2:] {
		if r.Options["num_ctx"] != float64(4096) {
			t.Fatalf("a call of the conversation without its context size: %v", r.Options)
		}
	}
	if b := a.budget(withTurnSettings(t.Context(), &api.ConversationSettings{ContextTokens: &numCtx})); b.numCtx != 4096 {
		t.Fatalf("budget %+v", b)
	}

	// Nothing tuned: nothing added.
	global = api.Settings{MaxIterations: 5}
	turn(t, a, chat.Turn{SessionID: "s3", Text: "How do I edit a video on my phone?"})
	ans = e.requests(isAnswer)[2]
	if _, set := ans.Options["temperature"]; set || strings.Contains(systemOf(ans), "[The person's instructions") {
		t.Fatalf("untuned call: %v\n%s", ans.Options, systemOf(ans))
	}
}
