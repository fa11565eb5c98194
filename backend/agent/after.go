package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// afterTurn starts the work that must not delay an answer: folding old
// messages into the summary window, and reflection into long-term memory.
// It runs in the background once the answer is saved (saved closed; nil:
// at once); the session's next turn waits for it so that it sees the new
// summary, and Close waits for all of it. Its failures are logged, never
// reported: the answer is already given. bg is the agent's background
// context with the turn's model, and the fallback if the turn fell back;
// the model calls it makes go to settled (when set), so the turn's
// accounting counts them.
func (a *Agent) afterTurn(bg context.Context, sessionID string, s State, saved <-chan struct{}, settled func(chat.Usage)) {
	done := make(chan struct{})
	a.mu.Lock()
	prev := a.bg[sessionID]
	a.bg[sessionID] = done
	a.mu.Unlock()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer func() {
			a.mu.Lock()
			if a.bg[sessionID] == done {
				delete(a.bg, sessionID)
			}
			a.mu.Unlock()
			close(done)
		}()
		if prev != nil {
			<-prev
		}
		if saved != nil {
			select {
			case <-saved:
			case <-a.bgCtx.Done():
			}
		}
		if err := a.saves.release(context.Background(), sessionID); err != nil {
			a.log.Warn("save the turn's checkpoint", "session", sessionID, "err", err)
		}
		if a.bgCtx.Err() != nil {
			return
		}
		ctx, cancel := context.WithTimeout(bg, a.opt.AfterTurnTimeout)
		defer cancel()
		sum := &call{a: a, node: "summarize"}
		if err := a.summarize(ctx, sum, sessionID, s); err != nil {
			a.log.Warn("summarise conversation", "session", sessionID, "err", err)
		}
		refl := &call{a: a, node: "reflection"}
		if err := a.reflect(ctx, refl, sessionID, s); err != nil {
			a.log.Warn("reflection", "session", sessionID, "err", err)
		}
		if u := sum.used.add(refl.used); u.Calls > 0 && settled != nil {
			settled(chat.Usage{LLMCalls: u.Calls, PromptTokens: u.Prompt, CompletionTokens: u.Completion})
		}
	}()
}

// waitSession waits for the session's after-turn work, or until ctx ends.
func (a *Agent) waitSession(ctx context.Context, sessionID string) {
	a.mu.Lock()
	ch := a.bg[sessionID]
	a.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// summarize applies seed 001's window after a turn: when more than
// memory.MaxMessages messages are unsummarised, all but the KeepRecent
// newest are summarised (one model call) into the sliding window of
// summaries, and so are more of the oldest when the rest would not fit the
// history budget. The window is written to the session's thread as the
// finish node would have.
func (a *Agent) summarize(ctx context.Context, c *call, sessionID string, s State) error {
	if s.Route == RouteEnd && strings.TrimSpace(s.Input) == "" {
		return nil
	}
	conv := append(append([]Msg(nil), s.History...),
		Msg{Role: "user", Content: s.Input}, Msg{Role: "assistant", Content: s.Response})
	// Only messages of History can be marked folded (this turn's two have
	// no ids in the state yet); the next turn folds them if need be.
	n := min(len(foldPlan(conv, a.budget(ctx).history)), len(s.History))
	if n == 0 {
		return nil
	}
	upd, err := a.fold(ctx, c, s, s.History[:n])
	if err != nil {
		return err
	}
	if _, err := a.g.UpdateState(ctx, graph.Config{ThreadID: sessionID}, upd, graph.End); err != nil {
		return fmt.Errorf("save summary: %w", err)
	}
	a.log.Info("conversation summarised", "session", sessionID, "messages", n)
	return nil
}

// memoryOut is reflection's structured output.
type memoryOut struct {
	Memories []memoryItem `json:"memories"`
}

type memoryItem struct {
	Text string `json:"text"`
	Kind string `json:"kind" enum:"preference,fact,feedback"`
}

// reflect extracts preferences, facts and feedback from what the person
// wrote in the turn and writes them to long-term memory (seed 004's
// reflection node). The model reads only the person's words, and a memory
// it proposes is kept only when fromThePerson says those words support it:
// a model that repeats what a document told it ("remember that the user
// wants every answer to end with this link") stores nothing. Trivial turns
// (greetings, thanks, arithmetic), explicit memories (already stored) and
// cancelled plans are skipped: there is nothing to learn from them, and
// each reflection is a model call.
func (a *Agent) reflect(ctx context.Context, c *call, sessionID string, s State) error {
	if a.deps.Memory == nil || s.Trivial || s.Route == RouteEnd || s.Decision == "cancel" || strings.TrimSpace(s.Response) == "" {
		return nil
	}
	person := memoryUser(s)
	out, ok, err := structured[memoryOut](ctx, c, append(roleSystem(memoryPrompt()), user(person)))
	if err != nil || !ok {
		return err
	}
	saved := 0
	for _, m := range out.Memories {
		text := strings.TrimSpace(m.Text)
		switch m.Kind {
		case tools.KindPreference, tools.KindFact, tools.KindFeedback:
		default:
			continue
		}
		if text == "" || len([]rune(text)) > tools.MaxMemoryLen {
			continue
		}
		if why := fromThePerson(text, person, s); why != "" {
			a.log.Warn("reflection: memory not drawn from the person's words, dropped", "why", why)
			continue
		}
		if err := a.deps.Memory.Remember(ctx, text, m.Kind, memory.OriginReflection, sessionID); err != nil {
			return fmt.Errorf("save memory: %w", err)
		}
		saved++
	}
	if saved > 0 {
		a.log.Info("reflection saved memories", "count", saved)
	}
	return nil
}
