package main

// What the conversation context costs: a 50-turn conversation through the
// real chat service and agent, with the summary window and the num_ctx
// budget in place, and for turns 1, 10, 25 and 50 the prompt of every model
// call the turn caused (the answer, and after it the summary and
// reflection), with the share of each prompt that is the conversation
// (earlier messages verbatim, and the summaries of older ones). Token
// counts are the fake Ollama's (four bytes a token), as the turn figures'.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// contextTurns are the turns of the conversation that are reported.
var contextTurns = []int{1, 10, 25, 50}

// callCost is one model call's prompt.
type callCost struct {
	role           string
	tokens         int
	verbatim, sums int // tokens of earlier messages and of summaries in it
}

func (c callCost) share() float64 {
	if c.tokens == 0 {
		return 0
	}
	return float64(c.verbatim+c.sums) / float64(c.tokens)
}

// contextRow is one reported turn.
type contextRow struct {
	turn  int
	calls []callCost
	// whole is what the turn's question and the whole conversation before
	// it would take, for comparison.
	whole int
	// reported is what the turn's result says it cost (llm_calls, prompt
	// tokens), once its after-turn work is done.
	reportedCalls, reportedPrompt int
}

// contextCost runs the conversation.
func contextCost(ctx context.Context) ([]contextRow, error) {
	fake, err := ollamatest.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer fake.Close()
	reply := strings.Repeat("This is a long and careful answer about planning. ", 8)
	fake.On(world.IsAnswer, ollamatest.Reply{Text: reply})
	fake.On(world.IsSummary, ollamatest.Reply{Text: "The person runs a shop that sells handmade cups and asked, turn by turn, what to do next; " +
		"Wayfinder answered with careful planning advice each time."})
	world.ScriptComplex(fake, world.Pace{})
	b, done, err := newBackend(ctx, fake, http.DefaultTransport)
	if err != nil {
		return nil, err
	}
	defer done()

	var (
		rows    []contextRow
		all     = contextRow{turn: 0}
		earlier = map[string]bool{} // the conversation's messages so far
		whole   int                 // and their tokens
		session string
	)
	for i := 1; i <= slices.Max(contextTurns); i++ {
		in := fmt.Sprintf("Turn %d: here is more about my project, which is a shop that sells handmade cups; what next?", i)
		from := len(fake.ChatRequests())
		msg, err := b.Chat.Ask(ctx, session, in, nil)
		if err := finished(msg, err); err != nil {
			return nil, fmt.Errorf("turn %d: %w", i, err)
		}
		b.Agent.Wait() // the summary and reflection of this turn
		session = msg.SessionID
		calls := fake.ChatRequests()[from:]
		for _, req := range calls {
			all.calls = append(all.calls, costOf(req, earlier))
		}
		if slices.Contains(contextTurns, i) {
			row := contextRow{turn: i, whole: whole + tokensOf(in)}
			for _, req := range calls {
				row.calls = append(row.calls, costOf(req, earlier))
			}
			if saved, err := b.Store.Messages(ctx, session); err == nil {
				if r := saved[len(saved)-1].Result; r != nil {
					row.reportedCalls, row.reportedPrompt = r.LLMCalls, r.PromptTokens
				}
			}
			rows = append(rows, row)
		}
		earlier[in], earlier[msg.Content] = true, true
		whole += tokensOf(in) + tokensOf(msg.Content)
	}
	return append(rows, all), nil
}

// tokensOf is the fake Ollama's estimate.
func tokensOf(s string) int { return len(s) / 4 }

// costOf splits a request's prompt into the conversation (messages seen
// before, and the summaries in the system prompt) and the rest; the whole
// is counted as the fake counts a request.
func costOf(req ollama.ChatRequest, earlier map[string]bool) callCost {
	c := callCost{role: roleOf(req)}
	size := 0
	for _, m := range req.Messages {
		size += len(m.Content)
		switch {
		case m.Role == "system":
			if _, sums, ok := strings.Cut(m.Content, "[Earlier conversation summary]"); ok {
				c.sums += tokensOf(sums)
			}
		case earlier[m.Content]:
			c.verbatim += tokensOf(m.Content)
		case c.role == "summary" && m.Role == "user":
			c.verbatim += tokensOf(m.Content) // the transcript to summarise
		}
	}
	c.tokens = size/4 + 1
	return c
}

func roleOf(req ollama.ChatRequest) string {
	for _, r := range []struct {
		name  string
		match ollamatest.Matcher
	}{{"answer", world.IsAnswer}, {"summary", world.IsSummary}, {"reflection", world.IsMemory}, {"router", world.IsRouter}} {
		if r.match(req) {
			return r.name
		}
	}
	return "other"
}

// addContextRows puts the rows in the report; the last row is every call
// of the conversation.
func addContextRows(t *table, rows []contextRow) {
	for _, r := range rows {
		if r.turn == 0 {
			n, size, tokens := map[string]int{}, map[string]int{}, 0
			for _, c := range r.calls {
				n[c.role]++
				size[c.role] += c.tokens
				tokens += c.tokens
			}
			turns := slices.Max(contextTurns)
			t.add(fmt.Sprintf("model calls of the whole %d-turn conversation", turns),
				fmt.Sprintf("%d answers, %d summaries (%d prompt tokens each on average), %d reflections: %d calls, %.0f prompt tokens a turn on average",
					n["answer"], n["summary"], size["summary"]/max(n["summary"], 1), n["reflection"], len(r.calls), float64(tokens)/float64(turns)), "", "")
			continue
		}
		var parts []string
		model := 0
		for _, c := range r.calls {
			model += c.tokens
			parts = append(parts, fmt.Sprintf("%s %d (%.0f%% conversation)", c.role, c.tokens, 100*c.share()))
		}
		t.add(fmt.Sprintf("prompt tokens per call, turn %d of a conversation", r.turn),
			fmt.Sprintf("%s; %d calls, %d prompt tokens in all (the turn reports %d calls, %d tokens)",
				strings.Join(parts, " + "), len(r.calls), model, r.reportedCalls, r.reportedPrompt),
			fmt.Sprintf("the whole conversation and question: %d tokens", r.whole), "")
	}
}
