// Package agent is Wayfinder's agent: the state graph that answers a turn
// (DESIGN.md "The agent graph"; seeds 000-004). It implements
// chat.Responder, so the chat service, `wayfinder ask` and the UI all run
// through it.
//
// The graph is the embedded workflow definition workflow.json, compiled by
// backend/workflow through this package's node types: load_context, router,
// retrieve, answer and tools (the simple ReAct path), planner, approve_plan
// (an interrupt waiting for the person), recommend, tools and evaluate (a
// ReAct loop per sub-task with a sufficiency check), guide and finish. The
// session id is the graph's thread id, and checkpoints live in the app's
// SQLite database, so a plan waiting for approval survives quitting the app.
//
// Work that must not delay the answer runs after the turn: folding old
// messages into the summary window (seed 001) and reflection into long-term
// memory (seed 004). Respond leaves it to a goroutine that begins once the
// chat service has saved the answer (chat.Turn.Saved); the next turn of the
// same session waits for it, and Close waits for all of it.
package agent

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/graph/sqlitesaver"
	toolcatalog "github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// Memory is long-term memory: searched before a turn, written by
// reflection after it. Deduplicating near-duplicates is its job.
type Memory interface {
	tools.MemoryReader
	// Remember stores a memory of conversation sessionID: what the person
	// asked to be remembered (memory.OriginSaid) or what reflection drew
	// from their words (memory.OriginReflection).
	Remember(ctx context.Context, text, kind string, origin memory.Origin, sessionID string) error
}

// Deps are what the agent runs on.
type Deps struct {
	// Model returns the client and model name in effect; both can change
	// while the app runs (Settings), so it is asked on every call.
	Model func() (Model, string)
	// Tools is the registry of the standard tools (tools.Standard). The
	// agent picks per loop which of them the model may call.
	Tools *tools.Registry
	// Retriever searches the knowledge base up front for document
	// questions, without a model call. Nil: no up-front search.
	Retriever tools.Retriever
	// Attached names the files the person attached to a conversation;
	// nil: none. A message in a conversation with files is searched for in
	// them whatever the router decided (router): the person attached them
	// to ask about them, and a small model's "needs no documents" on "요약해
	// 줘" or "and the table?" would answer from nothing.
	Attached func(ctx context.Context, conversation string) []string
	// Memory is long-term memory; nil: none.
	Memory Memory
	// DB holds the checkpoints (the app's database, store.(*Store).DB()).
	// Nil keeps them in memory: fine for tests, but a pending plan is lost
	// when the process ends.
	DB *gorm.DB
	// Settings returns the person's settings in effect; when set, its
	// WebSearchEnabled and MaxIterations (when > 0) override Options on
	// every turn, so changing them needs no restart. Nil: Options only.
	Settings func() api.Settings
	// Grants keeps "always for this tool" (the store); nil: nothing is
	// allowed for good, "always" runs the call once.
	Grants Grants
	// ReadOnlyAllowed says whether the person lets a server's read-only
	// tools (Tool.ReadOnly) run without asking; nil: never.
	ReadOnlyAllowed func(server string) bool
	// MCP gives the tools of the person's MCP servers, offered to the
	// answer and recommend loops beside the standard ones; nil: none.
	MCP    ToolSource
	Logger *slog.Logger
}

// ToolSource gives tools that come and go while the app runs (MCP
// servers' tools). Tools may start a server, which can take many seconds
// (npx may download it first), so it takes the turn's context, and
// starting, when not nil, is told of each server it starts: the returned
// func is called once the start ended (err nil: started), so the person
// sees what the turn waits for.
type ToolSource interface {
	Tools(ctx context.Context, starting func(server string) (done func(err error))) []*tools.Tool
}

// invalidSource is a ToolSource that also names the servers it never
// starts because their entries have mistakes (the MCP manager: entries
// of mcp.json, each with its mistakes), so that a turn says so instead
// of going on without them silently.
type invalidSource interface {
	Invalid() []api.MCPServer
}

// failedSource is a ToolSource that also names the servers that failed
// to start and have no tools to offer until their next try (the MCP
// manager waits longer after each failure), so that a turn in that pause
// says it goes on without them, as the turn that saw them fail did.
type failedSource interface {
	Failed() []api.MCPServer
}

// unreadableSource is a ToolSource that also says when its whole
// configuration could not be read (the MCP manager: mcp.json not JSON),
// why, and which servers of the configuration read before stay in use,
// so that a turn says so instead of going on without a word.
type unreadableSource interface {
	Unreadable() (p api.MCPProblem, kept []string, ok bool)
}

// Options tune the agent; zero values take the defaults.
type Options struct {
	// MaxIterations bounds the model rounds of each ReAct loop (default 5).
	MaxIterations int
	// MaxEvalRounds bounds the sufficiency checks per sub-task (default 4).
	MaxEvalRounds int
	// WebSearch offers web_search to the recommendation loop (default off:
	// Wayfinder is offline-first).
	WebSearch bool
	// StepLimit bounds the graph steps of one run (default 200).
	StepLimit int
	// MemoryTokens is the budget for memories in the prompt (default 300).
	MemoryTokens int
	// DocsTopK is how many passages a document question gets (default 4).
	DocsTopK int
	// Parallel is how many sub-tasks are recommended at once when
	// Settings do not say (default 1).
	Parallel int
	// Workflow replaces the embedded definition (a person's own file).
	Workflow []byte
	// ModelOptions are sent with chat calls (temperature, ...);
	// StructuredOptions with structured calls (default temperature 0).
	ModelOptions      map[string]any
	StructuredOptions map[string]any
	// AfterTurnTimeout bounds summarising and reflection (default 3 min).
	AfterTurnTimeout time.Duration
	// FallbackModel answers when the chat model is missing, out of memory
	// or keeps failing; Deps.Settings' wins when set.
	FallbackModel string
}

func (o *Options) defaults() {
	if o.MaxIterations <= 0 {
		o.MaxIterations = 5
	}
	if o.MaxEvalRounds <= 0 {
		o.MaxEvalRounds = 4
	}
	if o.StepLimit <= 0 {
		o.StepLimit = 200
	}
	if o.MemoryTokens <= 0 {
		o.MemoryTokens = 300
	}
	if o.DocsTopK <= 0 {
		o.DocsTopK = 4
	}
	if o.StructuredOptions == nil {
		o.StructuredOptions = map[string]any{"temperature": 0}
	}
	if o.AfterTurnTimeout <= 0 {
		o.AfterTurnTimeout = 3 * time.Minute
	}
}

// Errors callers test for.
var (
	// ErrNoPendingPlan is a decision for a session with no plan or tool
	// call waiting.
	ErrNoPendingPlan = errors.New("agent: nothing is waiting for a decision in this session")
)

// Agent answers turns. It is safe for concurrent use by different sessions.
type Agent struct {
	deps    Deps
	opt     Options
	f       fields
	g       *graph.Graph[State]
	saves   *laterSaver
	noTools *tools.Registry
	log     *slog.Logger
	secret  [16]byte // keys the data blocks' nonces (trust.go)
	// catalog is the built-in AI-tool catalog: a card naming one of its
	// tools links to the catalog's URL, not the model's (catalogLink).
	catalog toolcatalog.Catalog
	// approvers are the workflow's nodes of type approve_plan, by id.
	approvers map[string]bool
	// said is what each conversation's turn said of the MCP servers.
	said turnsSaid

	bgCtx    context.Context
	bgCancel context.CancelFunc
	mu       sync.Mutex
	bg       map[string]chan struct{} // session -> its after-turn work, closed when done
	wg       sync.WaitGroup
}

var _ chat.Responder = (*Agent)(nil)

// New builds the agent and compiles its workflow.
func New(deps Deps, opt Options) (*Agent, error) {
	if deps.Model == nil {
		return nil, errors.New("new agent: Deps.Model is required")
	}
	opt.defaults()
	a := &Agent{deps: deps, opt: opt, f: newFields(), log: deps.Logger, bg: map[string]chan struct{}{}}
	_, _ = rand.Read(a.secret[:]) // never fails (crypto/rand's contract since Go 1.24)
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	var err error
	if a.catalog, err = toolcatalog.Load(); err != nil {
		return nil, fmt.Errorf("new agent: %w", err)
	}
	if a.noTools, err = tools.NewRegistry(a.log); err != nil {
		return nil, fmt.Errorf("new agent: %w", err)
	}
	var cp graph.Checkpointer = graph.NewMemorySaver()
	if deps.DB != nil {
		if cp, err = sqlitesaver.New(deps.DB, sqlitesaver.OnlyWriter()); err != nil {
			return nil, fmt.Errorf("new agent: %w", err)
		}
	}
	a.saves = newLaterSaver(cp)
	def := opt.Workflow
	if def == nil {
		def = defaultWorkflow
	}
	if a.g, err = a.compile(def, a.saves); err != nil {
		return nil, fmt.Errorf("new agent: %w", err)
	}
	a.bgCtx, a.bgCancel = context.WithCancel(context.Background())
	return a, nil
}

// Shutdown lets after-turn work (summaries, memories) finish until ctx
// ends, then cancels what is left and waits for it to stop.
func (a *Agent) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		a.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		a.bgCancel()
		return nil
	case <-ctx.Done():
		a.bgCancel()
		<-done
		return fmt.Errorf("agent shutdown: after-turn work cut short: %w", ctx.Err())
	}
}

// Close is Shutdown with ten seconds of grace.
func (a *Agent) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return a.Shutdown(ctx)
}

// ForgetThreads deletes the checkpoints of every conversation keep does
// not claim, and says how many. Checkpoints hold a conversation's words
// (questions, plans, its summary), so a conversation deleted for good must
// take them along; the app calls this at start, after purging, which also
// catches up after a process killed in between.
func (a *Agent) ForgetThreads(ctx context.Context, keep func(thread string) bool) (int, error) {
	saver, ok := a.saves.Checkpointer.(interface {
		Threads(context.Context) ([]string, error)
		graph.ThreadDeleter
	})
	if !ok {
		return 0, nil // in memory: gone with the process
	}
	threads, err := saver.Threads(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, th := range threads {
		// A sub-task's loop keeps its checkpoints under its conversation's
		// thread (stepThread) and goes with it.
		if conv, _, _ := strings.Cut(th, stepThreadSep); keep(conv) {
			continue
		}
		if err := saver.DeleteThread(ctx, th); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Wait blocks until all after-turn work has finished (tests, `wayfinder
// ask` before it exits).
func (a *Agent) Wait() { a.wg.Wait() }

func (a *Agent) webSearch() bool {
	if a.deps.Settings != nil {
		return a.deps.Settings().WebSearchEnabled
	}
	return a.opt.WebSearch
}

// maxIterations is a loop's limit: the node's own config, else the
// settings, else Options.
func (a *Agent) maxIterations(node int) int {
	if node > 0 {
		return node
	}
	if a.deps.Settings != nil {
		if n := a.deps.Settings().MaxIterations; n > 0 {
			return n
		}
	}
	return a.opt.MaxIterations
}

// Respond implements chat.Responder. A new message starts a run on the
// session's thread; a decision resumes the run waiting at approve_plan.
func (a *Agent) Respond(ctx context.Context, t chat.Turn, out chat.Output) (api.TurnResult, error) {
	if t.SessionID == "" {
		return api.TurnResult{}, errors.New("agent: turn without a session id")
	}
	start := time.Now()
	stored := t.Stored
	if stored == nil {
		stored = func() bool { return true }
	}
	a.waitSession(ctx, t.SessionID)
	ctx = withTurnSettings(withTurnModel(tools.WithConversation(ctx, t.SessionID), t.Model), t.Settings)
	choice := &modelChoice{}
	ctx = withChoice(ctx, choice)
	sink := &turnSink{out: out, tools: map[string]bool{}, said: a.said.forTurn(t.SessionID, t.Decision == nil)}
	// A turn's checkpoint is saved where it ends: a turn cut short by a
	// crash is marked interrupted and starts again from the person's
	// message, so the steps in between would be written for nothing; a plan
	// waiting for approval, and how far a failed turn got, are saved before
	// Respond returns.
	cfg := graph.Config{ThreadID: t.SessionID, StepLimit: a.opt.StepLimit, Events: sink, Durability: graph.DurabilityExit}
	var (
		res graph.Result[State]
		err error
	)
	if t.Decision == nil {
		// The run starts while the person's message is being saved; the
		// model's replies wait for the save (stored), and a refused turn's
		// checkpoints are dropped.
		history, first := historyInput(t.History)
		earlier := a.saves.hold(t.SessionID)
		res, err = a.g.Invoke(context.WithValue(ctx, storedKey{}, stored), cfg, a.f.resetTurn(t.Text, t.SessionID, a.nonce(t.SessionID), history, first))
		if !stored() {
			a.saves.drop(t.SessionID, earlier)
			return sink.result(), errNotStored
		}
		if err != nil || res.Interrupted() {
			if serr := a.saves.release(context.WithoutCancel(ctx), t.SessionID); serr != nil && err == nil {
				err = fmt.Errorf("save the plan: %w", serr)
			}
		}
	} else {
		if !stored() {
			return sink.result(), errNotStored
		}
		if res, err = a.decide(ctx, cfg, *t.Decision); err != nil && !errors.Is(err, ErrNoPendingPlan) && !isRefusal(err) {
			// The decision was taken but the work after it did not finish:
			// offer the approval again, edits and all, so that one click
			// goes on instead of the decision being lost.
			again := api.AgainFailed
			switch {
			case errors.Is(context.Cause(ctx), chat.ErrStopped):
				again = api.AgainStopped
			case ctx.Err() != nil:
				again = api.AgainInterrupted
			}
			octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			again2, oerr := a.reoffer(octx, t.SessionID, *t.Decision, again, sink.kept)
			cancel()
			if oerr != nil {
				a.log.Warn("offer the approval again", "session", t.SessionID, "err", oerr)
			}
			result := sink.result()
			result.SessionID = t.SessionID
			if again2.Interrupted() {
				a.describeWait(&result, again2)
				sayWhatWasDone(&result, again2.State.Lang, again, again2.State.Kept)
				out.Text(result.Response)
			}
			return result, fmt.Errorf("agent turn: %w", err)
		}
	}
	result := sink.result()
	result.SessionID = t.SessionID
	result.ExecutionMS = time.Since(start).Milliseconds()
	result.Model, result.FallbackFrom = choice.result()
	if result.Model == "" { // no call answered (a cancelled plan): the conversation's model
		_, result.Model = a.model(ctx)
	}
	if err != nil {
		return result, fmt.Errorf("agent turn: %w", err)
	}
	st := res.State
	// The state counts every call since the person's message, also those
	// before a plan's approval, which the run resumed here did not make.
	result.LLMCalls, result.PromptTokens, result.CompletionTokens = st.Usage.Calls, st.Usage.Prompt, st.Usage.Completion
	result.Sources = slices.Clone(st.Cited)
	result.Retrieved = without(st.Sources, st.Cited)
	if res.Interrupted() {
		if err := a.describeWait(&result, res); err != nil {
			return result, fmt.Errorf("agent turn: %w", err)
		}
		out.Text(result.Response)
		return result, nil
	}
	result.Response = st.Response
	result.TextKey, result.TextArgs = lineKey(st.Response, st.Lang)
	if len(st.Recommendations) > 0 {
		result.Recommendations = slices.Clone(st.Recommendations)
		result.Steps = slices.Clone(st.Plan)
	}
	a.afterTurn(withChoice(withTurnSettings(withTurnModel(tools.WithConversation(a.bgCtx, t.SessionID), t.Model), t.Settings), choice), t.SessionID, st, t.Saved, t.Settled)
	return result, nil
}

// turnSink turns the graph's events into the chat output and the turn's
// accounting. The engine never calls it from two goroutines at once.
type turnSink struct {
	out   chat.Output
	res   api.TurnResult
	tools map[string]bool
	// said is what this turn said of the MCP servers, since the person's
	// message (turnsSaid): a decision's Respond goes on with it.
	said *mcpSaid
	// kept are the sub-tasks that found their tool in this turn, for a
	// plan whose work is cut: it is offered again with them (keep.go).
	kept []keptStep
}

func (k *turnSink) Event(e graph.Event) {
	switch e.Kind {
	case graph.EventNodeStart:
		k.out.Trace(api.TraceEvent{Kind: api.TraceNodeStarted, Node: e.Node})
	case graph.EventNodeEnd:
		k.out.Trace(api.TraceEvent{Kind: api.TraceNodeFinished, Node: e.Node})
	case graph.EventToken:
		k.out.Text(e.Text)
	case graph.EventCustom:
		switch p := e.Payload.(type) {
		case api.TraceEvent:
			if !k.said.say(p) {
				return
			}
			k.out.Trace(p)
		case keptStep:
			// A step read back after the person's answer to a tool call is
			// reported again: the newest report of its words counts.
			k.kept = append(slices.DeleteFunc(k.kept, func(o keptStep) bool {
				return o.Card.SubTaskID == p.Card.SubTaskID && o.sameStep(api.SubTask{Title: p.Title, Detail: p.Detail})
			}), p)
		case usage:
			k.res.LLMCalls += p.Calls
			k.res.PromptTokens += p.Prompt
			k.res.CompletionTokens += p.Completion
		case string:
			if e.Name == eventTool {
				k.tools[p] = true
			}
		case api.ToolCallRecord:
			k.res.ToolCalls = append(k.res.ToolCalls, p)
		}
	}
}

func (k *turnSink) result() api.TurnResult {
	r := k.res
	r.ToolsUsed = make([]string, 0, len(k.tools))
	for name := range k.tools {
		r.ToolsUsed = append(r.ToolsUsed, name)
	}
	sort.Strings(r.ToolsUsed)
	r.Sources = []api.Source{}
	return r
}
