package knowledge

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// holdSink embeds as its inner sink does, except chunks of the file named
// hold: it embeds their first batch, says so on held, and then waits
// for the import to be stopped, as Ollama hanging on a batch does.
type holdSink struct {
	*fakeSink
	hold string
	held chan struct{}
}

func (s *holdSink) Upsert(ctx context.Context, chunks []IndexedChunk, onProgress func(done, total int)) error {
	if len(chunks) == 0 || filepath.Base(chunks[0].Source) != s.hold {
		return s.fakeSink.Upsert(ctx, chunks, onProgress)
	}
	if err := s.fakeSink.Upsert(ctx, chunks[:1], func(int, int) {}); err != nil {
		return err
	}
	close(s.held)
	<-ctx.Done()
	return ctx.Err()
}

// TestImportStopped: an import of three files stopped while the second
// embeds keeps the first and the second, which is found by its words from
// the moment it was read (its earlier version replaced) and whose
// embedding stops, the rest left to Reindex; the third does not start and
// ends with StageStopped, in Report.Stopped.
func TestImportStopped(t *testing.T) {
	e := newPlainEnv(t)
	sink := &holdSink{fakeSink: e.sink, hold: "b.md", held: make(chan struct{})}
	b := e.openWith(Options{Sink: sink})
	dir := t.TempDir()
	found := func(q string) int {
		t.Helper()
		hits, err := b.Search(context.Background(), q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	bPath := writeIn(t, dir, "b.md", "# B\n\nblueberries from the first version\n")
	sink.hold = "" // the first version goes in
	if _, err := b.Import(context.Background(), []string{bPath}, nil); err != nil {
		t.Fatal(err)
	}
	sink.hold = "b.md"
	docs0, chunks0 := rows(t, b)
	paths := []string{writeIn(t, dir, "a.md", "# A\n\napricots\n"), writeIn(t, dir, "b.md", "# B\n\nbananas of the second version\n"), writeIn(t, dir, "c.md", "# C\n\ncherries\n")}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	last := map[string]Progress{}
	type result struct {
		rep Report
		err error
	}
	out := make(chan result, 1)
	go func() {
		rep, err := b.Import(ctx, paths, func(p Progress) {
			mu.Lock()
			last[filepath.Base(p.File)] = p
			mu.Unlock()
		})
		out <- result{rep, err}
	}()
	<-sink.held
	// While it embeds, the second version is already what search finds.
	if found("bananas") != 1 || found("blueberries") != 0 {
		t.Errorf("while b.md embeds: bananas %d hits, blueberries %d; want its new version found by its words", found("bananas"), found("blueberries"))
	}
	cancel()
	r := <-out

	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", r.err)
	}
	if got := base(r.rep.Imported); !slices.Equal(got, []string{"a.md", "b.md"}) {
		t.Errorf("imported %v, want a.md, b.md", got)
	}
	if got := base(r.rep.Stopped); !slices.Equal(got, []string{"c.md"}) {
		t.Errorf("stopped %v, want c.md", got)
	}
	stages := map[string]Stage{}
	for f, p := range last {
		stages[f] = p.Stage
	}
	if want := map[string]Stage{"a.md": StageDone, "b.md": StageDone, "c.md": StageStopped}; !maps.Equal(stages, want) {
		t.Errorf("last stages %v, want %v", stages, want)
	}
	if err := last["b.md"].EmbedErr; !errors.Is(err, context.Canceled) {
		t.Errorf("b.md's embedding ended with %v, want it stopped", err)
	}
	docs, chunks := rows(t, b)
	if docs != docs0+1 || chunks != chunks0+1 {
		t.Errorf("%d documents, %d chunks; want %d, %d (a.md's added, b.md's second version in place of its first)", docs, chunks, docs0+1, chunks0+1)
	}
	for q, want := range map[string]int{"blueberries": 0, "bananas": 1, "cherries": 0, "apricots": 1} {
		if got := found(q); got != want {
			t.Errorf("search %q: %d hits, want %d", q, got, want)
		}
	}
	var staged int64
	b.db.Model(&Document{}).Where("staged").Count(&staged)
	if staged != 0 {
		t.Errorf("%d staged documents left", staged)
	}
}
