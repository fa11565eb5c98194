package agent

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	toolcatalog "github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// recommend is the ReAct step for the current sub-task: one model call
// with the recommendation tools. Past the iteration limit it makes no call
// and the reviewer records what was found.
func (a *Agent) recommend(cfg loopConfig) graph.NodeFunc[State] {
	return func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		if s.Current >= len(s.Plan) {
			return nil, nil
		}
		st := s.Plan[s.Current]
		limit := a.maxIterations(cfg.MaxIterations)
		if s.Iterations >= limit {
			rt.Emit(eventTrace, say(api.TraceIterationLimit, stepArgs(s, "step", st.Title, "limit", strconv.Itoa(limit))...).event(api.TraceEvaluation, rt.Node()))
			return nil, nil
		}
		c := a.newCall(rt)
		if s.Iterations == 0 {
			c.trace(api.TracePlanning, say(api.TraceToolFinding, stepArgs(s, "step", st.Title)...))
			// The first search needs no model: the scout's first call
			// would search the catalog with the sub-task's words, so the
			// reviewer reads those results at once, and the scout is asked
			// only for what the reviewer finds missing.
			if calls := a.firstSearch(ctx, rt, s, st); len(calls) > 0 {
				return graph.Update{a.f.scratch.Add(Msg{Role: "assistant", ToolCalls: calls}), a.f.iterations.Set(1)}, nil
			}
		}
		msgs := scoutMessages(s, st, a.webSearch())
		resp, err := c.chat(ctx, msgs, a.toolset(ctx, rt, "recommend", s).Schemas(), nil)
		if err != nil {
			return nil, err
		}
		m := fromOllama(resp.Message)
		a.markApprovals(s, &m)
		return c.update(graph.Update{a.f.scratch.Add(m), a.f.iterations.Set(s.Iterations + 1)}), nil
	}
}

// firstSearch is the search every sub-task starts with, made by
// Wayfinder rather than asked of the model: the catalog of AI tools and
// the person's documents, with the sub-task's own words (the plan the
// person approved). None when the recommendation tools lack them.
func (a *Agent) firstSearch(ctx context.Context, rt *graph.Runtime, s State, st api.SubTask) []ToolCall {
	query := strings.TrimSpace(st.Title + " " + st.Detail)
	if query == "" {
		return nil
	}
	offered := map[string]bool{}
	for _, t := range a.toolset(ctx, rt, "recommend", s).Schemas() {
		offered[t.Function.Name] = true
	}
	var calls []ToolCall
	for _, name := range []string{"search_catalog", "retrieve_docs"} {
		if offered[name] {
			calls = append(calls, ToolCall{Name: name, Args: map[string]any{"query": query}})
		}
	}
	return calls
}

// stepArgs are a trace line's blanks about the current sub-task: its id,
// number and the plan's length (the window's "Step 2 of 4"), then kv. The
// id keeps steps apart when several run at once.
func stepArgs(s State, kv ...string) []string {
	return append([]string{"id", s.Plan[s.Current].ID, "number", strconv.Itoa(s.Current + 1), "total", strconv.Itoa(len(s.Plan))}, kv...)
}

// routeRecommend goes to the tools while the scout asks for them, else to
// the reviewer.
func routeRecommend(s State) string {
	if n := len(s.Scratch); n > 0 && len(s.Scratch[n-1].ToolCalls) > 0 {
		return "tools"
	}
	return "evaluate"
}

// review is the reviewer's structured output: the sufficiency check of
// seed 002's evaluator and the recommendation in one call.
type review struct {
	Sufficient   bool     `json:"sufficient"`
	Missing      string   `json:"missing" desc:"what to search for next when not sufficient"`
	Tool         string   `json:"tool" desc:"the recommended tool or service"`
	Why          string   `json:"why"`
	URL          string   `json:"url"`
	Pricing      string   `json:"pricing"`
	Alternatives []string `json:"alternatives"`
}

// Validate refuses a sufficient review that recommends nothing.
func (r *review) Validate() error {
	if r.Sufficient && strings.TrimSpace(r.Tool) == "" {
		return fmt.Errorf("sufficient is true but tool is empty")
	}
	return nil
}

// evaluate decides whether the current sub-task has enough information;
// if not, what is missing goes back to the scout, at most max_rounds times
// (seed 002's default of 4). Then it records the recommendation and moves
// to the next sub-task.
func (a *Agent) evaluate(cfg loopConfig) graph.NodeFunc[State] {
	rounds := cfg.MaxRounds
	if rounds <= 0 {
		rounds = a.opt.MaxEvalRounds
	}
	return func(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
		if s.Current >= len(s.Plan) {
			return nil, nil
		}
		st := s.Plan[s.Current]
		limit := a.maxIterations(0)
		c := a.newCall(rt)
		r, ok, err := structured[review](ctx, c, reviewerMessages(s, st))
		if err != nil {
			return nil, err
		}
		forced := s.EvalRounds+1 >= rounds || s.Iterations >= limit
		if ok && !r.Sufficient && !forced {
			missing := stillMissing(r.Missing, s.Lang)
			c.trace(api.TraceEvaluation, say(api.TraceStepMissing, stepArgs(s, "step", st.Title, "missing", missing)...))
			// The reviewer wrote it after reading the findings: it reaches
			// the scout as data, not as the person's words.
			return c.update(graph.Update{a.f.missing.Set(missing), a.f.evalRounds.Set(s.EvalRounds + 1),
				a.f.scratch.Add(Msg{Role: "user", Content: "The reviewer says this is still missing:\n" +
					dataBlock(nonceOf(s), "reviewer", missing) + "\nSearch for it, then reply with your choice."})}), nil
		}
		rec := api.Recommendation{SubTaskID: st.ID, Tool: strings.TrimSpace(r.Tool), Why: strings.TrimSpace(r.Why),
			URL: strings.TrimSpace(r.URL), Pricing: strings.TrimSpace(r.Pricing), Alternatives: nonBlank(r.Alternatives)}
		if !ok || rec.Tool == "" {
			rec.Tool, rec.Why = fallbackPick(s)
		}
		catalogLink(&rec, a.catalog)
		rec.Sources = aboutTool(rec.Tool, rec.URL, s.SubSources)
		upd := graph.Update{a.f.recommendations.Add(rec), a.f.current.Set(s.Current + 1), a.f.scratch.RemoveAll(),
			a.f.iterations.Set(0), a.f.evalRounds.Set(0), a.f.missing.Set(""), a.f.subSources.Replace()}
		if forced && !(ok && r.Sufficient) {
			upd = append(upd, a.f.notice.Set(msgRecGuard.in(s.Lang)))
		}
		done := say(api.TraceStepRecommend, stepArgs(s, "step", st.Title, "tool", rec.Tool)...).event(api.TraceEvaluation, rt.Node())
		card := rec
		done.Recommendation = &card
		rt.Emit(eventTrace, done)
		return c.update(upd), nil
	}
}

// catalogLink puts the catalog's URL on a card whose tool is an entry of
// Wayfinder's built-in catalog (same name, case aside; never a fuzzy
// match), marked so the window trusts it: the model's URL is untrusted
// and may be made up. A tool not in the catalog keeps the model's URL,
// unmarked, and the window warns before opening it.
func catalogLink(rec *api.Recommendation, c toolcatalog.Catalog) {
	e, ok := c.Find(rec.Tool)
	if !ok || e.URL == "" {
		return
	}
	rec.URL, rec.URLFromCatalog = e.URL, true
}

// stillMissing is what the reviewer says a step still lacks, or, when it
// did not say, what every step needs, in the person's language: the trace
// shows it inside a sentence of that language.
func stillMissing(said, lang string) string {
	return cmp.Or(strings.TrimSpace(said), msgRecMissing.in(lang))
}

// fallbackPick names the best-ranked source found for the sub-task when
// the reviewer's answer was unusable, with why in the person's language:
// the card shows it as written.
func fallbackPick(s State) (tool, why string) {
	if len(s.SubSources) > 0 {
		return cmp.Or(s.SubSources[0].Title, s.SubSources[0].Source, "untitled"), msgRecFallback.in(s.Lang)
	}
	return "—", msgRecNone.in(s.Lang)
}

func routeEvaluate(s State) string {
	if s.Current >= len(s.Plan) {
		return "done"
	}
	return "continue"
}

// guide writes the workflow guide, streamed through a citer, from the
// passages about the recommended tools. Its sources are the passages it
// cites, renumbered in the order first cited, then those the cards show
// that the text did not cite; the UI lists them under the guide, so the
// text carries no list of its own (and an export lists them once).
func (a *Agent) guide(ctx context.Context, s State, rt *graph.Runtime) (graph.Update, error) {
	c := a.newCall(rt)
	c.trace(api.TraceGenerating, say(api.TraceGuideWriting))
	total, used := costTotal(s.Recommendations)
	if used {
		rt.Emit(eventTool, "calculator")
	}
	offered := guideSources(s.Recommendations)
	msgs := withPersona(guideMessages(s, offered, total), a.tuned(ctx).systemPrompt)
	// The stored text is exactly what was streamed, so a reload shows
	// what the person watched being written.
	cit := newCiter(len(offered), rt.Token)
	if _, err := c.chat(ctx, msgs, nil, cit.Write); err != nil {
		return nil, err
	}
	cit.Close()
	cited := pick(offered, cit.Cited())
	cited = append(cited, without(offered, cited)...)
	if len(cited) > 0 {
		rt.Emit(eventTrace, api.TraceEvent{Kind: api.TraceSources, Node: rt.Node(), Sources: cited})
	}
	return c.update(graph.Update{a.f.response.Set(strings.TrimSpace(cit.Text())), a.f.cited.Set(cited)}), nil
}

// guideSources are the passages the guide may cite: those about each
// recommended tool, in the order of the recommendations.
func guideSources(recs []api.Recommendation) []api.Source {
	var all []api.Source
	for _, r := range recs {
		all = append(all, r.Sources...)
	}
	return without(all, nil)
}

var dollarRe = regexp.MustCompile(`\$\s?(\d+(?:\.\d+)?)`)

// costTotal adds up the dollar prices of the recommendations with the
// calculator, so the guide's total is computed rather than guessed by a
// small model. used is false when no price was found.
func costTotal(recs []api.Recommendation) (total string, used bool) {
	var terms []string
	for _, r := range recs {
		if m := dollarRe.FindStringSubmatch(r.Pricing); m != nil {
			terms = append(terms, m[1])
		}
	}
	if len(terms) == 0 {
		return "", false
	}
	expr := strings.Join(terms, " + ")
	v, err := tools.Evaluate(expr)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("$%s (%s, from the first price listed for each tool)", v, expr), true
}

// nonBlank is xs trimmed, without the empty strings a small model fills a
// schema's lists with (never nil: the UI reads an empty list).
func nonBlank(xs []string) []string {
	out := []string{}
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
