package vector

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPendingLeftCountsDown: after each batch the worker stores, the
// groups (documents) of its documents hear how many of theirs are still
// pending, down to 0, so that a window counts a file's passages down as
// they are embedded; a group the batch did not touch hears nothing.
func TestPendingLeftCountsDown(t *testing.T) {
	emb := &fakeEmbedder{dim: 16, gate: make(chan struct{})}
	var (
		mu   sync.Mutex
		said = map[string][]int{}
	)
	doc := func(id string) string { d, _, _ := strings.Cut(id, ":"); return d }
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m", emb, WithBatchSize(1), WithPendingLeft(doc, func(left map[string]int) {
		mu.Lock()
		defer mu.Unlock()
		if len(left) != 1 {
			t.Errorf("a batch of one told %v", left)
		}
		for g, n := range left {
			said[g] = append(said[g], n)
		}
	}))
	var docs []Doc
	for _, id := range []string{"a:0", "a:1", "a:2", "b:0"} {
		docs = append(docs, Doc{ID: id, Text: "passage " + id, Metadata: map[string]string{"source": doc(id)}})
	}
	if err := ix.AddLater(t.Context(), docs); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"a": 3, "b": 1}, ix.PendingGrouped(doc)); diff != "" {
		t.Errorf("pending by document before the worker (-want +got):\n%s", diff)
	}
	close(emb.gate)
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(said["a"])+len(said["b"]) == 4 })
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(map[string][]int{"a": {2, 1, 0}, "b": {0}}, said); diff != "" {
		t.Errorf("left after each batch (-want +got):\n%s", diff)
	}
}
