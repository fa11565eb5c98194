package tools

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Memory kinds the agent may store; the memory package persists the same
// three.
const (
	KindPreference = "preference"
	KindFact       = "fact"
	KindFeedback   = "feedback"
)

// MaxMemoryLen bounds one memory: a memory is a sentence about the person,
// not a document. No tool writes memories: the agent stores what the
// person asks it to remember, and what reflection draws from their words.
const MaxMemoryLen = 500

// Memory is one long-term memory as read_memory shows it.
type Memory struct {
	ID     string
	Text   string
	Kind   string
	Origin string // said, reflection or edited (backend/memory's Origin)
}

// MemoryReader searches long-term memory.
type MemoryReader interface {
	Search(ctx context.Context, query string, k int) ([]Memory, error)
}

// NewReadMemory is the read_memory tool.
func NewReadMemory(m MemoryReader) *Tool {
	return &Tool{
		Name:        "read_memory",
		Description: "Search what Wayfinder remembers about the person from earlier conversations: preferences, facts and feedback.",
		Params: []Param{
			{Name: "query", Type: TypeString, Required: true, Description: "what to recall, e.g. \"preferred video tools\" or \"name\""},
			{Name: "k", Type: TypeInteger, Min: bound(1), Max: bound(20), Description: "how many memories, 1-20 (default 5)"},
		},
		Timeout: 5 * time.Second,
		Outside: true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			query := args.String("query")
			mems, err := m.Search(ctx, query, args.Int("k", 5))
			if err != nil {
				return Result{}, fmt.Errorf("search memory for %q: %w", query, err)
			}
			if len(mems) == 0 {
				return Result{Text: fmt.Sprintf("Nothing remembered about %q.", query), NoMatch: query}, nil
			}
			var b strings.Builder
			for i, mem := range mems {
				if i > 0 {
					b.WriteByte('\n')
				}
				fmt.Fprintf(&b, "%d. [%s] %s", i+1, mem.Kind, mem.Text)
			}
			return Result{Text: b.String(), Said: Said{Code: api.TraceMemoriesFound, Args: map[string]string{"count": strconv.Itoa(len(mems))}}}, nil
		},
	}
}
