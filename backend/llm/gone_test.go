package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	wf "github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A reply that broke off partway because Ollama went away says so
// (ollama_unreachable: the window holds sending at once), where one that
// broke off with Ollama still there keeps its own code, and a person's
// Stop or a model's error stays what it was even when Ollama is gone too.
func TestReplyThatLosesOllamaPartway(t *testing.T) {
	const text = "one two three four"
	tests := []struct {
		name string
		// fault breaks the reply; then runs when the second chunk is shown.
		fault    ollamatest.Fault
		then     func(s *ollamatest.Server, stop context.CancelFunc)
		wantKind error
		wantCode wf.ErrorCode
	}{
		{"dropped, Ollama still there", ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2},
			func(*ollamatest.Server, context.CancelFunc) {}, ErrStreamDropped, wf.ErrStreamDropped},
		{"Ollama stopped in the middle", ollamatest.Fault{Kind: ollamatest.FaultHang, After: 2},
			func(s *ollamatest.Server, _ context.CancelFunc) { s.Close() }, ErrUnreachable, wf.ErrOllamaUnreachable},
		{"stalled, Ollama still there", ollamatest.Fault{Kind: ollamatest.FaultHang, After: 2},
			func(*ollamatest.Server, context.CancelFunc) {}, ErrTimeout, wf.ErrTimeout},
		{"stalled, nothing answers at the host any more", ollamatest.Fault{Kind: ollamatest.FaultHang, After: 2},
			func(s *ollamatest.Server, _ context.CancelFunc) { s.Vanish() }, ErrUnreachable, wf.ErrOllamaUnreachable},
		{"the person's Stop, Ollama stopped too", ollamatest.Fault{Kind: ollamatest.FaultHang, After: 2},
			func(s *ollamatest.Server, stop context.CancelFunc) { stop(); s.Close() }, context.Canceled, wf.ErrInternal},
		{"the model's error, then nothing answers", ollamatest.Fault{Kind: ollamatest.FaultMalformed, After: 2},
			func(s *ollamatest.Server, _ context.CancelFunc) { s.Vanish() }, ErrServer, wf.ErrOllamaError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: text}))
			srv.Fail(ollamatest.PathChat, 1, tt.fault)
			c := newClient(t, srv.URL(), WithTimeouts(Timeouts{Idle: 200 * time.Millisecond}))
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			var shown strings.Builder
			chunks := 0
			resp, err := c.Chat(ctx, ChatRequest{Model: model, Messages: user("hi")}, func(ch Chunk) {
				shown.WriteString(ch.Content)
				if chunks++; chunks == 2 {
					tt.then(srv, stop)
				}
			})
			if !errors.Is(err, tt.wantKind) {
				t.Fatalf("err = %v, want %v", err, tt.wantKind)
			}
			if info := Classify(err); info.Code != tt.wantCode {
				t.Errorf("code = %s, want %s (%v)", info.Code, tt.wantCode, err)
			} else if tt.wantCode == wf.ErrOllamaUnreachable && (!strings.Contains(info.Message, srv.URL()) || !strings.Contains(info.Hint, "ollama serve")) {
				t.Errorf("Classify = %+v, want the host and how to start Ollama", info)
			}
			if resp.Message.Content != "one two " || shown.String() != "one two " || len(resp.Retries) != 0 {
				t.Errorf("content %q shown %q retries %v: the part shown is kept and not tried again", resp.Message.Content, shown.String(), resp.Retries)
			}
		})
	}
}
