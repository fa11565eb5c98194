package agent

import "context"

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
