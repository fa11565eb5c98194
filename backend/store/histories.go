package store

import (
	"slices"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// maxHistories is how many conversations' histories the store keeps in
// memory: the ones a person goes back and forth between.
const maxHistories = 32

// histories keeps the history of the conversations used lately, which
// every turn starts by reading and which grows with the conversation
// (BenchmarkHistory: 1.8 ms for 600 messages). The store's writes keep it
// up to date or drop what they change, which is right because one process
// owns a data folder and writes its messages only through the store.
type histories struct {
	mu   sync.Mutex
	byID map[string][]api.Message
	// writes counts the writes to messages, so that a read from the
	// database that a write overtook is not kept.
	writes int
}

func newHistories() *histories {
	return &histories{byID: map[string][]api.Message{}}
}

// get returns a copy of the session's history, and the write count to pass
// to keep when there is none.
func (h *histories) get(session string) ([]api.Message, int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	msgs, ok := h.byID[session]
	return slices.Clone(msgs), h.writes, ok
}

// keep stores a history read from the database, unless a write came
// between the read and now.
func (h *histories) keep(session string, writes int, msgs []api.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.writes != writes {
		return
	}
	if len(h.byID) >= maxHistories {
		for id := range h.byID { // any one: they are all recent
			delete(h.byID, id)
			break
		}
	}
	h.byID[session] = slices.Clone(msgs)
}

// change applies a write to the session's history when it is kept.
func (h *histories) change(session string, apply func([]api.Message) []api.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writes++
	if msgs, ok := h.byID[session]; ok {
		h.byID[session] = apply(msgs)
	}
}

// forget drops the session's history, or every one for "".
func (h *histories) forget(session string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writes++
	if session == "" {
		clear(h.byID)
		return
	}
	delete(h.byID, session)
}

// asHistory is a message as History returns it: without result and error.
func asHistory(m api.Message) api.Message {
	return api.Message{ID: m.ID, SessionID: m.SessionID, Role: m.Role, Content: m.Content, Status: m.Status, CreatedAt: m.CreatedAt}
}

// sessionModels keeps each conversation's chat model once read, as
// histories keep their messages: every turn needs it before its first
// model call. A map of short strings, one per conversation used.
type sessionModels struct {
	mu       sync.Mutex
	byID     map[string]string
	settings map[string]*api.ConversationSettings // nil: none set
}

func (m *sessionModels) getSettings(id string) (*api.ConversationSettings, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs, ok := m.settings[id]
	return cs, ok
}

func (m *sessionModels) setSettings(id string, cs *api.ConversationSettings) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.settings == nil {
		m.settings = map[string]*api.ConversationSettings{}
	}
	m.settings[id] = cs
}

func (m *sessionModels) get(id string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.byID[id]
	return v, ok
}

func (m *sessionModels) set(id, model string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byID[id] = model
}
