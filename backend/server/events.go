package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// clientBuffer is how many events a slow browser may fall behind before it
// is disconnected; EventSource reconnects by itself and the UI reloads the
// session, which is better than blocking every other window.
const clientBuffer = 1024

type frame struct {
	name string
	data []byte
}

// hub fans events out to the connected browsers.
type hub struct {
	mu      sync.Mutex
	clients map[chan frame]struct{}
	closed  bool
}

func newHub() *hub { return &hub{clients: map[chan frame]struct{}{}} }

func (h *hub) publish(name string, payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c <- frame{name, data}:
		default: // too slow: drop it, it will reconnect
			delete(h.clients, c)
			close(c)
		}
	}
}

func (h *hub) subscribe() (chan frame, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false
	}
	c := make(chan frame, clientBuffer)
	h.clients[c] = struct{}{}
	return c, true
}

func (h *hub) unsubscribe(c chan frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c)
	}
}

// close ends every stream so that server shutdown does not wait for them.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		close(c)
	}
}

// stream is the server-sent-events endpoint.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	c, ok := s.events.subscribe()
	if !ok {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.events.unsubscribe(c)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	// The stream lives as long as the page: no overall read or write
	// deadline, one per frame instead, so a browser that stops reading is
	// dropped (and reconnects by itself) without holding the hub back.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	send := func(format string, a ...any) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(frameTimeout))
		if _, err := fmt.Fprintf(w, format, a...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// A comment line opens the stream at once so the browser's onopen fires.
	if !send(": connected\nretry: 1000\n\n") {
		return
	}
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepalive.C:
			if !send(": keepalive\n\n") {
				return
			}
		case f, ok := <-c:
			if !ok || !send("event: %s\ndata: %s\n\n", f.name, f.data) {
				return
			}
		}
	}
}
