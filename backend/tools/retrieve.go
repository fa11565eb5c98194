package tools

import (
	"cmp"
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
	Page    int    // PDF page or slide, 0 when not paged
	Unit    string // what Page counts: "page", or "slide" for a presentation ("" is a page)
	Heading string
	URL     string
	Text    string
	Score   float64
	Catalog bool // an entry of the built-in catalog of AI tools
}

// Scope is what a search covers. The person's documents and the built-in
// catalog of AI tools are searched apart: a question about the person's
// files must not get tool advertisements among its sources, and a
// recommendation looks for tools, not for the person's notes.
type Scope string

const (
	ScopeDocuments Scope = "documents" // the files the person imported
	ScopeCatalog   Scope = "catalog"   // the built-in catalog of AI tools and services
)

// Retriever searches the knowledge base within a scope. The conversation
// searching (ConversationOf(ctx)) sees its own attached files too.
type Retriever interface {
	Search(ctx context.Context, query string, scope Scope, topK int) ([]Doc, error)
}

type conversationKey struct{}

// WithConversation marks ctx as the work of one conversation, so that the
// searches made under it see that conversation's own files.
func WithConversation(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, conversationKey{}, id)
}

// ConversationOf is the conversation ctx works for; "" for none.
func ConversationOf(ctx context.Context) string {
	id, _ := ctx.Value(conversationKey{}).(string)
	return id
}

// maxPassageChars cuts one passage in the observation; the person can open
// the whole source from the citation.
const maxPassageChars = 1200

// NewRetrieveDocs is the retrieve_docs tool: the person's documents only.
func NewRetrieveDocs(r Retriever) *Tool {
	return newSearchTool(r, ScopeDocuments, true, "retrieve_docs",
		"Search the documents the person imported (their files, notes, policies). Never returns AI tools. "+
			"Returns numbered passages to cite as [1], [2].",
		"No documents matched %q. Try other words, or answer from general knowledge and say so.")
}

// NewSearchCatalog is the search_catalog tool: the built-in catalog of AI
// tools and services, for recommendations.
func NewSearchCatalog(r Retriever) *Tool {
	// Wayfinder ships the catalog: it is not text from outside.
	return newSearchTool(r, ScopeCatalog, false, "search_catalog",
		"Search Wayfinder's built-in catalog of AI tools and services (with prices, platforms and Korean support), "+
			"to recommend a tool. Not for the person's documents. Returns numbered entries to cite as [1], [2].",
		"No catalog entry matched %q. Try other words for the task.")
}

func newSearchTool(r Retriever, scope Scope, outside bool, name, description, nothing string) *Tool {
	return &Tool{
		Name:        name,
		Description: description,
		Params: []Param{
			{Name: "query", Type: TypeString, Required: true, Description: "what to look for, in the person's words (Korean or English)"},
			{Name: "top_k", Type: TypeInteger, Min: bound(1), Max: bound(10), Description: "how many passages, 1-10 (default 5)"},
		},
		Timeout: 15 * time.Second,
		Outside: outside,
		Run: func(ctx context.Context, args Args) (Result, error) {
			query := args.String("query")
			docs, err := r.Search(ctx, query, scope, args.Int("top_k", 5))
			if err != nil {
				return Result{}, fmt.Errorf("search %q: %w", query, err)
			}
			if len(docs) == 0 {
				return Result{Text: fmt.Sprintf(nothing, query), NoMatch: query}, nil
			}
			var b strings.Builder
			sources := make([]api.Source, 0, len(docs))
			for i, d := range docs {
				if i > 0 {
					b.WriteString("\n\n")
				}
				fmt.Fprintf(&b, "[%d] %s\n%s", i+1, docLabel(d), cut(strings.TrimSpace(d.Text), maxPassageChars))
				sources = append(sources, api.Source{ID: d.ID, Title: d.Title, Source: d.Source, Page: d.Page, Unit: d.Unit,
					Heading: d.Heading, URL: d.URL, Snippet: cut(strings.TrimSpace(d.Text), maxPassageChars), Score: d.Score})
			}
			return Result{Text: b.String(), Sources: sources}, nil
		},
	}
}

func docLabel(d Doc) string {
	parts := []string{cmp.Or(d.Title, d.Source, d.ID, "untitled")}
	if d.Source != "" && d.Source != parts[0] {
		parts = append(parts, d.Source)
	}
	if d.Page > 0 {
		parts = append(parts, PageLabel(d.Unit, d.Page))
	}
	if d.Heading != "" {
		parts = append(parts, d.Heading)
	}
	if d.URL != "" {
		parts = append(parts, d.URL)
	}
	return strings.Join(parts, " — ")
}

// PageLabel names a passage's page as the model reads it: "p. 3", or
// "slide 3" for a presentation's slide, so that the model cites the slide
// a person will look for instead of a page the deck does not have.
func PageLabel(unit string, page int) string {
	if unit == "slide" {
		return fmt.Sprintf("slide %d", page)
	}
	return fmt.Sprintf("p. %d", page)
}

// cut shortens s to n characters at most, on a rune boundary.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
