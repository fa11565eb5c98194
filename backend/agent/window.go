package agent

import (
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/memory"
)

// The summary window is seed 001's, from backend/memory: more than
// memory.MaxMessages unsummarised messages fold all but the
// memory.KeepRecent newest into a summary; at most memory.MaxSummaries are
// kept. Wayfinder keeps the window in the session's graph state (so the
// checkpoint that holds a pending plan also holds its summary) and uses the
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
// deleted. When summarising fell behind (it failed, or ran out of time),
// only the newest MaxMessages are kept so the prompt stays bounded.
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
	recent = s.History[offset:]
	if len(recent) > 2*memory.MaxMessages {
		offset += len(recent) - memory.MaxMessages
		recent = s.History[offset:]
	}
	return recent, offset
}

// foldPlan says which messages to summarise after a turn: conv is the
// unsummarised conversation including the turn just answered. It returns
// nil when the window is not full.
func foldPlan(conv []Msg) []Msg {
	fold, _ := memory.Plan(memory.WindowState{}, conv)
	return fold
}
