package app

import (
	"slices"
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestTuningReachesOllama: what a person tunes in Settings and in a
// conversation's own settings arrives at Ollama with the calls of that
// conversation's turns, through the services the window calls; a
// conversation's own settings win over the global ones, other
// conversations keep the global ones, and the export carries them to
// another data folder.
func TestTuningReachesOllama(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}))
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, set := &ChatService{a}, &SettingsService{a}
	system := func(r ollama.ChatRequest) string { // joined, as Ollama joins them
		var sys []string
		for _, m := range r.Messages {
			if m.Role == "system" {
				sys = append(sys, m.Content)
			}
		}
		return strings.Join(sys, "\n\n")
	}
	turn := func(session, text string) (string, []ollama.ChatRequest) {
		t.Helper()
		n := len(fake.ChatRequests())
		ack, err := c.Send(session, text, api.SendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		events.finished(t, ack.TurnID)
		a.agent.Wait()
		return ack.SessionID, fake.ChatRequests()[n:]
	}
	answer := func(reqs []ollama.ChatRequest) ollama.ChatRequest {
		t.Helper()
		i := slices.IndexFunc(reqs, func(r ollama.ChatRequest) bool { return strings.Contains(system(r), agent.RoleAnswer) })
		if i < 0 {
			t.Fatalf("no answer call among %d", len(reqs))
		}
		return reqs[i]
	}

	g, _ := set.Get()
	warm := 1.1
	g.SystemPrompt, g.Temperature = "  Answer like a pirate.  ", &warm
	if saved, err := set.Save(g); err != nil || saved.SystemPrompt != "Answer like a pirate." {
		t.Fatalf("save: %+v %v", saved, err)
	}
	id, reqs := turn("", "hello there")
	ans := answer(reqs)
	if !strings.HasSuffix(system(ans), "\nAnswer like a pirate.") || ans.Options["temperature"] != 1.1 || ans.Options["num_ctx"] != float64(8192) {
		t.Fatalf("global settings: options %v\n%s", ans.Options, system(ans))
	}
	for _, r := range reqs {
		if !strings.Contains(system(r), agent.RoleAnswer) && r.Options["temperature"] == 1.1 {
			t.Fatalf("a call that must return JSON got the person's temperature:\n%s", system(r))
		}
	}

	prompt, cool, numCtx := "한국어로 짧게 답해.", 0.3, 4096
	own := api.ConversationSettings{SystemPrompt: &prompt, Temperature: &cool, ContextTokens: &numCtx}
	if s, err := c.SetSettings(id, own); err != nil || s.Settings == nil || *s.Settings.ContextTokens != 4096 {
		t.Fatalf("SetSettings: %+v %v", s, err)
	}
	_, reqs = turn(id, "and now?")
	ans = answer(reqs)
	if !strings.HasSuffix(system(ans), "\n"+prompt) || strings.Contains(system(ans), "pirate") || ans.Options["temperature"] != 0.3 {
		t.Fatalf("the conversation's own settings: options %v\n%s", ans.Options, system(ans))
	}
	for _, r := range reqs {
		if r.Options["num_ctx"] != float64(4096) {
			t.Fatalf("a call of the conversation without its context size: %v\n%s", r.Options, system(r))
		}
	}
	// Another conversation keeps the global settings.
	if _, reqs = turn("", "hi"); !strings.Contains(system(answer(reqs)), "pirate") || answer(reqs).Options["num_ctx"] != float64(8192) {
		t.Fatalf("another conversation: %v\n%s", answer(reqs).Options, system(answer(reqs)))
	}

	// Bad values are refused with what is wrong, and nothing changes.
	hot := 5.0
	if _, err := c.SetSettings(id, api.ConversationSettings{Temperature: &hot}); describe(err).Code != api.ErrSettingsInvalid || !strings.Contains(describe(err).Message, "temperature") {
		t.Fatalf("temperature 5: %v", err)
	}
	if s, _ := a.store.Session(a.ctx, id); s.Settings == nil || *s.Settings.Temperature != 0.3 {
		t.Fatalf("a refused change changed the settings: %+v", s.Settings)
	}

	// The export carries them; an import elsewhere keeps them.
	file, err := c.Export([]string{id}, "json", "en")
	if err != nil || !strings.Contains(file.Content, `"context_tokens": 4096`) {
		t.Fatalf("export: %v\n%s", err, file.Content)
	}
	b, _ := openTestApp(t, fake, "llama3.2:3b")
	if _, err := (&ChatService{b}).Import(file.Content); err != nil {
		t.Fatal(err)
	}
	if s, err := b.store.Session(b.ctx, id); err != nil || s.Settings == nil || *s.Settings.SystemPrompt != prompt || *s.Settings.Temperature != 0.3 {
		t.Fatalf("imported: %+v %v", s.Settings, err)
	}

	// Back to the global settings.
	if s, err := c.SetSettings(id, api.ConversationSettings{}); err != nil || s.Settings != nil {
		t.Fatalf("reset: %+v %v", s, err)
	}
}
