package vector

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// heldEmbedder embeds with ollamatest.Vector and counts texts; once held,
// its next call says so on entered and waits for release.
type heldEmbedder struct {
	texts   atomic.Int64
	mu      sync.Mutex
	release chan struct{}
	entered chan struct{}
}

func (h *heldEmbedder) hold() (entered, release chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entered, h.release = make(chan struct{}, 1), make(chan struct{})
	return h.entered, h.release
}

func (h *heldEmbedder) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	h.mu.Lock()
	entered, release := h.entered, h.release
	h.mu.Unlock()
	if release != nil {
		entered <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h.texts.Add(int64(len(inputs)))
	out := make([][]float32, len(inputs))
	for i, in := range inputs {
		out[i] = ollamatest.Vector(in, 16)
	}
	return out, nil
}

// TestRelabelMovesAFile: a file moved (a conversation's file added to the
// library) is relabelled with its new source. Its embedded passage keeps
// its vector, its pending one stays pending, and a batch the worker was
// embedding as it moved is stored under the new source: pending, settled
// and filtered searches name it where it is now, nothing is embedded
// twice or lost, and a restart reads it so.
func TestRelabelMovesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	emb := &heldEmbedder{}
	var (
		mu      sync.Mutex
		settled []string
	)
	ix := openReady(t, path, "m", emb, WithBatchSize(1), WithSettled("source", func(v []string) {
		mu.Lock()
		defer mu.Unlock()
		settled = append(settled, v...)
	}))
	from := map[string]string{"source": "conv/a.md", "kind": "file"}
	other := Doc{ID: "b:0", Text: "다른 파일", Metadata: map[string]string{"source": "conv/b.md", "kind": "file"}}
	if err := ix.Add(t.Context(), []Doc{{ID: "a:0", Text: "출장비는 하루 10만원", Metadata: from}, other}, nil); err != nil {
		t.Fatal(err)
	}
	entered, release := emb.hold()
	if err := ix.AddLater(t.Context(), []Doc{{ID: "a:1", Text: "식비와 교통비의 정산", Metadata: from}}); err != nil {
		t.Fatal(err)
	}
	<-entered // the worker embeds a:1 now
	n, err := ix.Relabel(t.Context(), map[string]string{"source": "conv/a.md"}, "source", "lib/a.md")
	if err != nil || n != 2 {
		t.Fatalf("relabel: %d, %v; want 2", n, err)
	}
	if diff := cmp.Diff(map[string]int{"lib/a.md": 1}, ix.PendingBy("source")); diff != "" {
		t.Errorf("pending by source after the move (-want +got):\n%s", diff)
	}
	if got := ix.HasVectors([]string{"a:0", "a:1", "b:0"}); !slices.Equal(got, []bool{true, false, true}) {
		t.Errorf("vectors after the move: %v", got)
	}
	close(release)
	waitFor(t, func() bool { return ix.Status().Pending == 0 })
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(settled) > 0 })
	mu.Lock()
	if diff := cmp.Diff([]string{"lib/a.md"}, settled); diff != "" {
		t.Errorf("settled (-want +got):\n%s", diff)
	}
	mu.Unlock()
	if got := emb.texts.Load(); got != 3 {
		t.Errorf("%d texts embedded; want 3, each once", got)
	}
	if st := ix.Status(); st.Docs != 3 || st.Embedded != 3 {
		t.Errorf("status %+v; want 3 documents, all embedded", st)
	}
	ix.Close()

	again := &heldEmbedder{}
	ix = openReady(t, path, "m", again)
	for _, c := range []struct {
		source string
		want   []string
	}{{"lib/a.md", []string{"a:0", "a:1"}}, {"conv/a.md", nil}, {"conv/b.md", []string{"b:0"}}} {
		hits, err := ix.Query(t.Context(), "출장비", 5, map[string]string{"source": c.source})
		if err != nil {
			t.Fatal(err)
		}
		got := ids(hits)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("after a restart, %s has %v; want %v", c.source, got, c.want)
		}
	}
	if got := again.texts.Load(); got != 3 { // the three queries, nothing else
		t.Errorf("%d texts embedded after a restart; want the 3 queries only", got)
	}
}

// Relabel needs a filter, and an index opened read-only refuses it.
func TestRelabelRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	ix := openReady(t, path, "m", &heldEmbedder{})
	if _, err := ix.Relabel(t.Context(), nil, "source", "x"); err == nil {
		t.Error("relabelled everything without a filter")
	}
	ix.Close()
	ro := openReady(t, path, "m", &heldEmbedder{}, ReadOnly())
	if _, err := ro.Relabel(t.Context(), map[string]string{"source": "a"}, "source", "b"); err != ErrReadOnly {
		t.Errorf("read-only: %v", err)
	}
}
