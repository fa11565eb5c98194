// Package memory holds what Wayfinder remembers beyond the current prompt:
// the conversation summary window of seed 001 (old turns folded into at most
// three rolling summaries) and long-term memories about the person
// (preferences, facts, feedback) that they can list, edit and delete.
//
// The summary window is pure functions (Plan, AddSummaryToWindow,
// FormatSummaryForPrompt, SummaryPrompt) because the summarising model call
// must run after a turn is answered, never on the path of the next answer:
// the agent summarises once the reply is shown and keeps the window in the
// session's graph state, which load_context only reads.
//
// Long-term memories keep their vectors in a persistent chromem-go
// collection (Vectors), while the knowledge base uses its own flat index
// (knowledge/vector). The flat index exists because chromem's query costs
// grow badly with size: at 100k chunks × 1024 dimensions a flat scan took
// 36.7 ms of CPU per query and chromem 184 ms, and chromem persists one file
// per document. Memories stay in the hundreds or thousands, where a chromem
// query of 1000 memories takes about 1 ms (BenchmarkVectorsQuery), one file per
// memory is cheap, and deleting a memory deletes its file: exactly what
// forgetting needs.
package memory

import (
	"fmt"
	"strings"
)

// The summary window of seed 001 (src/nodes/memory.py and
// src/memory/summarizer.py).
const (
	// MaxMessages: when more unsummarised messages than this exist, the
	// oldest are summarised.
	MaxMessages = 10
	// KeepRecent messages stay verbatim after summarising.
	KeepRecent = 5
	// MaxSummaries summaries are kept; the oldest slides out.
	MaxSummaries = 3
	// SummarySeparator joins the summaries in the stored text.
	SummarySeparator = "\n---SUMMARY_BREAK---\n"
)

// Msg is a conversation message as the summariser sees it.
type Msg struct {
	Role    string // "user" or "assistant"
	Content string
}

// WindowState is what is saved per session: the rolling summaries and the
// index (into the session's messages, oldest first) of the first message
// not yet summarised.
type WindowState struct {
	SessionID string
	Summary   string
	Next      int
}

// Plan splits a session's messages (all of them, oldest first) by state:
// when more than MaxMessages are unsummarised, all but the last KeepRecent
// of those are to be summarised; keep is what the prompt shows verbatim.
// toSummarize is empty when nothing needs summarising.
func Plan[M any](state WindowState, all []M) (toSummarize, keep []M) {
	next := min(max(state.Next, 0), len(all))
	open := all[next:]
	if len(open) <= MaxMessages {
		return nil, open
	}
	cut := len(open) - KeepRecent
	return open[:cut], open[cut:]
}

// Advance records that the next n messages were folded into newSummary.
func (s WindowState) Advance(newSummary string, n int) WindowState {
	s.Summary = AddSummaryToWindow(s.Summary, newSummary)
	s.Next += n
	return s
}

// AddSummaryToWindow appends newSummary to the existing summaries and keeps
// the last MaxSummaries (seed 001's add_summary_to_window). Unlike the seed,
// an empty existing window does not produce an empty first entry, and a
// separator inside newSummary is flattened so it cannot split one summary
// into two.
func AddSummaryToWindow(existing, newSummary string) string {
	newSummary = strings.TrimSpace(strings.ReplaceAll(newSummary, strings.TrimSpace(SummarySeparator), ""))
	if newSummary == "" {
		return existing
	}
	summaries := splitSummaries(existing)
	summaries = append(summaries, newSummary)
	if len(summaries) > MaxSummaries {
		summaries = summaries[len(summaries)-MaxSummaries:]
	}
	return strings.Join(summaries, SummarySeparator)
}

// SlidingOut is the summary the next AddSummaryToWindow will drop: the
// oldest, when the window is full; "" otherwise. Summarising it again with
// the next messages (SummaryPrompt's carried) keeps what it held.
func SlidingOut(window string) string {
	if all := splitSummaries(window); len(all) >= MaxSummaries {
		return all[0]
	}
	return ""
}

func splitSummaries(s string) []string {
	var out []string
	for _, part := range strings.Split(s, SummarySeparator) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// FormatSummaryForPrompt numbers the summaries for the system prompt, oldest
// first: "[대화 기록 1]\n…\n\n[대화 기록 2]\n…" in Korean, "[Conversation
// record 1]" otherwise (seed 001's format_summary_for_prompt). An empty
// window gives "".
func FormatSummaryForPrompt(summary, lang string) string {
	label := "[Conversation record %d]"
	if isKorean(lang) {
		label = "[대화 기록 %d]"
	}
	var b strings.Builder
	for i, s := range splitSummaries(summary) {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, label, i+1)
		b.WriteByte('\n')
		b.WriteString(s)
	}
	return b.String()
}

// isKorean reports whether a language tag ("ko", "ko-KR") means Korean.
func isKorean(lang string) bool {
	return strings.HasPrefix(strings.ToLower(lang), "ko")
}
