package app

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// waitFor returns the first event called name that ok accepts.
func (l *eventLog) waitFor(t *testing.T, name string, ok func(any) bool) any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		for _, e := range l.events {
			if e.name == name && ok(e.payload) {
				l.mu.Unlock()
				return e.payload
			}
		}
		l.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s event of the kind wanted", name)
	return nil
}

// all is the payloads of the events named name so far, in order.
func (l *eventLog) all(name string) []any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []any
	for _, e := range l.events {
		if e.name == name {
			out = append(out, e.payload)
		}
	}
	return out
}

// count is how many events named name ok accepts so far.
func (l *eventLog) count(name string, ok func(any) bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.events {
		if e.name == name && ok(e.payload) {
			n++
		}
	}
	return n
}

// finished waits for the turn's end and returns its stored reply.
func (l *eventLog) finished(t *testing.T, turnID string) api.Message {
	t.Helper()
	ev := l.waitFor(t, api.EventTurnFinished, func(p any) bool { return p.(api.TurnFinished).TurnID == turnID })
	return ev.(api.TurnFinished).Message
}

// TestConversationModel: a conversation keeps the chat model picked for it
// (in a new chat, or switched midway); every model call of its turns uses
// it, the sidebar lists it, each answer names the model that wrote it, and
// other conversations keep the default.
func TestConversationModel(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "qwen3:4b", Capabilities: []string{"completion", "tools", "thinking"}},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}},
	), ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}))
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c := &ChatService{a}
	chatModels := func(since int) []string {
		var out []string
		for _, r := range fake.ChatRequests()[since:] {
			out = append(out, r.Model)
		}
		return out
	}
	only := func(models []string, want string) bool {
		for _, m := range models {
			if m != want {
				return false
			}
		}
		return len(models) > 0
	}

	ack, err := c.Send("", "hello there", api.SendOptions{Model: "qwen3:4b"})
	if err != nil {
		t.Fatal(err)
	}
	if reply := events.finished(t, ack.TurnID); reply.Result == nil || reply.Result.Model != "qwen3:4b" {
		t.Fatalf("the answer does not name its model: %+v", reply.Result)
	}
	a.agent.Wait()
	if got := chatModels(0); !only(got, "qwen3:4b") {
		t.Fatalf("calls of a conversation started with qwen3:4b: %v", got)
	}
	list, _ := c.ListSessions("")
	if len(list) != 1 || list[0].Model != "qwen3:4b" {
		t.Fatalf("sidebar: %+v", list)
	}

	// Switched midway: the next turn, and a regenerated one, use the new model.
	if s, err := c.SetModel(ack.SessionID, "llama3.2:3b"); err != nil || s.Model != "llama3.2:3b" {
		t.Fatalf("SetModel: %+v %v", s, err)
	}
	n := len(fake.ChatRequests())
	next, err := c.Send(ack.SessionID, "and now?", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if reply := events.finished(t, next.TurnID); reply.Result.Model != "llama3.2:3b" {
		t.Fatalf("after the switch: %+v", reply.Result)
	}
	a.agent.Wait()
	if got := chatModels(n); !only(got, "llama3.2:3b") {
		t.Fatalf("calls after switching to llama3.2:3b: %v", got)
	}
	c.SetModel(ack.SessionID, "qwen3:4b")
	again, err := c.Regenerate(ack.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if reply := events.finished(t, again.TurnID); reply.Result.Model != "qwen3:4b" {
		t.Fatalf("regenerated: %+v", reply.Result)
	}

	// Another conversation follows the default model.
	other, _ := c.Send("", "hi", api.SendOptions{})
	if reply := events.finished(t, other.TurnID); reply.Result.Model != "llama3.2:3b" {
		t.Fatalf("default conversation: %+v", reply.Result)
	}
	// "" goes back to the default; nonsense is refused.
	if s, err := c.SetModel(ack.SessionID, ""); err != nil || s.Model != "" {
		t.Fatalf("reset: %+v %v", s, err)
	}
	if _, err := c.SetModel(ack.SessionID, "bad\nname"); describe(err).Code != api.ErrInvalidInput {
		t.Fatalf("a control character in a model name: %v", err)
	}
	if _, err := c.SetModel("no-such-session", "qwen3:4b"); describe(err).Code != api.ErrNotFound {
		t.Fatalf("unknown session: %v", err)
	}
}

// TestPullCancelAndDelete: a download can be cancelled (the last progress
// event says so, the model is not installed), and a model can be deleted.
func TestPullCancelAndDelete(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithPullDelay(time.Second))
	a, events := openTestApp(t, fake, "llama3.2:3b")
	s := &SettingsService{a}
	if err := s.Pull("qwen3:4b"); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventPullProgress, func(p any) bool { return p.(api.PullProgress).Status == "pulling manifest" })
	if err := s.CancelPull("qwen3:4b"); err != nil {
		t.Fatal(err)
	}
	last := events.waitFor(t, api.EventPullProgress, func(p any) bool { return p.(api.PullProgress).Done }).(api.PullProgress)
	if !last.Cancelled || last.Error != nil || last.Status != "cancelled" {
		t.Fatalf("last event of a cancelled pull: %+v", last)
	}
	models, _ := s.Models()
	for _, m := range models {
		if m.Name == "qwen3:4b" {
			t.Fatal("a cancelled pull installed the model")
		}
	}
	if err := s.CancelPull("nothing-downloading"); err != nil {
		t.Fatalf("cancelling what is not downloading: %v", err)
	}

	if err := s.DeleteModel("llama3.2:3b"); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Status(); st.ChatModel.Installed {
		t.Fatalf("deleted model still installed: %+v", st.ChatModel)
	}
	if err := s.DeleteModel("llama3.2:3b"); describe(err).Code != api.ErrModelMissing {
		t.Fatalf("deleting a model Ollama does not have: %v (%+v)", err, describe(err))
	}
	if err := s.DeleteModel(" "); describe(err).Code != api.ErrInvalidInput {
		t.Fatalf("deleting no model: %v", err)
	}
}

// With several Ollama hosts each pulls the model in turn and Ollama's
// figures start again for each: every progress event names its host and
// place among them, in order, so the window can say which and keep one bar.
// With one host the events stay as they were.
func TestPullProgressNamesEachHost(t *testing.T) {
	a, b := ollamatest.New(t), ollamatest.New(t)
	for _, tt := range []struct {
		name  string
		hosts string
		want  []api.PullProgress // the first event of each host: Host, HostIndex, Hosts
	}{
		{"one host", a.URL(), []api.PullProgress{{}}},
		{"two hosts", a.URL() + "," + b.URL(), []api.PullProgress{
			{Host: a.URL(), HostIndex: 1, Hosts: 2},
			{Host: b.URL(), HostIndex: 2, Hosts: 2},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := newModelClient(api.Settings{OllamaHost: tt.hosts}, newLogger(io.Discard, false), nil)
			if err != nil {
				t.Fatal(err)
			}
			var firsts []api.PullProgress
			err = m.Pull(context.Background(), "qwen3:4b", func(p api.PullProgress) {
				if p.Status == "pulling manifest" {
					firsts = append(firsts, api.PullProgress{Host: p.Host, HostIndex: p.HostIndex, Hosts: p.Hosts})
				} else if n := len(firsts); n == 0 || p.HostIndex != firsts[n-1].HostIndex || p.Host != firsts[n-1].Host {
					t.Errorf("event %+v does not name the host of its download", p)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, firsts); d != "" {
				t.Errorf("hosts in the progress (-want +got):\n%s", d)
			}
		})
	}
}

// A download over several hosts with one down still gets the model onto
// the others: the last event is a success that names the host missed.
func TestPullNamesTheHostsMissed(t *testing.T) {
	fake, gone := ollamatest.New(t), ollamatest.New(t)
	goneURL := gone.URL()
	gone.Close()
	a, events := openServeApp(t, globals{dataDir: t.TempDir(), ollamaHost: fake.URL() + "," + goneURL, model: "llama3.2:3b", embedModel: "bge-m3"})
	if err := (&SettingsService{a}).Pull("qwen3:4b"); err != nil {
		t.Fatal(err)
	}
	last := events.waitFor(t, api.EventPullProgress, func(p any) bool { return p.(api.PullProgress).Done }).(api.PullProgress)
	if last.Status != "success" || last.Error != nil || !cmp.Equal(last.Missed, []string{goneURL}) {
		t.Fatalf("last event: %+v", last)
	}
}

// TestContextLengthsOutliveARestart: with the model's own context size,
// what /api/show said of a model is kept in the data folder, and the next
// start fits prompts to it while Ollama does not answer yet (not to
// llm.DefaultNumCtx, which would fold messages into summaries for good).
func TestContextLengthsOutliveARestart(t *testing.T) {
	fake := ollamatest.New(t)
	fake.AddModel(ollamatest.Model{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 16384})
	dir := t.TempDir()
	ctx := context.Background()
	open := func(host string) *App {
		t.Helper()
		a, err := openApp(ctx, globals{dataDir: dir, ollamaHost: host, model: "small:1b"}, "serve", newLogger(io.Discard, false))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := open(fake.URL())
	s := a.settings.Current()
	s.ContextTokens = 0 // the model's own
	if _, err := a.settings.Save(ctx, s); err != nil {
		t.Fatal(err)
	}
	if st, _ := (&SettingsService{a}).Status(); !st.ChatModel.Installed {
		t.Fatalf("status: %+v", st)
	}
	a.Close()

	url := fake.URL()
	fake.Close() // Ollama is not up yet at the next start
	b := open(url)
	defer b.Close()
	if got := b.models.current().ContextSize(ctx, "small:1b"); got != 16384 {
		t.Errorf("context size at the next start, Ollama down: %d, want 16384", got)
	}
}
