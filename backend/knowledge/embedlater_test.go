package knowledge

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// embedEnv is a Base whose vector half embeds through the real client and
// the vector index with the fake Ollama at url. While cut.hung is set, each
// embedding request is cut off after 50 ms (hangCut): that is how long the
// fake's hang lasts, and it always ends as a timeout however loaded the
// machine is, since the hang never answers. The client's own timeouts are
// the default ones: an answer is never cut short, so nothing is timed.
func embedEnv(t *testing.T, url string) (*Base, *vector.Index, *hangCut) {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	cut := &hangCut{base: tr, batches: make(chan struct{}, 1)}
	client, err := llm.New(url, llm.WithHTTPClient(&http.Client{Transport: cut}), llm.WithLogger(quiet),
		llm.WithRetry(3, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	e := newPlainEnv(t)
	ix := vector.Open(filepath.Join(e.dir, "chunks.vec"), "bge-m3", vector.ModelEmbedder(client, "bge-m3"),
		vector.WithLogger(quiet), vector.WithRetryDelay(10*time.Millisecond),
		vector.WithProgress(func(vector.Progress) { cut.stored() }))
	t.Cleanup(func() { ix.Close() })
	v := Vectors{Index: ix}
	return e.openWith(Options{Sink: v, Vectors: v, Logger: quiet, UploadDir: filepath.Join(e.dir, "uploads")}), ix, cut
}

// hangCut is embedEnv's transport. A 50 ms request timeout on the client
// ended the fake's hang, but it bounded every answer too: under -race on a
// loaded machine an answer after the fake's Reset could take longer, and
// the import that was to embed in line timed out instead. hangCut cuts
// only embedding requests, and only while hung is set. It also tells the
// test when the vector index's worker stored a batch (batches), so that
// it waits for that and not for a guessed time: the worker's retry delay
// doubles while the fake hangs.
type hangCut struct {
	base    http.RoundTripper
	hung    atomic.Bool
	batches chan struct{}
}

func (h *hangCut) RoundTrip(r *http.Request) (*http.Response, error) {
	if !h.hung.Load() || r.URL.Path != ollamatest.PathEmbed {
		return h.base.RoundTrip(r)
	}
	ctx, cancel := context.WithTimeout(r.Context(), 50*time.Millisecond)
	resp, err := h.base.RoundTrip(r.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

// stored hears the vector index's worker store a batch.
func (h *hangCut) stored() {
	select {
	case h.batches <- struct{}{}:
	default:
	}
}

// cancelOnClose ends a cut request's context once its answer is read.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// progressLog keeps every progress event of each file.
type progressLog struct {
	mu     sync.Mutex
	stages map[string][]Stage
	last   map[string]Progress
}

func (l *progressLog) add(p Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stages == nil {
		l.stages, l.last = map[string][]Stage{}, map[string]Progress{}
	}
	f := filepath.Base(p.File)
	l.stages[f] = append(l.stages[f], p.Stage)
	l.last[f] = p
}

func (l *progressLog) embedded(file string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.stages[file] {
		if s == StageEmbedding {
			return true
		}
	}
	return false
}

// TestHungEmbeddingDoesNotHoldTheQueue: with an Ollama that hangs on
// /api/embed, the first file's embedding times out once (EmbedOnce: no
// retries) and the rest of the import's files, and an upload queued behind
// them, are not embedded in line: they end at once, found by their words,
// their chunks in the vector index for its background embedding, each
// saying so with the same *EmbedLaterError. Once the queue is empty the
// next import embeds in line again, and the worker embeds what was left.
func TestHungEmbeddingDoesNotHoldTheQueue(t *testing.T) {
	fake := ollamatest.New(t)
	fake.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	b, ix, cut := embedEnv(t, fake.URL())
	cut.hung.Store(true)
	ctx := context.Background()
	dir := t.TempDir()
	paths := []string{writeIn(t, dir, "a.md", "# A\n\napricots\n"), writeIn(t, dir, "b.md", "# B\n\n바나나 bananas\n"), writeIn(t, dir, "c.md", "# C\n\ncherries\n")}

	var log progressLog
	type upload struct {
		res UploadResult
		err error
	}
	uploaded := make(chan upload, 1)
	waiting := make(chan struct{})
	rep, err := b.Import(ctx, paths, func(p Progress) {
		log.add(p)
		if filepath.Base(p.File) == "b.md" && p.Stage == StageReading {
			// A file dropped after a.md's embedding timed out waits
			// behind the import. (Dropped while a.md embeds, it would
			// hand a.md's embedding on at once: TestEmbeddingHandedOn.)
			go func() {
				var once sync.Once
				res, err := b.Upload(ctx, "d.md", bytes.NewReader([]byte("# D\n\ndates\n")), func(p Progress) {
					log.add(p)
					if p.Stage == StageWaiting {
						once.Do(func() { close(waiting) })
					}
				})
				uploaded <- upload{res, err}
			}()
			<-waiting
		}
	})
	if err != nil || len(rep.Imported) != 3 {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	up := <-uploaded
	if up.err != nil || up.res.Outcome != UploadAdded {
		t.Fatalf("upload: %+v, %v", up.res, up.err)
	}

	var first *EmbedLaterError
	for _, f := range []string{"a.md", "b.md", "c.md", "d.md"} {
		p := log.last[f]
		var later *EmbedLaterError
		switch {
		case p.Stage != StageDone:
			t.Errorf("%s ended %s, want done", f, p.Stage)
		case !errors.As(p.EmbedErr, &later) || !errors.Is(p.EmbedErr, llm.ErrTimeout):
			t.Errorf("%s: embedding error %v, want an EmbedLaterError of the timeout", f, p.EmbedErr)
		case first == nil:
			first = later
		case later != first:
			t.Errorf("%s: a second EmbedLaterError (%v), want the first one's, said once", f, later)
		}
	}
	if !log.embedded("a.md") {
		t.Error("a.md was not embedded in line first")
	}
	for _, f := range []string{"b.md", "c.md", "d.md"} {
		if log.embedded(f) {
			t.Errorf("%s waited for an embedding after a.md's timed out (stages %v)", f, log.stages[f])
		}
	}
	for _, q := range []string{"apricots", "바나나", "cherries", "dates"} {
		if hits, err := b.Search(ctx, q, SearchOptions{}); err != nil || len(hits) != 1 {
			t.Errorf("search %q: %d hits, %v; want the file found by its words", q, len(hits), err)
		}
	}
	if n := ix.Count(); n != 4 {
		t.Errorf("%d chunks in the vector index, want all 4 there to be embedded later", n)
	}

	// The queue is empty: Ollama answers again, the next import embeds in
	// line, and the worker embeds what was left.
	// Reset first: a request made after hung is cleared must not hang.
	fake.Reset()
	cut.hung.Store(false)
	var again progressLog
	if _, err := b.Import(ctx, []string{writeIn(t, dir, "e.md", "# E\n\nelderberries\n")}, again.add); err != nil {
		t.Fatal(err)
	}
	if p := again.last["e.md"]; p.EmbedErr != nil || p.Embedded != p.Chunks || !again.embedded("e.md") {
		t.Errorf("after the queue emptied: %+v, want e.md embedded in line", p)
	}
	// The worker retries until it embeds them (its delay doubled while the
	// fake hung): wait for each batch it stores, not for a guessed time.
	for ix.Status().Pending > 0 {
		<-cut.batches
	}
	if st := ix.Status(); st.Pending != 0 || st.Embedded != 5 {
		t.Errorf("vector index %+v, want the 5 chunks embedded", st)
	}
}

// An Ollama that is away (nothing listens) is not a hang: each file tries
// and says why at once, and is not left to the background as after a
// timeout.
func TestOllamaAwayIsNotAHang(t *testing.T) {
	b, _, _ := embedEnv(t, "http://127.0.0.1:1")
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.md", "b.md"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("# "+name+"\n\nfigs\n"), 0o600)
		paths = append(paths, p)
	}
	var log progressLog
	if _, err := b.Import(context.Background(), paths, log.add); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.md", "b.md"} {
		var later *EmbedLaterError
		if err := log.last[f].EmbedErr; !errors.Is(err, llm.ErrUnreachable) || errors.As(err, &later) {
			t.Errorf("%s: embedding error %v, want Ollama unreachable", f, err)
		}
		if !log.embedded(f) {
			t.Errorf("%s was not tried", f)
		}
	}
}
