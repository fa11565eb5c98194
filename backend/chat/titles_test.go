package chat

import (
	"context"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Save and resend of a conversation's only message titles it after the
// new words and tells the sidebar (chat.sessions), which reloads the
// list; a title the person chose stays.
func TestEditingTheOnlyMessageRetitles(t *testing.T) {
	for _, c := range []struct{ name, rename, want string }{
		{"automatic", "", "부산 인구는?"},
		{"renamed", "인구 조사", "인구 조사"},
	} {
		t.Run(c.name, func(t *testing.T) {
			svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
				out.Text("답")
				return api.TurnResult{}, nil
			}))
			ctx := context.Background()
			ack, err := svc.Send(ctx, "", "서울 인구는?")
			if err != nil {
				t.Fatal(err)
			}
			waitIdle(t, svc, ack.SessionID)
			if c.rename != "" {
				if _, err := st.RenameSession(ctx, ack.SessionID, c.rename); err != nil {
					t.Fatal(err)
				}
			}
			rec.mu.Lock()
			rec.events = nil
			rec.mu.Unlock()
			if _, err := svc.EditLast(ctx, ack.SessionID, "부산 인구는?"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, svc, ack.SessionID)
			if got := rec.wait(t, api.EventSessions).(api.SessionsChanged); got.SessionID != ack.SessionID {
				t.Errorf("sessions changed for %q", got.SessionID)
			}
			sess, err := st.Session(ctx, ack.SessionID)
			if err != nil || sess.Title != c.want {
				t.Fatalf("title %q, %v; want %q", sess.Title, err, c.want)
			}
		})
	}
}
