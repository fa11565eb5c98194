package agent

import (
	"context"
	"fmt"
	"strings"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/memory"
)

// The conversation a model call sees is seed 001's window, kept within the
// model's context (num_ctx): the unsummarised messages verbatim and
// everything older through the rolling summaries (at most
// memory.MaxSummaries; a summary about to slide out is handed to the next
// one to summarise, so what it held is carried rather than dropped).
//
// After a turn, more than memory.MaxMessages unsummarised messages fold all
// but the memory.KeepRecent newest into a summary (seed 001), and so do the
// oldest ones whenever the rest would not fit the history's share of the
// context. A turn whose unsummarised messages do not fit (summarising
// failed or fell behind, or the context is small) folds the oldest before
// it answers. A message is never left out of a prompt without being in a
// summary.
//
// Wayfinder keeps the window in the session's graph state, so the
// checkpoint that holds a pending plan also holds its summary, and uses the
// memory package's pure functions to maintain and format it.

// maxInputHistory bounds how much of a long session is handed to the graph
// (and so written into the turn's first checkpoint); the window never needs
// more than the unsummarised tail.
const maxInputHistory = 200

// historyInput turns the session's stored messages into the turn's input:
// messages that carry text (not failed replies), capped at the newest
// maxInputHistory; start is the index of the first one kept.
func historyInput(history []api.Message) (msgs []Msg, start int) {
	for _, m := range history {
		if strings.TrimSpace(m.Content) == "" || m.Status == api.StatusError {
			continue
		}
		msgs = append(msgs, Msg{ID: m.ID, Role: string(m.Role), Content: m.Content})
	}
	if len(msgs) > maxInputHistory {
		start = len(msgs) - maxInputHistory
		msgs = msgs[start:]
	}
	return msgs, start
}

// unfolded returns the messages of History not yet in the summary, and
// their offset in History. The folded boundary is found by message id,
// falling back to the count when ids are missing or the message was
// deleted. All of them are returned, however many: what does not fit the
// prompt is folded before the answer (loadContext), never cut.
func unfolded(s State) (recent []Msg, offset int) {
	offset = s.Folded - s.HistoryStart
	if s.FoldedThrough != "" {
		for i, m := range s.History {
			if m.ID == s.FoldedThrough {
				offset = i + 1
				break
			}
		}
	}
	offset = min(max(offset, 0), len(s.History))
	return s.History[offset:], offset
}

// budget shares a model call's context between its parts, in tokens.
type budget struct {
	numCtx  int // the context the model runs with (num_ctx)
	prompt  int // what the prompt may take: numCtx less room for the reply
	history int // the verbatim conversation's share of the prompt
}

// newBudget keeps an eighth of the context (256 to 2048 tokens) for the
// reply and gives two fifths of the rest to the verbatim conversation; the
// other three fifths hold the instructions, the summaries, the tools, the
// turn's memories and passages, the message and the tool rounds.
func newBudget(numCtx int) budget {
	reply := min(max(numCtx/8, 256), 2048)
	prompt := max(numCtx-reply, 0)
	return budget{numCtx: numCtx, prompt: prompt, history: prompt * 2 / 5}
}

// contextSizer is implemented by the Ollama client (llm.Client): the
// num_ctx it sends for a model.
type contextSizer interface {
	ContextSize(ctx context.Context, model string) int
}

// budget is the context budget of the chat model in effect.
func (a *Agent) budget(ctx context.Context) budget {
	if n := a.tuned(ctx).numCtx; n > 0 {
		return newBudget(n) // the conversation's own context size
	}
	m, name := a.model(ctx)
	if cs, ok := m.(contextSizer); ok {
		return newBudget(cs.ContextSize(ctx, name))
	}
	return newBudget(llm.DefaultNumCtx)
}

// tokens estimates the tokens of s for budgets, erring high: a token per
// four ASCII characters, one per other character (a Hangul syllable is one
// or more tokens in the tokenizers of the usual small models).
func tokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < 0x80 {
			ascii++
		} else {
			other++
		}
	}
	return (ascii+3)/4 + other
}

// msgOverhead is what a chat template adds around each message.
const msgOverhead = 4

func msgTokens(msgs []Msg) int {
	n := 0
	for _, m := range msgs {
		n += tokens(m.Content) + msgOverhead
		for _, tc := range m.ToolCalls {
			n += tokens(tc.Name) + tokens(compactJSON(tc.Args))
		}
	}
	return n
}

// toolTokens estimates what the tools' schemas add to a prompt, from their
// parts rather than their JSON: encoding them for a count cost a tenth of
// a turn's CPU.
func toolTokens(tools ollama.Tools) int {
	const syntax = 4 // braces, quotes and keys around each part
	n := 0
	for _, t := range tools {
		n += tokens(t.Function.Name) + tokens(t.Function.Description) + 3*syntax
		for name, p := range t.Function.Parameters.Properties.All() {
			n += tokens(name) + tokens(p.Description) + syntax
			for _, ty := range p.Type {
				n += tokens(ty)
			}
			for _, e := range p.Enum {
				n += tokens(fmt.Sprint(e)) + 1
			}
		}
	}
	return n
}

// foldPlan says which messages of conv (the unsummarised conversation,
// oldest first) to summarise after a turn: seed 001's rule (more than
// MaxMessages: all but the KeepRecent newest), then as many more of the
// oldest as it takes for the rest to fit the history budget.
func foldPlan(conv []Msg, historyBudget int) []Msg {
	fold, keep := memory.Plan(memory.WindowState{}, conv)
	return conv[:len(fold)+overflow(keep, historyBudget)]
}

// overflow is how many of the oldest of msgs must go for the rest to fit
// budget.
func overflow(msgs []Msg, budget int) int {
	n, size := 0, msgTokens(msgs)
	for n < len(msgs) && size > budget {
		size -= msgTokens(msgs[n : n+1])
		n++
	}
	return n
}

// fold summarises msgs, the oldest unsummarised messages (a beginning of
// s.History), in one model call, and returns the writes that record it:
// the window with the new summary and how far the session is now folded.
// When the window is full, the summary that is about to slide out is
// summarised along with them, so that nothing it held is lost.
func (a *Agent) fold(ctx context.Context, c *call, s State, msgs []Msg) (graph.Update, error) {
	transcript := make([]memory.Msg, len(msgs))
	for i, m := range msgs {
		transcript[i] = memory.Msg{Role: m.Role, Content: m.Content}
	}
	resp, err := c.chat(ctx, memory.SummaryPrompt(transcript, memory.SlidingOut(s.Summary), s.Lang), nil, nil)
	if err != nil {
		return nil, err
	}
	summary := strings.TrimSpace(resp.Message.Content)
	if summary == "" {
		return nil, fmt.Errorf("summarise %d messages: empty summary", len(msgs))
	}
	upd := graph.Update{a.f.summary.Set(memory.AddSummaryToWindow(s.Summary, summary)),
		a.f.folded.Set(s.HistoryStart + len(msgs)), a.f.foldedThrough.Set(msgs[len(msgs)-1].ID)}
	return upd, nil
}
