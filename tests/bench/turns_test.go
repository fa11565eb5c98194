package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// TestTimingSplitsTheTurn runs three model calls through the timing
// transport and checks that the turn splits into the calls, the time
// before the first and the time after the last.
func TestTimingSplitsTheTurn(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, `{"done":true}`)
	}))
	defer srv.Close()
	tr := &timing{base: http.DefaultTransport}
	client := &http.Client{Transport: tr}
	call := func(path string) {
		resp, err := client.Post(srv.URL+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	start := time.Now()
	time.Sleep(10 * time.Millisecond)
	call(ollamatest.PathEmbed) // searching long-term memory is a model call too
	call(ollamatest.PathChat)
	call("/api/show") // not a model call: neither counted nor an end
	call(ollamatest.PathChat)
	time.Sleep(10 * time.Millisecond)
	end := time.Now()
	var row overheadRow
	row.add(start, end, tr.reset())

	if got := tr.reset(); got.n != 0 || got.sum != 0 || !got.first.IsZero() {
		t.Errorf("after reset: %+v, want nothing", got)
	}
	if row.model < 60*time.Millisecond || row.model > end.Sub(start)-20*time.Millisecond {
		t.Errorf("model time %v: want the three model calls (≥ 60 ms), not the waits around them", row.model)
	}
	if row.beforeFirst < 10*time.Millisecond || row.afterLast < 10*time.Millisecond {
		t.Errorf("before the first call %v, after the last %v: want ≥ 10 ms each", row.beforeFirst, row.afterLast)
	}
	// The /api/show call sits between the chat calls: it is in neither part.
	if between := row.turn - row.model - row.beforeFirst - row.afterLast; between < 20*time.Millisecond {
		t.Errorf("between the model calls %v: want the /api/show call's ≥ 20 ms", between)
	}
}

// TestContextCostSplitsThePrompt: the conversation's share of a prompt is
// its earlier messages and the summaries in the system prompt, nothing
// else; a summary request is all conversation but its instructions.
func TestContextCostSplitsThePrompt(t *testing.T) {
	earlier := map[string]bool{"aaaa aaaa": true, "bbbb bbbb bbbb": true}
	answer := ollama.ChatRequest{Messages: []ollama.Message{
		{Role: "system", Content: world.RoleAnswer + "\n\n[Earlier conversation summary]\nssss ssss ssss ssss"},
		{Role: "user", Content: "aaaa aaaa"}, {Role: "assistant", Content: "bbbb bbbb bbbb"},
		{Role: "user", Content: "the new question"},
	}}
	c := costOf(answer, earlier)
	if c.role != "answer" || c.verbatim != 2+3 || c.sums != tokensOf("\nssss ssss ssss ssss") || c.tokens != tokensOf(answer.Messages[0].Content)+2+3+4 {
		t.Fatalf("answer: %+v", c)
	}
	summary := ollama.ChatRequest{Messages: []ollama.Message{{Role: "system", Content: "You summarise conversations."},
		{Role: "user", Content: "Conversation to summarise:\nUser: hi"}}}
	if c := costOf(summary, earlier); c.role != "summary" || c.verbatim != tokensOf(summary.Messages[1].Content) || c.share() >= 1 {
		t.Fatalf("summary: %+v", c)
	}
}
