package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// embedded is the texts the fake Ollama was asked to embed from request
// from on, and with which models.
func embedded(srv *ollamatest.Server, from int) (texts, models []string) {
	for _, r := range srv.EmbedRequests()[from:] {
		models = append(models, r.Model)
		switch in := r.Input.(type) {
		case string:
			texts = append(texts, in)
		case []any:
			for _, v := range in {
				texts = append(texts, fmt.Sprint(v))
			}
		}
	}
	return texts, models
}

// Switching the embedding model in Settings takes effect without a
// restart, in both directions: a model chosen after a start with "None
// (keyword search only)" opens the memory vectors and embeds every memory
// at once, and search embeds its query (it kept ranking by words until the
// next start); None again stops embedding and searching the vectors, a
// memory forgotten or reworded meanwhile loses its vector all the same (the
// old wording leaves the folder), and the next model embeds only the
// memories added or reworded meanwhile.
func TestEmbedModelSwitchesWithoutRestart(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedDim(64))
	client, err := llm.New(srv.URL(), llm.WithRetry(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	dir := t.TempDir()
	s, err := OpenInDataDir(ctx, openDB(t, dir), dir, "", "", client, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	steps := []struct {
		name   string
		use    string // UseEmbedModel with this first ("-": no switch)
		add    string // then remember this
		forget string // or forget this memory
		reword string // or, with forget set, reword that memory as this
		query  string // then search for this
		// wantEmbedded: the texts embedded during the step, the query's
		// included; wantVectors: the memories with a vector on disk.
		wantEmbedded []string
		wantVectors  []string
	}{
		{"start without a model", "-", "사용자는 커피를 좋아한다", "", "", "커피", nil, nil},
		{"a model chosen", "bge-m3", "", "", "", "커피", []string{"사용자는 커피를 좋아한다", "커피"}, []string{"사용자는 커피를 좋아한다"}},
		{"added with the model", "-", "예산은 1억원이다", "", "", "", []string{"예산은 1억원이다"}, []string{"사용자는 커피를 좋아한다", "예산은 1억원이다"}},
		{"none again", "", "Uses Windows and a Mac", "", "", "커피", nil, []string{"사용자는 커피를 좋아한다", "예산은 1억원이다"}},
		{"forgotten while none", "-", "", "예산은 1억원이다", "", "Windows", nil, []string{"사용자는 커피를 좋아한다"}},
		{"reworded while none", "-", "", "사용자는 커피를 좋아한다", "사용자는 녹차를 좋아한다", "녹차", nil, nil},
		{"the model again", "bge-m3", "", "", "", "Mac", []string{"Uses Windows and a Mac", "사용자는 녹차를 좋아한다", "Mac"}, []string{"사용자는 녹차를 좋아한다", "Uses Windows and a Mac"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			before := len(srv.EmbedRequests())
			if st.use != "-" {
				if err := s.UseEmbedModel(ctx, st.use); err != nil {
					t.Fatal(err)
				}
			}
			if st.add != "" {
				m, _, err := s.Add(ctx, st.add, KindFact, ByHand())
				if err != nil {
					t.Fatal(err)
				}
				ids[m.Text] = m.ID
			}
			if st.forget != "" && st.reword == "" {
				if err := s.Delete(ctx, ids[st.forget]); err != nil {
					t.Fatal(err)
				}
			}
			if st.reword != "" {
				id := ids[st.forget]
				if _, err := s.Edit(ctx, id, st.reword, KindFact); err != nil {
					t.Fatal(err)
				}
				delete(ids, st.forget)
				ids[st.reword] = id
			}
			if st.query != "" {
				if hits, err := s.Search(ctx, st.query, 3); err != nil || len(hits) == 0 {
					t.Errorf("search %q: %v, %v", st.query, texts(hits), err)
				}
			}
			got, models := embedded(srv, before)
			// The memories are embedded in no set order, the query last.
			if n := len(got) - 1; n > 0 {
				slices.Sort(got[:n])
			}
			if !slices.Equal(got, st.wantEmbedded) {
				t.Errorf("embedded %q, want %q", got, st.wantEmbedded)
			}
			if slices.ContainsFunc(models, func(m string) bool { return m != "bge-m3" }) {
				t.Errorf("embedded with %v, want bge-m3 alone", models)
			}
			var onDisk []string
			if vec := s.vec.Load(); vec != nil {
				want := map[string]string{}
				for text, id := range ids {
					want[id] = text
				}
				for _, text := range vectorTexts(t, vec, slicesKeys(want)...) {
					onDisk = append(onDisk, text)
				}
			}
			slices.Sort(onDisk)
			wantVectors := slices.Sorted(slices.Values(st.wantVectors))
			if !slices.Equal(onDisk, wantVectors) {
				t.Errorf("vectors of %q, want %q", onDisk, wantVectors)
			}
		})
	}
	// The forgotten text and the old wording are gone from the folder,
	// though forgotten and reworded while the vectors were not in use.
	err = filepath.WalkDir(filepath.Join(dir, "memory"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		for _, old := range []string{"예산은", "커피를"} {
			if err == nil && strings.Contains(string(b), old) {
				t.Errorf("%q is still in %s", old, path)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func slicesKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
