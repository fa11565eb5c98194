package vector

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// Kept changes the saved file without loading it: a relabel reads each
// record back from where the file has it, also a record a relabel before
// appended and more than one write's worth of them (600 vectors of 1024
// dimensions, 2.4 MB), and the saved model, reopening the file, finds
// every vector as it was under its last label and nothing deleted.
func TestKeptRelabelsFromTheFile(t *testing.T) {
	const n, dim = 600, 1024
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = Doc{ID: fmt.Sprintf("d%03d", i), Text: fmt.Sprintf("문서 %d", i), Metadata: map[string]string{"source": "a.pdf", "kind": "file"}}
	}
	path := filepath.Join(t.TempDir(), "chunks.vec")
	saved := openReady(t, path, "a", &fakeEmbedder{dim: dim})
	if err := saved.Add(t.Context(), docs, nil); err != nil {
		t.Fatal(err)
	}
	saved.Close()

	ctx := t.Context()
	kept := OpenKept(path)
	steps := []struct {
		name string
		do   func() (int, error)
		want int
	}{
		{"moved", func() (int, error) { return kept.Relabel(ctx, map[string]string{"source": "a.pdf"}, "source", "b.pdf") }, n},
		{"moved again", func() (int, error) { return kept.Relabel(ctx, map[string]string{"source": "b.pdf"}, "source", "c.pdf") }, n},
		{"tagged", func() (int, error) { return kept.Relabel(ctx, map[string]string{"source": "c.pdf"}, "kind", "tool") }, n},
		{"nothing left to move", func() (int, error) { return kept.Relabel(ctx, map[string]string{"source": "a.pdf"}, "source", "b.pdf") }, 0},
		{"deleted", func() (int, error) { return 2, kept.Delete(ctx, "d000", "d599", "unknown") }, 2},
		{"a text changed", func() (int, error) {
			return 1, kept.dropChanged(ctx, []Doc{{ID: "d001", Text: "바뀐 문서", Metadata: map[string]string{"source": "c.pdf", "kind": "tool"}},
				{ID: "d002", Text: "문서 2", Metadata: map[string]string{"source": "c.pdf", "kind": "tool"}}})
		}, 1},
	}
	for _, s := range steps {
		if got, err := s.do(); err != nil || got != s.want {
			t.Fatalf("%s: %d, %v, want %d", s.name, got, err, s.want)
		}
	}
	if err := kept.Close(); err != nil {
		t.Fatal(err)
	}

	again := &fakeEmbedder{dim: dim}
	back := openReady(t, path, "a", again)
	if st := back.Status(); st.Docs != n-3 || st.Embedded != n-3 {
		t.Fatalf("reopened: %+v, want %d documents, all embedded", st, n-3)
	}
	if k := again.texts.Load(); k != 0 {
		t.Errorf("%d texts embedded again", k)
	}
	hits, err := back.QueryVector(ctx, ollamatest.Vector("문서 7", dim), n, map[string]string{"source": "c.pdf", "kind": "tool"})
	if err != nil || len(hits) != n-3 {
		t.Fatalf("under the last label: %d hits, %v, want %d", len(hits), err, n-3)
	}
	if hits[0].ID != "d007" || hits[0].Score < 0.999 || hits[0].Text != "문서 7" {
		t.Errorf("best hit %s %.4f %q: the vector or text did not survive the relabels", hits[0].ID, hits[0].Score, hits[0].Text)
	}
}
