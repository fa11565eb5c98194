package vector

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sourced(source string, ids ...string) []Doc {
	docs := make([]Doc, len(ids))
	for i, id := range ids {
		docs[i] = Doc{ID: id, Text: "passage " + id, Metadata: map[string]string{"source": source}}
	}
	return docs
}

// TestPauseHoldsBackASource: the worker embeds another file's pending
// passages while a paused file's wait, counted as pending; a paused file
// moved (Relabel) stays paused under its new name; Resume embeds them.
func TestPauseHoldsBackASource(t *testing.T) {
	emb := &fakeEmbedder{dim: 16}
	path := filepath.Join(t.TempDir(), "v")
	ix := openReady(t, path, "m", emb, WithBatchSize(1))
	ix.Pause("source", "a.pdf")
	if err := ix.AddLater(t.Context(), sourced("a.pdf", "a:0", "a:1", "a:2")); err != nil {
		t.Fatal(err)
	}
	if err := ix.AddLater(t.Context(), sourced("b.pdf", "b:0", "b:1")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return ix.PendingBy("source")["b.pdf"] == 0 })
	// The worker is idle now: b's passages are done, a's are all it has.
	if diff := cmp.Diff(map[string]int{"a.pdf": 3}, ix.PendingBy("source")); diff != "" {
		t.Errorf("pending after the worker embedded the other file (-want +got):\n%s", diff)
	}
	if got := emb.texts.Load(); got != 2 {
		t.Errorf("embedded %d passages, want b's 2", got)
	}
	if n, err := ix.Relabel(t.Context(), map[string]string{"source": "a.pdf"}, "source", "lib/a.pdf"); err != nil || n != 3 {
		t.Fatalf("Relabel = %d, %v", n, err)
	}
	if diff := cmp.Diff(map[string]bool{"lib/a.pdf": true}, ix.PausedBy("source")); diff != "" {
		t.Errorf("paused after the move (-want +got):\n%s", diff)
	}
	// Something else wakes the worker: a's passages still wait.
	if err := ix.AddLater(t.Context(), sourced("c.pdf", "c:0")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return ix.PendingBy("source")["c.pdf"] == 0 })
	if diff := cmp.Diff(map[string]int{"lib/a.pdf": 3}, ix.PendingBy("source")); diff != "" {
		t.Errorf("pending of the moved paused file (-want +got):\n%s", diff)
	}
	if ix.Resume("source", "a.pdf") {
		t.Error("Resume of the old name said it was paused")
	}
	if !ix.Resume("source", "lib/a.pdf") {
		t.Error("Resume said the moved file was not paused")
	}
	waitFor(t, func() bool { return len(ix.PendingBy("source")) == 0 })
	if got := emb.texts.Load(); got != 6 {
		t.Errorf("embedded %d passages in all, want 6", got)
	}
	if len(ix.PausedBy("source")) != 0 {
		t.Errorf("still paused after Resume: %v", ix.PausedBy("source"))
	}
}

// TestPauseLastsUntilRestart: pausing lives in memory; the next Open of
// the same file embeds what a pause held back.
func TestPauseLastsUntilRestart(t *testing.T) {
	emb := &fakeEmbedder{dim: 16}
	path := filepath.Join(t.TempDir(), "v")
	ix := openReady(t, path, "m", emb)
	ix.Pause("source", "a.pdf")
	if err := ix.AddLater(t.Context(), sourced("a.pdf", "a:0", "a:1")); err != nil {
		t.Fatal(err)
	}
	if err := ix.AddLater(t.Context(), sourced("b.pdf", "b:0")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return ix.PendingBy("source")["b.pdf"] == 0 })
	if got := ix.PendingBy("source")["a.pdf"]; got != 2 {
		t.Fatalf("a.pdf pending = %d before the restart, want 2", got)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	again := openReady(t, path, "m", emb)
	waitFor(t, func() bool { return len(again.PendingBy("source")) == 0 })
	if got := again.HasVectors([]string{"a:0", "a:1"}); !got[0] || !got[1] {
		t.Errorf("after the restart a.pdf has vectors %v, want both", got)
	}
}
