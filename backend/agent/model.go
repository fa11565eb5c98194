package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	wtools "github.com/wayfinder-app/wayfinder/backend/tools"
)

// Model is what the agent needs from the Ollama layer; *llm.Client has it.
// Retries with backoff happen inside (seed 003's resilient_invoke); the
// agent records them.
type Model interface {
	Chat(ctx context.Context, req llm.ChatRequest, onChunk func(llm.Chunk)) (llm.Response, error)
	Structured(ctx context.Context, req llm.ChatRequest, schema any, out any) (llm.Response, error)
}

// Names of the custom events nodes emit for the turn's sink.
const (
	eventTrace    = "trace"     // payload api.TraceEvent
	eventUsage    = "usage"     // payload usage
	eventTool     = "tool"      // payload string: a tool that ran
	eventToolCall = "tool_call" // payload api.ToolCallRecord: a call, its arguments, outcome and decision
)

// usage is the accounting of model calls.
type usage struct {
	Calls      int `json:"calls,omitempty"`
	Prompt     int `json:"prompt,omitempty"`
	Completion int `json:"completion,omitempty"`
	// Reset, written into the state, starts the count again (a new message).
	Reset bool `json:"reset,omitempty"`
}

func (u usage) add(v usage) usage {
	return usage{Calls: u.Calls + v.Calls, Prompt: u.Prompt + v.Prompt, Completion: u.Completion + v.Completion}
}

// storedKey carries a turn's chat.Turn.Stored to its model calls.
type storedKey struct{}

// errNotStored ends a turn whose message the chat service could not save.
var errNotStored = errors.New("the message was not saved")

// call is one node's access to the model: it records accounting and
// retries so that every node does it the same way.
type call struct {
	a       *Agent
	rt      *graph.Runtime // nil after the turn, where nobody listens
	node    string
	retries []llm.RetryRecord
	used    usage
}

func (a *Agent) newCall(rt *graph.Runtime) *call { return &call{a: a, rt: rt, node: rt.Node()} }

func (c *call) trace(kind api.TraceKind, l line) {
	if c.rt != nil {
		c.rt.Emit(eventTrace, l.event(kind, c.node))
	}
}

func (c *call) record(resp llm.Response) {
	u := usage{Calls: max(resp.Attempts, 1), Prompt: resp.PromptTokens, Completion: resp.CompletionTokens}
	c.used = c.used.add(u)
	if c.rt != nil {
		c.rt.Emit(eventUsage, u)
	}
	for _, r := range resp.Retries {
		c.trace(api.TraceRetry, say(api.TraceModelRetry, "error", string(r.Code), "attempt", strconv.Itoa(r.Attempt+1)))
	}
	c.retries = append(c.retries, resp.Retries...)
}

// update adds the recorded retries and model calls to a node's update.
func (c *call) update(u graph.Update) graph.Update {
	if len(c.retries) > 0 {
		u = append(u, c.a.f.retries.Add(c.retries...))
	}
	if c.used.Calls > 0 {
		u = append(u, c.a.f.usage.Add(c.used))
	}
	return u
}

// stored waits until the turn's message is saved (chat.Turn.Stored). A
// turn's first model call is sent while the message is being written,
// which takes a fraction of the reply's time; the reply is used only once
// the message is saved, so a refused turn runs no tool and writes nothing.
func stored(ctx context.Context) error {
	if f, ok := ctx.Value(storedKey{}).(func() bool); ok && !f() {
		return errNotStored
	}
	return nil
}

// chat makes one chat call; stream, when set, receives the reply's text.
func (c *call) chat(ctx context.Context, msgs []ollama.Message, tools ollama.Tools, stream func(string)) (llm.Response, error) {
	streamed := false
	var onChunk func(llm.Chunk)
	if stream != nil {
		onChunk = func(ch llm.Chunk) {
			if ch.Content != "" {
				streamed = true
				stream(ch.Content)
			}
		}
	}
	opts, tune := c.a.opt.ModelOptions, c.a.tuned(ctx)
	if tune.temperature != nil {
		opts = maps.Clone(opts)
		if opts == nil {
			opts = map[string]any{}
		}
		opts["temperature"] = *tune.temperature
	}
	resp, name, err := c.do(ctx, func(m Model, name string) (llm.Response, error) {
		return m.Chat(ctx, llm.ChatRequest{Model: name, Messages: msgs, Tools: tools, Options: opts, NumCtx: tune.numCtx,
			Conversation: wtools.ConversationOf(ctx)}, onChunk)
	}, func() bool { return streamed })
	if err := stored(ctx); err != nil {
		return resp, err
	}
	if err != nil {
		return resp, fmt.Errorf("%s: ask %s: %w", c.node, name, err)
	}
	return resp, nil
}

// fallbackModel is the chat model that answers when the chosen one cannot:
// the settings', else Options'.
func (a *Agent) fallbackModel() string {
	if a.deps.Settings != nil {
		return strings.TrimSpace(a.deps.Settings().FallbackModel)
	}
	return a.opt.FallbackModel
}

// modelChoice is one turn's use of the chat models: once the chosen model
// fails in a way another model can cure, the rest of the turn and its
// after-turn work run on the fallback, without trying the chosen one again.
type modelChoice struct {
	mu       sync.Mutex
	fallback string // the model in use instead of the chosen one; "" while it serves
	from     string // the chosen model it replaced
	answered string // the model of the turn's last successful call
}

type choiceKey struct{}

func withChoice(ctx context.Context, m *modelChoice) context.Context {
	return context.WithValue(ctx, choiceKey{}, m)
}

// choiceOf is the turn's modelChoice; a fresh one outside a turn.
func choiceOf(ctx context.Context) *modelChoice {
	if m, ok := ctx.Value(choiceKey{}).(*modelChoice); ok {
		return m
	}
	return &modelChoice{}
}

func (m *modelChoice) inUse(chosen string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fallback != "" && m.from == chosen {
		return m.fallback
	}
	return chosen
}

func (m *modelChoice) fellBack(from, to string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.from, m.fallback = from, to
}

func (m *modelChoice) served(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.answered = name
}

// result is what the turn's accounting says of the models.
func (m *modelChoice) result() (answered, from string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fallback != "" && m.answered == m.fallback {
		from = m.from
	}
	return m.answered, from
}

// curable says whether another model may succeed where the chosen one
// failed: it is missing, does not fit in memory, cannot use tools, or kept
// failing through the client's retries. An unreachable Ollama is not: the
// fallback runs on the same server.
func curable(err error) bool {
	for _, kind := range []error{llm.ErrModelNotFound, llm.ErrOutOfMemory, llm.ErrNoToolSupport, llm.ErrServer, llm.ErrTimeout, llm.ErrStreamDropped} {
		if errors.Is(err, kind) {
			return true
		}
	}
	return false
}

// do sends one model call (send) to the model in effect, and again to the
// fallback model when the chosen one fails in a way another can cure and
// nothing of its reply reached the person (shown says whether it did). It
// returns the model that was asked last. Each attempt is recorded.
func (c *call) do(ctx context.Context, send func(m Model, name string) (llm.Response, error), shown func() bool) (llm.Response, string, error) {
	m, chosen := c.a.model(ctx)
	if m == nil {
		return llm.Response{}, "", errors.New("no chat model configured")
	}
	choice := choiceOf(ctx)
	name := choice.inUse(chosen)
	resp, err := send(m, name)
	c.record(resp)
	if fb := c.a.fallbackModel(); err != nil && name == chosen && fb != "" && fb != chosen && curable(err) && ctx.Err() == nil && !shown() {
		code := llm.Classify(err).Code
		c.a.log.Warn("chat model failed, using the fallback", "node", c.node, "model", chosen, "fallback", fb, "err", err)
		c.trace(api.TraceRetry, say(api.TraceModelFallback, "model", chosen, "fallback", fb, "reason", string(code)))
		choice.fellBack(chosen, fb)
		first := err
		name = fb
		if resp, err = send(m, name); err != nil && !errors.Is(err, llm.ErrMalformedOutput) {
			// The person's own choice is what to fix: its error comes first.
			err = fmt.Errorf("%w; the fallback model %s failed too: %w", first, fb, err)
		}
		c.record(resp)
	}
	if err == nil {
		choice.served(name)
	}
	return resp, name, err
}

// structured asks for JSON of type T (a *T with a Validate method refuses
// replies that parse but make no sense, such as an empty plan). A malformed reply gets one repair
// attempt with the validation error sent back (llm.RepairMessages); when
// that fails too, ok is false, the trace says a safe default is used and
// the caller uses its safe fallback. Only a failure to reach the model is
// an error.
func structured[T any](ctx context.Context, c *call, msgs []ollama.Message) (out T, ok bool, err error) {
	out, ok, _, err = structuredOr[T](ctx, c, msgs)
	if err == nil && !ok {
		c.trace(api.TraceRetry, say(api.TraceJSONDefault))
	}
	return out, ok, err
}

// structuredOr is structured for a caller that can still read something
// from the two unusable replies (the router's cut route, the planner's
// complete steps): broken holds their raw text, the first reply then its
// repair, when ok is false, and the caller says in the trace what it did
// instead.
func structuredOr[T any](ctx context.Context, c *call, msgs []ollama.Message) (out T, ok bool, broken []string, err error) {
	req := llm.ChatRequest{Messages: msgs, Options: c.a.opt.StructuredOptions, NumCtx: c.a.tuned(ctx).numCtx,
		Conversation: wtools.ConversationOf(ctx)}
	for attempt := 0; attempt < 2; attempt++ {
		var v T
		_, name, err := c.do(ctx, func(m Model, name string) (llm.Response, error) {
			v = *new(T)
			req.Model = name
			resp, err := m.Structured(ctx, req, nil, &v)
			if mc, ok := any(&v).(mendChecker); ok && err == nil && resp.Repaired {
				if why := mc.checkMended(resp.Message.Content); why != nil {
					err = &llm.Error{Kind: llm.ErrMalformedOutput, Op: "structured", Model: name, Raw: resp.Message.Content, Err: why}
				}
			}
			return resp, err
		}, func() bool { return false })
		if err := stored(ctx); err != nil {
			return out, false, nil, err
		}
		if err == nil {
			return v, true, nil, nil
		}
		repair := llm.RepairMessages(err)
		if repair == nil {
			return out, false, nil, fmt.Errorf("%s: ask %s: %w", c.node, name, err)
		}
		c.a.log.Warn("malformed structured output", "node", c.node, "attempt", attempt+1, "err", err)
		var bad *llm.Error
		if errors.As(err, &bad) {
			broken = append(broken, bad.Raw) // the reply as the model wrote it
		}
		if attempt == 0 {
			c.trace(api.TraceRetry, say(api.TraceJSONRepair))
			req.Messages = append(append([]ollama.Message(nil), req.Messages...), repair...)
		}
	}
	return out, false, broken, nil
}

// mendChecker is a structured output that can refuse what backend/llm
// mended from a broken reply (llm.Response.Repaired), seeing the reply as
// the model wrote it: a refusal is a malformed reply, repaired or read as
// any other (structuredOr).
type mendChecker interface {
	checkMended(raw string) error
}

// toOllama converts conversation and scratch messages for a request.
func toOllama(msgs []Msg) []ollama.Message {
	out := make([]ollama.Message, 0, len(msgs))
	for _, m := range msgs {
		om := ollama.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName}
		for i, tc := range m.ToolCalls {
			args := ollama.NewToolCallFunctionArguments()
			for _, k := range slices.Sorted(maps.Keys(tc.Args)) {
				args.Set(k, tc.Args[k])
			}
			om.ToolCalls = append(om.ToolCalls, ollama.ToolCall{Function: ollama.ToolCallFunction{Index: i, Name: tc.Name, Arguments: args}})
		}
		out = append(out, om)
	}
	return out
}

func system(text string) ollama.Message { return ollama.Message{Role: "system", Content: text} }
func user(text string) ollama.Message   { return ollama.Message{Role: "user", Content: text} }
