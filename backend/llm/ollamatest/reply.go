package ollamatest

import (
	"sort"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// Reply is what the fake model answers to one /api/chat request.
type Reply struct {
	// Text is the answer; it is streamed word by word unless Chunks is set.
	Text string `json:"text,omitempty"`
	// Chunks streams exactly these pieces instead of splitting Text.
	Chunks []string `json:"chunks,omitempty"`
	// Thinking is sent in the message's thinking field before the text, as
	// thinking models (and the real tiny test model) do.
	Thinking string `json:"thinking,omitempty"`
	// ToolCalls are sent in one chunk after the text.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// JSON, when set, is marshalled and sent as the content; for requests
	// with a format and neither JSON nor Text, the fake answers a minimal
	// valid instance of the schema, like the real tiny model.
	JSON any `json:"json,omitempty"`
	// PromptTokens and CompletionTokens override the estimated counts.
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
	// Delay is the wait before the first chunk; ChunkDelay between chunks.
	Delay      time.Duration `json:"-"`
	ChunkDelay time.Duration `json:"-"`
	// Fault, when set, breaks this reply.
	Fault Fault `json:"fault,omitzero"`
}

// ToolCall is one call the fake model asks for.
type ToolCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// FaultKind names a way to fail.
type FaultKind string

const (
	// FaultHTTP500 answers 500 {"error": Message} before any chunk.
	FaultHTTP500 FaultKind = "http_500"
	// FaultModelNotFound answers 404 "model 'NAME' not found", like the real
	// server for a model that is not pulled.
	FaultModelNotFound FaultKind = "model_not_found"
	// FaultNoTools answers 400 "NAME does not support tools".
	FaultNoTools FaultKind = "no_tools"
	// FaultDrop closes the connection after After chunks (0: before the
	// response headers).
	FaultDrop FaultKind = "drop"
	// FaultMalformed sends a broken JSON line after After chunks and ends.
	FaultMalformed FaultKind = "malformed"
	// FaultHang sends After chunks, then never answers again until the
	// client gives up or the server closes.
	FaultHang FaultKind = "hang"
	// FaultEmpty answers a complete reply with empty content.
	FaultEmpty FaultKind = "empty"
	// FaultNoDone streams After chunks and ends cleanly without the final
	// done=true line, as the real server does after a run of repeated tokens.
	FaultNoDone FaultKind = "no_done"
)

// Fault describes a failure to inject.
type Fault struct {
	Kind    FaultKind `json:"kind"`
	After   int       `json:"after,omitempty"`
	Message string    `json:"message,omitempty"`

	sticky bool
}

// Matcher selects chat requests for On.
type Matcher func(req api.ChatRequest) bool

type rule struct {
	match   Matcher
	replies []Reply
	fn      func(api.ChatRequest) Reply
	used    int
}

// Script queues replies; each /api/chat request that no rule matches takes
// the oldest one.
func (s *Server) Script(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Pending returns how many scripted replies are still queued, so a test can
// check that the code under test made every call it was expected to.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

// On answers requests that match with replies, in order; the last one
// repeats. Rules are checked before the script, oldest rule first.
func (s *Server) On(match Matcher, replies ...Reply) {
	if len(replies) == 0 {
		replies = []Reply{{}}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, &rule{match: match, replies: replies})
}

// OnFunc answers requests that match with whatever fn returns, so a reply
// can depend on the request (e.g. echo a tool result).
func (s *Server) OnFunc(match Matcher, fn func(api.ChatRequest) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, &rule{match: match, fn: fn})
}

// nextReply picks the reply for req; consume=false only peeks, for requests
// that a global fault will break anyway. Matchers and OnFunc functions run
// unlocked, so they may use the Server (e.g. Count).
func (s *Server) nextReply(req api.ChatRequest, consume bool) Reply {
	s.mu.Lock()
	rules := append([]*rule(nil), s.rules...)
	s.mu.Unlock()
	for _, r := range rules {
		if !r.match(req) {
			continue
		}
		if r.fn != nil {
			return r.fn(req)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		i := min(r.used, len(r.replies)-1)
		if consume {
			r.used++
		}
		return r.replies[i]
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.script) > 0 {
		r := s.script[0]
		if consume {
			s.script = s.script[1:]
		}
		return r
	}
	r := s.cfg.defaultReply
	if len(req.Format) > 0 && r.JSON == nil {
		// The default text is no answer to a schema: fall back to the
		// schema's minimal instance, as the real tiny model does.
		r.Text = ""
	}
	return r
}

// LastUserContains matches when the last user message contains sub.
func LastUserContains(sub string) Matcher {
	return func(req api.ChatRequest) bool {
		for i := len(req.Messages) - 1; i >= 0; i-- {
			if req.Messages[i].Role == "user" {
				return strings.Contains(req.Messages[i].Content, sub)
			}
		}
		return false
	}
}

// SystemContains matches when any system message contains sub; agent nodes
// differ by their system prompt, so this tells router from planner.
func SystemContains(sub string) Matcher {
	return func(req api.ChatRequest) bool {
		for _, m := range req.Messages {
			if m.Role == "system" && strings.Contains(m.Content, sub) {
				return true
			}
		}
		return false
	}
}

// HasTools matches requests that offer tools.
func HasTools() Matcher { return func(req api.ChatRequest) bool { return len(req.Tools) > 0 } }

// HasFormat matches structured-output requests.
func HasFormat() Matcher { return func(req api.ChatRequest) bool { return len(req.Format) > 0 } }

// LastIsToolResult matches when the last message is a tool result.
func LastIsToolResult() Matcher {
	return func(req api.ChatRequest) bool {
		n := len(req.Messages)
		return n > 0 && req.Messages[n-1].Role == "tool"
	}
}

// ModelIs matches requests for one model ("name" and "name:latest" alike).
func ModelIs(name string) Matcher {
	return func(req api.ChatRequest) bool { return normalizeName(req.Model) == normalizeName(name) }
}

// All matches when every matcher does.
func All(ms ...Matcher) Matcher {
	return func(req api.ChatRequest) bool {
		for _, m := range ms {
			if !m(req) {
				return false
			}
		}
		return true
	}
}

// apiToolCalls converts to the wire type, arguments in sorted key order so
// recorded requests are stable.
func apiToolCalls(calls []ToolCall) []api.ToolCall {
	var out []api.ToolCall
	for i, c := range calls {
		args := api.NewToolCallFunctionArguments()
		keys := make([]string, 0, len(c.Args))
		for k := range c.Args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			args.Set(k, c.Args[k])
		}
		out = append(out, api.ToolCall{Function: api.ToolCallFunction{Index: i, Name: c.Name, Arguments: args}})
	}
	return out
}

// splitWords cuts text into word-sized chunks, each keeping its trailing
// spaces, so the pieces concatenate back to text.
func splitWords(text string) []string {
	var out []string
	start := 0
	inSpace := false
	for i, r := range text {
		space := r == ' ' || r == '\n' || r == '\t'
		if !space && inSpace {
			out = append(out, text[start:i])
			start = i
		}
		inSpace = space
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
