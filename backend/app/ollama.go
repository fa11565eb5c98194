package app

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// modelClient is the Ollama client in effect. Settings can change the host
// or context size while the app runs, so it is swapped, never mutated.
type modelClient struct {
	log *slog.Logger
	// memo keeps each model's context length across clients and starts
	// (nil: not kept, e.g. beside an open app, whose file it is).
	memo llm.ContextMemo

	mu     sync.RWMutex
	client *llm.Client
	model  string
}

func newModelClient(s api.Settings, log *slog.Logger, memo llm.ContextMemo) (*modelClient, error) {
	m := &modelClient{log: log, memo: memo}
	return m, m.reconfigure(s)
}

func (m *modelClient) reconfigure(s api.Settings) error {
	opts := []llm.Option{llm.WithNumCtx(s.ContextTokens), llm.WithLogger(m.log)}
	if m.memo != nil {
		opts = append(opts, llm.WithContextMemo(m.memo))
	}
	c, err := llm.New(s.OllamaHost, opts...)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.client, m.model = c, s.ChatModel
	m.mu.Unlock()
	return nil
}

func (m *modelClient) current() *llm.Client {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.client
}

// agentModel is what the agent calls for each model call.
func (m *modelClient) agentModel() (agent.Model, string) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.client, m.model
}

func (m *modelClient) Version(ctx context.Context) (string, error) { return m.current().Version(ctx) }

func (m *modelClient) Models(ctx context.Context) ([]api.ModelInfo, error) {
	return m.current().Models(ctx)
}

// HostStates is the state of each Ollama host when several are set, nil
// with one; err says that none is up (see llm.Client.HostStates).
func (m *modelClient) HostStates(ctx context.Context) ([]api.HostStatus, error) {
	c := m.current()
	if len(c.Hosts()) < 2 {
		return nil, nil
	}
	return c.HostStates(ctx)
}

// RetryNow has every Ollama host that is down probed at the next status
// check (see llm.Client.RetryNow).
func (m *modelClient) RetryNow() { m.current().RetryNow() }

// Pull downloads a model, reporting progress in the frontend's terms.
func (m *modelClient) Pull(ctx context.Context, model string, progress func(api.PullProgress)) error {
	return m.current().Pull(ctx, model, func(p llm.Progress) {
		pp := api.PullProgress{Model: model, Status: p.Status, Completed: p.Completed, Total: p.Total}
		if p.Hosts > 1 {
			pp.Host, pp.HostIndex, pp.Hosts = p.Host, p.Index, p.Hosts
		}
		progress(pp)
	})
}

// Delete removes an installed model.
func (m *modelClient) Delete(ctx context.Context, model string) error {
	return m.current().Delete(ctx, model)
}

// Embed implements the embedders of the vector index and of memory with
// the client in effect.
func (m *modelClient) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	return m.current().Embed(ctx, model, inputs)
}

// EmbedOnce is Embed without trying again an attempt that timed out
// (llm.Client.EmbedOnce); the vector index's Add uses it, through
// embedder, and leaves what it could not embed to its worker.
func (m *modelClient) EmbedOnce(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	return m.current().EmbedOnce(ctx, model, inputs)
}

// embedder binds Embed (and EmbedOnce) to one model.
func (m *modelClient) embedder(model string) vector.Embedder {
	// No model (Settings' "None (keyword search only)"): no embedder, so the
	// index keeps the passages for keyword search and embeds nothing, where
	// one for "" asked Ollama for a model named "" at every import and again
	// every minute (404s in the log, passages "pending" for good).
	if strings.TrimSpace(model) == "" {
		return nil
	}
	return vector.ModelEmbedder(m, model)
}
