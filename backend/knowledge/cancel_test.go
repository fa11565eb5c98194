package knowledge

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
// embeds keeps the first, leaves nothing of the second (no staged row, no
// vector; its earlier version stays, still found) and does not start the
// third; both end with StageStopped and in Report.Stopped.
func TestImportStopped(t *testing.T) {
	e := newPlainEnv(t)
	sink := &holdSink{fakeSink: e.sink, hold: "b.md", held: make(chan struct{})}
	b := e.openWith(Options{Sink: sink})
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bPath := write("b.md", "# B\n\nblueberries from the first version\n")
	sink.hold = "" // the first version goes in
	if _, err := b.Import(context.Background(), []string{bPath}, nil); err != nil {
		t.Fatal(err)
	}
	sink.hold = "b.md"
	docs0, chunks0 := rows(t, b)
	vectors0 := e.sink.count()
	paths := []string{write("a.md", "# A\n\napricots\n"), write("b.md", "# B\n\nbananas of the second version\n"), write("c.md", "# C\n\ncherries\n")}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	last := map[string]Stage{}
	type result struct {
		rep Report
		err error
	}
	out := make(chan result, 1)
	go func() {
		rep, err := b.Import(ctx, paths, func(p Progress) { last[filepath.Base(p.File)] = p.Stage })
		out <- result{rep, err}
	}()
	<-sink.held
	cancel()
	r := <-out

	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", r.err)
	}
	if got := base(r.rep.Imported); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("imported %v, want a.md", got)
	}
	if got := base(r.rep.Stopped); !slices.Equal(got, []string{"b.md", "c.md"}) {
		t.Errorf("stopped %v, want b.md, c.md", got)
	}
	if want := map[string]Stage{"a.md": StageDone, "b.md": StageStopped, "c.md": StageStopped}; !maps.Equal(last, want) {
		t.Errorf("last stages %v, want %v", last, want)
	}
	docs, chunks := rows(t, b)
	if docs != docs0+1 || chunks != chunks0+1 {
		t.Errorf("%d documents, %d chunks; want %d, %d (a.md's added, nothing of b.md's second version)", docs, chunks, docs0+1, chunks0+1)
	}
	if got := e.sink.count(); got != vectors0+1 {
		t.Errorf("%d vectors, want %d: the stopped file's were taken back", got, vectors0+1)
	}
	for q, want := range map[string]int{"blueberries": 1, "bananas": 0, "cherries": 0, "apricots": 1} {
		hits, err := b.Search(context.Background(), q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != want {
			t.Errorf("search %q: %d hits, want %d", q, len(hits), want)
		}
	}
	var staged int64
	b.db.Model(&Document{}).Where("staged").Count(&staged)
	if staged != 0 {
		t.Errorf("%d staged documents left", staged)
	}
}
