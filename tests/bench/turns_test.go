package main

import (
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

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
	if c.role != "answer" || c.verbatim != 2+3 || c.sums != tokensOf("\nssss ssss ssss ssss") || c.tokens != (len(answer.Messages[0].Content)+9+14+16)/4+1 {
		t.Fatalf("answer: %+v", c)
	}
	summary := ollama.ChatRequest{Messages: []ollama.Message{{Role: "system", Content: "You summarise conversations."},
		{Role: "user", Content: "Conversation to summarise:\nUser: hi"}}}
	if c := costOf(summary, earlier); c.role != "summary" || c.verbatim != tokensOf(summary.Messages[1].Content) || c.share() >= 1 {
		t.Fatalf("summary: %+v", c)
	}
}
