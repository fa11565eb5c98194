package llm

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/ollama/ollama/api"
)

// modelFacts remembers what /api/show said of each model: whether it thinks
// before answering, and its own context length.
//
// Wayfinder asks thinking models (qwen3, deepseek-r1, ...) not to: thinking
// multiplies the time of every call on a laptop, and with `think` unset
// some Ollama versions put the <think> text into the reply itself. Models
// without the capability get no `think` field at all, because some Ollama
// versions reject it for them.
//
// Every successful Show fills it, so the app's startup status check (which
// shows each installed model) spares the first turn its own /api/show.
type modelFacts struct {
	mu     sync.Mutex
	models map[string]facts
}

type facts struct {
	thinks     bool
	contextLen int // 0: the model did not say
}

func (t *modelFacts) lookup(model string) (facts, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f, known := t.models[model]
	return f, known
}

// remember notes what show says of model, and returns it.
func (t *modelFacts) remember(model string, show *api.ShowResponse) facts {
	f := facts{thinks: slices.Contains(capStrings(show.Capabilities), "thinking"), contextLen: contextLength(show)}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.models == nil {
		t.models = map[string]facts{}
	}
	t.models[model] = f
	return f
}

// contextLength reads "<architecture>.context_length" from the model info.
func contextLength(show *api.ShowResponse) int {
	arch, _ := show.ModelInfo["general.architecture"].(string)
	switch n := show.ModelInfo[arch+".context_length"].(type) {
	case float64:
		return int(n)
	case int:
		return n
	}
	return 0
}

// factsOf returns what is known of model, asking Ollama once; ok is false
// when Ollama cannot say (the chat call itself reports that problem).
//
// With several hosts the facts are asked of one that is up and has the
// model; the hosts are meant to hold the same models, so they say the
// same. When no host is up nothing is asked here (ok false): the call's
// own pick probes one, and chat asks the host it gets (see factsOn), so a
// call probes a host that is down once, not twice.
func (c *Client) factsOf(ctx context.Context, model, conversation string) (facts, bool) {
	if f, known := c.facts.lookup(model); known {
		return f, true
	}
	h := c.pool.upHost(ctx, model, conversation)
	if h == nil {
		return facts{}, false // no host answers: the call says so
	}
	f, err := c.factsOn(ctx, h, model)
	if !c.pool.single() && ctx.Err() == nil {
		c.pool.note(h, model, err)
	}
	return f, err == nil
}

// factsOn asks host h for the facts of model and remembers them; the
// error is classified (see fail).
func (c *Client) factsOn(ctx context.Context, h *endpoint, model string) (facts, error) {
	show, err := h.api.Show(ctx, &api.ShowRequest{Model: model})
	if err != nil {
		err = c.fail(ctx, nil, "show", model, err)
		var e *Error
		if errors.As(err, &e) && e.Host == "" {
			e.Host = h.url
		}
		return facts{}, err
	}
	return c.learn(model, show), nil
}

// learn remembers what show says of model, and notes its context length
// in the memo (WithContextMemo) for a later client.
func (c *Client) learn(model string, show *api.ShowResponse) facts {
	f := c.facts.remember(model, show)
	if c.cfg.memo != nil && f.contextLen > 0 {
		c.cfg.memo.Note(model, f.contextLen)
	}
	return f
}

// thinkOff returns the `think` value for a request to model: false for a
// thinking model, nil otherwise.
func (c *Client) thinkOff(ctx context.Context, model, conversation string) *api.ThinkValue {
	if f, ok := c.factsOf(ctx, model, conversation); !ok || !f.thinks {
		return nil
	}
	return &api.ThinkValue{Value: false}
}

// ContextSize is the context (num_ctx, in tokens) Wayfinder runs model
// with: the size set with WithNumCtx, or, when none was set, the model's
// own context length up to MaxModelNumCtx — from /api/show, or while
// Ollama cannot be asked the one the memo kept (WithContextMemo) — and
// DefaultNumCtx when neither says. Prompts are fitted to it, because
// Ollama silently drops the start of a prompt that does not fit.
func (c *Client) ContextSize(ctx context.Context, model string) int {
	return c.contextSize(ctx, model, "")
}

func (c *Client) contextSize(ctx context.Context, model, conversation string) int {
	if c.cfg.numCtx > 0 {
		return c.cfg.numCtx
	}
	f, ok := c.factsOf(ctx, model, conversation)
	if ok && f.contextLen > 0 {
		return min(f.contextLen, MaxModelNumCtx)
	}
	if !ok && c.cfg.memo != nil {
		if n := c.cfg.memo.Recall(model); n > 0 {
			return min(n, MaxModelNumCtx)
		}
	}
	return DefaultNumCtx
}
