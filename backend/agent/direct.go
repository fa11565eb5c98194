// Direct is the first responder: it sends the conversation to the chat
// model in one streamed call. The agent graph (Agent, in agent.go) replaces
// it behind the same chat.Responder seam; Direct stays until the app is
// switched over, and as the simplest possible responder for debugging.

package agent

import (
	"context"
	"fmt"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// ChatModel streams one chat call.
type ChatModel interface {
	Chat(ctx context.Context, req llm.ChatRequest, onChunk func(llm.Chunk)) (llm.Response, error)
}

// SystemPrompt tells the model who it is. It asks for the person's own
// language because small models otherwise drift into English.
const SystemPrompt = `You are Wayfinder, a helpful assistant that runs entirely on the user's own computer.
Answer clearly and concisely in the language the user writes in (Korean or English).
Use Markdown for structure when it helps. If you do not know something, say so.`

// historyTurns bounds how many earlier messages are sent until the summary
// window of the agent graph takes over.
const historyTurns = 20

// Direct answers with a single streamed model call.
type Direct struct {
	// Model returns the client and model name in effect; both can change
	// while the app runs (Settings).
	Model func() (ChatModel, string)
}

// Respond implements chat.Responder.
func (d Direct) Respond(ctx context.Context, t chat.Turn, out chat.Output) (api.TurnResult, error) {
	client, model := d.Model()
	msgs := []ollama.Message{{Role: "system", Content: SystemPrompt}}
	history := t.History
	if len(history) > historyTurns {
		history = history[len(history)-historyTurns:]
	}
	for _, m := range history {
		if m.Content == "" || m.Status == api.StatusError {
			continue
		}
		msgs = append(msgs, ollama.Message{Role: string(m.Role), Content: m.Content})
	}
	msgs = append(msgs, ollama.Message{Role: "user", Content: t.Text})
	resp, err := client.Chat(ctx, llm.ChatRequest{Model: model, Messages: msgs}, func(c llm.Chunk) { out.Text(c.Content) })
	result := api.TurnResult{
		Response:         resp.Message.Content,
		LLMCalls:         max(resp.Attempts, 1),
		PromptTokens:     resp.PromptTokens,
		CompletionTokens: resp.CompletionTokens,
	}
	if err != nil {
		return result, fmt.Errorf("ask %s: %w", model, err)
	}
	return result, nil
}
