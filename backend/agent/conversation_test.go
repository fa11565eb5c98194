package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// recordingModel notes the conversation each call names.
type recordingModel struct {
	Model
	mu    sync.Mutex
	convs []string
}

func (r *recordingModel) note(req llm.ChatRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.convs = append(r.convs, req.Conversation)
}

func (r *recordingModel) Chat(ctx context.Context, req llm.ChatRequest, onChunk func(llm.Chunk)) (llm.Response, error) {
	r.note(req)
	return r.Model.Chat(ctx, req, onChunk)
}

func (r *recordingModel) Structured(ctx context.Context, req llm.ChatRequest, schema any, out any) (llm.Response, error) {
	r.note(req)
	return r.Model.Structured(ctx, req, schema, out)
}

// Every model call of a turn names its conversation, so that with several
// Ollama hosts the conversation stays on the host whose cache holds it.
func TestModelCallsNameTheConversation(t *testing.T) {
	e := newEnv(t)
	rec := &recordingModel{Model: e.client}
	a := e.agent(Options{})
	a.deps.Model = func() (Model, string) { return rec, testModel }
	turn(t, a, chat.Turn{SessionID: "s-42", Text: "카페 이름을 지어 줄래요? 따뜻한 느낌으로 부탁해요"})
	a.Close() // waits for the reflection after the answer
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.convs) < 2 {
		t.Fatalf("%d model calls", len(rec.convs))
	}
	for i, c := range rec.convs {
		if c != "s-42" {
			t.Errorf("call %d names conversation %q", i+1, c)
		}
	}
}

// Sub-tasks run as many at once as the servers answer together: the
// parallel requests of one, times the hosts.
func TestParallelCountsTheHosts(t *testing.T) {
	tests := []struct {
		name     string
		opt      int
		settings *api.Settings
		want     int
	}{
		{"no settings", 0, nil, 1},
		{"option", 3, nil, 3},
		{"one host", 3, &api.Settings{OllamaHost: "http://a:11434", ParallelRequests: 4}, 4},
		{"one host, setting 0", 3, &api.Settings{OllamaHost: "http://a:11434"}, 3},
		{"two hosts, one at a time", 0, &api.Settings{OllamaHost: "http://a:11434, http://b:11434"}, 2},
		{"two hosts of 4", 0, &api.Settings{OllamaHost: "http://a:11434, http://b:11434", ParallelRequests: 4}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Agent{opt: Options{Parallel: tt.opt}}
			if tt.settings != nil {
				s := *tt.settings
				a.deps.Settings = func() api.Settings { return s }
			}
			if got := a.parallel(); got != tt.want {
				t.Errorf("parallel = %d, want %d", got, tt.want)
			}
		})
	}
}
