package vector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"go.uber.org/goleak"
)

// fakeEmbedder embeds with ollamatest.Vector, counts texts, and can be made
// to fail or to block.
type fakeEmbedder struct {
	dim   int
	calls atomic.Int64
	texts atomic.Int64
	fail  atomic.Int64 // fail this many more calls
	gate  chan struct{}
}

func (f *fakeEmbedder) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	f.calls.Add(1)
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.fail.Load() > 0 {
		f.fail.Add(-1)
		return nil, errors.New("ollama is down")
	}
	f.texts.Add(int64(len(inputs)))
	out := make([][]float32, len(inputs))
	for i, in := range inputs {
		out[i] = ollamatest.Vector(in, f.dim)
	}
	return out, nil
}

var corpus = []Doc{
	{ID: "leave", Text: "연차 휴가는 15일, 병가는 10일입니다", Metadata: map[string]string{"source": "policy.pdf", "kind": "file"}},
	{ID: "coffee", Text: "사용자는 커피를 좋아한다", Metadata: map[string]string{"source": "memory", "kind": "memory"}},
	{ID: "video", Text: "Runway edits video with AI", Metadata: map[string]string{"source": "catalog", "kind": "catalog"}},
	{ID: "image", Text: "Midjourney makes images from text prompts", Metadata: map[string]string{"source": "catalog", "kind": "catalog"}},
}

func openReady(t *testing.T, path, model string, emb Embedder, opts ...Option) *Index {
	t.Helper()
	ix := Open(path, model, emb, opts...)
	t.Cleanup(func() { ix.Close() })
	if err := ix.Wait(t.Context()); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return ix
}

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

// TestRestartNeverReembeds runs against the fake Ollama through the real
// client: import, close, reopen, same results, and the only /api/embed
// calls after reopening are for the queries.
func TestRestartNeverReembeds(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithEmbedDim(128))
	client, err := llm.New(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "docs.vec")
	emb := ModelEmbedder(client, "bge-m3")

	ix := Open(path, "bge-m3", emb, WithBatchSize(2))
	var progress []int
	if err := ix.Add(t.Context(), corpus, func(done, total int) { progress = append(progress, done) }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2, 4}, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	// n=1: the other documents share no word with the query and tie at 0.
	before, err := ix.Query(t.Context(), "휴가 정책", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if before[0].ID != "leave" {
		t.Errorf("top hit = %q, want leave", before[0].ID)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	embedsBefore := srv.Count(ollamatest.PathEmbed)

	client2, err := llm.New(srv.URL()) // a new process has a new client
	if err != nil {
		t.Fatal(err)
	}
	ix2 := openReady(t, path, "bge-m3", ModelEmbedder(client2, "bge-m3"))
	after, err := ix2.Query(t.Context(), "휴가 정책", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("results changed across restart (-before +after):\n%s", diff)
	}
	if got := srv.Count(ollamatest.PathEmbed) - embedsBefore; got != 1 {
		t.Errorf("/api/embed calls after reopen = %d, want 1 (the query only)", got)
	}
	if st := ix2.Status(); st.Docs != 4 || st.Embedded != 4 || st.Pending != 0 {
		t.Errorf("status = %+v", st)
	}
}

func TestQueryClampAndFilter(t *testing.T) {
	emb := &fakeEmbedder{dim: 64}
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m", emb)
	ctx := t.Context()
	if hits, err := ix.Query(ctx, "anything", 5, nil); err != nil || len(hits) != 0 {
		t.Fatalf("empty index: %v, %v", hits, err)
	}
	if err := ix.Add(ctx, corpus, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		query string
		n     int
		where map[string]string
		want  []string
	}{
		{"n above count is clamped", "video", 100, nil, nil},
		{"filter by kind", "images video", 10, map[string]string{"kind": "catalog"}, []string{"image", "video"}},
		{"filter by two keys", "video", 10, map[string]string{"kind": "catalog", "source": "catalog"}, nil},
		{"filter matching nothing", "video", 3, map[string]string{"kind": "nope"}, []string{}},
		{"n zero", "video", 0, nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := ix.Query(ctx, tt.query, tt.n, tt.where)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == nil && tt.where == nil:
				if len(hits) != len(corpus) {
					t.Errorf("got %d hits, want %d", len(hits), len(corpus))
				}
			case tt.want == nil:
				if len(hits) != 2 {
					t.Errorf("got %v, want both catalog docs", ids(hits))
				}
			default:
				got := ids(hits)
				if len(got) != len(tt.want) {
					t.Fatalf("got %v, want %v (any order)", got, tt.want)
				}
				for _, h := range hits {
					if h.Metadata["kind"] != tt.where["kind"] {
						t.Errorf("hit %s has kind %q", h.ID, h.Metadata["kind"])
					}
				}
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Errorf("not sorted by score: %v", hits)
				}
			}
		})
	}
}

func TestDeleteAndClearPersist(t *testing.T) {
	emb := &fakeEmbedder{dim: 32}
	path := filepath.Join(t.TempDir(), "v")
	ix := Open(path, "m", emb)
	ctx := t.Context()
	if err := ix.Add(ctx, corpus, nil); err != nil {
		t.Fatal(err)
	}
	if err := ix.Delete(ctx, "coffee", "unknown"); err != nil {
		t.Fatal(err)
	}
	if n, err := ix.DeleteWhere(ctx, map[string]string{"kind": "catalog"}); err != nil || n != 2 {
		t.Fatalf("DeleteWhere = %d, %v; want 2", n, err)
	}
	// Replace a document: the new text must win after reopening.
	if err := ix.Add(ctx, []Doc{{ID: "leave", Text: "new leave policy"}}, nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()

	ix = openReady(t, path, "m", emb)
	hits, err := ix.Query(ctx, "policy", 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"leave"}, ids(hits)); diff != "" || hits[0].Text != "new leave policy" {
		t.Fatalf("after reopen: %+v", hits)
	}
	if err := ix.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != int64(len(fileMagic)) {
		t.Fatalf("file after Clear: %v bytes, %v; want only the header", st.Size(), err)
	}
	if hits, err := ix.Query(ctx, "policy", 10, nil); err != nil || len(hits) != 0 {
		t.Fatalf("after Clear: %v, %v", hits, err)
	}
}

// TestTornTail simulates a crash in the middle of an append.
func TestTornTail(t *testing.T) {
	emb := &fakeEmbedder{dim: 16}
	path := filepath.Join(t.TempDir(), "v")
	ix := Open(path, "m", emb)
	if err := ix.Add(t.Context(), corpus[:2], nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	intact, _ := os.Stat(path)
	rec := record{op: opPut, id: "torn", model: "m", text: "half written", vec: make([]float32, 16)}
	b := rec.encode(nil)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(b[:len(b)-5])
	f.Close()

	ix = openReady(t, path, "m", emb)
	if got := ix.Count(); got != 2 {
		t.Fatalf("Count = %d, want 2", got)
	}
	if err := ix.Add(t.Context(), corpus[2:3], nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix = openReady(t, path, "m", emb)
	if got := ix.Count(); got != 3 {
		t.Fatalf("Count after append past torn tail = %d, want 3", got)
	}
	if st, _ := os.Stat(path); st.Size() <= intact.Size() {
		t.Fatalf("file did not grow")
	}
}

// TestModelChange: opening with another model re-embeds in the background;
// vector search says ErrNotReady until it is done.
func TestModelChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	old := &fakeEmbedder{dim: 16}
	ix := Open(path, "old-model", old)
	if err := ix.Add(t.Context(), corpus, nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()

	next := &fakeEmbedder{dim: 48, gate: make(chan struct{})}
	var (
		mu   sync.Mutex
		last Progress
		done = make(chan struct{})
	)
	ix = openReady(t, path, "new-model", next, WithBatchSize(3), WithProgress(func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		last = p
		if p.Done == p.Total {
			close(done)
		}
	}))
	if _, err := ix.Query(t.Context(), "video", 2, nil); !errors.Is(err, ErrNotReady) {
		t.Fatalf("Query during re-embedding: err = %v, want ErrNotReady", err)
	}
	if st := ix.Status(); !st.Reembedding || st.Pending != 4 {
		t.Fatalf("status = %+v, want re-embedding 4", st)
	}
	close(next.gate)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("re-embedding did not finish")
	}
	mu.Lock()
	if last.Model != "new-model" || last.Total != 4 || !last.Reembedding {
		t.Errorf("last progress = %+v", last)
	}
	mu.Unlock()
	hits, err := ix.Query(t.Context(), "video", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hits[0].ID != "video" {
		t.Errorf("top = %s, want video", hits[0].ID)
	}
	if got := next.texts.Load(); got != 5 { // 4 documents + 1 query
		t.Errorf("new model embedded %d texts, want 5", got)
	}
	ix.Close()

	// The new vectors are on disk: a third open embeds nothing.
	again := &fakeEmbedder{dim: 48}
	ix = openReady(t, path, "new-model", again)
	if _, err := ix.Query(t.Context(), "video", 1, nil); err != nil {
		t.Fatal(err)
	}
	if got := again.texts.Load(); got != 1 {
		t.Errorf("third open embedded %d texts, want 1 (the query)", got)
	}
}

func TestNoEmbedderThenSet(t *testing.T) {
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "", nil)
	ctx := t.Context()
	if err := ix.Add(ctx, corpus, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Query(ctx, "video", 1, nil); !errors.Is(err, ErrNoEmbedder) {
		t.Fatalf("err = %v, want ErrNoEmbedder", err)
	}
	if st := ix.Status(); st.Pending != 4 {
		t.Fatalf("pending = %d, want 4", st.Pending)
	}
	ix.SetEmbedder("m", &fakeEmbedder{dim: 256})
	waitFor(t, func() bool { return ix.Status().Pending == 0 })
	hits, err := ix.Query(ctx, "Runway video", 1, nil)
	if err != nil || hits[0].ID != "video" {
		t.Fatalf("after SetEmbedder: %v, %v", hits, err)
	}
}

func TestEmbedFailureIsRetried(t *testing.T) {
	emb := &fakeEmbedder{dim: 16}
	emb.fail.Store(2) // Add's call and the worker's first retry
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m", emb, WithRetryDelay(time.Millisecond))
	err := ix.Add(t.Context(), corpus, nil)
	if err == nil {
		t.Fatal("Add succeeded with a failing embedder")
	}
	if ix.Count() != 4 {
		t.Fatalf("documents not kept after failed embedding: %d", ix.Count())
	}
	waitFor(t, func() bool { return ix.Status().Pending == 0 })
	if hits, err := ix.Query(t.Context(), "video", 4, nil); err != nil || len(hits) != 4 {
		t.Fatalf("after retry: %d hits, %v", len(hits), err)
	}
}

func TestClosed(t *testing.T) {
	ix := Open(filepath.Join(t.TempDir(), "v"), "m", &fakeEmbedder{dim: 4})
	ix.Close()
	if err := ix.Add(t.Context(), corpus, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Add after Close: %v", err)
	}
	if _, err := ix.Query(t.Context(), "x", 1, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Query after Close: %v", err)
	}
}

func TestNotAnIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	os.WriteFile(path, []byte("something else entirely"), 0o600)
	ix := Open(path, "m", &fakeEmbedder{dim: 4})
	defer ix.Close()
	if err := ix.Wait(t.Context()); err == nil {
		t.Fatal("Wait succeeded on a foreign file")
	}
	if _, err := ix.Query(t.Context(), "x", 1, nil); !errors.Is(err, ErrNotReady) {
		t.Errorf("Query: %v, want ErrNotReady", err)
	}
	if st := ix.Status(); st.Err == "" {
		t.Error("Status.Err empty")
	}
}

// TestCompaction: a file of mostly dead records is rewritten at load.
func TestCompaction(t *testing.T) {
	emb := &fakeEmbedder{dim: 8}
	path := filepath.Join(t.TempDir(), "v")
	ix := Open(path, "m", emb)
	for i := range 100 {
		if err := ix.Add(t.Context(), []Doc{{ID: "same", Text: fmt.Sprint("version ", i)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	ix.Close()
	big, _ := os.Stat(path)
	ix = openReady(t, path, "m", emb)
	small, _ := os.Stat(path)
	if small.Size() >= big.Size()/10 {
		t.Errorf("file %d bytes after compaction, was %d", small.Size(), big.Size())
	}
	hits, err := ix.Query(t.Context(), "version", 1, nil)
	if err != nil || hits[0].Text != "version 99" {
		t.Fatalf("after compaction: %v, %v", hits, err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestCloseStopsWorker: Close returns while the worker waits to retry a
// failing embedder, and leaves no goroutine behind.
func TestCloseStopsWorker(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	emb := &fakeEmbedder{dim: 8}
	emb.fail.Store(1 << 30)
	ix := Open(filepath.Join(t.TempDir(), "v"), "m", emb, WithRetryDelay(time.Hour),
		WithLogger(slog.New(slog.DiscardHandler)))
	if err := ix.Add(t.Context(), corpus, nil); err == nil {
		t.Fatal("Add succeeded with a failing embedder")
	}
	waitFor(t, func() bool { return emb.calls.Load() >= 2 }) // the worker tried once
	done := make(chan struct{})
	go func() { ix.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung while the worker waited to retry")
	}
}

// TestLoadOnUse: with LoadOnUse the file is read only when a query could
// use it, so a search while no embedding model answers costs nothing. The
// file here is not an index at all: reading it would show as a load error.
func TestLoadOnUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chunks.vec")
	if err := os.WriteFile(path, []byte("this is not a vector index"), 0o600); err != nil {
		t.Fatal(err)
	}
	emb := &fakeEmbedder{dim: 8}
	emb.fail.Store(1)
	ix := Open(path, "m", emb, LoadOnUse(), WithLogger(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	if _, err := ix.Query(ctx, "휴가", 3, nil); err == nil || errors.Is(err, ErrNotReady) {
		t.Fatalf("query without a working embedder: %v, want the embedding error", err)
	}
	if st := ix.Status(); st.Loaded || st.Err != "" {
		t.Fatalf("the file was read for a query that could not use it: %+v", st)
	}
	if _, err := ix.Query(ctx, "휴가", 3, nil); !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "not a Wayfinder vector index") {
		t.Fatalf("query with an embedder: %v, want the file read (and found damaged)", err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	// Never used: Close returns at once and Wait does not hang.
	unused := Open(filepath.Join(t.TempDir(), "x.vec"), "m", emb, LoadOnUse())
	if err := unused.Close(); err != nil {
		t.Fatal(err)
	}
	if err := unused.Wait(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("Wait after Close: %v", err)
	}
}

// hungOnce is a ModelClient with EmbedOnce that fails every EmbedOnce
// (an Ollama that did not answer in time) and counts the calls of each.
type hungOnce struct {
	embeds, onces atomic.Int64
}

func (c *hungOnce) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	c.embeds.Add(1)
	out := make([][]float32, len(inputs))
	for i, in := range inputs {
		out[i] = ollamatest.Vector(in, 8)
	}
	return out, nil
}

func (c *hungOnce) EmbedOnce(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	c.onces.Add(1)
	return nil, context.DeadlineExceeded
}

// Add embeds through EmbedOnce when the client has it (llm.Client's does
// not wait out retries of a timeout), keeps what it could not embed, and
// the worker embeds that with Embed; AddLater embeds nothing itself.
func TestAddEmbedsOnceAndAddLaterNotAtAll(t *testing.T) {
	c := &hungOnce{}
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m", ModelEmbedder(c, "m"), WithRetryDelay(time.Millisecond))
	if err := ix.Add(t.Context(), corpus[:2], nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Add: %v, want the EmbedOnce timeout", err)
	}
	if n := c.onces.Load(); n != 1 {
		t.Errorf("Add called EmbedOnce %d times, want 1", n)
	}
	waitFor(t, func() bool { return ix.Status().Pending == 0 })
	if err := ix.AddLater(t.Context(), corpus[2:]); err != nil {
		t.Fatal(err)
	}
	if n := c.onces.Load(); n != 1 {
		t.Errorf("AddLater embedded itself (%d EmbedOnce calls)", n)
	}
	if ix.Count() != 4 {
		t.Fatalf("%d documents, want 4", ix.Count())
	}
	waitFor(t, func() bool { return ix.Status().Pending == 0 })
	if hits, err := ix.Query(t.Context(), "Midjourney images", 1, nil); err != nil || hits[0].ID != "image" {
		t.Fatalf("after the worker: %v, %v", hits, err)
	}
}

// TestPace: Add and the background worker wait for the pace before each
// batch (the app waits there while a turn runs); a query never does. Add's
// Watch hears that it waits, and that it goes on, once each.
func TestPace(t *testing.T) {
	emb := &fakeEmbedder{dim: 16}
	turn := make(chan struct{}) // open while a "turn" runs
	var waits atomic.Int64
	pace := func(ctx context.Context, waiting func()) error {
		waits.Add(1)
		select {
		case <-turn:
			return nil
		default:
		}
		if waiting != nil {
			waiting()
		}
		select {
		case <-turn:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "m", emb, WithBatchSize(2), WithPace(pace))
	added := make(chan error, 1)
	var mu sync.Mutex
	var heard []string
	watch := Watch{
		Waiting:  func(w bool) { mu.Lock(); heard = append(heard, fmt.Sprint("waiting ", w)); mu.Unlock() },
		Progress: func(done, total int) { mu.Lock(); heard = append(heard, fmt.Sprint(done, "/", total)); mu.Unlock() },
	}
	go func() { added <- ix.AddWatched(t.Context(), corpus, watch) }()
	waitFor(t, func() bool { // Add waits, and says so
		mu.Lock()
		defer mu.Unlock()
		return len(heard) > 0
	})
	if n := emb.calls.Load(); n != 0 {
		t.Fatalf("Add embedded %d batches while the turn ran", n)
	}
	// The turn's own query is embedded meanwhile (no vectors yet: no hits).
	if _, err := ix.Query(t.Context(), "video", 1, nil); err != nil {
		t.Fatalf("a query while Add waits: %v", err)
	}
	if n := emb.calls.Load(); n != 1 {
		t.Fatalf("%d embeddings, want only the query's", n)
	}
	close(turn)
	if err := <-added; err != nil {
		t.Fatal(err)
	}
	if n := emb.texts.Load(); n != int64(len(corpus))+1 {
		t.Errorf("embedded %d texts, want the %d documents and the query", n, len(corpus))
	}
	if got := waits.Load(); got < 2 { // and the worker's look for pending documents
		t.Errorf("waited %d times, want at least once for each of Add's 2 batches", got)
	}
	want := []string{"waiting true", "waiting false"}
	for i := 2; i <= len(corpus); i += 2 {
		want = append(want, fmt.Sprint(i, "/", len(corpus)))
	}
	if len(corpus)%2 == 1 {
		want = append(want, fmt.Sprint(len(corpus), "/", len(corpus)))
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(heard, want) {
		t.Errorf("Add's watch heard %q, want %q", heard, want)
	}
}

// TestPaceHoldsTheWorker: the background worker (a model change's catch-up)
// waits for the pace too, and stops waiting when the index closes.
func TestPaceHoldsTheWorker(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	ix := Open(path, "old", &fakeEmbedder{dim: 16})
	if err := ix.Add(t.Context(), corpus, nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	held := make(chan struct{})
	var once sync.Once
	pace := func(ctx context.Context, _ func()) error {
		once.Do(func() { close(held) })
		<-ctx.Done()
		return ctx.Err()
	}
	next := &fakeEmbedder{dim: 16}
	ix = openReady(t, path, "new", next, WithPace(pace))
	select {
	case <-held:
	case <-time.After(10 * time.Second): // fail rather than hang
		t.Fatal("the worker never waited for the pace")
	}
	if st := ix.Status(); st.Pending != len(corpus) || next.calls.Load() != 0 {
		t.Fatalf("status %+v, %d embeddings: the worker must wait for the turn", st, next.calls.Load())
	}
	ix.Close() // ends the wait: Close returns only when the worker has
}

// TestSettledBySource: the documents AddLater leaves to the worker are
// counted as pending by their source until embedded, and WithSettled
// names a source once, when its last document has its vector (the
// catalog's two documents: after the second), not after each batch.
func TestSettledBySource(t *testing.T) {
	emb := &fakeEmbedder{dim: 16, gate: make(chan struct{})}
	var (
		mu      sync.Mutex
		settled []string
		early   []string
	)
	var ix *Index
	ix = openReady(t, filepath.Join(t.TempDir(), "v"), "m", emb, WithBatchSize(1), WithSettled("source", func(values []string) {
		mu.Lock()
		defer mu.Unlock()
		settled = append(settled, values...)
		for _, v := range values {
			if ix.PendingBy("source")[v] != 0 {
				early = append(early, v)
			}
		}
	}))
	if err := ix.AddLater(t.Context(), corpus); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"policy.pdf": 1, "memory": 1, "catalog": 2}, ix.PendingBy("source")); diff != "" {
		t.Fatalf("pending by source before the worker embeds (-want +got):\n%s", diff)
	}
	close(emb.gate)
	waitFor(t, func() bool { return ix.Status().Pending == 0 })
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(settled) >= 3 })
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(settled)
	if diff := cmp.Diff([]string{"catalog", "memory", "policy.pdf"}, settled); diff != "" {
		t.Errorf("settled sources, each once (-want +got):\n%s", diff)
	}
	if len(early) > 0 {
		t.Errorf("named while documents of theirs were pending: %v", early)
	}
	if got := ix.PendingBy("source"); len(got) != 0 {
		t.Errorf("pending after the worker: %v", got)
	}
}

// With no embedder nothing would embed the documents: none is said to
// be pending for later.
func TestPendingByWithoutEmbedder(t *testing.T) {
	ix := openReady(t, filepath.Join(t.TempDir(), "v"), "", nil)
	if err := ix.AddLater(t.Context(), corpus); err != nil {
		t.Fatal(err)
	}
	if got := ix.PendingBy("source"); len(got) != 0 {
		t.Errorf("pending without an embedder: %v", got)
	}
}

// What waits for its vector is on disk without one: after a restart
// (the app closed before the worker caught up) the same files are
// pending, so a conversation opened then still says so.
func TestPendingByAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	first := &fakeEmbedder{dim: 16, gate: make(chan struct{})} // the worker never gets an answer
	ix := openReady(t, path, "m", first)
	if err := ix.AddLater(t.Context(), corpus); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	again := openReady(t, path, "m", &fakeEmbedder{dim: 16, gate: make(chan struct{})})
	if diff := cmp.Diff(map[string]int{"policy.pdf": 1, "memory": 1, "catalog": 2}, again.PendingBy("source")); diff != "" {
		t.Errorf("pending by source after a restart (-want +got):\n%s", diff)
	}
}
