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

// TestPauseOutlastsAModelChange: a file paused when the person picks
// another embedding model stays paused (nothing embeds it behind their
// back, with either model); the catch-up re-embeds the other files and
// ends without it, so that search by meaning is on again; Resume embeds
// it with the new model. A Resume during a catch-up joins it, counted.
func TestPauseOutlastsAModelChange(t *testing.T) {
	old, next := &fakeEmbedder{dim: 16}, &fakeEmbedder{dim: 8}
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m1", old, WithBatchSize(1))
	for _, docs := range [][]Doc{sourced("a.pdf", "a:0", "a:1", "a:2"), sourced("b.pdf", "b:0", "b:1")} {
		if err := ix.Add(t.Context(), docs, nil); err != nil {
			t.Fatal(err)
		}
	}
	ix.Pause("source", "a.pdf")
	ix.SetEmbedder("m2", next)
	waitFor(t, func() bool { return ix.PendingBy("source")["b.pdf"] == 0 })
	if diff := cmp.Diff(map[string]int{"a.pdf": 3}, ix.PendingBy("source")); diff != "" {
		t.Errorf("pending after the catch-up (-want +got):\n%s", diff)
	}
	if got := next.texts.Load(); got != 2 {
		t.Errorf("the new model embedded %d passages, want b's 2", got)
	}
	if st := ix.Status(); st.Reembedding || st.Model != "m2" {
		t.Errorf("status after the catch-up: %+v; want m2, not re-embedding", st)
	}
	if _, err := ix.Query(t.Context(), "passage", 5, nil); err != nil {
		t.Errorf("search by meaning while the paused file waits: %v", err)
	}
	if !ix.Resume("source", "a.pdf") {
		t.Fatal("Resume said a.pdf was not paused")
	}
	waitFor(t, func() bool { return len(ix.PendingBy("source")) == 0 })
	if got := next.texts.Load(); got != 6 {
		t.Errorf("the new model embedded %d texts in all, want 5 passages and the query", got)
	}
	if got := old.texts.Load(); got != 5 {
		t.Errorf("the old model embedded %d passages, want only the first 5", got)
	}

	// Paused again, and resumed while a catch-up runs: it is part of it.
	gate := make(chan struct{})
	third := &fakeEmbedder{dim: 4, gate: gate}
	ix.Pause("source", "a.pdf")
	ix.SetEmbedder("m3", third)
	if st := ix.Status(); !st.Reembedding {
		t.Fatalf("status as the catch-up starts: %+v", st)
	}
	ix.Resume("source", "a.pdf")
	close(gate)
	waitFor(t, func() bool { return !ix.Status().Reembedding })
	if n := len(ix.PendingBy("source")); n != 0 {
		t.Errorf("%d files pending after the catch-up", n)
	}
	if got := third.texts.Load(); got != 5 {
		t.Errorf("the third model embedded %d passages, want 5", got)
	}
}

// TestPauseEndsACatchUpOfOnlyPausedFiles: with only paused files left to
// re-embed, the catch-up is over, whether they were paused before the
// model change or during it.
func TestPauseEndsACatchUpOfOnlyPausedFiles(t *testing.T) {
	for _, during := range []bool{false, true} {
		gate := make(chan struct{})
		emb := &fakeEmbedder{dim: 16}
		ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m1", emb)
		if err := ix.Add(t.Context(), sourced("a.pdf", "a:0", "a:1"), nil); err != nil {
			t.Fatal(err)
		}
		if !during {
			ix.Pause("source", "a.pdf")
		}
		ix.SetEmbedder("m2", &fakeEmbedder{dim: 8, gate: gate})
		if during {
			ix.Pause("source", "a.pdf")
		}
		if st := ix.Status(); st.Reembedding {
			t.Errorf("paused during the change %v: status %+v; want no catch-up", during, st)
		}
		close(gate) // the query's own embedding goes through
		if _, err := ix.Query(t.Context(), "passage", 5, nil); err != nil {
			t.Errorf("paused during the change %v: search by meaning: %v", during, err)
		}
	}
}
