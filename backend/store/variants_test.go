package store

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// TestVariantsSurviveReopen: answers kept as variants are in the database,
// the conversation's history (cached or read again) holds only the answer
// shown, and the one chosen stays chosen after a reopen.
func TestVariantsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	user, reply := NewTurn(NewID(), "질문")
	if err := s.StartTurn(ctx, "t", user, reply); err != nil {
		t.Fatal(err)
	}
	answer := func(id, text string) {
		t.Helper()
		m := api.Message{ID: id, SessionID: user.SessionID, Role: api.RoleAssistant, Content: text, Status: api.StatusComplete}
		if err := s.UpdateMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	answer(reply.ID, "첫 답")
	s.History(ctx, user.SessionID) // cached from here on
	_, second := NewTurn(user.SessionID, "")
	if err := s.StartRerun(ctx, user, second); err != nil {
		t.Fatal(err)
	}
	answer(second.ID, "둘째 답")
	history := func(s *Store) string {
		h, err := s.History(ctx, user.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range h {
			out = append(out, m.Content)
		}
		return strings.Join(out, "|")
	}
	if got := history(s); got != "질문|둘째 답" {
		t.Fatalf("cached history after regenerating: %q", got)
	}
	shown, err := s.ShowVariant(ctx, user.SessionID, second.ID, reply.ID)
	if err != nil || shown.Content != "첫 답" || len(shown.Variants) != 1 || shown.Variants[0].Content != "둘째 답" {
		t.Fatalf("ShowVariant = %+v, %v", shown, err)
	}
	if got := history(s); got != "질문|첫 답" {
		t.Fatalf("cached history after showing the first answer: %q", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, dir)
	if got := history(s2); got != "질문|첫 답" {
		t.Fatalf("history after reopening: %q", got)
	}
	msgs, err := s2.Messages(ctx, user.SessionID)
	if err != nil || len(msgs) != 2 || msgs[1].ID != second.ID || msgs[1].Content != "첫 답" || len(msgs[1].Variants) != 1 || msgs[1].Variants[0].ID != reply.ID {
		t.Fatalf("messages after reopening: %+v %v", msgs, err)
	}
}
