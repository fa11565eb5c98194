package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// TestRegenerateKeepsVariants: answering the last message again keeps the
// earlier answers as variants of the new one (persisted, newest shown);
// the new turn sees the conversation without them; showing another
// variant makes it the answer later turns continue from.
func TestRegenerateKeepsVariants(t *testing.T) {
	var seen []string
	n := 0
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		var h []string
		for _, m := range turn.History {
			h = append(h, m.Content)
		}
		seen = append(seen, fmt.Sprintf("[%s] %s", strings.Join(h, "|"), turn.Text))
		n++
		out.Text(fmt.Sprintf("answer %d", n))
		return api.TurnResult{}, nil
	}))
	ctx := context.Background()
	ack, _ := svc.Send(ctx, "", "first")
	waitIdle(t, svc, ack.SessionID)
	for range 2 {
		again, err := svc.Regenerate(ctx, ack.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		if again.UserMessage.ID != ack.UserMessage.ID {
			t.Fatalf("the person's message was replaced: %+v", again.UserMessage)
		}
		waitIdle(t, svc, ack.SessionID)
	}
	line := func() []api.Message {
		msgs, err := st.Messages(ctx, ack.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		return msgs
	}
	msgs := line()
	if len(msgs) != 2 || msgs[1].Content != "answer 3" || len(msgs[1].Variants) != 2 ||
		msgs[1].Variants[0].Content != "answer 1" || msgs[1].Variants[1].Content != "answer 2" {
		t.Fatalf("after two regenerations: %+v", msgs)
	}
	if got := strings.Join(seen, "\n"); got != "[] first\n[] first\n[] first" {
		t.Fatalf("what the turns saw:\n%s", got)
	}
	if sess, _ := st.Session(ctx, ack.SessionID); sess.MessageCount != 2 {
		t.Fatalf("variants counted as messages: %d", sess.MessageCount)
	}

	// Show the first answer: it continues the conversation.
	shown, err := svc.ShowVariant(ctx, ack.SessionID, msgs[1].ID, msgs[1].Variants[0].ID)
	if err != nil || shown.Content != "answer 1" || len(shown.Variants) != 2 {
		t.Fatalf("ShowVariant = %+v, %v", shown, err)
	}
	next, _ := svc.Send(ctx, ack.SessionID, "second")
	waitIdle(t, svc, ack.SessionID)
	if last := seen[len(seen)-1]; last != "[first|answer 1] second" {
		t.Fatalf("the turn after showing answer 1 saw %q", last)
	}
	msgs = line()
	if len(msgs) != 4 || msgs[1].Content != "answer 1" || msgs[1].ID != shown.ID || len(msgs[1].Variants) != 2 || msgs[3].ID != next.AssistantMessageID {
		t.Fatalf("after another turn: %+v", msgs)
	}
	// Only the last message can be answered again; a variant of another
	// message is refused.
	if _, err := svc.ShowVariant(ctx, ack.SessionID, msgs[3].ID, msgs[1].Variants[0].ID); codeOf(err) != api.ErrNotFound {
		t.Fatalf("a variant of another answer: %v", err)
	}
	if err := st.StartRerun(ctx, msgs[0], api.Message{ID: store.NewID(), SessionID: ack.SessionID, Role: api.RoleAssistant, Status: api.StatusStreaming}); err == nil {
		t.Fatal("answered again a message that is not the last")
	}
	// The new answer was announced with the person's message it answers.
	started := rec.wait(t, api.EventTurnStarted).(api.TurnStarted)
	if started.UserMessage.Content != "first" {
		t.Fatalf("turn started: %+v", started)
	}
}

// The model calls made after an answer are added to that answer even when
// another variant is shown by then (the rows swapped what they hold).
func TestSettleFollowsTheAnswer(t *testing.T) {
	var settle []func(Usage)
	n := 0
	svc, st, _ := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		settle = append(settle, turn.Settled)
		n++
		out.Text(fmt.Sprintf("answer %d", n))
		return api.TurnResult{LLMCalls: 1}, nil
	}))
	ctx := context.Background()
	ack, _ := svc.Send(ctx, "", "q")
	waitIdle(t, svc, ack.SessionID)
	if _, err := svc.Regenerate(ctx, ack.SessionID); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	msgs, _ := st.Messages(ctx, ack.SessionID)
	if _, err := svc.ShowVariant(ctx, ack.SessionID, msgs[1].ID, msgs[1].Variants[0].ID); err != nil {
		t.Fatal(err)
	}
	settle[1](Usage{LLMCalls: 5}) // the second answer's reflection ends now
	msgs, _ = st.Messages(ctx, ack.SessionID)
	shown, hidden := msgs[1], msgs[1].Variants[0]
	if shown.Content != "answer 1" || shown.Result.LLMCalls != 1 || hidden.Content != "answer 2" || hidden.Result.LLMCalls != 6 {
		t.Fatalf("shown %q %d calls, variant %q %d calls", shown.Content, shown.Result.LLMCalls, hidden.Content, hidden.Result.LLMCalls)
	}
}
