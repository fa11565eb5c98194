package llm

import (
	"context"
	"slices"
	"sync"

	"github.com/ollama/ollama/api"
)

// thinkers remembers which models think before answering. Wayfinder asks
// such models (qwen3, deepseek-r1, ...) not to: thinking multiplies the time
// of every call on a laptop, and with `think` unset some Ollama versions put
// the <think> text into the reply itself. Models without the capability get
// no `think` field at all, because some Ollama versions reject it for them.
//
// Every successful Show fills it, so the app's startup status check (which
// shows each installed model) spares the first turn its own /api/show.
type thinkers struct {
	mu     sync.Mutex
	models map[string]bool
}

func (t *thinkers) lookup(model string) (thinks, known bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	thinks, known = t.models[model]
	return thinks, known
}

// remember notes whether model thinks, and returns it.
func (t *thinkers) remember(model string, show *api.ShowResponse) bool {
	thinks := slices.Contains(capStrings(show.Capabilities), "thinking")
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.models == nil {
		t.models = map[string]bool{}
	}
	t.models[model] = thinks
	return thinks
}

// thinkOff returns the `think` value for a request to model: false for a
// thinking model, nil otherwise (also when Ollama cannot say; the chat call
// itself reports that problem).
func (c *Client) thinkOff(ctx context.Context, model string) *api.ThinkValue {
	thinks, known := c.thinking.lookup(model)
	if !known {
		show, err := c.api.Show(ctx, &api.ShowRequest{Model: model})
		if err != nil {
			return nil
		}
		thinks = c.thinking.remember(model, show)
	}
	if !thinks {
		return nil
	}
	return &api.ThinkValue{Value: false}
}
