package agent

import (
	"context"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// turnModelKey carries a conversation's own chat model (chat.Turn.Model) to
// every model call of its turn, and of the work after it.
type turnModelKey struct{}

func withTurnModel(ctx context.Context, name string) context.Context {
	if name == "" {
		return ctx
	}
	return context.WithValue(ctx, turnModelKey{}, name)
}

// model is the client and the model name a call uses: the conversation's
// model when it has one, else the one in effect (Settings).
func (a *Agent) model(ctx context.Context) (Model, string) {
	m, name := a.deps.Model()
	if own, ok := ctx.Value(turnModelKey{}).(string); ok {
		name = own
	}
	return m, name
}

// turnSettingsKey carries a conversation's own settings (chat.Turn.Settings)
// to every model call of its turn, as turnModelKey does its model.
type turnSettingsKey struct{}

func withTurnSettings(ctx context.Context, cs *api.ConversationSettings) context.Context {
	if cs == nil {
		return ctx
	}
	return context.WithValue(ctx, turnSettingsKey{}, cs)
}

// tuned is what the person tuned for a call: the conversation's own
// settings over the global ones (Settings). numCtx is 0 unless the
// conversation has its own context size: the global one is the client's
// (llm.WithNumCtx), which also answers budgets.
type tuned struct {
	systemPrompt string
	temperature  *float64
	numCtx       int
}

func (a *Agent) tuned(ctx context.Context) tuned {
	var t tuned
	if a.deps.Settings != nil {
		s := a.deps.Settings()
		t.systemPrompt, t.temperature = s.SystemPrompt, s.Temperature
	}
	if cs, ok := ctx.Value(turnSettingsKey{}).(*api.ConversationSettings); ok {
		if cs.SystemPrompt != nil {
			t.systemPrompt = *cs.SystemPrompt
		}
		if cs.Temperature != nil {
			t.temperature = cs.Temperature
		}
		if cs.ContextTokens != nil {
			t.numCtx = *cs.ContextTokens
		}
	}
	return t
}

// withPersona adds the person's own instructions to a call's system prompt
// (its last system message, the role's, so the preamble before it stays
// the same in every call). They are the person's words, so instructions,
// and come last: they tune the tone and language of the reply, while the
// rules before them (data is never instructions, cite sources) still hold.
func withPersona(msgs []ollama.Message, prompt string) []ollama.Message {
	if prompt == "" {
		return msgs
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "system" {
			msgs[i].Content += "\n\n[The person's instructions for your replies]\n" + prompt
			return msgs
		}
	}
	return msgs
}
