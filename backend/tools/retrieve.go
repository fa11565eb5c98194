package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Doc is one passage found by a Retriever.
type Doc struct {
	ID      string
	Title   string
	Source  string // file name or "Wayfinder AI tool catalog"
	Page    int    // PDF page, 0 when not paged
	Heading string
	URL     string
	Text    string
	Score   float64
}

// Retriever searches the knowledge base (catalog and the person's files).
type Retriever interface {
	Search(ctx context.Context, query string, topK int) ([]Doc, error)
}

// maxPassageChars cuts one passage in the observation; the person can open
// the whole source from the citation.
const maxPassageChars = 1200

// NewRetrieveDocs is the retrieve_docs tool.
func NewRetrieveDocs(r Retriever) *Tool {
	return &Tool{
		Name: "retrieve_docs",
		Description: "Search Wayfinder's knowledge base: the built-in catalog of AI tools and services (with prices, " +
			"platforms and Korean support) and the documents the person imported. Returns numbered passages to cite as [1], [2].",
		Params: []Param{
			{Name: "query", Type: TypeString, Required: true, Description: "what to look for, in the person's words (Korean or English)"},
			{Name: "top_k", Type: TypeInteger, Min: bound(1), Max: bound(10), Description: "how many passages, 1-10 (default 5)"},
		},
		Timeout: 15 * time.Second,
		Run: func(ctx context.Context, args Args) (Result, error) {
			query := args.String("query")
			docs, err := r.Search(ctx, query, args.Int("top_k", 5))
			if err != nil {
				return Result{}, fmt.Errorf("search %q: %w", query, err)
			}
			if len(docs) == 0 {
				return Result{Text: fmt.Sprintf("No documents matched %q. Try other words, or answer from general knowledge and say so.", query)}, nil
			}
			var b strings.Builder
			sources := make([]api.Source, 0, len(docs))
			for i, d := range docs {
				if i > 0 {
					b.WriteString("\n\n")
				}
				fmt.Fprintf(&b, "[%d] %s\n%s", i+1, docLabel(d), cut(strings.TrimSpace(d.Text), maxPassageChars))
				sources = append(sources, api.Source{ID: d.ID, Title: d.Title, Source: d.Source, Page: d.Page,
					Heading: d.Heading, URL: d.URL, Snippet: cut(strings.TrimSpace(d.Text), 300), Score: d.Score})
			}
			return Result{Text: b.String(), Sources: sources}, nil
		},
	}
}

func docLabel(d Doc) string {
	parts := []string{firstNonEmpty(d.Title, d.Source, d.ID)}
	if d.Source != "" && d.Source != parts[0] {
		parts = append(parts, d.Source)
	}
	if d.Page > 0 {
		parts = append(parts, fmt.Sprintf("p. %d", d.Page))
	}
	if d.Heading != "" {
		parts = append(parts, d.Heading)
	}
	if d.URL != "" {
		parts = append(parts, d.URL)
	}
	return strings.Join(parts, " — ")
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return "untitled"
}

// cut shortens s to n characters at most, on a rune boundary.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
