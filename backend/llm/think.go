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
type thinkers struct {
	mu     sync.Mutex
	models map[string]bool
}

// thinkOff returns the `think` value for a request to model: false for a
// thinking model, nil otherwise (also when Ollama cannot say; the chat call
// itself reports that problem).
func (c *Client) thinkOff(ctx context.Context, model string) *api.ThinkValue {
	c.thinking.mu.Lock()
	thinks, known := c.thinking.models[model]
	c.thinking.mu.Unlock()
	if !known {
		show, err := c.api.Show(ctx, &api.ShowRequest{Model: model})
		if err != nil {
			return nil
		}
		thinks = slices.Contains(capStrings(show.Capabilities), "thinking")
		c.thinking.mu.Lock()
		if c.thinking.models == nil {
			c.thinking.models = map[string]bool{}
		}
		c.thinking.models[model] = thinks
		c.thinking.mu.Unlock()
	}
	if !thinks {
		return nil
	}
	return &api.ThinkValue{Value: false}
}
