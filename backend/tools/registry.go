package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	ollama "github.com/ollama/ollama/api"
)

// DefaultMaxObservation caps an observation in characters so that one tool
// cannot flood a small model's context window.
const DefaultMaxObservation = 8000

// Call is one tool call requested by the model.
type Call struct {
	ID   string // the model's tool call id, when it sends one
	Name string
	Args map[string]any
}

// CallFromOllama converts a tool call from Ollama's chat response.
func CallFromOllama(tc ollama.ToolCall) Call {
	args := tc.Function.Arguments.ToMap()
	if args == nil {
		args = map[string]any{}
	}
	return Call{ID: tc.ID, Name: tc.Function.Name, Args: args}
}

// Key identifies a call by tool and arguments (keys sorted, values as JSON),
// so the agent can skip an identical call already made in the turn (seed
// 002's tool_history) however the model ordered the arguments.
func (c Call) Key() string {
	b, err := json.Marshal(c.Args) // map keys are marshalled sorted
	if err != nil {
		return c.Name + fmt.Sprintf("%v", c.Args)
	}
	if len(c.Args) == 0 {
		b = []byte("{}")
	}
	return c.Name + string(b)
}

// Outcome is what running a Call produced. Text is always set: on failure it
// is an error observation ("Error: ...") for the model, and Err says what
// went wrong for the caller.
type Outcome struct {
	Call     Call
	Result   Result // Result.Text is the observation, also on failure
	Err      error
	Duration time.Duration
}

// Message is the tool message that carries the observation back to the
// model.
func (o Outcome) Message() ollama.Message {
	return ollama.Message{Role: "tool", Content: o.Result.Text, ToolName: o.Call.Name, ToolCallID: o.Call.ID}
}

// Registry holds the tools of one agent and runs calls. It is immutable
// after construction (WithEnabled returns a copy), so one registry can serve
// many concurrent turns.
type Registry struct {
	tools   map[string]*Tool
	order   []string
	enabled map[string]bool
	maxObs  int
	log     *slog.Logger
}

// NewRegistry makes a registry of tools, listed in the given order. Tools
// marked DefaultOff stay disabled until WithEnabled turns them on.
func NewRegistry(log *slog.Logger, tools ...*Tool) (*Registry, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Registry{tools: map[string]*Tool{}, enabled: map[string]bool{}, maxObs: DefaultMaxObservation, log: log}
	for _, t := range tools {
		if t == nil || t.Name == "" || t.Run == nil {
			return nil, errors.New("new registry: a tool needs a name and a run function")
		}
		if _, dup := r.tools[t.Name]; dup {
			return nil, fmt.Errorf("new registry: tool %q registered twice", t.Name)
		}
		r.tools[t.Name] = t
		r.order = append(r.order, t.Name)
		r.enabled[t.Name] = !t.DefaultOff
	}
	return r, nil
}

// WithEnabled returns a copy of the registry with tool name switched on or
// off (the settings' web search toggle). Unknown names are an error.
func (r *Registry) WithEnabled(name string, on bool) (*Registry, error) {
	if _, ok := r.tools[name]; !ok {
		return nil, fmt.Errorf("enable %q: %w", name, ErrUnknownTool)
	}
	c := *r
	c.enabled = maps.Clone(r.enabled)
	c.enabled[name] = on
	return &c, nil
}

// With returns a copy of the registry with more tools after its own (the
// MCP servers' tools, which change while the app runs). A tool whose name
// is taken is an error; the registry itself is unchanged.
func (r *Registry) With(extra ...*Tool) (*Registry, error) {
	if len(extra) == 0 {
		return r, nil
	}
	c := *r
	c.tools = maps.Clone(r.tools)
	c.enabled = maps.Clone(r.enabled)
	c.order = slices.Clone(r.order)
	for _, t := range extra {
		if t == nil || t.Name == "" || t.Run == nil {
			return nil, errors.New("add tools: a tool needs a name and a run function")
		}
		if _, dup := c.tools[t.Name]; dup {
			return nil, fmt.Errorf("add tools: tool %q registered twice", t.Name)
		}
		c.tools[t.Name] = t
		c.order = append(c.order, t.Name)
		c.enabled[t.Name] = !t.DefaultOff
	}
	return &c, nil
}

// WithMaxObservation returns a copy that cuts observations at n characters.
func (r *Registry) WithMaxObservation(n int) *Registry {
	c := *r
	c.maxObs = n
	return &c
}

// Names lists the enabled tools in registration order.
func (r *Registry) Names() []string {
	var out []string
	for _, n := range r.order {
		if r.enabled[n] {
			out = append(out, n)
		}
	}
	return out
}

// Lookup returns the tool registered as name, enabled or not.
func (r *Registry) Lookup(name string) (*Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Schemas lists the enabled tools for the model.
func (r *Registry) Schemas() []ollama.Tool {
	var out []ollama.Tool
	for _, n := range r.Names() {
		out = append(out, r.tools[n].Schema())
	}
	return out
}

// Run runs one call. It never panics and never returns without an
// observation: every failure becomes "Error: ..." text the model can read
// and correct itself from, with Err set for the caller.
func (r *Registry) Run(ctx context.Context, call Call) Outcome {
	start := time.Now()
	res, err := r.run(ctx, call)
	out := Outcome{Call: call, Result: res, Err: err, Duration: time.Since(start)}
	if err != nil {
		out.Result = Result{Text: "Error: " + err.Error()}
		r.log.Info("tool call failed", "tool", call.Name, "err", err, "ms", out.Duration.Milliseconds())
	} else {
		r.log.Debug("tool call", "tool", call.Name, "ms", out.Duration.Milliseconds())
	}
	out.Result.Text = truncate(out.Result.Text, r.maxObs)
	return out
}

// RunAll runs independent calls in parallel and returns their outcomes in
// the order of calls, so the messages sent back to the model line up with
// the calls it made.
func (r *Registry) RunAll(ctx context.Context, calls []Call) []Outcome {
	out := make([]Outcome, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { out[i] = r.Run(ctx, c) })
	}
	wg.Wait()
	return out
}

func (r *Registry) run(ctx context.Context, call Call) (Result, error) {
	t, ok := r.tools[call.Name]
	if !ok {
		return Result{}, fmt.Errorf("%w %q; available tools: %s", ErrUnknownTool, call.Name, strings.Join(r.Names(), ", "))
	}
	if !r.enabled[call.Name] {
		return Result{}, fmt.Errorf("%s: %w; available tools: %s", call.Name, ErrDisabled, strings.Join(r.Names(), ", "))
	}
	args, err := t.Validate(call.Args)
	if err != nil {
		return Result{}, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(parent, t.timeout())
	defer cancel()
	stopped := func() error {
		if parent.Err() != nil { // the turn was cancelled, not the tool slow
			return fmt.Errorf("%s: %w", call.Name, parent.Err())
		}
		return fmt.Errorf("%s: %w after %s", call.Name, ErrTimeout, t.timeout())
	}

	type done struct {
		res Result
		err error
	}
	ch := make(chan done, 1) // buffered: a late tool must not block forever
	go func() {
		defer func() {
			if p := recover(); p != nil {
				r.log.Error("tool panicked", "tool", call.Name, "panic", p, "stack", string(debug.Stack()))
				ch <- done{err: ErrPanic}
			}
		}()
		res, err := t.Run(ctx, args)
		ch <- done{res, err}
	}()

	// Waiting on ctx as well enforces the time limit even for a tool that
	// ignores its context.
	select {
	case d := <-ch:
		if d.err != nil && ctx.Err() != nil {
			return Result{}, stopped()
		}
		if d.err != nil {
			return Result{}, fmt.Errorf("%s: %w", call.Name, d.err)
		}
		return d.res, nil
	case <-ctx.Done():
		return Result{}, stopped()
	}
}

func truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n]) + "\n[... cut: the result was longer than " + fmt.Sprint(n) + " characters]"
}
