package vector

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// An index for a model tried for one run (Mirror) never embeds into the
// saved model's file, yet keeps it true to the documents: what it deletes,
// relabels, clears or changes is gone from there too, and what it adds as
// it was keeps its saved vector. Reopened with the saved model, the file
// needs no embedding at all.
func TestMirrorKeepsSavedVectors(t *testing.T) {
	changed := Doc{ID: "leave", Text: "연차 휴가는 20일입니다", Metadata: corpus[0].Metadata}
	tests := []struct {
		name   string
		change func(ctx context.Context, ix *Index) error
		docs   int    // documents the saved file keeps
		tagged int    // of them labelled kind=tool
		gone   string // a document the saved file must not keep
	}{
		{"same texts added again", func(ctx context.Context, ix *Index) error { return ix.Add(ctx, corpus, nil) }, 4, 0, ""},
		{"a text changed", func(ctx context.Context, ix *Index) error {
			return ix.AddLater(ctx, []Doc{changed})
		}, 3, 0, "leave"},
		{"deleted", func(ctx context.Context, ix *Index) error { return ix.Delete(ctx, "coffee") }, 3, 0, "coffee"},
		{"deleted where", func(ctx context.Context, ix *Index) error {
			_, err := ix.DeleteWhere(ctx, map[string]string{"source": "policy.pdf"})
			return err
		}, 3, 0, "leave"},
		{"relabelled", func(ctx context.Context, ix *Index) error {
			_, err := ix.Relabel(ctx, map[string]string{"source": "catalog"}, "kind", "tool")
			return err
		}, 4, 2, ""},
		{"cleared", func(ctx context.Context, ix *Index) error { return ix.Clear(ctx) }, 0, 0, "video"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			dir := t.TempDir()
			path := filepath.Join(dir, "chunks.vec")
			writeSaved(t, path, corpus)

			tried := &fakeEmbedder{dim: 8}
			ix := openReady(t, filepath.Join(dir, "chunks.override.vec"), "b", tried,
				Mirror(OpenKept(path)))
			if err := ix.Add(ctx, corpus, nil); err != nil {
				t.Fatal(err)
			}
			if err := tt.change(ctx, ix); err != nil {
				t.Fatal(err)
			}
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}

			again := &fakeEmbedder{dim: 16}
			back := openReady(t, path, "a", again)
			if st := back.Status(); st.Docs != tt.docs || st.Embedded != tt.docs || st.Reembedding {
				t.Errorf("saved file after the tried run: %+v, want %d documents, all embedded", st, tt.docs)
			}
			if n := again.texts.Load(); n != 0 {
				t.Errorf("reopened with the saved model, %d texts were embedded again", n)
			}
			if tt.gone != "" && back.HasVectors([]string{tt.gone})[0] {
				t.Errorf("the saved file still has %q", tt.gone)
			}
			if tt.docs > 0 {
				hits, err := back.QueryVector(ctx, ollamatest.Vector("catalog", 16), 4, map[string]string{"kind": "tool"})
				if err != nil || len(hits) != tt.tagged {
					t.Errorf("kind=tool in the saved file: %v %v, want %d", ids(hits), err, tt.tagged)
				}
			}
		})
	}
}

// cancelledAfterFirst is a context cancelled just after its first use:
// Stop pressed, or the app shutting down, while the tried index changed.
// Its Done is never ready the first time it is asked for and always
// ready after.
type cancelledAfterFirst struct {
	context.Context
	asked atomic.Int32
}

var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c *cancelledAfterFirst) Done() <-chan struct{} {
	if c.asked.Add(1) == 1 {
		return nil
	}
	return closedDone
}

func (c *cancelledAfterFirst) Err() error {
	if c.asked.Load() > 1 {
		return context.Canceled
	}
	return nil
}

// A change the tried index makes just before its caller's context is
// cancelled still reaches the saved file, and when it cannot reach it the
// saved file is removed rather than left holding what the run deleted:
// the next run with the saved model trusts every chunk id it finds there.
func TestMirrorOutlivesCancelAndNeverLeavesStale(t *testing.T) {
	docs := make([]Doc, 24)
	for i := range docs {
		docs[i] = Doc{ID: fmt.Sprintf("d%02d", i), Text: fmt.Sprintf("문서 %d의 내용", i), Metadata: map[string]string{"source": "a.pdf"}}
	}
	tests := []struct {
		name      string
		closeKept bool // the saved index fails every change
		docs      int  // documents of the saved file after the run; -1: no file
	}{
		// Each of the 24 deletes runs with a context cancelled after the
		// tried index's own wait: without WithoutCancel the saved index's
		// wait fails about one time in two (select picks among ready cases).
		{"cancelled after each delete", false, 0},
		{"saved index failing", true, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			dir := t.TempDir()
			path := filepath.Join(dir, "chunks.vec")
			writeSaved(t, path, docs)

			kept := OpenKept(path)
			ix := openReady(t, filepath.Join(dir, "chunks.override.vec"), "b", &fakeEmbedder{dim: 8}, Mirror(kept))
			if err := ix.Add(ctx, docs, nil); err != nil {
				t.Fatal(err)
			}
			if tt.closeKept {
				kept.Close()
			}
			for _, d := range docs {
				if err := ix.Delete(&cancelledAfterFirst{Context: ctx}, d.ID); err != nil {
					t.Fatal(err)
				}
			}
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); tt.docs < 0 {
				if !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("the saved file is left after a change failed to reach it (stat: %v)", err)
				}
				return
			} else if err != nil {
				t.Fatalf("the saved file is gone: %v", err)
			}
			back := openReady(t, path, "a", &fakeEmbedder{dim: 16})
			if st := back.Status(); st.Docs != tt.docs {
				t.Errorf("saved file after the tried run holds %d documents, want %d", st.Docs, tt.docs)
			}
		})
	}
}

// writeSaved writes docs to a vector file of the saved model "a", as a run
// without a tried model leaves it.
func writeSaved(t *testing.T, path string, docs []Doc) {
	t.Helper()
	saved := openReady(t, path, "a", &fakeEmbedder{dim: 16})
	if err := saved.Add(t.Context(), docs, nil); err != nil {
		t.Fatal(err)
	}
	saved.Close()
}
