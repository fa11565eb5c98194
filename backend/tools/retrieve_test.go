package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

type fakeRetriever struct {
	docs  []Doc
	err   error
	delay time.Duration
	gotK  int
	scope Scope
}

func (f *fakeRetriever) Search(ctx context.Context, q string, scope Scope, k int) ([]Doc, error) {
	f.gotK, f.scope = k, scope
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	if k < len(f.docs) {
		return f.docs[:k], nil
	}
	return f.docs, nil
}

func TestRetrieveDocs(t *testing.T) {
	docs := []Doc{
		{ID: "catalog:vrew", Title: "Vrew", Source: "Wayfinder AI tool catalog", URL: "https://vrew.ai", Text: "한국어 자막을 자동으로 만듭니다.", Score: 0.9},
		{ID: "f1#3", Title: "휴가 규정", Source: "leave-policy.pdf", Page: 3, Unit: "page", Heading: "연차", Text: strings.Repeat("가", 2000), Score: 0.5},
		{ID: "d2#1", Title: "분기 보고", Source: "q3.pptx", Page: 12, Unit: "slide", Text: "매출 12% 증가", Score: 0.4},
	}
	tests := []struct {
		name     string
		r        *fakeRetriever
		args     map[string]any
		want     []string
		wantK    int
		wantSrcs int
		wantErr  error
	}{
		{"numbered with sources", &fakeRetriever{docs: docs}, map[string]any{"query": "자막"},
			[]string{"[1] Vrew — Wayfinder AI tool catalog — https://vrew.ai\n한국어 자막을", "[2] 휴가 규정 — leave-policy.pdf — p. 3 — 연차\n", "…",
				"[3] 분기 보고 — q3.pptx — slide 12\n매출"}, 5, 3, nil},
		{"top_k passed", &fakeRetriever{docs: docs}, map[string]any{"query": "x", "top_k": 1.0}, []string{"[1] Vrew"}, 1, 1, nil},
		{"nothing found", &fakeRetriever{}, map[string]any{"query": "없는 것"}, []string{`No documents matched "없는 것"`}, 5, 0, nil},
		{"missing query", &fakeRetriever{}, map[string]any{}, nil, 0, 0, ErrInvalidArgs},
		{"top_k too big", &fakeRetriever{}, map[string]any{"query": "x", "top_k": 50.0}, nil, 0, 0, ErrInvalidArgs},
		{"search fails", &fakeRetriever{err: errors.New("index closed")}, map[string]any{"query": "x"}, []string{}, 5, 0, errors.New("index closed")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewRetrieveDocs(tt.r).Call(context.Background(), tt.args)
			if tt.wantErr != nil {
				if err == nil || !(errors.Is(err, tt.wantErr) || strings.Contains(err.Error(), tt.wantErr.Error())) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("observation lacks %q:\n%s", w, res.Text)
				}
			}
			if tt.r.scope != ScopeDocuments {
				t.Errorf("retrieve_docs searched %q, want the person's documents", tt.r.scope)
			}
			wantNoMatch := ""
			if tt.wantSrcs == 0 {
				wantNoMatch = tt.args["query"].(string)
			}
			if res.NoMatch != wantNoMatch {
				t.Errorf("NoMatch = %q, want %q (the trace says it in the person's language)", res.NoMatch, wantNoMatch)
			}
			if tt.r.gotK != tt.wantK || len(res.Sources) != tt.wantSrcs {
				t.Errorf("k = %d, sources = %d", tt.r.gotK, len(res.Sources))
			}
			if len(res.Sources) == 3 && (res.Sources[1].Page != 3 || res.Sources[1].Source != "leave-policy.pdf" || res.Sources[0].URL != "https://vrew.ai" ||
				res.Sources[2].Page != 12 || res.Sources[2].Unit != "slide") {
				t.Errorf("sources = %+v", res.Sources)
			}
		})
	}
}

func TestRetrieveDocsTimeout(t *testing.T) {
	tool := NewRetrieveDocs(&fakeRetriever{delay: time.Minute})
	tool.Timeout = 20 * time.Millisecond
	r := mustRegistry(t, tool)
	out := r.Run(context.Background(), Call{Name: "retrieve_docs", Args: map[string]any{"query": "x"}})
	if !errors.Is(out.Err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", out.Err)
	}
}

// search_catalog searches the catalog and nothing else; retrieve_docs the
// person's documents and nothing else.
func TestSearchToolScopes(t *testing.T) {
	tests := []struct {
		tool      func(Retriever) *Tool
		scope     Scope
		emptyText string
	}{
		{NewRetrieveDocs, ScopeDocuments, `No documents matched "영상 편집"`},
		{NewSearchCatalog, ScopeCatalog, `No catalog entry matched "영상 편집"`},
	}
	for _, tt := range tests {
		r := &fakeRetriever{}
		tool := tt.tool(r)
		res, err := tool.Call(context.Background(), map[string]any{"query": "영상 편집"})
		if err != nil {
			t.Fatal(err)
		}
		if r.scope != tt.scope || !strings.Contains(res.Text, tt.emptyText) {
			t.Errorf("%s: searched %q, said %q; want %q and %q", tool.Name, r.scope, res.Text, tt.scope, tt.emptyText)
		}
	}
}
