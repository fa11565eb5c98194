package tools

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Memory kinds the agent may store; the memory package persists the same
// three.
const (
	KindPreference = "preference"
	KindFact       = "fact"
	KindFeedback   = "feedback"
)

// MaxMemoryLen bounds one memory: a memory is a sentence about the person,
// not a document.
const MaxMemoryLen = 500

// Memory is one long-term memory as read_memory shows it.
type Memory struct {
	ID   string
	Text string
	Kind string
}

// MemoryReader searches long-term memory.
type MemoryReader interface {
	Search(ctx context.Context, query string, k int) ([]Memory, error)
}

// MemoryWriter stores a memory (deduplicating near-duplicates is its job).
type MemoryWriter interface {
	Add(ctx context.Context, text, kind string) error
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
				return Result{Text: fmt.Sprintf("Nothing remembered about %q.", query)}, nil
			}
			var b strings.Builder
			for i, mem := range mems {
				if i > 0 {
					b.WriteByte('\n')
				}
				fmt.Fprintf(&b, "%d. [%s] %s", i+1, mem.Kind, mem.Text)
			}
			return Result{Text: b.String()}, nil
		},
	}
}

// NewWriteMemory is the write_memory tool.
func NewWriteMemory(m MemoryWriter) *Tool {
	return &Tool{
		Name: "write_memory",
		Description: "Remember something about the person for future conversations, only when they state a lasting preference " +
			"or fact or give feedback. The person can see and delete every memory.",
		Params: []Param{
			{Name: "text", Type: TypeString, Required: true, Description: "one short sentence, e.g. \"Prefers free tools\""},
			{Name: "kind", Type: TypeString, Required: true, Enum: []string{KindPreference, KindFact, KindFeedback},
				Description: "preference, fact or feedback"},
		},
		Timeout: 5 * time.Second,
		Run: func(ctx context.Context, args Args) (Result, error) {
			text, kind := args.String("text"), args.String("kind")
			if n := utf8.RuneCountInString(text); n > MaxMemoryLen {
				return Result{}, fmt.Errorf("%w: memory is %d characters; keep it under %d", ErrInvalidArgs, n, MaxMemoryLen)
			}
			if err := m.Add(ctx, text, kind); err != nil {
				return Result{}, fmt.Errorf("save memory: %w", err)
			}
			return Result{Text: fmt.Sprintf("Remembered (%s): %s", kind, text)}, nil
		},
	}
}
