// Package concurrency runs 20 conversations at once through one backend
// (issue 7, item 7): under `go test -race` there must be no data race, and
// no conversation may see another's messages, in its stored history or in
// what is sent to the model, nor get memories written from another's words.
package concurrency

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"
	"go.uber.org/goleak"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("gorm.io/gorm/internal/lru.NewLRU[...].func1"))
}

const sessions = 20

// Every conversation carries its own marker; a marker in the wrong place is
// a leak.
var markerRe = regexp.MustCompile(`MARK-\d\d`)

func marker(i int) string { return fmt.Sprintf("MARK-%02d", i) }

// memoryRe matches a memory the scripted memory keeper writes. Long-term
// memories belong to the person, not to one conversation, and prompts carry
// them by design, so they are left out when looking for leaks.
var memoryRe = regexp.MustCompile(`works on MARK-\d\d`)

// markersOf lists the distinct markers in the conversation part of a
// request: everything but the system prompt and the memories.
func markersOf(req ollama.ChatRequest) map[string]bool {
	found := map[string]bool{}
	for _, m := range req.Messages {
		if m.Role == "system" {
			continue
		}
		for _, x := range markerRe.FindAllString(memoryRe.ReplaceAllString(m.Content, ""), -1) {
			found[x] = true
		}
	}
	return found
}

// TestTwentySessionsAtOnce runs 20 conversations of two simple turns each,
// with reflection writing memories after every turn.
func TestTwentySessionsAtOnce(t *testing.T) { runSessions(t, false) }

// TestTwentySessionsAtOnceComplex makes half of them complex flows: plans,
// approvals and recommendations checkpointed to one SQLite file at once
// (this found "database is locked (517)" before the store began its
// transactions IMMEDIATE).
func TestTwentySessionsAtOnceComplex(t *testing.T) { runSessions(t, true) }

// runSessions runs the conversations; with complex, even-numbered ones run
// the complex flow (plan, approval, recommendations, guide) instead.
func runSessions(t *testing.T, complex bool) {
	fake := ollamatest.New(t, ollamatest.WithLatency(5*time.Millisecond))
	// The answer and the memory keeper repeat the conversation's marker,
	// so a reply or a memory built from the wrong conversation shows.
	echo := func(req ollama.ChatRequest) string {
		return strings.Join(keys(markersOf(req)), ",")
	}
	fake.OnFunc(world.IsAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Chunks: []string{"Noted ", echo(req), "."}, ChunkDelay: time.Millisecond}
	})
	fake.OnFunc(world.IsMemory, func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{JSON: map[string]any{"memories": []map[string]string{{"text": "works on " + echo(req), "kind": "fact"}}}}
	})
	world.ScriptComplex(fake, world.Pace{ChunkDelay: time.Millisecond})
	b := world.New(t, fake.URL(), world.Config{DataDir: t.TempDir()})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ids := make([]string, sessions)
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := converse(ctx, b, i, complex)
			ids[i] = id
			if err != nil {
				errs <- fmt.Errorf("session %d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	b.Agent.Wait()

	// Stored histories hold only their own marker.
	for i, id := range ids {
		if id == "" {
			continue
		}
		msgs, err := b.Store.Messages(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) < 4 {
			t.Errorf("session %d has %d messages", i, len(msgs))
		}
		for _, m := range msgs {
			for _, x := range markerRe.FindAllString(m.Content, -1) {
				if x != marker(i) {
					t.Errorf("session %d holds %s's words: %q", i, x, m.Content)
				}
			}
		}
	}
	// No request mixed two conversations.
	for _, req := range fake.ChatRequests() {
		if found := markersOf(req); len(found) > 1 {
			t.Errorf("one request carries several conversations %v:\n%+v", keys(found), req.Messages)
		}
	}
	// Each memory came from one conversation.
	for _, m := range b.Memory.All() {
		if n := len(markerRe.FindAllString(m.Text, -1)); n != 1 {
			t.Errorf("memory %q mixes %d conversations", m.Text, n)
		}
	}
	t.Logf("%d sessions, %d model calls, %d memories", sessions, fake.Count(ollamatest.PathChat), len(b.Memory.All()))
}

// converse runs two turns in a new session: two simple questions, or with
// complex for even sessions, a complex task approved at once.
func converse(ctx context.Context, b *world.Backend, i int, complex bool) (string, error) {
	mk := marker(i)
	var msg api.Message
	var err error
	if complex && i%2 == 0 {
		msg, err = b.Chat.Ask(ctx, "", world.ComplexTask+" ("+mk+")", nil)
		if err == nil && msg.Status == api.StatusAwaitingApproval {
			msg, err = b.Chat.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: msg.Result.Plan.Version}, nil)
		}
	} else {
		msg, err = b.Chat.Ask(ctx, "", "My project code is "+mk+". How should I plan it?", nil)
		if err == nil {
			msg, err = b.Chat.Ask(ctx, msg.SessionID, "Remind me of my project code "+mk+" and the first step.", nil)
		}
	}
	if err != nil {
		return msg.SessionID, err
	}
	if msg.Status != api.StatusComplete {
		return msg.SessionID, fmt.Errorf("status %s: %q", msg.Status, msg.Content)
	}
	if !(complex && i%2 == 0) && !strings.Contains(msg.Content, mk) {
		return msg.SessionID, fmt.Errorf("reply %q lacks the session's marker %s", msg.Content, mk)
	}
	return msg.SessionID, nil
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
