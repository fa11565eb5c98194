package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

const (
	chosenModel   = "qwen3:4b"
	fallbackModel = "llama3.2:3b" // testModel: installed in the fake
)

// fallbackTraces are the turn's trace lines saying it changed models.
func fallbackTraces(out *output) []api.TraceEvent {
	var got []api.TraceEvent
	for _, ev := range out.kinds(api.TraceRetry) {
		if ev.Code == api.TraceModelFallback {
			got = append(got, ev)
		}
	}
	return got
}

// requestsFor counts the chat requests the fake got for a model.
func (e *env) requestsFor(model string) int {
	n := 0
	for _, r := range e.fake.ChatRequests() {
		if r.Model == model {
			n++
		}
	}
	return n
}

// When the chosen model cannot answer — it is not installed, it does not
// fit in memory, or it keeps failing through the retries — the turn goes on
// with the fallback model, says so in the trace and in its result, and
// does not try the chosen model again within the turn (nor after it).
func TestFallbackModel(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(e *env)
		reason api.ErrorCode
		tries  int // requests the chosen model got
	}{
		{"missing", func(e *env) {}, api.ErrModelMissing, 1},
		{"out of memory", func(e *env) {
			e.fake.AddModel(ollamatest.Model{Name: chosenModel, Capabilities: []string{"completion", "tools"}})
			e.fake.On(ollamatest.ModelIs(chosenModel), ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultHTTP500,
				Message: "model requires more system memory (48.0 GiB) than is available (15.2 GiB)"}})
		}, api.ErrModelOutOfMemory, 1},
		{"keeps failing", func(e *env) {
			e.fake.AddModel(ollamatest.Model{Name: chosenModel, Capabilities: []string{"completion", "tools"}})
			e.fake.On(ollamatest.ModelIs(chosenModel), ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "boom"}})
		}, api.ErrOllamaError, 3}, // the first try and the client's two retries
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.model = chosenModel
			tt.setup(e)
			a := e.agent(Options{FallbackModel: fallbackModel})
			e.fake.On(isAnswer, ollamatest.Reply{Text: "카페 이름으로 '블루 랜턴'은 어때요?"})
			e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})

			res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "카페 이름을 지어 줄래요? 따뜻한 느낌으로 부탁해요"})
			a.Wait()
			if !strings.Contains(res.Response, "블루 랜턴") {
				t.Fatalf("response %q", res.Response)
			}
			if res.Model != fallbackModel || res.FallbackFrom != chosenModel {
				t.Fatalf("result says model %q, fallback from %q", res.Model, res.FallbackFrom)
			}
			traces := fallbackTraces(out)
			if len(traces) != 1 || traces[0].Args["model"] != chosenModel || traces[0].Args["fallback"] != fallbackModel ||
				traces[0].Args["reason"] != string(tt.reason) {
				t.Fatalf("fallback traces: %+v", traces)
			}
			// The answer and the reflection after it: the chosen model was
			// tried once (with retries), the rest went to the fallback.
			if got := e.requestsFor(chosenModel); got != tt.tries {
				t.Fatalf("the chosen model got %d requests, want %d", got, tt.tries)
			}
			if got := e.requestsFor(fallbackModel); got != 2 || len(e.requests(isMemory)) != 1 {
				t.Fatalf("the fallback got %d requests, want 2 (answer, reflection)", got)
			}
			if res.LLMCalls != tt.tries+1 {
				t.Fatalf("the answer reports %d calls, want %d (the failed ones count)", res.LLMCalls, tt.tries+1)
			}
		})
	}
}

// Without a fallback, a missing model is the clear error it always was;
// with one that is missing too, the error still names the chosen model.
func TestFallbackAbsentOrFailing(t *testing.T) {
	for _, fb := range []string{"", "ghost:1b"} {
		e := newEnv(t)
		e.model = chosenModel
		a := e.agent(Options{FallbackModel: fb})
		_, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Text: "hello"}, &output{})
		info := llm.Classify(err)
		if !errors.Is(err, llm.ErrModelNotFound) || info.Code != api.ErrModelMissing || info.Hint != "ollama pull "+chosenModel {
			t.Fatalf("fallback %q: %v → %+v", fb, err, info)
		}
		if want := map[string]int{"": 1, "ghost:1b": 2}[fb]; e.chatCalls() != want {
			t.Fatalf("fallback %q: %d requests, want %d", fb, e.chatCalls(), want)
		}
	}
}

// A reply that broke off after the person saw part of it is not asked of
// another model, which would write the beginning twice.
func TestNoFallbackAfterTextWasShown(t *testing.T) {
	e := newEnv(t)
	e.model = chosenModel
	e.fake.AddModel(ollamatest.Model{Name: chosenModel, Capabilities: []string{"completion", "tools"}})
	e.fake.On(ollamatest.ModelIs(chosenModel), ollamatest.Reply{Text: "one two three four", Fault: ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2}})
	a := e.agent(Options{FallbackModel: fallbackModel})
	out := &output{}
	_, err := a.Respond(context.Background(), chat.Turn{SessionID: "s1", Text: "hello"}, out)
	if !errors.Is(err, llm.ErrStreamDropped) || e.requestsFor(fallbackModel) != 0 || len(fallbackTraces(out)) != 0 {
		t.Fatalf("err %v, fallback requests %d", err, e.requestsFor(fallbackModel))
	}
}
