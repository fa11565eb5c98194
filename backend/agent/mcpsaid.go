package agent

import (
	"slices"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// mcpSaid is what a turn said of the MCP servers that cannot serve it:
// every loop asks for the tools again, and a server that did not start,
// or was not started for its entry's mistakes, is said once, and again
// only after a new try; that mcp.json could not be read, once.
type mcpSaid struct {
	mu         sync.Mutex
	last       map[string]api.TraceCode // the last thing said of each server
	unreadable bool
}

// say reports whether the trace line p is to be said, and notes it.
func (s *mcpSaid) say(p api.TraceEvent) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch p.Code {
	case api.TraceMCPInvalid, api.TraceMCPFailed, api.TraceMCPStarting, api.TraceMCPStarted:
		server := p.Args["server"]
		if s.last[server] == p.Code && (p.Code == api.TraceMCPInvalid || p.Code == api.TraceMCPFailed) {
			return false
		}
		s.last[server] = p.Code
	case api.TraceMCPUnreadable:
		if s.unreadable {
			return false
		}
		s.unreadable = true
	}
	return true
}

// maxTurnsSaid bounds turnsSaid: the conversations whose turn is kept.
const maxTurnsSaid = 256

// turnsSaid keeps what each conversation's turn said of the MCP servers
// across the Respond calls of that turn: a turn that waits for the
// person (a plan, a tool call) and goes on after their decision gets a
// new turnSink, and without this would say again, once, that a server it
// already said did not start — the same failure, still in its pause. A
// new message starts afresh (each turn says it once), and so does a new
// try of the server (it may fail anew). It lives in the process: after a
// restart the servers are tried again, and a failure then is a new one.
// The turns of at most maxTurnsSaid conversations are kept, the oldest
// forgotten first (which then says it once more).
type turnsSaid struct {
	mu    sync.Mutex
	by    map[string]*mcpSaid
	order []string // sessions, oldest first
}

// forTurn is what session's turn said so far; fresh (a new message)
// starts it again.
func (t *turnsSaid) forTurn(session string, fresh bool) *mcpSaid {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil {
		t.by = map[string]*mcpSaid{}
	}
	if s, ok := t.by[session]; ok && !fresh {
		return s
	}
	s := &mcpSaid{last: map[string]api.TraceCode{}}
	if _, ok := t.by[session]; !ok {
		t.order = append(t.order, session)
	}
	t.by[session] = s
	if len(t.order) > maxTurnsSaid {
		delete(t.by, t.order[0])
		t.order = slices.Delete(t.order, 0, 1)
	}
	return s
}
