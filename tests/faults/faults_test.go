// Package faults runs the fault matrix of issue 7 (item 2): for every
// model-calling step of the agent graph and every way Ollama or a small
// model can fail, a turn must end with a clear message or a successful
// retry, keep what the person typed, tell the UI how it ended (an event),
// and leave no goroutine behind.
//
// The outcomes are written to RESULTS.md (go test ./tests/faults -update)
// and compared with it on every run, so a change in how Wayfinder handles a
// fault shows up in review.
package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"
	"go.uber.org/goleak"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

var update = flag.Bool("update", false, "rewrite RESULTS.md from this run")

// gorm's prepared-statement cache starts a janitor goroutine per database
// that nothing stops; it is not ours.
var ignoreGorm = goleak.IgnoreTopFunction("gorm.io/gorm/internal/lru.NewLRU[...].func1")

// firstToken is the first-token timeout the matrix runs with: the app's
// default (120 s) would make the slow cell wait minutes; the behaviour is
// the same at any length. Every call of every cell runs with it, so it is
// long enough (1 s, where 300 ms was) that a well-behaved reply of the fake
// is not taken for a slow one on a busy machine (two cores, -race), which
// would turn a cell's "✓ answered" into "after 2 calls".
const firstToken = time.Second

// step is a model-calling node and the turn that reaches it.
type step struct {
	name    string
	role    string
	complex bool // reached by the complex flow; else by a simple question
	tools   bool // the step offers tools to the model
	// structured steps ask for JSON (router, planner, reviewer, reflection).
	structured bool
	// after is true for work that runs after the answer (reflection).
	after bool
}

var steps = []step{
	{name: "router", role: world.RoleRouter, structured: true},
	{name: "answer", role: world.RoleAnswer, tools: true},
	{name: "planner", role: world.RolePlanner, complex: true, structured: true},
	{name: "recommend (scout)", role: world.RoleScout, complex: true, tools: true},
	{name: "recommend (reviewer)", role: world.RoleReviewer, complex: true, structured: true},
	{name: "guide", role: world.RoleGuide, complex: true},
	{name: "reflection", role: world.RoleMemory, complex: true, structured: true, after: true},
}

// fault is one way to fail. mutate turns the well-behaved reply into the
// faulty one; refuse makes the connection itself fail instead.
type fault struct {
	name      string
	toolsOnly bool
	refuse    bool
	once      bool // only the step's first request fails
	mutate    func(s step, r ollamatest.Reply) ollamatest.Reply
}

var faultList = []fault{
	{name: "connection refused", refuse: true},
	{name: "HTTP 500", mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		return ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "llama runner process has terminated"}}
	}},
	{name: "404 model missing", mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		return ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultModelNotFound}}
	}},
	{name: "slow first token", mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		r.Delay = 10 * firstToken
		return r
	}},
	{name: "stream dropped", mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		r.Fault = ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 1}
		return r
	}},
	{name: "malformed JSON", mutate: func(s step, r ollamatest.Reply) ollamatest.Reply {
		if s.structured { // the model's JSON is broken
			return ollamatest.Reply{Text: `{"route": "complex", "sub_tasks": [{"id": "s1", "title": `}
		}
		r.Fault = ollamatest.Fault{Kind: ollamatest.FaultMalformed, After: 1} // a broken wire line
		return r
	}},
	{name: "unknown tool", toolsOnly: true, mutate: func(_ step, _ ollamatest.Reply) ollamatest.Reply {
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "teleport", Args: map[string]any{"to": "mars"}}}}
	}},
	{name: "same tool call forever", toolsOnly: true, mutate: func(_ step, _ ollamatest.Reply) ollamatest.Reply {
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "calculator", Args: map[string]any{"expression": "1+1"}}}}
	}},
	{name: "HTTP 500 once", once: true, mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		return ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "llama runner process has terminated"}}
	}},
	{name: "dropped before the first chunk, once", once: true, mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		r.Fault = ollamatest.Fault{Kind: ollamatest.FaultDrop}
		return r
	}},
	{name: "slow first token, once", once: true, mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		r.Delay = 10 * firstToken
		return r
	}},
	{name: "empty reply", mutate: func(_ step, r ollamatest.Reply) ollamatest.Reply {
		return ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultEmpty}}
	}},
}

const simpleQuestion = "What is a good way to plan my week?"

func TestFaultMatrix(t *testing.T) {
	results := map[string]map[string]string{}
	for _, s := range steps {
		results[s.name] = map[string]string{}
		for _, f := range faultList {
			if f.toolsOnly && !s.tools {
				results[s.name][f.name] = "n/a (no tools)"
				continue
			}
			t.Run(s.name+"/"+f.name, func(t *testing.T) {
				results[s.name][f.name] = runCell(t, s, f)
			})
		}
	}
	table := render(results)
	if *update {
		if err := os.WriteFile("RESULTS.md", []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("RESULTS.md")
	if err != nil {
		t.Fatalf("%v (create it with: go test ./tests/faults -update)", err)
	}
	if string(want) != table {
		t.Errorf("the fault matrix changed; review and run with -update.\ngot:\n%s", table)
	}
}

// refusingTransport refuses every connection once the step's first request
// has been seen, as if Ollama had died at that moment.
type refusingTransport struct {
	base  http.RoundTripper
	match ollamatest.Matcher
	down  atomic.Bool
}

func (rt *refusingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == ollamatest.PathChat && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req ollama.ChatRequest
		if json.Unmarshal(body, &req) == nil && rt.match(req) {
			rt.down.Store(true)
		}
	}
	if rt.down.Load() {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	return rt.base.RoundTrip(r)
}

// events records what the UI would be told.
type events struct {
	mu    sync.Mutex
	names []string
}

func (e *events) Emit(name string, _ any) {
	e.mu.Lock()
	e.names = append(e.names, name)
	e.mu.Unlock()
}

func (e *events) count(name string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, x := range e.names {
		if x == name {
			n++
		}
	}
	return n
}

// runCell runs one turn with one fault and returns its outcome for the
// table, failing the test when an invariant breaks.
func runCell(t *testing.T, s step, f fault) string {
	defer goleak.VerifyNone(t, ignoreGorm)
	fake := ollamatest.New(t)
	if f.mutate != nil {
		var seen atomic.Int32
		fake.OnFunc(world.Matcher(s.role), func(req ollama.ChatRequest) ollamatest.Reply {
			r := world.Respond(s.role, req, world.Pace{})
			if f.once && seen.Add(1) > 1 {
				return r
			}
			return f.mutate(s, r)
		})
	}
	if s.role == world.RoleScout {
		// Each sub-task starts with Wayfinder's own search; the scout is
		// asked when the reviewer wants more, as here the first time.
		var asked sync.Map
		fake.OnFunc(world.Matcher(world.RoleReviewer), func(req ollama.ChatRequest) ollamatest.Reply {
			if _, again := asked.LoadOrStore(world.SubTaskOf(req), true); !again {
				return ollamatest.Reply{JSON: map[string]any{"sufficient": false, "missing": "a price", "tool": "", "why": "", "url": "", "pricing": "", "alternatives": []string{}}}
			}
			return world.Respond(world.RoleReviewer, req, world.Pace{})
		})
	}
	world.ScriptComplex(fake, world.Pace{})
	ev := &events{}
	cfg := world.Config{
		DataDir: t.TempDir(), Events: ev,
		LLMOptions: []llm.Option{llm.WithTimeouts(llm.Timeouts{FirstToken: firstToken, Idle: firstToken})},
	}
	if f.refuse {
		cfg.HTTPClient = &http.Client{Transport: &refusingTransport{base: http.DefaultTransport.(*http.Transport).Clone(), match: world.Matcher(s.role)}}
	}
	b, err := world.Open(context.Background(), fake.URL(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	input := simpleQuestion
	if s.complex {
		input = world.ComplexTask
	}
	msg, err := b.Chat.Ask(ctx, "", input, nil)
	turns := 1
	if err == nil && msg.Status == api.StatusAwaitingApproval {
		turns++
		msg, err = b.Chat.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: msg.Result.Plan.Version}, nil)
	}
	sessionID := msg.SessionID
	b.Agent.Wait() // reflection runs after the answer
	memories := len(b.Memory.All())

	outcome := describe(msg, err)
	calls := 0
	for _, r := range fake.ChatRequests() {
		if world.Matcher(s.role)(r) {
			calls++
		}
	}
	if calls == 0 && !f.refuse {
		t.Errorf("the %s step was never reached", s.name)
	}

	// The person's input is kept.
	if sessionID == "" {
		t.Errorf("no session for the turn: %v", err)
	} else {
		msgs, merr := b.Store.Messages(context.Background(), sessionID)
		if merr != nil || len(msgs) == 0 || msgs[0].Content != input {
			t.Errorf("the person's message was not kept: %v %+v", merr, msgs)
		}
		for _, m := range msgs {
			if m.Status == api.StatusStreaming {
				t.Errorf("a reply was left streaming: %+v", m)
			}
		}
	}
	// The UI was told how each turn ended.
	if ended := ev.count(api.EventTurnFinished) + ev.count(api.EventTurnFailed); ended != turns {
		t.Errorf("%d turns ran but %d ended with an event", turns, ended)
	}
	// A failure is a clear message, not an internal error.
	if err != nil && (msg.Error == nil || msg.Error.Code == api.ErrInternal || msg.Error.Message == "") {
		t.Errorf("unclear failure: %v (%+v)", err, msg.Error)
	}
	b.Close()
	fake.Close()

	if calls > 1 && msg.Status == api.StatusComplete && !f.refuse && !s.complex {
		outcome += fmt.Sprintf(" after %d calls", calls)
	}
	if s.after {
		outcome += fmt.Sprintf("; %d memory written", memories)
	}
	return outcome
}

func describe(msg api.Message, err error) string {
	switch {
	case err != nil && msg.Error != nil:
		return fmt.Sprintf("✗ clear error `%s`", msg.Error.Code)
	case errors.Is(err, context.DeadlineExceeded):
		return "✗ hung (test timeout)"
	case err != nil:
		return "✗ " + err.Error()
	case msg.Status == api.StatusComplete && strings.TrimSpace(msg.Content) == "":
		return "✗ complete but empty"
	case msg.Status == api.StatusComplete:
		return "✓ answered"
	}
	return "? " + string(msg.Status)
}

func render(results map[string]map[string]string) string {
	var b strings.Builder
	b.WriteString("<!-- Generated by `go test ./tests/faults -update`; do not edit. -->\n")
	b.WriteString("| Step | " + strings.Join(names(), " | ") + " |\n")
	b.WriteString("|---" + strings.Repeat("|---", len(faultList)) + "|\n")
	for _, s := range steps {
		row := []string{s.name}
		for _, f := range faultList {
			row = append(row, results[s.name][f.name])
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("\n✓ the turn ended with a complete answer (\"after N calls\": a retry, a repair or a fallback made it); " +
		"✗ clear error `code`: the turn ended with that error code, shown translated with a next step. " +
		"In every cell the person's message was kept, the UI got a turn-finished or turn-failed event, and no goroutine leaked. " +
		"Faults hit every call of the step, except in the columns marked once (only its first call); the slow first token runs with a " + firstToken.String() + " first-token timeout.\n")
	return b.String()
}

func names() []string {
	var out []string
	for _, f := range faultList {
		out = append(out, f.name)
	}
	return out
}
