package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// loadContext applies the summary window to the session's messages and
// injects the long-term memories relevant to the message. It makes no
// model call unless the unsummarised messages do not fit the history's
// share of the context (summarising fell behind, or the context is small):
// then the oldest are folded into the summary first, since a message the
// prompt leaves out must be in a summary.
func (a *Agent) loadContext(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	recent, offset := unfolded(s)
	s.History, s.HistoryStart = recent, s.HistoryStart+offset
	var upd graph.Update
	if n := overflow(recent, a.budget(ctx).history); n > 0 {
		c := a.newCall(rt)
		c.trace(api.TracePlanning, say(api.TraceSummarizing, "count", strconv.Itoa(n)))
		folded, err := a.fold(ctx, c, s, recent[:n])
		switch {
		case err == nil:
			recent, upd = recent[n:], folded
		case ctx.Err() != nil || errors.Is(err, errNotStored):
			return nil, err
		default:
			// The answer still comes, with every message: the model may
			// cut the oldest, and the person is told.
			a.log.Warn("summarise before answering", "messages", n, "err", err)
			c.trace(api.TracePlanning, say(api.TraceSummaryFailed, "count", strconv.Itoa(n)))
		}
		upd = c.update(upd)
	}
	upd = append(upd, a.f.history.Set(recent), a.f.historyStart.Set(s.HistoryStart+len(s.History)-len(recent)))
	if a.deps.Memory == nil || strings.TrimSpace(s.Input) == "" {
		return upd, nil
	}
	mems, err := a.deps.Memory.Search(ctx, s.Input, 8)
	if err != nil {
		// Memory is a help, not a requirement: the turn goes on without it.
		a.log.Warn("load memories", "err", err)
		return upd, nil
	}
	var kept []string
	budget := a.opt.MemoryTokens
	for _, m := range mems {
		cost := tokens(m.Text)
		if cost > budget {
			break
		}
		budget -= cost
		kept = append(kept, m.Text)
	}
	if len(kept) > 0 {
		rt.Emit(eventTrace, say(api.TraceMemories, "count", strconv.Itoa(len(kept))).event(api.TracePlanning, rt.Node()))
		upd = append(upd, a.f.memories.Set(kept))
	}
	return upd, nil
}

// routeDecision is the router's structured output.
type routeDecision struct {
	Route            string `json:"route" enum:"simple,complex" desc:"simple: answer directly; complex: a multi-step task to plan"`
	NeedsDocuments   bool   `json:"needs_documents"`
	RefersToPrevious bool   `json:"refers_to_previous"`
	OutOfScope       bool   `json:"out_of_scope"`
	Reason           string `json:"reason" desc:"one short sentence: why this route (and why out of scope, if so)"`
}

// Validate refuses a route the graph does not have.
func (d *routeDecision) Validate() error {
	if d.Route != RouteSimple && d.Route != RouteComplex {
		return fmt.Errorf("route must be \"simple\" or \"complex\", got %q", d.Route)
	}
	return nil
}

// router decides the path: rules first, one structured call when they
// cannot tell.
func (a *Agent) router(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	c := a.newCall(rt)
	if what, ok := rememberRequest(s.Input); ok && a.deps.Memory != nil {
		c.trace(api.TracePlanning, say(api.TraceRouted, "route", RouteEnd, "reason", "remember"))
		return a.remember(ctx, s, rt, what)
	}
	pre := classify(s.Input, len(s.History) > 0)
	if !pre.ok {
		c.trace(api.TracePlanning, say(api.TraceRouting))
		d, ok, broken, err := structuredOr[routeDecision](ctx, c, append(roleSystem(routerPrompt()), user(routerUser(s))))
		if err != nil {
			return nil, err
		}
		switch route, read := routeFromBroken(broken); {
		case !ok && read:
			// Both replies broken, the route still written in them (cut
			// short after "comp"): the model's route, with the documents
			// looked in first for an answer, as the lean answers.
			pre = preRoute{route: route, needsDocs: route == RouteSimple, reason: reasonBrokenReply}
		case !ok:
			// Both replies broken, no route in them: the rules' lean
			// decides (leanRoute).
			c.trace(api.TraceRetry, say(api.TraceJSONDefault))
			pre = leanRoute(s.Input)
		default:
			pre = modelRoute(d, s.Input, len(s.History) > 0)
			// Refusing a real task costs the person more than answering an odd
			// one, so a refusal needs the model to say why: a small model that
			// fills the schema at random (true, with no reason) is not obeyed.
			if d.OutOfScope && strings.TrimSpace(d.Reason) != "" {
				pre.route, pre.reason = RouteEnd, "out of scope: "+strings.TrimSpace(d.Reason)
			}
		}
	}
	if pre.route == RouteSimple && !pre.trivial && !pre.needsDocs && a.deps.Attached != nil && len(a.deps.Attached(ctx, s.Session)) > 0 {
		pre.needsDocs = true
	}
	c.trace(api.TracePlanning, say(api.TraceRouted, "route", pre.route, "reason", pre.reason))
	upd := graph.Update{a.f.route.Set(pre.route), a.f.trivial.Set(pre.trivial),
		a.f.needsDocs.Set(pre.needsDocs), a.f.refersBack.Set(pre.refersBack)}
	switch {
	case pre.route == RouteComplex:
		upd = append(upd, a.f.task.Set(s.Input))
	case pre.route == RouteEnd && strings.TrimSpace(s.Input) == "":
		upd = append(upd, a.f.response.Set(msgEmpty.in(s.Lang)))
	case pre.route == RouteEnd:
		upd = append(upd, a.f.response.Set(msgOutOfScope.in(s.Lang)))
	}
	return c.update(upd), nil
}

func routeRouter(s State) string {
	if s.Route == "" {
		return RouteSimple
	}
	return s.Route
}

// retrieve searches the documents up front when the router says they are
// needed, so the answer can use them without a tool round (seed 001's rag
// node: no model call). The built-in catalog is searched too only when the
// message asks for a tool (asksForTool).
func (a *Agent) retrieve(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	if !s.NeedsDocs || a.deps.Retriever == nil {
		return nil, nil
	}
	scopes := []tools.Scope{tools.ScopeDocuments}
	if asksForTool(s.Input) {
		scopes = append(scopes, tools.ScopeCatalog)
	}
	query := searchQuery(s)
	var srcs []api.Source
	for _, scope := range scopes {
		tool := map[tools.Scope]string{tools.ScopeDocuments: "retrieve_docs", tools.ScopeCatalog: "search_catalog"}[scope]
		rt.Emit(eventTrace, api.TraceEvent{Kind: api.TraceToolSelected, Node: rt.Node(), Tool: tool, Text: query})
		docs, err := a.deps.Retriever.Search(ctx, query, scope, a.opt.DocsTopK)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			a.log.Warn("retrieve documents", "scope", scope, "err", err)
			continue
		}
		rt.Emit(eventTool, tool)
		for _, d := range docs {
			srcs = append(srcs, api.Source{ID: d.ID, Title: d.Title, Source: d.Source, Page: d.Page, Unit: d.Unit, Heading: d.Heading, URL: d.URL,
				Snippet: cutRunes(strings.TrimSpace(d.Text), 800), Score: d.Score})
		}
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	rt.Emit(eventTrace, api.TraceEvent{Kind: api.TraceSources, Node: rt.Node(), Sources: srcs})
	return graph.Update{a.f.docs.Add(srcs...), a.f.sources.Add(srcs...)}, nil
}

// searchQuery is what the up-front search looks for: the message, and for
// a follow-up ("그럼 표에 나온 건?", "and in 2023?") the person's message
// before it too, whose words name what the follow-up is about.
func searchQuery(s State) string {
	if !s.RefersBack {
		return s.Input
	}
	for i := len(s.History) - 1; i >= 0; i-- {
		if s.History[i].Role == "user" {
			return s.History[i].Content + "\n" + s.Input
		}
	}
	return s.Input
}

// loopConfig is the per-instance config a workflow file may give the loop
// nodes: their own iteration limit (answer, recommend), the reviewer's
// rounds (evaluate), and which tools a tools node offers.
type loopConfig struct {
	MaxIterations int    `json:"max_iterations,omitempty"`
	Toolset       string `json:"toolset,omitempty"`
	MaxRounds     int    `json:"max_rounds,omitempty"`
}

// answer is the simple path's ReAct step: one model call with the tools,
// streaming the reply; a reply without tool calls is the answer.
func (a *Agent) answer(cfg loopConfig) graph.NodeFunc[State] {
	return func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		limit := a.maxIterations(cfg.MaxIterations)
		if s.Iterations >= limit {
			text := guardText(s, limit)
			rt.Token(text)
			return graph.Update{a.f.response.Set(text), a.f.notice.Set(fmt.Sprintf("iteration limit %d reached", limit))}, nil
		}
		c := a.newCall(rt)
		c.trace(api.TraceGenerating, line{})
		tools := a.toolset(ctx, rt, "answer", s).Schemas()
		msgs := withPersona(answerMessages(s, a.budget(ctx), tools), a.tuned(ctx).systemPrompt)
		// The reply streams through a citer, which renumbers its [n]
		// markers as they are written (cite.go).
		cit := newCiter(len(s.Sources), rt.Token)
		resp, err := c.chat(ctx, msgs, tools, cit.Write)
		if err != nil {
			return nil, err
		}
		if len(resp.Message.ToolCalls) == 0 && strings.TrimSpace(resp.Message.Content) == "" && len(tools) > 0 {
			// Small models sometimes meet a list of tools with nothing at all,
			// or with a call to a tool that does not exist, which Ollama drops.
			// Once more without tools gets a plain answer.
			c.trace(api.TraceRetry, say(api.TraceEmptyReply))
			cit = newCiter(len(s.Sources), rt.Token)
			if resp, err = c.chat(ctx, msgs, nil, cit.Write); err != nil {
				return nil, err
			}
		}
		cit.Close()
		m := fromOllama(resp.Message)
		a.markApprovals(s, &m)
		upd := graph.Update{a.f.scratch.Add(m), a.f.iterations.Set(s.Iterations + 1)}
		if len(m.ToolCalls) == 0 {
			upd = append(upd, a.f.response.Set(strings.TrimSpace(cit.Text())), a.f.cited.Set(pick(s.Sources, cit.Cited())))
		}
		return c.update(upd), nil
	}
}

// routeLoop sends a ReAct node to its tools while the model asks for them.
func routeLoop(next string) graph.Router[State] {
	return func(s State) string {
		if n := len(s.Scratch); n > 0 && s.Response == "" && len(s.Scratch[n-1].ToolCalls) > 0 {
			return "tools"
		}
		return next
	}
}

// guardText is what the person reads when a loop hits its limit: plain
// words and the observations gathered, instead of an error (seed 000's
// ErrorNode, kinder).
func guardText(s State, limit int) string {
	var found []string
	for _, m := range s.Scratch {
		if m.Role == "tool" && !strings.HasPrefix(m.Content, "Error:") && !strings.HasPrefix(m.Content, repeatNote) {
			found = append(found, fmt.Sprintf("- %s: %s", m.ToolName, cutRunes(strings.TrimSpace(m.Content), 300)))
		}
	}
	if len(found) == 0 {
		return fmt.Sprintf(msgGuardNothing.in(s.Lang), limit)
	}
	return fmt.Sprintf(msgGuard.in(s.Lang), limit) + "\n\n" + strings.Join(found, "\n")
}

func fromOllama(m ollama.Message) Msg {
	out := Msg{Role: "assistant", Content: m.Content}
	for _, tc := range m.ToolCalls {
		args := tc.Function.Arguments.ToMap()
		out.ToolCalls = append(out.ToolCalls, ToolCall{Name: tc.Function.Name, Args: args})
	}
	return out
}

// repeatNote starts the observation of a call already made in this turn.
const repeatNote = "This exact call was already made in this turn"

// runTools runs the tool calls of the scratch pad's last message: in
// parallel, each identical call (tool and arguments) only once per turn,
// every failure as an error observation the model reads. Calls that need
// the person's approval are asked about first (gate.go); a denied call is
// an observation too.
func (a *Agent) runTools(cfg loopConfig) graph.NodeFunc[State] {
	set := cfg.Toolset
	return func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		if len(s.Scratch) == 0 {
			return nil, nil
		}
		calls := s.Scratch[len(s.Scratch)-1].ToolCalls
		done := map[string]ToolRun{}
		for _, r := range s.ToolRuns {
			done[r.Key] = r
		}
		upd := graph.Update{}
		reg := a.toolset(ctx, rt, set, s)
		obs := make([]Msg, len(calls))
		var run []gateCall
		var at []int
		batch := map[string]int{}
		for i, tc := range calls {
			call := tools.Call{Name: tc.Name, Args: tc.Args}
			if q, ok := tc.Args["query"].(string); ok && a.queryLeaves(tc.Name) {
				// What the search server receives comes from the person and
				// the plan, never from a document (trust.go).
				if clean, dropped := scrubQuery(s, q); dropped > 0 {
					call.Args = maps.Clone(tc.Args)
					call.Args["query"] = clean
					ev := say(api.TraceQueryScrubbed, "count", strconv.Itoa(dropped), "query", clean).event(api.TraceToolSelected, rt.Node())
					ev.Tool = tc.Name
					rt.Emit(eventTrace, ev)
				}
			}
			key := call.Key()
			if prev, ok := done[key]; ok {
				ev := say(api.TraceRepeatedCall).event(api.TraceToolSelected, rt.Node())
				ev.Tool = tc.Name
				rt.Emit(eventTrace, ev)
				obs[i] = Msg{Role: "tool", ToolName: tc.Name, Content: repeatNote + "; its result was:\n" + prev.Observation, Data: a.fromOutside(tc.Name)}
				if len(prev.Sources) > 0 {
					upd = append(upd, a.f.subSources.Add(prev.Sources...))
				}
				continue
			}
			if j, ok := batch[key]; ok {
				obs[i] = Msg{Role: "tool", ToolName: tc.Name, Content: repeatNote + " (see the result of call " + fmt.Sprint(j+1) + ")."}
				continue
			}
			batch[key] = i
			run = append(run, gateCall{Call: call, ID: callID(rt, i), Flagged: tc.NeedsApproval})
			at = append(at, i)
		}
		verdicts, err := a.gate(ctx, s, rt, reg, run)
		if err != nil {
			return nil, err
		}
		// Nothing runs until every call of the batch is settled, so a call
		// runs once, after its approval, however often the node ran.
		if err := stored(ctx); err != nil {
			return nil, err
		}
		var allowed []tools.Call
		var allowedAt []int
		for k, c := range run {
			t, _ := reg.Lookup(c.Name)
			if !verdicts[k].run {
				i := at[k]
				obs[i] = Msg{Role: "tool", ToolName: c.Name, Content: denied(c.Name)}
				upd = append(upd, a.f.toolRuns.Add(ToolRun{Key: c.Key(), Observation: obs[i].Content}))
				rt.Emit(eventToolCall, record(c.ID, t, c.Call, verdicts[k], "", false))
				continue
			}
			args := "{}" // a call without arguments, not "null"
			if len(c.Args) > 0 {
				args = compactJSON(c.Args)
			}
			rt.Emit(eventTrace, api.TraceEvent{Kind: api.TraceToolSelected, Node: rt.Node(), Tool: c.Name, Text: args})
			allowed = append(allowed, c.Call)
			allowedAt = append(allowedAt, k)
		}
		nums := newNumbering(s.Sources)
		for n, o := range reg.RunAll(ctx, allowed) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			k := allowedAt[n]
			i := at[k]
			text := o.Result.Text
			if len(o.Result.Sources) > 0 {
				text = nums.passages(o.Result.Sources)
			}
			obs[i] = Msg{Role: "tool", ToolName: o.Call.Name, Content: text, Data: o.Err == nil && a.fromOutside(o.Call.Name)}
			upd = append(upd, a.f.toolRuns.Add(ToolRun{Key: o.Call.Key(), Observation: text, Sources: o.Result.Sources}))
			if !errors.Is(o.Err, tools.ErrUnknownTool) && !errors.Is(o.Err, tools.ErrDisabled) {
				rt.Emit(eventTool, o.Call.Name)
			}
			t, _ := reg.Lookup(o.Call.Name)
			said := resultEvent(o, rt.Node())
			rec := record(run[k].ID, t, o.Call, verdicts[k], o.Result.Text, o.Err != nil, o.Result.Attachments...)
			rec.Code, rec.Args = said.Code, maps.Clone(said.Args) // the Details word it as the trace does
			rt.Emit(eventToolCall, rec)
			rt.Emit(eventTrace, said)
			if len(o.Result.Sources) > 0 {
				upd = append(upd, a.f.sources.Add(o.Result.Sources...), a.f.subSources.Add(o.Result.Sources...))
			}
		}
		return append(upd, a.f.scratch.Add(obs...)), nil
	}
}

// queryLeaves reports whether a tool's "query" argument leaves the
// machine: web_search's always, search_wikipedia's when the person allowed
// it online (offline, the ZIM file is searched for the model's words as
// they are, since nothing leaves).
func (a *Agent) queryLeaves(tool string) bool {
	switch tool {
	case tools.WebSearchName:
		return true
	case tools.WikipediaName:
		return a.deps.Settings != nil && a.deps.Settings().WikipediaOnline
	}
	return false
}

// toolset returns the registry a loop may use: the answer path gets
// calculator, get_time, retrieve_docs and read_memory, and search_catalog
// when the message asks for a tool; recommendations get search_catalog,
// retrieve_docs, web_search (when enabled), calculator and get_time. Both
// get the tools of the person's MCP servers (Deps.MCP).
// A server that starts meanwhile is said in rt's trace (nil: nowhere).
func (a *Agent) toolset(ctx context.Context, rt *graph.Runtime, name string, s State) *tools.Registry {
	if a.deps.Tools == nil {
		return a.noTools
	}
	reg := a.deps.Tools
	if a.deps.MCP != nil {
		if r, err := reg.With(a.deps.MCP.Tools(ctx, serverProgress(rt))...); err != nil {
			a.log.Warn("offer the MCP servers' tools", "err", err)
		} else {
			reg = r
		}
		if src, ok := a.deps.MCP.(unreadableSource); ok && rt != nil {
			if p, kept, ok := src.Unreadable(); ok {
				rt.Emit(eventTrace, say(api.TraceMCPUnreadable, unreadableFile(p, kept)...).event(api.TraceToolSelected, rt.Node()))
			}
		}
		if src, ok := a.deps.MCP.(invalidSource); ok && rt != nil {
			for _, srv := range src.Invalid() {
				rt.Emit(eventTrace, say(api.TraceMCPInvalid, invalidEntry(srv)...).event(api.TraceToolSelected, rt.Node()))
			}
		}
		if src, ok := a.deps.MCP.(failedSource); ok && rt != nil {
			for _, srv := range src.Failed() {
				rt.Emit(eventTrace, say(api.TraceMCPFailed, failedServer(srv)...).event(api.TraceToolSelected, rt.Node()))
			}
		}
	}
	allowed := map[string]bool{"calculator": true, "get_time": true, "retrieve_docs": true,
		"run_python":        a.deps.Settings != nil && a.deps.Settings().RunPythonEnabled,
		"get_weather":       a.deps.Settings != nil && a.deps.Settings().WeatherEnabled,
		tools.WikipediaName: a.deps.Settings != nil && a.deps.Settings().WikipediaEnabled}
	switch name {
	case "recommend":
		allowed["web_search"] = a.webSearch()
		allowed["search_catalog"] = true
	default:
		allowed["search_catalog"] = asksForTool(s.Input)
		allowed["read_memory"] = true
		// read_file only once the person has added a folder: a tool that can
		// only fail is one more way to confuse a small model.
		allowed["read_file"] = a.deps.Settings != nil && len(a.deps.Settings().Folders) > 0
	}
	// web_search, get_weather, search_wikipedia and run_python are
	// registered off; switch them on when allowed.
	for _, n := range []string{"web_search", "get_weather", tools.WikipediaName, "run_python"} {
		if allowed[n] {
			if r, err := reg.WithEnabled(n, true); err == nil {
				reg = r
			}
		}
	}
	for _, n := range reg.Names() {
		// A server's tools (MCP) are offered wherever tools are: the gate
		// asks before they run, and the registry's own switch turns one off.
		if t, ok := reg.Lookup(n); !allowed[n] && !(ok && t.Server != "") {
			if r, err := reg.WithEnabled(n, false); err == nil {
				reg = r
			}
		}
	}
	return reg
}

// serverProgress tells the trace (and so the progress line in the window
// and on ask's standard error) that an MCP server starts, and how that
// ended: the first turn that needs tools may wait up to 30 seconds for it.
func serverProgress(rt *graph.Runtime) func(string) func(error) {
	if rt == nil {
		return nil
	}
	node := rt.Node()
	return func(server string) func(error) {
		rt.Emit(eventTrace, say(api.TraceMCPStarting, "server", server).event(api.TraceToolSelected, node))
		return func(err error) {
			if err != nil {
				rt.Emit(eventTrace, say(api.TraceMCPFailed, mcpFailure(server, err)...).event(api.TraceToolSelected, node))
				return
			}
			rt.Emit(eventTrace, say(api.TraceMCPStarted, "server", server).event(api.TraceToolSelected, node))
		}
	}
}

// unreadableFile is mcp_unreadable's blanks: which mistake keeps the file
// from being read (case, and its line and column for mcp_syntax), the
// servers still in use from before the edit, and the mistake in English
// as its error (the trace's cause line, the log's).
func unreadableFile(p api.MCPProblem, kept []string) []string {
	return []string{"case", p.Code, "line", p.Args["line"], "column", p.Args["column"],
		"servers", strings.Join(kept, ", "), "error", p.Message}
}

// invalidEntry is mcp_invalid's blanks: the server and, as its error (the
// trace's cause line, the log's), its entry's mistakes in English.
func invalidEntry(srv api.MCPServer) []string {
	texts := make([]string, 0, len(srv.Problems))
	for _, p := range srv.Problems {
		texts = append(texts, p.Message)
	}
	return []string{"server", srv.Name, "error", strings.Join(texts, "; ")}
}

// reasoned is an MCP server's start error that says why in parts (the
// mcp package's do): a code and its particulars.
type reasoned interface {
	Reason() (code string, args map[string]string)
}

// mcpFailure is the trace's blanks for a server that did not start: its
// name, the error's own text ("error", English, for the log and the
// trace's detail) and, when the error says why in parts, "reason" and its
// particulars ("command", "url", "seconds"), which the window and ask's
// standard error word in the person's language instead of the English.
func mcpFailure(server string, err error) []string {
	var r reasoned
	if errors.As(err, &r) {
		code, args := r.Reason()
		return failureBlanks(server, err.Error(), code, args)
	}
	return failureBlanks(server, err.Error(), "", nil)
}

// failedServer is mcp_failed's blanks for a server that failed before and
// waits for its next try, from its status.
func failedServer(srv api.MCPServer) []string {
	return failureBlanks(srv.Name, srv.Error, srv.Reason, srv.ReasonArgs)
}

func failureBlanks(server, text, reason string, args map[string]string) []string {
	kv := []string{"server", server, "error", text}
	if reason == "" {
		return kv
	}
	kv = append(kv, "reason", reason)
	for k, v := range args {
		if k != "server" && k != "error" && k != "reason" {
			kv = append(kv, k, v)
		}
	}
	return kv
}

// finish writes the turn's last words when no other node did.
func (a *Agent) finish(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	switch {
	case s.Decision == "cancel":
		text := msgCancelled.in(s.Lang)
		rt.Token(text)
		return graph.Update{a.f.response.Set(text)}, nil
	case s.Route == RouteEnd && s.Response != "":
		rt.Token(s.Response)
	case s.Response == "":
		text := msgNoAnswer.in(s.Lang)
		rt.Token(text)
		return graph.Update{a.f.response.Set(text)}, nil
	}
	return nil, nil
}

var msgNoAnswer = phrases{
	ko: "죄송해요, 이번에는 답을 만들지 못했어요. 다시 한 번 물어봐 주세요.",
	en: "Sorry, I could not produce an answer this time. Please ask again.",
}
