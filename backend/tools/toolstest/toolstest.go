// Package toolstest has in-memory stand-ins for the knowledge base and
// long-term memory, for tests of the agent and of the whole backend: what
// they hold is plain to see, and they need no model to embed anything.
package toolstest

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// Docs is a keyword retriever over a fixed list: a document matches when it
// is in the search's scope (Doc.Catalog) and contains a word (two runes or
// more) of the query. It records the searches it was asked. Safe for
// concurrent use.
type Docs struct {
	list []tools.Doc

	mu       sync.Mutex
	searches []Search
}

// Search is one search a Docs was asked, and what it returned.
type Search struct {
	Query string
	Scope tools.Scope
	Found []tools.Doc
}

// NewDocs returns a retriever over list.
func NewDocs(list ...tools.Doc) *Docs { return &Docs{list: list} }

// Search implements tools.Retriever.
func (d *Docs) Search(_ context.Context, query string, scope tools.Scope, k int) ([]tools.Doc, error) {
	var out []tools.Doc
	for _, doc := range d.list {
		if doc.Catalog != (scope == tools.ScopeCatalog) {
			continue
		}
		text := strings.ToLower(doc.Title + " " + doc.Text)
		for _, w := range strings.Fields(query) {
			w = strings.Trim(w, "?!.,")
			if len([]rune(w)) >= 2 && strings.Contains(text, strings.ToLower(w)) {
				out = append(out, doc)
				break
			}
		}
	}
	out = out[:min(k, len(out))]
	d.mu.Lock()
	d.searches = append(d.searches, Search{Query: query, Scope: scope, Found: slices.Clone(out)})
	d.mu.Unlock()
	return out, nil
}

// Queries returns the queries searched so far, in order.
func (d *Docs) Queries() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, len(d.searches))
	for i, s := range d.searches {
		out[i] = s.Query
	}
	return out
}

// Searches returns the searches made so far, in order.
func (d *Docs) Searches() []Search {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.searches)
}

// Memory is long-term memory in a slice: search returns the oldest k, and
// adding a text it already holds does nothing. Safe for concurrent use.
type Memory struct {
	mu   sync.Mutex
	mems []tools.Memory
}

// Search implements tools.MemoryReader.
func (m *Memory) Search(_ context.Context, _ string, k int) ([]tools.Memory, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.mems[:min(k, len(m.mems))]), nil
}

// Remember implements the agent's Memory.
func (m *Memory) Remember(_ context.Context, text, kind string, origin memory.Origin, _ string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, x := range m.mems {
		if x.Text == text {
			return nil
		}
	}
	m.mems = append(m.mems, tools.Memory{ID: strconv.Itoa(len(m.mems) + 1), Text: text, Kind: kind, Origin: string(origin)})
	return nil
}

// Add puts a memory the person wrote by hand, for a test to start with.
func (m *Memory) Add(ctx context.Context, text, kind string) error {
	return m.Remember(ctx, text, kind, memory.OriginEdited, "")
}

// All returns every memory, oldest first.
func (m *Memory) All() []tools.Memory {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.mems)
}
