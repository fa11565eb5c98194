package ollamatest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// handleChat answers /api/chat. global, when set, is a fault from Fail that
// overrides the reply's own and leaves the script untouched.
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request, body []byte, global *Fault) {
	s.mu.Lock()
	s.inFlight++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	var req api.ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid request: " + err.Error()})
		return
	}
	m, ok := s.model(req.Model)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", req.Model)})
		return
	}
	if !slices.Contains(m.Capabilities, "completion") {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("%q does not support chat", req.Model)})
		return
	}
	if len(req.Tools) > 0 && !slices.Contains(m.Capabilities, "tools") {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": noToolsMessage(m.Name)})
		return
	}

	reply := s.nextReply(req, global == nil)
	fault := reply.Fault
	if global != nil {
		fault = *global
	}
	switch fault.Kind {
	case FaultHTTP500, FaultModelNotFound, FaultNoTools:
		s.serveFault(w, r, fault, req.Model)
		return
	case FaultDrop, FaultHang:
		if fault.After == 0 {
			s.serveFault(w, r, fault, req.Model)
			return
		}
	}

	chunks := s.chunks(req, reply)
	if fault.Kind == FaultEmpty {
		chunks = nil
	}
	final := api.ChatResponse{
		Model:      req.Model,
		CreatedAt:  time.Now().UTC(),
		Message:    api.Message{Role: "assistant"},
		Done:       true,
		DoneReason: "stop",
		Metrics:    metrics(req, reply, len(chunks)),
	}

	// Under a latency model the call waits for a slot and pays its
	// prefill first; each chunk then pays its tokens' generation.
	var mc *modelCall
	if lat := s.latencyModel(); lat != nil {
		var ok bool
		if mc, ok = lat.begin(r.Context(), req, s.closed); !ok {
			return
		}
		defer func() {
			mc.release()
			s.addStats(mc.stats)
		}()
	}
	generate := func(c api.Message) bool {
		if mc == nil {
			return true
		}
		return mc.generate(r.Context(), s.closed, c.Content+toolCallText(c.ToolCalls))
	}
	finalMetrics := func() {
		if mc != nil {
			final.Metrics = mc.metrics()
		}
	}

	if req.Stream != nil && !*req.Stream {
		if !s.wait(r.Context(), reply.Delay) {
			return
		}
		for _, c := range chunks {
			if !generate(c) {
				return
			}
		}
		finalMetrics()
		if fault.Kind == FaultMalformed {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			io.WriteString(w, malformedLine)
			return
		}
		for _, c := range chunks {
			final.Message.Content += c.Content
			final.Message.Thinking += c.Thinking
			final.Message.ToolCalls = append(final.Message.ToolCalls, c.ToolCalls...)
		}
		if fault.Kind == FaultNoDone {
			final.Done, final.DoneReason = false, ""
		}
		writeJSON(w, http.StatusOK, final)
		return
	}

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if !s.wait(r.Context(), reply.Delay) {
		return
	}
	delay := reply.ChunkDelay
	if delay == 0 {
		s.mu.Lock()
		delay = s.cfg.chunkDelay
		s.mu.Unlock()
	}
	for i, c := range chunks {
		if fault.Kind != "" && fault.Kind != FaultEmpty && i == fault.After {
			s.strike(w, r, fault)
			return
		}
		if i > 0 && !s.wait(r.Context(), delay) {
			return
		}
		if !generate(c) {
			return
		}
		line := api.ChatResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Message: c}
		if err := writeLine(w, line); err != nil {
			return
		}
	}
	if fault.Kind != "" && fault.Kind != FaultEmpty {
		s.strike(w, r, fault)
		return
	}
	finalMetrics()
	final.CreatedAt = time.Now().UTC()
	writeLine(w, final)
}

// strike breaks a stream that has already started.
func (s *Server) strike(w http.ResponseWriter, r *http.Request, f Fault) {
	switch f.Kind {
	case FaultDrop:
		dropConnection(w)
	case FaultMalformed:
		io.WriteString(w, malformedLine)
	case FaultHang:
		s.hang(w, r)
	case FaultNoDone:
		// End the handler: the chunked stream closes cleanly without done.
	}
}

// hang blocks until the client gives up or the server closes, then drops
// the connection so no half answer looks complete.
func (s *Server) hang(w http.ResponseWriter, r *http.Request) {
	s.wait(r.Context(), 24*time.Hour)
	dropConnection(w)
}

// malformedLine is a chat chunk cut in the middle of a string.
const malformedLine = `{"model":"x","message":{"role":"assistant","content":"unfini` + "\n"

// serveFault answers a fault before anything was written.
func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, f Fault, model string) {
	switch f.Kind {
	case FaultHTTP500:
		msg := f.Message
		if msg == "" {
			msg = "llama runner process has terminated: exit status 2"
		}
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": msg})
	case FaultModelNotFound:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", model)})
	case FaultNoTools:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": noToolsMessage(normalizeName(model))})
	case FaultDrop:
		dropConnection(w)
	case FaultHang:
		s.hang(w, r)
	case FaultMalformed:
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, malformedLine)
	case FaultEmpty:
		w.WriteHeader(http.StatusOK)
	case FaultNoDone:
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusOK)
	default:
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "unknown fault " + string(f.Kind)})
	}
}

// noToolsMessage is the real server's wording (model.Name, then the error).
func noToolsMessage(name string) string {
	return "registry.ollama.ai/library/" + name + " does not support tools"
}

// dropConnection closes the TCP connection under the handler, so the client
// sees EOF before headers or an unexpected EOF in the middle of the body.
func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// chunks turns a reply into the messages of the stream, without the final
// done line.
func (s *Server) chunks(req api.ChatRequest, r Reply) []api.Message {
	var out []api.Message
	if r.Thinking != "" {
		out = append(out, api.Message{Role: "assistant", Thinking: r.Thinking})
	}
	pieces := r.Chunks
	if len(pieces) == 0 {
		pieces = splitWords(s.content(req, r))
	}
	for _, p := range pieces {
		out = append(out, api.Message{Role: "assistant", Content: p})
	}
	if len(r.ToolCalls) > 0 {
		out = append(out, api.Message{Role: "assistant", ToolCalls: apiToolCalls(r.ToolCalls)})
	}
	return out
}

// content is the reply text: the scripted JSON or text, or for a structured
// request without either a minimal instance of the schema. Structured
// content may be corrupted (WithCorruption).
func (s *Server) content(req api.ChatRequest, r Reply) string {
	text := r.Text
	if r.JSON != nil {
		b, err := json.Marshal(r.JSON)
		if err != nil {
			text = "ollamatest: cannot marshal Reply.JSON: " + err.Error()
		} else {
			text = string(b)
		}
	} else if text == "" && len(req.Format) > 0 && len(r.ToolCalls) == 0 && len(r.Chunks) == 0 {
		text = minimalInstance(req.Format)
	}
	if len(req.Format) == 0 {
		return text
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg.corruptP > 0 && s.rng.Float64() < s.cfg.corruptP {
		s.corruptions++
		if s.cfg.listPlans {
			if list, ok := asList(text, s.rng); ok {
				return list
			}
		}
		return corrupt(text, s.rng, s.cfg.cutAnywhere)
	}
	return text
}

// metrics fills Ollama's counters: scripted values, else rough estimates
// (about four characters per prompt token, one token per chunk).
func metrics(req api.ChatRequest, r Reply, chunks int) api.Metrics {
	prompt := r.PromptTokens
	if prompt == 0 {
		n := 0
		for _, m := range req.Messages {
			n += len(m.Content)
		}
		prompt = n/4 + 1
	}
	completion := r.CompletionTokens
	if completion == 0 {
		completion = chunks
	}
	return api.Metrics{
		TotalDuration:      time.Duration(20+completion) * time.Millisecond,
		LoadDuration:       5 * time.Millisecond,
		PromptEvalCount:    prompt,
		PromptEvalDuration: 5 * time.Millisecond,
		EvalCount:          completion,
		EvalDuration:       time.Duration(completion) * time.Millisecond,
	}
}

// normalizeName adds the ":latest" tag Ollama assumes when none is given.
func normalizeName(name string) string {
	base := name[strings.LastIndex(name, "/")+1:]
	if name != "" && !strings.Contains(base, ":") {
		return name + ":latest"
	}
	return name
}
