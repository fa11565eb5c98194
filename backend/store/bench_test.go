package store

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// BenchmarkHistory is the read every turn of a conversation starts with,
// in a long conversation (300 turns, 600 messages).
func BenchmarkHistory(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	session := NewID()
	for i := range 300 {
		title := ""
		if i == 0 {
			title = "long"
		}
		_, reply, err := s.StartTurn(ctx, session, title, strings.Repeat("질문 ", 20), false)
		if err != nil {
			b.Fatal(err)
		}
		reply.Content, reply.Status = strings.Repeat("답변 ", 80), api.StatusComplete
		if err := s.UpdateMessage(ctx, reply); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if h, err := s.History(ctx, session); err != nil || len(h) != 600 {
			b.Fatalf("%d messages, %v", len(h), err)
		}
	}
}
