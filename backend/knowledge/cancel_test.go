package knowledge

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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

// laterSink is a holdSink that keeps chunks for the background
// (LaterSink) and says which it holds a vector of (vectorCoverage), as the
// vector index does.
type laterSink struct {
	*holdSink
	mu    sync.Mutex
	later map[string]bool
}

func (s *laterSink) UpsertLater(_ context.Context, chunks []IndexedChunk) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range chunks {
		s.later[c.ID] = true
	}
	return nil
}

func (s *laterSink) HasVectors(ids []string) []bool {
	s.fakeSink.mu.Lock()
	defer s.fakeSink.mu.Unlock()
	out := make([]bool, len(ids))
	for i, id := range ids {
		out[i] = s.fakeSink.upserted[id]
	}
	return out
}

// TestStopWhileEmbeddingKeepsTheRestForLater: a file stopped while it
// embeds is in, and every chunk it had not embedded goes to the
// background embedding, on its first page of chunks read back (the one
// embedding) and on the pages after it, so that a row saying its meaning
// comes later tells the truth for a long file too; the chunk it embedded
// is not embedded again.
func TestStopWhileEmbeddingKeepsTheRestForLater(t *testing.T) {
	e := newPlainEnv(t)
	sink := &laterSink{holdSink: &holdSink{fakeSink: e.sink, hold: "long.md", held: make(chan struct{})}, later: map[string]bool{}}
	b := e.openWith(Options{Sink: sink})
	var text strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&text, "# Part %d\n\nsection %d of the long file\n\n", i, i)
	}
	path := writeIn(t, t.TempDir(), "long.md", text.String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan Progress, 1)
	go func() {
		var last Progress
		_, _ = b.Import(ctx, []string{path}, func(p Progress) { last = p })
		out <- last
	}()
	<-sink.held
	cancel()
	last := <-out
	if last.Stage != StageDone || !errors.Is(last.EmbedErr, context.Canceled) {
		t.Fatalf("the file's last progress %+v, want done with its embedding stopped", last)
	}
	_, chunks := rows(t, b)
	if chunks <= 1000 {
		t.Fatalf("%d chunks: the file must fill more than one page of chunks read back", chunks)
	}
	sink.mu.Lock()
	later := len(sink.later)
	sink.mu.Unlock()
	if embedded := len(sink.upserted); embedded != 1 || int64(later) != chunks-1 {
		t.Errorf("%d chunks embedded, %d kept for later, of %d: want 1 and the rest", embedded, later, chunks)
	}
	for id := range sink.upserted {
		if sink.later[id] {
			t.Errorf("the embedded chunk %s was kept to be embedded again", id)
		}
	}
}

// TestEmbeddingHandedOn: a file attached while another embeds in line does
// not wait for that embedding. The first file's import ends at once, found
// by its words, its chunks not embedded yet (of every page read back) kept
// for the background embedding and its EmbedErr ErrEmbedHandedOn; the
// second is read and embeds in line itself, its turn alone. A file of an
// import read while another waits is not embedded in line at all.
func TestEmbeddingHandedOn(t *testing.T) {
	e := newPlainEnv(t)
	sink := &laterSink{holdSink: &holdSink{fakeSink: e.sink, hold: "long.md", held: make(chan struct{})}, later: map[string]bool{}}
	b := e.openWith(Options{Sink: sink, UploadDir: filepath.Join(e.dir, "uploads")})
	var text strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&text, "# Part %d\n\nsection %d of the long file\n\n", i, i)
	}
	dir := t.TempDir()
	paths := []string{writeIn(t, dir, "long.md", text.String()), writeIn(t, dir, "next.md", "# Next\n\nnectarines\n")}
	ctx := context.Background()
	var log progressLog
	out := make(chan error, 1)
	go func() {
		_, err := b.Import(ctx, paths, log.add)
		out <- err
	}()
	<-sink.held
	type upload struct {
		res UploadResult
		err error
	}
	uploaded := make(chan upload, 1)
	go func() {
		res, err := b.Upload(ctx, "second.md", strings.NewReader("# Second\n\nsecond file of the conversation\n"), log.add)
		uploaded <- upload{res, err}
	}()
	var up upload
	select {
	case up = <-uploaded:
	case <-time.After(time.Minute): // long.md's embedding never ends by itself
		t.Fatal("the upload waits for long.md's embedding")
	}
	if up.err != nil || up.res.Outcome != UploadAdded {
		t.Fatalf("upload: %+v, %v", up.res, up.err)
	}
	if err := <-out; err != nil {
		t.Fatalf("import: %v", err)
	}
	for f, want := range map[string]bool{"long.md": true, "next.md": false, "second.md": true} {
		p := log.last[f]
		if p.Stage != StageDone {
			t.Errorf("%s ended %s, want done", f, p.Stage)
		}
		if got := log.embedded(f); got != want {
			t.Errorf("%s: embedding in line %v, want %v (stages %v)", f, got, want, log.stages[f])
		}
	}
	for _, f := range []string{"long.md", "next.md"} {
		if err := log.last[f].EmbedErr; !errors.Is(err, ErrEmbedHandedOn) {
			t.Errorf("%s: embedding error %v, want ErrEmbedHandedOn", f, err)
		}
	}
	if err := log.last["second.md"].EmbedErr; err != nil {
		t.Errorf("second.md: embedding error %v, want it embedded in line", err)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	sink.fakeSink.mu.Lock()
	defer sink.fakeSink.mu.Unlock()
	long, embedded := 0, 0
	for id := range sink.later {
		if sink.fakeSink.upserted[id] {
			embedded++
		}
		long++
	}
	// 1,500 chunks of long.md less the one it embedded, and next.md's one.
	if long != 1500 || embedded != 0 {
		t.Errorf("%d chunks kept for later (%d of them embedded already), want long.md's 1,499 not embedded and next.md's", long, embedded)
	}
	for _, q := range []string{"section 1499", "nectarines", "second file"} {
		if hits, err := b.Search(ctx, q, SearchOptions{}); err != nil || len(hits) == 0 {
			t.Errorf("search %q: %d hits, %v; want it found by its words", q, len(hits), err)
		}
	}
}
