package agent

import (
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// Msg is one message of the conversation or of a ReAct loop's scratch pad.
// It is Wayfinder's own type rather than Ollama's because it must survive a
// checkpoint round trip as plain JSON (Ollama's tool arguments are an
// ordered map without a stable JSON form across versions).
type Msg struct {
	ID        string     `json:"id,omitempty"`
	Role      string     `json:"role"`
	Content   string     `json:"content"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	ToolName  string     `json:"tool_name,omitempty"`
	// Data marks a tool result that holds text from outside (documents,
	// files, web pages): the model reads it inside a data block.
	Data bool `json:"data,omitempty"`
}

// ToolCall is one tool call a model asked for.
type ToolCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
	// NeedsApproval is set when the call must wait for the person before it
	// runs: it reads files or goes to the network while text from outside
	// (documents, tool results, web pages) is in the model's context, so
	// that text may have chosen its arguments (issue 22.2; markApprovals).
	// The tools node's approval gate asks the person for these calls.
	NeedsApproval bool `json:"needs_approval,omitempty"`
}

// ToolRun is a tool call made in this turn and what it returned, so an
// identical call is answered from here instead of run again (seed 002's
// tool_history).
type ToolRun struct {
	Key         string       `json:"key"`
	Observation string       `json:"observation"`
	Sources     []api.Source `json:"sources,omitempty"` // its passages, which count for each sub-task that asks again
}

// Route names the router's decision.
const (
	RouteSimple  = "simple"
	RouteComplex = "complex"
	RouteEnd     = "end"
)

// State is the agent graph's state for one session (the graph's thread).
// Summary and the fold markers live across turns; everything else is reset
// when a new message arrives (see turnInput) and lives through one turn,
// including the pause for a plan approval.
type State struct {
	// Across turns: the seed-001 summary window.
	Summary       string `json:"summary,omitempty"`
	Folded        int    `json:"folded,omitempty"`         // messages of the session folded into Summary
	FoldedThrough string `json:"folded_through,omitempty"` // id of the last folded message

	// The turn's input.
	Input        string `json:"input"`
	Nonce        string `json:"nonce,omitempty"`         // names the data blocks (trust.go)
	Session      string `json:"session,omitempty"`       // the conversation, for what a turn remembers
	History      []Msg  `json:"history,omitempty"`       // earlier messages not yet folded (after load_context)
	HistoryStart int    `json:"history_start,omitempty"` // index in the session of History[0]
	Lang         string `json:"lang"`                    // "ko" or "en", from the input

	// load_context and router.
	Memories   []string     `json:"memories,omitempty"`
	Route      string       `json:"route,omitempty"`
	Trivial    bool         `json:"trivial,omitempty"` // greeting, thanks, arithmetic: no reflection
	NeedsDocs  bool         `json:"needs_docs,omitempty"`
	RefersBack bool         `json:"refers_back,omitempty"`
	Docs       []api.Source `json:"docs,omitempty"` // passages retrieved up front

	// ReAct loops (answer, recommend): the scratch pad and its round count.
	Scratch    []Msg        `json:"scratch,omitempty"`
	Iterations int          `json:"iterations,omitempty"`
	ToolRuns   []ToolRun    `json:"tool_runs,omitempty"`
	Sources    []api.Source `json:"sources,omitempty"` // every passage the model was given, numbered from 1
	Cited      []api.Source `json:"cited,omitempty"`   // the reply's sources: the passages it cites, renumbered (cite.go)

	// Planning and approval.
	Task     string        `json:"task,omitempty"`
	Plan     []api.SubTask `json:"plan,omitempty"`
	Round    int           `json:"round,omitempty"`
	Feedback []string      `json:"feedback,omitempty"`
	Decision string        `json:"decision,omitempty"`
	PlanNote string        `json:"plan_note,omitempty"` // shown with the plan, e.g. when planning fell back
	// Again says why an approval is asked for again (api.AgainReason):
	// the work after the person's decision did not finish.
	Again string `json:"again,omitempty"`

	// Recommendations: the sub-task being looked at (StepOnly: the one a
	// sub-task's own loop stops after, recommendSteps).
	Current         int                  `json:"current,omitempty"`
	StepOnly        int                  `json:"step_only,omitempty"`
	Missing         string               `json:"missing,omitempty"`
	EvalRounds      int                  `json:"eval_rounds,omitempty"`
	SubSources      []api.Source         `json:"sub_sources,omitempty"`
	Recommendations []api.Recommendation `json:"recommendations,omitempty"`
	// Kept are the sub-tasks of an approved plan that got their tool
	// before its work was cut (a stop, a failure), offered again with the
	// plan: approving it again reuses them for the steps left unchanged
	// (keep.go). In the checkpoint, so they outlive a restart.
	Kept []keptStep `json:"kept,omitempty"`

	// The outcome.
	Response string            `json:"response,omitempty"`
	Notice   string            `json:"notice,omitempty"` // why a loop stopped early
	Retries  []llm.RetryRecord `json:"retries,omitempty"`
	// Usage counts the model calls since the person's message, across a
	// pause for the plan's approval, so the turn that ends reports them all.
	Usage usage `json:"usage,omitzero"`
}

// fields declares how each part of State is written; the nodes use them to
// build their updates.
type fields struct {
	summary, foldedThrough, input, lang, route, task, decision, planNote graph.ValueField[State, string]
	missing, response, notice, nonce, session, again                     graph.ValueField[State, string]
	folded, historyStart, iterations, round, current, evalRounds         graph.ValueField[State, int]
	stepOnly                                                             graph.ValueField[State, int]
	trivial, needsDocs, refersBack                                       graph.ValueField[State, bool]
	history                                                              graph.ValueField[State, []Msg]
	memories                                                             graph.ValueField[State, []string]
	cited                                                                graph.ValueField[State, []api.Source]
	plan                                                                 graph.ValueField[State, []api.SubTask]
	kept                                                                 graph.ValueField[State, []keptStep]
	scratch                                                              graph.MessagesField[State, Msg]
	toolRuns                                                             graph.ListField[State, ToolRun]
	docs, sources, subSources                                            graph.ListField[State, api.Source]
	feedback                                                             graph.ListField[State, string]
	recommendations                                                      graph.ListField[State, api.Recommendation]
	retries                                                              graph.ListField[State, llm.RetryRecord]
	usage                                                                graph.ReduceField[State, usage]
}

func sourceKey(s api.Source) string {
	if s.ID != "" {
		return s.ID
	}
	return s.Source + "\x00" + s.Title + "\x00" + s.URL + "\x00" + s.Heading
}

func newFields() fields {
	str := func(name string, at func(*State) *string) graph.ValueField[State, string] {
		return graph.LastValue(name, at)
	}
	num := func(name string, at func(*State) *int) graph.ValueField[State, int] {
		return graph.LastValue(name, at)
	}
	flag := func(name string, at func(*State) *bool) graph.ValueField[State, bool] {
		return graph.LastValue(name, at)
	}
	return fields{
		summary:       str("summary", func(s *State) *string { return &s.Summary }),
		foldedThrough: str("folded_through", func(s *State) *string { return &s.FoldedThrough }),
		input:         str("input", func(s *State) *string { return &s.Input }),
		nonce:         str("nonce", func(s *State) *string { return &s.Nonce }),
		session:       str("session", func(s *State) *string { return &s.Session }),
		lang:          str("lang", func(s *State) *string { return &s.Lang }),
		route:         str("route", func(s *State) *string { return &s.Route }),
		task:          str("task", func(s *State) *string { return &s.Task }),
		decision:      str("decision", func(s *State) *string { return &s.Decision }),
		planNote:      str("plan_note", func(s *State) *string { return &s.PlanNote }),
		again:         str("again", func(s *State) *string { return &s.Again }),
		missing:       str("missing", func(s *State) *string { return &s.Missing }),
		response:      str("response", func(s *State) *string { return &s.Response }),
		notice:        str("notice", func(s *State) *string { return &s.Notice }),
		folded:        num("folded", func(s *State) *int { return &s.Folded }),
		historyStart:  num("history_start", func(s *State) *int { return &s.HistoryStart }),
		iterations:    num("iterations", func(s *State) *int { return &s.Iterations }),
		round:         num("round", func(s *State) *int { return &s.Round }),
		current:       num("current", func(s *State) *int { return &s.Current }),
		stepOnly:      num("step_only", func(s *State) *int { return &s.StepOnly }),
		evalRounds:    num("eval_rounds", func(s *State) *int { return &s.EvalRounds }),
		trivial:       flag("trivial", func(s *State) *bool { return &s.Trivial }),
		needsDocs:     flag("needs_docs", func(s *State) *bool { return &s.NeedsDocs }),
		refersBack:    flag("refers_back", func(s *State) *bool { return &s.RefersBack }),
		history:       graph.LastValue("history", func(s *State) *[]Msg { return &s.History }),
		memories:      graph.LastValue("memories", func(s *State) *[]string { return &s.Memories }),
		cited:         graph.LastValue("cited", func(s *State) *[]api.Source { return &s.Cited }),
		plan:          graph.LastValue("plan", func(s *State) *[]api.SubTask { return &s.Plan }),
		kept:          graph.LastValue("kept", func(s *State) *[]keptStep { return &s.Kept }),
		scratch:       graph.Messages("scratch", func(s *State) *[]Msg { return &s.Scratch }, func(m *Msg) *string { return &m.ID }),
		toolRuns:      graph.DedupeBy("tool_runs", func(s *State) *[]ToolRun { return &s.ToolRuns }, func(r ToolRun) string { return r.Key }),
		docs:          graph.DedupeBy("docs", func(s *State) *[]api.Source { return &s.Docs }, sourceKey),
		sources:       graph.DedupeBy("sources", func(s *State) *[]api.Source { return &s.Sources }, sourceKey),
		subSources:    graph.DedupeBy("sub_sources", func(s *State) *[]api.Source { return &s.SubSources }, sourceKey),
		feedback:      graph.Append("feedback", func(s *State) *[]string { return &s.Feedback }),
		recommendations: graph.MergeByID("recommendations", func(s *State) *[]api.Recommendation { return &s.Recommendations },
			func(r api.Recommendation) string { return r.SubTaskID }),
		retries: graph.Append("retries", func(s *State) *[]llm.RetryRecord { return &s.Retries }),
		usage: graph.Reduce("usage", func(s *State) *usage { return &s.Usage }, func(cur, w usage) usage {
			if w.Reset {
				return usage{}
			}
			return cur.add(w)
		}),
	}
}

// all lists the fields for graph.New.
func (f fields) all() []graph.Field[State] {
	return []graph.Field[State]{
		f.summary, f.foldedThrough, f.input, f.nonce, f.session, f.lang, f.route, f.task, f.decision, f.planNote, f.again,
		f.missing, f.response, f.notice,
		f.folded, f.historyStart, f.iterations, f.round, f.current, f.evalRounds, f.stepOnly,
		f.trivial, f.needsDocs, f.refersBack, f.history, f.memories, f.cited, f.plan, f.kept,
		f.scratch, f.toolRuns, f.docs, f.sources, f.subSources, f.feedback, f.recommendations, f.retries, f.usage,
	}
}

// resetTurn is written with every new message: a turn starts clean except
// for the summary window, which belongs to the session.
func (f fields) resetTurn(input, session, nonce string, history []Msg, historyStart int) graph.Update {
	return graph.Update{
		f.input.Set(input), f.session.Set(session), f.nonce.Set(nonce), f.lang.Set(detectLang(input)),
		f.history.Set(history), f.historyStart.Set(historyStart),
		f.memories.Set(nil), f.route.Set(""), f.trivial.Set(false), f.needsDocs.Set(false), f.refersBack.Set(false),
		f.docs.Replace(), f.scratch.RemoveAll(), f.iterations.Set(0), f.toolRuns.Replace(), f.sources.Replace(), f.cited.Set(nil),
		f.task.Set(""), f.plan.Set(nil), f.round.Set(0), f.feedback.Replace(), f.decision.Set(""), f.planNote.Set(""), f.again.Set(""),
		f.kept.Set(nil), f.current.Set(0), f.missing.Set(""), f.evalRounds.Set(0), f.subSources.Replace(), f.recommendations.Replace(),
		f.response.Set(""), f.notice.Set(""), f.retries.Replace(), f.usage.Add(usage{Reset: true}),
	}
}

// copyOf is the update that gives a new thread the whole of s: the input
// of a graph run on a state that already exists (recommendSteps' loops).
func (f fields) copyOf(s State) graph.Update {
	return graph.Update{
		f.summary.Set(s.Summary), f.foldedThrough.Set(s.FoldedThrough), f.input.Set(s.Input), f.nonce.Set(s.Nonce),
		f.session.Set(s.Session), f.lang.Set(s.Lang), f.route.Set(s.Route), f.task.Set(s.Task), f.decision.Set(s.Decision),
		f.planNote.Set(s.PlanNote), f.again.Set(s.Again), f.missing.Set(s.Missing), f.response.Set(s.Response), f.notice.Set(s.Notice),
		f.folded.Set(s.Folded), f.historyStart.Set(s.HistoryStart), f.iterations.Set(s.Iterations), f.round.Set(s.Round),
		f.current.Set(s.Current), f.evalRounds.Set(s.EvalRounds), f.stepOnly.Set(s.StepOnly),
		f.trivial.Set(s.Trivial), f.needsDocs.Set(s.NeedsDocs), f.refersBack.Set(s.RefersBack),
		f.history.Set(s.History), f.memories.Set(s.Memories), f.cited.Set(s.Cited), f.plan.Set(s.Plan), f.kept.Set(s.Kept),
		f.scratch.Replace(s.Scratch...), f.toolRuns.Replace(s.ToolRuns...), f.docs.Replace(s.Docs...),
		f.sources.Replace(s.Sources...), f.subSources.Replace(s.SubSources...), f.feedback.Replace(s.Feedback...),
		f.recommendations.Replace(s.Recommendations...), f.retries.Replace(s.Retries...), f.usage.Add(s.Usage),
	}
}
