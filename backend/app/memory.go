package app

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// MemoryService is bound to the frontend: everything Wayfinder remembers
// about the person, to see, correct and forget.
type MemoryService struct{ app *App }

// List returns every memory, newest first.
func (m *MemoryService) List() ([]api.Memory, error) {
	ms, err := m.app.memory.List(m.app.ctx)
	return toAPIMemories(ms), err
}

// Add remembers something by hand; a near-duplicate updates the existing
// memory instead.
func (m *MemoryService) Add(text string, kind api.MemoryKind) (api.Memory, error) {
	mem, _, err := m.app.memory.Add(m.app.ctx, text, memory.Kind(kind), memory.ByHand())
	m.changed(err)
	return toAPIMemory(mem), err
}

// Edit corrects a memory.
func (m *MemoryService) Edit(id, text string, kind api.MemoryKind) (api.Memory, error) {
	mem, err := m.app.memory.Edit(m.app.ctx, id, text, memory.Kind(kind))
	m.changed(err)
	return toAPIMemory(mem), err
}

// Delete forgets one memory.
func (m *MemoryService) Delete(id string) error {
	err := m.app.memory.Delete(m.app.ctx, id)
	m.changed(err)
	return err
}

// DeleteAll forgets everything.
func (m *MemoryService) DeleteAll() error {
	err := m.app.memory.DeleteAll(m.app.ctx)
	m.changed(err)
	return err
}

func (m *MemoryService) changed(err error) {
	if err == nil {
		m.app.events.Emit(api.EventMemories, api.MemoriesChanged{})
	}
}

func toAPIMemory(m memory.Memory) api.Memory {
	return api.Memory{ID: m.ID, Text: m.Text, Kind: api.MemoryKind(m.Kind), Origin: api.MemoryOrigin(m.Origin), SessionID: m.SessionID,
		CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

func toAPIMemories(ms []memory.Memory) []api.Memory {
	out := make([]api.Memory, len(ms))
	for i, m := range ms {
		out[i] = toAPIMemory(m)
	}
	return out
}

// webSearch is the web_search provider: SearXNG at the address in
// Settings, and only while the person has turned web search on.
type webSearch struct{ settings *settings.Store }

var errWebSearchOff = errors.New("web search is turned off in Settings")

func (w webSearch) Search(ctx context.Context, query string, n int) ([]tools.WebResult, error) {
	s := w.settings.Current()
	if !s.WebSearchEnabled {
		return nil, errWebSearchOff
	}
	sx, err := tools.NewSearXNG(s.WebSearchURL, &http.Client{Timeout: 15 * time.Second})
	if err != nil {
		return nil, err
	}
	return sx.Search(ctx, query, n)
}
