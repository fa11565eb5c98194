package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// TestHybridRestartDoesNotReembed imports with embeddings, closes, reopens
// and searches again: the results are the same and the only /api/embed call
// after the restart is the query's own.
func TestHybridRestartDoesNotReembed(t *testing.T) {
	ctx := context.Background()
	fake := ollamatest.New(t)
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs")
	os.MkdirAll(docs, 0o755)
	os.WriteFile(filepath.Join(docs, "leave.md"), []byte("# 휴가 정책\n\n연차는 15일입니다. 병가는 10일입니다.\n\n# Expenses\n\nMeals are reimbursed up to 30 dollars."), 0o644)
	os.WriteFile(filepath.Join(docs, "other.txt"), []byte("The office opens at nine. 사무실은 9시에 엽니다."), 0o644)

	open := func() (*Base, func()) {
		db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
		if err != nil {
			t.Fatal(err)
		}
		client, err := llm.New(fake.URL()) // a new process has a new client
		if err != nil {
			t.Fatal(err)
		}
		ix := vector.Open(filepath.Join(dir, "chunks.vec"), "bge-m3", vector.ModelEmbedder(client, "bge-m3"))
		if err := ix.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		v := Vectors{Index: ix}
		b, err := Open(ctx, db, filepath.Join(dir, "knowledge"), Options{Sink: v, Vectors: v})
		if err != nil {
			t.Fatal(err)
		}
		return b, func() {
			ix.Close()
			if sqlDB, err := db.DB(); err == nil {
				sqlDB.Close()
			}
		}
	}
	b, closeAll := open()
	rep, err := b.Import(ctx, []string{docs}, nil)
	if err != nil || len(rep.Failed) != 0 || rep.Chunks == 0 {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	embedsAfterImport := fake.Count(ollamatest.PathEmbed)
	if embedsAfterImport == 0 {
		t.Fatal("import embedded nothing")
	}
	before, err := b.Search(ctx, "휴가 정책이 뭐야", SearchOptions{TopK: 3})
	if err != nil || len(before) == 0 || filepath.Base(before[0].Source) != "leave.md" {
		t.Fatalf("search before restart: %+v, %v", before, err)
	}
	closeAll()

	b, closeAll = open()
	defer closeAll()
	after, err := b.Search(ctx, "휴가 정책이 뭐야", SearchOptions{TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := fake.Count(ollamatest.PathEmbed) - embedsAfterImport; got != 2 {
		// one query embedding before the restart, one after: nothing re-embedded
		t.Fatalf("/api/embed calls after import = %d, want 2 (the two queries)", got)
	}
	if len(after) != len(before) || after[0].ChunkID != before[0].ChunkID {
		t.Fatalf("results changed across restart:\nbefore %+v\nafter  %+v", before, after)
	}
}

// TestReindexEmbedsWhatIsMissing: the catalog is indexed by keywords only;
// Reindex embeds its chunks once, and a second Reindex finds nothing to do.
func TestReindexEmbedsWhatIsMissing(t *testing.T) {
	ctx := context.Background()
	fake := ollamatest.New(t)
	client, err := llm.New(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		t.Fatal(err)
	}
	ix := vector.Open(filepath.Join(dir, "chunks.vec"), "bge-m3", vector.ModelEmbedder(client, "bge-m3"))
	defer ix.Close()
	v := Vectors{Index: ix}
	b, err := Open(ctx, db, filepath.Join(dir, "knowledge"), Options{Sink: v, Vectors: v})
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SyncCatalog(ctx, b, c, nil); err != nil {
		t.Fatal(err)
	}
	if fake.Count(ollamatest.PathEmbed) != 0 {
		t.Fatal("SyncCatalog embedded in the foreground")
	}
	if err := ix.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	has := func() func(string) bool {
		ids, _ := ix.IDs(ctx)
		set := map[string]bool{}
		for _, id := range ids {
			set[id] = true
		}
		return func(id string) bool { return set[id] }
	}
	// pace runs before every batch and can hold it back or stop it.
	errPaused := errors.New("the person is chatting")
	if n, err := b.Reindex(ctx, has(), func(context.Context) error { return errPaused }); !errors.Is(err, errPaused) || n != 0 || fake.Count(ollamatest.PathEmbed) != 0 {
		t.Fatalf("reindex stopped by pace: %d, %v, %d embed calls", n, err, fake.Count(ollamatest.PathEmbed))
	}
	var paced []int // embed calls made when pace ran
	n, err := b.Reindex(ctx, has(), func(context.Context) error {
		paced = append(paced, fake.Count(ollamatest.PathEmbed))
		return nil
	})
	if err != nil || n != len(c.Entries) {
		t.Fatalf("reindex: %d, %v (want %d)", n, err, len(c.Entries))
	}
	if want := (len(c.Entries) + reindexBatch - 1) / reindexBatch; len(paced) != want || paced[0] != 0 {
		t.Errorf("pace ran %d times (first after %v embed calls), want %d, before any", len(paced), paced, want)
	}
	if n, err := b.Reindex(ctx, has(), nil); err != nil || n != 0 {
		t.Fatalf("second reindex: %d, %v", n, err)
	}
	hits, err := b.Search(ctx, "subtitles for Korean videos", SearchOptions{TopK: 5, Scope: ScopeCatalog})
	if err != nil || len(hits) == 0 {
		t.Fatalf("hybrid search: %v, %v", hits, err)
	}
}

// A search whose query vector does not come (Ollama stuck, or busy with
// something else) answers with keywords alone after Vectors.QueryWait,
// instead of holding the person for the embedding client's own retries.
func TestSearchDoesNotWaitForAStuckEmbedding(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	stuck := make(chan struct{})
	defer close(stuck)
	calls := 0
	emb := vector.EmbedFunc(func(ctx context.Context, inputs []string) ([][]float32, error) {
		calls++
		if calls == 1 { // the document's chunks are embedded
			out := make([][]float32, len(inputs))
			for i := range out {
				out[i] = []float32{1, 0, 0}
			}
			return out, nil
		}
		select { // the query's vector never comes
		case <-stuck:
		case <-ctx.Done():
		}
		return nil, ctx.Err()
	})
	ix := vector.Open(filepath.Join(dir, "chunks.vec"), "bge-m3", emb)
	defer ix.Close()
	if err := ix.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		t.Fatal(err)
	}
	v := Vectors{Index: ix, QueryWait: 50 * time.Millisecond}
	b, err := Open(ctx, db, filepath.Join(dir, "knowledge"), Options{Sink: v, Vectors: v})
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(dir, "leave.md")
	os.WriteFile(doc, []byte("# 휴가 정책\n\n연차는 15일입니다.\n"), 0o644)
	if _, err := b.Import(ctx, []string{doc}, nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Hit, 1)
	go func() {
		hits, err := b.Search(ctx, "연차 며칠", SearchOptions{})
		if err != nil {
			t.Error(err)
		}
		done <- hits
	}()
	select {
	case hits := <-done:
		if len(hits) != 1 || hits[0].Title != "휴가 정책" {
			t.Errorf("hits %+v, want the leave policy by its words", hits)
		}
	case <-time.After(20 * time.Second): // the embedding never answers: only QueryWait ends the wait
		t.Fatal("the search waited for a query vector that never came")
	}
}
