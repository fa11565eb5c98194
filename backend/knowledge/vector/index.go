// Package vector is Wayfinder's vector index: documents embedded by the
// configured Ollama embedding model, searched exhaustively by cosine
// similarity, and kept on disk so that a restart never embeds anything again.
//
// It started on chromem-go and keeps its contract (exact search over
// normalised vectors, exact-match `where` filters, results clamped to what
// exists) but not its code: chromem-go's persistence writes one gob file per
// document (7.7 s to reload 50k here) and its query spent 9× the CPU of a
// contiguous scan at 100k documents (flat.go; BenchmarkChromemQuery keeps
// the comparison). Here one append-only file per index (log.go) is loaded in
// the background, so the window opens at once. Until it is loaded — or while
// everything is re-embedded after the embedding model changed — Query
// returns ErrNotReady and callers answer from keyword search alone.
//
// The embedding model's name is stored with every vector. Opening the index
// with another model (or calling SetEmbedder) marks every document as
// pending (another spelling of one model, "bge-m3" and "bge-m3:latest", is
// the same model: api.SameModel); a background worker embeds them again in
// batches, reporting progress, and vector search comes back when it is done.
package vector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Embedder turns texts into vectors, one per input, in order. Inputs may be
// many; the implementation batches requests as it likes.
type Embedder interface {
	Embed(ctx context.Context, inputs []string) ([][]float32, error)
}

// EmbedFunc adapts a function to Embedder.
type EmbedFunc func(ctx context.Context, inputs []string) ([][]float32, error)

// Embed calls f.
func (f EmbedFunc) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	return f(ctx, inputs)
}

// OnceEmbedder is an Embedder that can also embed without trying again an
// attempt that timed out. Add prefers it: what Add cannot embed stays
// pending and the worker embeds it later, so waiting out retries there
// would only hold Add's caller (a person's import) for nothing.
type OnceEmbedder interface {
	Embedder
	EmbedOnce(ctx context.Context, inputs []string) ([][]float32, error)
}

// ModelClient is a client that embeds with a named model, such as
// *llm.Client.
type ModelClient interface {
	Embed(ctx context.Context, model string, inputs []string) ([][]float32, error)
}

// onceClient is a ModelClient with llm.Client's EmbedOnce.
type onceClient interface {
	EmbedOnce(ctx context.Context, model string, inputs []string) ([][]float32, error)
}

// ModelEmbedder binds a client to one model. When the client has
// EmbedOnce too, the embedder is a OnceEmbedder.
func ModelEmbedder(c ModelClient, model string) Embedder {
	if oc, ok := c.(onceClient); ok {
		return modelOnce{c: c, once: oc, model: model}
	}
	return EmbedFunc(func(ctx context.Context, inputs []string) ([][]float32, error) {
		return c.Embed(ctx, model, inputs)
	})
}

type modelOnce struct {
	c     ModelClient
	once  onceClient
	model string
}

func (m modelOnce) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	return m.c.Embed(ctx, m.model, inputs)
}

func (m modelOnce) EmbedOnce(ctx context.Context, inputs []string) ([][]float32, error) {
	return m.once.EmbedOnce(ctx, m.model, inputs)
}

var (
	// ErrNotReady means vector search is not available yet (loading, or
	// re-embedding after a model change); search keywords instead.
	ErrNotReady = errors.New("vector index not ready")
	// ErrNoEmbedder means no embedding model is configured.
	ErrNoEmbedder = errors.New("no embedding model configured")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("vector index closed")
	// ErrReadOnly refuses a change to an index opened with ReadOnly.
	ErrReadOnly = errors.New("vector index open read-only")
)

// Doc is a text to index. Metadata is what Query's where filter matches.
type Doc struct {
	ID       string
	Text     string
	Metadata map[string]string
}

// Hit is a search result; Score is the cosine similarity in [-1, 1].
type Hit struct {
	ID       string
	Text     string
	Metadata map[string]string
	Score    float32
}

// Progress reports embedding work done in the background.
type Progress struct {
	Model string
	Done  int
	Total int
	// Reembedding is true while the index catches up with a changed model;
	// vector search is off until Done == Total.
	Reembedding bool
}

// Status is a snapshot for the UI and for tests.
type Status struct {
	Loaded      bool
	Model       string
	Docs        int // documents stored
	Embedded    int // documents with a vector from Model
	Pending     int // documents waiting for their vector
	Reembedding bool
	Err         string // why loading failed
}

// Option configures an Index.
type Option func(*config)

type config struct {
	batch      int
	onProgress func(Progress)
	logger     *slog.Logger
	retryDelay time.Duration
	onUse      bool
	readOnly   bool
	pace       Pace
	settledKey string
	onSettled  func(values []string)
	leftGroup  func(id string) string
	onLeft     func(left map[string]int)
	mirror     *Kept
}

// WithBatchSize sets how many texts go to the embedder at once (default 64);
// progress is reported after each batch.
func WithBatchSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.batch = n
		}
	}
}

// WithProgress receives background embedding progress. It is called from
// the worker goroutine and must not call back into the Index.
func WithProgress(f func(Progress)) Option { return func(c *config) { c.onProgress = f } }

// WithSettled tells f, after the background worker stores a batch, the
// values of metadata key (a document's source, say) among the batch's
// documents that have no document pending any more. A file whose
// embedding was left to the background (AddLater) is searched by its
// meaning from then on, and a window that said "later" can say so: the
// worker's Progress counts documents, not files. f is called from the
// worker goroutine, without the index's lock held.
func WithSettled(key string, f func(values []string)) Option {
	return func(c *config) { c.settledKey, c.onSettled = key, f }
}

// WithPendingLeft tells f, after the background worker stores a batch,
// how many documents are still pending in each group (group(id): the
// document a passage's id names, say) that the batch's documents belong
// to, 0 for a group it finished. A window can then count down a file's
// "meaning being indexed — N of M passages" as the worker goes, where
// WithSettled only says when it is done. f is called from the worker
// goroutine, without the index's lock held.
func WithPendingLeft(group func(id string) string, f func(left map[string]int)) Option {
	return func(c *config) { c.leftGroup, c.onLeft = group, f }
}

// WithLogger sets where background failures are logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// LoadOnUse leaves the file unread until something needs it: a query
// whose text the embedder could embed, or Add, Delete, IDs or Wait. A
// short command that searches by keywords while no embedding model answers
// then never reads the vectors (hundreds of MB for a large library).
// Without it the file is read in the background from Open on.
func LoadOnUse() Option { return func(c *config) { c.onUse = true } }

// ReadOnly reads the file for queries while another process (the open
// app) owns it and appends to it: the file is read once up to its last
// whole record (a record being appended fails its length or CRC check and
// is left for next time) and never truncated, rewritten or appended to;
// nothing is embedded in the background; Add, Delete and Clear return
// ErrReadOnly. The owner's rewrite replaces the file by a rename, so a
// reader holds either the old file or the new one, never a mix.
func ReadOnly() Option { return func(c *config) { c.readOnly = true } }

// Pace waits before a batch is embedded while the machine is wanted for
// something more urgent. It calls waiting (which may be nil) once before
// it blocks, and only if it does, so that what waits can say so; it
// returns ctx's error when ctx ends.
type Pace func(ctx context.Context, waiting func()) error

// WithPace runs pace before each batch that Add or the background worker
// embeds, never before a query's embedding: the app waits there while the
// person's turn runs, so that an import's embedding, or the catch-up after
// a model change, leaves Ollama to the turn's own query and answer (on one
// machine the embedding model and the chat model take turns) and goes on
// after it. Add's Watch.Waiting hears when it waits and goes on.
func WithPace(pace Pace) Option { return func(c *config) { c.pace = pace } }

// WithRetryDelay sets the first wait before the worker retries a failed
// embedding batch (default 2 s, doubling up to a minute).
func WithRetryDelay(d time.Duration) Option { return func(c *config) { c.retryDelay = d } }

// entry is what the index knows of one document. Its vector lives in
// Index.vecs; model is the model of that vector ("" = pending).
type entry struct {
	text  string
	meta  map[string]string
	model string
	seq   uint64 // changes when the document is replaced
	from  string // model of the stored vector when loaded, to tell a model change
}

// Index is a persistent vector index. It is safe for concurrent use.
type Index struct {
	path   string
	cfg    config
	loaded chan struct{}
	start  sync.Once // starts load
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{}
	// current mirrors emb for embedOne, which must not take mu.
	current atomic.Pointer[Embedder]
	// mirrorLost is set once a change could not be passed to the kept
	// index of Mirror and its file was removed (mirrored).
	mirrorLost atomic.Bool

	mu           sync.RWMutex
	loadErr      error
	closed       bool
	model        string
	emb          Embedder
	vecs         *flat // vectors of model
	docs         map[string]*entry
	pending      map[string]struct{}
	paused       map[label]struct{} // Pause: values whose pending documents wait
	reembedTotal int                // > 0 while catching up with a model change
	seq          uint64
	f            *os.File
	records      int // records in the file, live or dead
	buf          []byte
}

// Open returns at once and loads the index file at path (created when
// missing) in the background; Ready is closed when it is loaded. model names
// the embedding model whose vectors are searched; pass the configured name
// even while Ollama is unreachable, or every stored vector is thrown away
// and re-made. emb may be nil when no embedding model is configured:
// documents are then stored and embedded once SetEmbedder is called.
func Open(path, model string, emb Embedder, opts ...Option) *Index {
	cfg := config{batch: 64, logger: slog.Default(), retryDelay: 2 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ix := &Index{
		path:    path,
		cfg:     cfg,
		loaded:  make(chan struct{}),
		ctx:     ctx,
		cancel:  cancel,
		kick:    make(chan struct{}, 1),
		model:   model,
		emb:     emb,
		docs:    map[string]*entry{},
		pending: map[string]struct{}{},
	}
	ix.current.Store(&emb)
	ix.vecs = newFlat()
	ix.wg.Add(1)
	go ix.work()
	if !cfg.onUse {
		ix.use()
	}
	return ix
}

// use starts reading the file, once.
func (ix *Index) use() {
	ix.start.Do(func() {
		ix.mu.RLock()
		closed := ix.closed
		ix.mu.RUnlock()
		if closed {
			close(ix.loaded)
			return
		}
		ix.wg.Add(1)
		go ix.load()
	})
}

// embedOne embeds a query. It reads the current embedder through an atomic
// pointer because it runs without ix.mu held.
func (ix *Index) embedOne(ctx context.Context, text string) ([]float32, error) {
	emb := *ix.current.Load()
	if emb == nil {
		return nil, ErrNoEmbedder
	}
	vecs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("got %d vectors for 1 input", len(vecs))
	}
	return normalize(vecs[0])
}

// sameModel tells whether vectors of model a can be searched with those
// of b: one model as Ollama resolves names (api.SameModel), or, as
// before, the same name, "" (no model) included.
func sameModel(a, b string) bool { return a == b || api.SameModel(a, b) }

// normalize returns v scaled to length 1, as chromem-go's dot-product
// search requires.
func normalize(v []float32) ([]float32, error) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil, errors.New("embedding model returned a zero or invalid vector")
	}
	norm := math.Sqrt(sum)
	if math.Abs(norm-1) < 1e-7 {
		return v, nil
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / norm)
	}
	return out, nil
}

// load reads the file into fresh state without holding mu (so Status and
// Query answer "not ready" at once meanwhile), rewrites the file when it is
// mostly dead records, and swaps the state in.
func (ix *Index) load() {
	defer ix.wg.Done()
	defer close(ix.loaded)
	ix.mu.RLock()
	model := ix.model
	ix.mu.RUnlock()

	var (
		docs    = map[string]*entry{}
		pending = map[string]struct{}{}
		vecs    = newFlat()
		seq     uint64
	)
	good, n, err := readLog(ix.path, func(r record) {
		vecs.remove(r.id)
		delete(pending, r.id)
		if r.op == opDelete {
			delete(docs, r.id)
			return
		}
		seq++
		e := &entry{text: r.text, meta: r.meta, seq: seq, from: r.model}
		docs[r.id] = e
		if sameModel(r.model, model) && len(r.vec) > 0 && (vecs.dim == 0 || vecs.dim == len(r.vec)) {
			vecs.put(r.id, r.vec, r.meta)
			e.model = model
		} else {
			pending[r.id] = struct{}{}
		}
	})
	if err == nil && !ix.cfg.readOnly && n-len(docs) > len(docs) && n-len(docs) >= 64 {
		if err = writeLog(ix.path, snapshot(docs, vecs)); err == nil {
			n, good = len(docs), -1
		}
	}
	var f *os.File
	if err == nil && !ix.cfg.readOnly {
		if good < 0 {
			var st os.FileInfo
			if st, err = os.Stat(ix.path); err == nil {
				good = st.Size()
			}
		}
		if err == nil {
			f, err = openAppend(ix.path, good)
		}
	}

	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err != nil {
		ix.loadErr = err
		ix.cfg.logger.Error("load vector index", "path", ix.path, "err", err)
		return
	}
	if ix.closed {
		if f != nil {
			f.Close()
		}
		return
	}
	if !sameModel(ix.model, model) { // SetEmbedder ran while loading
		vecs = newFlat()
		for id, e := range docs {
			e.model = ""
			pending[id] = struct{}{}
		}
	}
	ix.f, ix.records = f, n
	ix.docs, ix.pending, ix.vecs, ix.seq = docs, pending, vecs, seq
	for id := range pending {
		if from := docs[id].from; from != "" && !sameModel(from, ix.model) {
			ix.reembedTotal = len(pending)
			break
		}
	}
	ix.wake()
}

// snapshot yields one record per live document, with its vector if it has
// one, for rewriting the file.
func snapshot(docs map[string]*entry, vecs *flat) func(yield func(*record) bool) {
	return func(yield func(*record) bool) {
		for id, e := range docs {
			r := record{op: opPut, id: id, text: e.text, meta: e.meta}
			if row, ok := vecs.rows[id]; ok && e.model != "" {
				r.model, r.vec = e.model, vecs.vector(row)
			}
			if !yield(&r) {
				return
			}
		}
	}
}

func (ix *Index) wake() {
	if ix.cfg.readOnly {
		return // embedding would write: the owner of the file does it
	}
	select {
	case ix.kick <- struct{}{}:
	default:
	}
}

// Ready is closed once the index file is loaded (or failed to load; see
// Wait). With LoadOnUse it starts the loading.
func (ix *Index) Ready() <-chan struct{} {
	ix.use()
	return ix.loaded
}

// Wait blocks until the index is loaded and reports a load failure.
func (ix *Index) Wait(ctx context.Context) error {
	ix.use()
	select {
	case <-ix.loaded:
	case <-ctx.Done():
		return fmt.Errorf("wait for vector index: %w", ctx.Err())
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return ErrClosed
	}
	return ix.loadErr
}

// Status reports what the index holds and whether vector search is on.
func (ix *Index) Status() Status {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	st := Status{Model: ix.model, Docs: len(ix.docs), Pending: len(ix.pending), Reembedding: ix.reembedTotal > 0}
	select {
	case <-ix.loaded:
		st.Loaded = ix.loadErr == nil
	default:
	}
	st.Embedded = st.Docs - st.Pending
	if ix.loadErr != nil {
		st.Err = ix.loadErr.Error()
	}
	return st
}

// Count is the number of documents stored, with or without vectors.
func (ix *Index) Count() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.docs)
}

// SetEmbedder switches the embedding model. With a new model every
// document is embedded again in the background and vector search returns
// ErrNotReady until that is done; with the same model only the embedder is
// replaced (e.g. a new Ollama host). Names are compared as Ollama resolves
// them (api.SameModel): "bge-m3:latest" typed in Settings for "bge-m3"
// keeps every vector, where it used to make the whole library again.
func (ix *Index) SetEmbedder(model string, emb Embedder) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.emb = emb
	ix.current.Store(&emb)
	same := sameModel(model, ix.model)
	ix.model = model
	if !same {
		ix.vecs = newFlat()
		for id, e := range ix.docs {
			e.model = ""
			ix.pending[id] = struct{}{}
		}
		// A paused file waits for its Resume under the new model as it did
		// under the old: the catch-up is over once the others are embedded,
		// so that search by meaning is not off as long as it stays paused.
		ix.reembedTotal = ix.waitingLocked()
	}
	ix.wake()
}
