package llm

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// An input longer than the embedding model's context is cut to fit it
// before it is sent (Ollama 0.24 hung on one; later versions refuse it),
// with truncate said out loud; the model's context is asked once, and not
// at all for short inputs such as a search query.
func TestEmbedFitsTheModelsContext(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedDim(8), ollamatest.WithModels(
		ollamatest.Model{Name: "all-minilm", Capabilities: []string{"embedding"}, ContextLength: 512},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}, ContextLength: 8192},
	))
	c := newClient(t, srv.URL())
	ctx := context.Background()
	korean := strings.Repeat("연차 휴가는 입사일부터 계산합니다. ", 200)                                  // 4,000 characters
	english := strings.Repeat("Annual leave is counted from the first day of work. ", 200) // 10,400
	chunk := strings.Repeat("가", 1000)                                                     // a whole chunk of Korean
	tokens := func(s string) int { return len(ollamatest.EstimateTokenizer{}.Encode(s)) }

	if _, err := c.Embed(ctx, "all-minilm", []string{"짧은 질문"}); err != nil {
		t.Fatal(err)
	}
	if n := srv.Count(ollamatest.PathShow); n != 0 {
		t.Errorf("%d /api/show for a short query, want none", n)
	}

	cases := []struct {
		name   string
		model  string
		inputs []string
		limit  int    // fake tokens an input may have
		whole  []bool // inputs sent as they are
	}{
		{"512-token model", "all-minilm", []string{korean, english, "짧은 질문"}, 512, []bool{false, false, true}},
		// 8192 tokens, fitted to 2048 (embedCtxCap): a chunk goes whole.
		{"8192-token model", "bge-m3", []string{chunk, korean}, 2048, []bool{true, false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.Reset()
			for range 2 {
				if _, err := c.Embed(ctx, tc.model, tc.inputs); err != nil {
					t.Fatal(err)
				}
			}
			if n := srv.Count(ollamatest.PathShow); n != 1 {
				t.Errorf("%d /api/show for two embeddings, want 1 (the context length is kept)", n)
			}
			reqs := srv.EmbedRequests()
			if len(reqs) != 2 {
				t.Fatalf("%d embed requests", len(reqs))
			}
			r := reqs[0]
			if r.Truncate == nil || !*r.Truncate {
				t.Errorf("truncate = %v, want true", r.Truncate)
			}
			for i, in := range r.Input.([]any) {
				got := in.(string)
				switch {
				case tokens(got) > tc.limit:
					t.Errorf("input %d: %d tokens sent to a model of %d", i, tokens(got), tc.limit)
				case !strings.HasPrefix(tc.inputs[i], got) || !utf8.ValidString(got):
					t.Errorf("input %d is not a start of the text: %.40q", i, got)
				case tc.whole[i] && got != tc.inputs[i]:
					t.Errorf("input %d cut to %d of %d bytes, want it whole", i, len(got), len(tc.inputs[i]))
				case !tc.whole[i] && tokens(got) < tc.limit/2:
					t.Errorf("input %d cut to %d tokens, more than needed for %d", i, tokens(got), tc.limit)
				}
			}
		})
	}
}

// Against a server that hangs on an input longer than the context (as
// Ollama 0.24 did), a long text is embedded all the same.
func TestEmbedLongInputDoesNotHang(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedOverflowHang(), ollamatest.WithModels(
		ollamatest.Model{Name: "all-minilm", Capabilities: []string{"embedding"}, ContextLength: 512},
	))
	// Without the fit this fails with ErrTimeout after the bound, instead
	// of holding the test.
	c := newClient(t, srv.URL(), WithRetry(0, 0), WithTimeouts(Timeouts{Request: 30 * time.Second}))
	pasted := strings.Repeat("회의록을 붙여 넣었습니다. ", 500)
	vecs, err := c.Embed(context.Background(), "all-minilm", []string{pasted})
	if err != nil || len(vecs) != 1 {
		t.Fatalf("%d vectors, %v", len(vecs), err)
	}
}

func TestCutToTokens(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  string
	}{
		{"abcdef", 2, "abcdef"},
		{"abcdefg", 2, "abcdef"},
		{"가나다라", 3, "가나다"},
		{"ab가나", 2, "ab가"},
		{"", 5, ""},
	} {
		if got := cutToTokens(tc.in, tc.limit); got != tc.want || embedTokens(got) > tc.limit {
			t.Errorf("cutToTokens(%q, %d) = %q (%d tokens), want %q", tc.in, tc.limit, got, embedTokens(got), tc.want)
		}
	}
}
