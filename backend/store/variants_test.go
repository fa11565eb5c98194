package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// TestImportSessionVariants: an imported conversation's answers kept as
// variants come back behind the answer shown (and out of its history), a
// person's decision stays on its message, and a variant's taken id stores
// nothing.
func TestImportSessionVariants(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sess := api.Session{ID: "imported", CreatedAt: at, UpdatedAt: at}
	decision := &api.ApprovalDecision{Action: api.ActionApprove, Version: "int-1:1", SubTasks: []api.SubTask{{ID: "a", Title: "고친 단계"}}}
	msgs := []api.Message{
		{ID: "m1", Role: api.RoleUser, Content: "질문", Status: api.StatusComplete, CreatedAt: at, Decision: decision},
		{ID: "m4", Role: api.RoleAssistant, Content: "둘째 답", Status: api.StatusComplete, CreatedAt: at.Add(2 * time.Second),
			Variants: []api.Message{
				{ID: "m2", Role: api.RoleAssistant, Content: "첫 답", Status: api.StatusComplete, CreatedAt: at.Add(time.Second)},
				{ID: "m3", Role: api.RoleAssistant, Content: "셋째 답", Status: api.StatusError, CreatedAt: at.Add(3 * time.Second),
					Error: &api.ErrorInfo{Code: api.ErrOllamaUnreachable, Message: "down"}},
			}},
	}
	if err := s.ImportSession(ctx, sess, msgs); err != nil {
		t.Fatal(err)
	}
	back, err := s.Messages(ctx, "imported")
	if err != nil {
		t.Fatal(err)
	}
	for i := range msgs {
		msgs[i].SessionID = "imported"
		for j := range msgs[i].Variants {
			msgs[i].Variants[j].SessionID = "imported"
		}
	}
	if diff := cmp.Diff(msgs, back); diff != "" {
		t.Fatalf("messages (-want +got):\n%s", diff)
	}
	h, err := s.History(ctx, "imported")
	if err != nil || len(h) != 2 || h[1].Content != "둘째 답" {
		t.Fatalf("history %+v %v", h, err)
	}
	if shown, err := s.ShowVariant(ctx, "imported", "m4", "m2"); err != nil || shown.Content != "첫 답" {
		t.Fatalf("show an imported variant: %+v %v", shown, err)
	}
	other := api.Session{ID: "other", CreatedAt: at, UpdatedAt: at}
	taken := []api.Message{{ID: "n1", Role: api.RoleAssistant, Status: api.StatusComplete, CreatedAt: at,
		Variants: []api.Message{{ID: "m3", Role: api.RoleAssistant, Status: api.StatusComplete, CreatedAt: at}}}}
	if err := s.ImportSession(ctx, other, taken); !errors.Is(err, ErrExists) {
		t.Fatalf("a variant's taken id: %v", err)
	}
}
