package store

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// BenchmarkHistory is the read every turn of a conversation starts with,
// in a long conversation (300 turns, 600 messages): from the database, as
// the first turn after a start reads it, and kept in memory, as the turns
// after it do.
func BenchmarkHistory(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir(), nil)
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
		user, reply := NewTurn(session, strings.Repeat("질문 ", 20))
		if err := s.StartTurn(ctx, title, user, reply); err != nil {
			b.Fatal(err)
		}
		reply.Content, reply.Status = strings.Repeat("답변 ", 80), api.StatusComplete
		if err := s.UpdateMessage(ctx, reply); err != nil {
			b.Fatal(err)
		}
	}
	for _, read := range []struct {
		name string
		read func(context.Context, string) ([]api.Message, error)
	}{{"database", s.readHistory}, {"kept", s.History}} {
		b.Run(read.name, func(b *testing.B) {
			for b.Loop() {
				if h, err := read.read(ctx, session); err != nil || len(h) != 600 {
					b.Fatalf("%d messages, %v", len(h), err)
				}
			}
		})
	}
}
