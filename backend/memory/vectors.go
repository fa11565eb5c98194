package memory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"

	chromem "github.com/philippgille/chromem-go"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Embedder turns texts into vectors with a named model, one per input, in
// order; *llm.Client is one.
type Embedder interface {
	Embed(ctx context.Context, model string, inputs []string) ([][]float32, error)
}

// collectionPrefix starts the name of the chromem collection; the embedding
// model's name completes it. Keeping the model in the name means vectors of
// two models never meet in one search, and a changed model is noticed at
// open without reading a document: the old collection is dropped and Open
// embeds every memory again.
const collectionPrefix = "memories "

// Vectors holds the embeddings of long-term memories in a persistent
// chromem-go collection: one document per memory, its ID the memory's ID and
// its content the text it was embedded from (so a vector made from an older
// wording is recognised at open). chromem writes every change to disk before
// returning, so a restart never embeds anything again.
//
// Writes are serialised by Store; the lock here keeps a query's count and
// search consistent with a concurrent write, and replaces the collection
// safely when everything is forgotten.
type Vectors struct {
	db    *chromem.DB
	model string
	embed Embedder
	name  string
	log   *slog.Logger

	mu  sync.RWMutex
	col *chromem.Collection
	// kept is the saved embedding model's collection while a run tries
	// another (--embed-model; nil otherwise): nothing is embedded into it,
	// but what the run forgets or rewords loses its vector there too, so
	// that the next run with the saved model embeds only that.
	kept     *chromem.Collection
	keptName string
}

// NewChromemVectors opens (or creates) the memory vectors in dir, a folder
// under the data directory that nothing else uses, for the embedding model
// model. Vectors left by another model are deleted; Open then embeds the
// memories again with this one. The vectors are derived from the rows, so a
// folder chromem cannot read (a file cut short by a crash: chromem writes in
// place) is deleted and started afresh rather than disabling vector search
// for good. What it does is said to log (nil: slog.Default()).
func NewChromemVectors(dir, model string, e Embedder, log *slog.Logger) (*Vectors, error) {
	return newVectors(dir, model, "", e, log)
}

// newVectors is NewChromemVectors keeping the collection of saved, the
// embedding model saved in Settings, as it is when model is another one
// tried for this run: the next run with saved finds its vectors there.
func newVectors(dir, model, saved string, e Embedder, log *slog.Logger) (*Vectors, error) {
	if log == nil {
		log = slog.Default()
	}
	if model == "" || e == nil {
		return nil, errors.New("open memory vectors: no embedding model")
	}
	db, err := openChromem(dir, log)
	if err != nil {
		return nil, err
	}
	v := &Vectors{db: db, embed: e, log: log}
	if _, err := v.useModel(model, saved); err != nil {
		return nil, err
	}
	return v, nil
}

// useModel makes model's collection the one in use and deletes every other
// model's vectors, which cannot be compared with its own, but those of
// saved (may be ""), the model saved in Settings when model is tried for
// one run only: they are kept (v.kept) for the next run with it. It
// reports whether the model changed; the memories then need embedding
// again.
func (v *Vectors) useModel(model, saved string) (changed bool, err error) {
	if model == "" {
		return false, errors.New("memory vectors: no embedding model")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if api.SameModel(model, v.model) {
		v.model = model // another spelling of it: the vectors stand
		return false, nil
	}
	name, keep := v.collectionOf(model), ""
	if saved != "" && !api.SameModel(saved, model) {
		keep = v.collectionOf(saved)
	}
	for old := range v.db.ListCollections() {
		if old == name || old == keep || !strings.HasPrefix(old, collectionPrefix) {
			continue
		}
		v.log.Info("memory vectors of another embedding model deleted",
			"old", strings.TrimPrefix(old, collectionPrefix), "new", model)
		if err := v.db.DeleteCollection(old); err != nil {
			return false, fmt.Errorf("delete memory vectors of %q: %w", old, err)
		}
	}
	col, err := v.db.GetOrCreateCollection(name, map[string]string{"model": model}, v.embedOne)
	if err != nil {
		return false, fmt.Errorf("open memory vector collection: %w", err)
	}
	v.model, v.name, v.col = model, name, col
	v.kept, v.keptName = nil, ""
	if keep != "" {
		// Only read and deleted from: an embedding asked of it is refused.
		v.kept, v.keptName = v.db.GetCollection(keep, refuseEmbedding), keep
	}
	return true, nil
}

// collectionOf names model's collection: the one in the folder made by
// another spelling of model if there is one ("bge-m3" for "bge-m3:latest":
// one model to Ollama, api.SameModel), so that a name typed otherwise in
// Settings or with --embed-model finds its vectors rather than delete them
// and embed every memory again. Callers hold mu.
func (v *Vectors) collectionOf(model string) string {
	name := collectionPrefix + model
	cols := v.db.ListCollections()
	if _, ok := cols[name]; ok {
		return name
	}
	for _, old := range slices.Sorted(maps.Keys(cols)) {
		if m, ok := strings.CutPrefix(old, collectionPrefix); ok && api.SameModel(m, model) {
			return old
		}
	}
	return name
}

// refuseEmbedding is the kept collection's chromem.EmbeddingFunc: nothing
// is ever embedded into it, and chromem must not fall back to its default.
func refuseEmbedding(context.Context, string) ([]float32, error) {
	return nil, errors.New("the saved embedding model's memory vectors are not embedded into while another model is tried")
}

// dropKept deletes from the kept collection the memories of docs whose
// text is not the one its vector was made from. Callers hold mu.
func (v *Vectors) dropKept(ctx context.Context, docs []vecDoc) error {
	if v.kept == nil {
		return nil
	}
	var ids []string
	for _, d := range docs {
		if k, err := v.kept.GetByID(ctx, d.ID); err == nil && k.Content != d.Text {
			ids = append(ids, d.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	if err := v.kept.Delete(ctx, nil, nil, ids...); err != nil {
		return fmt.Errorf("delete the saved model's vectors of reworded memories: %w", err)
	}
	return nil
}

// current is the model in use.
func (v *Vectors) current() string {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.model
}

func openChromem(dir string, log *slog.Logger) (*chromem.DB, error) {
	// Uncompressed: memories are short, and a forgotten text must be
	// checkably gone from the folder.
	db, err := chromem.NewPersistentDB(dir, false)
	if err == nil {
		return db, nil
	}
	if fi, statErr := os.Stat(dir); statErr != nil || !fi.IsDir() {
		return nil, fmt.Errorf("open memory vectors in %q: %w", dir, err)
	}
	log.Warn("memory vectors unreadable; rebuilding them from the memories", "dir", dir, "err", err)
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("delete unreadable memory vectors in %q: %w", dir, err)
	}
	if db, err = chromem.NewPersistentDB(dir, false); err != nil {
		return nil, fmt.Errorf("open memory vectors in %q: %w", dir, err)
	}
	return db, nil
}

// embedOne is the collection's chromem.EmbeddingFunc, so chromem never falls
// back to its default (OpenAI over the network). It returns a unit vector,
// as chromem requires.
func (v *Vectors) embedOne(ctx context.Context, text string) ([]float32, error) {
	vecs, err := v.embedAll(ctx, v.current(), []string{text})
	if err != nil {
		return nil, err
	}
	return vecs[0], nil
}

// embedAll embeds texts in one call (the client batches) and normalises the
// vectors; a zero vector has no direction and is refused.
func (v *Vectors) embedAll(ctx context.Context, model string, texts []string) ([][]float32, error) {
	vecs, err := v.embed.Embed(ctx, model, texts)
	if err != nil {
		return nil, fmt.Errorf("embed %d memories with %s: %w", len(texts), model, err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed %d memories with %s: got %d vectors", len(texts), model, len(vecs))
	}
	for i, vec := range vecs {
		var sum float64
		for _, x := range vec {
			sum += float64(x) * float64(x)
		}
		if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
			return nil, fmt.Errorf("embed memory with %s: unusable vector for input %d", model, i)
		}
		norm := math.Sqrt(sum)
		unit := make([]float32, len(vec))
		for j, x := range vec {
			unit[j] = float32(float64(x) / norm)
		}
		vecs[i] = unit
	}
	return vecs, nil
}

// vecDoc is a memory to embed.
type vecDoc struct{ ID, Text string }

// vecHit is a search result; Score is the cosine similarity in [-1, 1].
type vecHit struct {
	ID, Text string
	Score    float32
}

// put embeds docs and stores them, replacing earlier vectors of the same IDs.
// Vectors made by a model switched away from meanwhile are dropped: the
// switch embeds everything again. The saved model's vectors of reworded
// docs (dropKept) go first, before anything is embedded: a model tried for
// one run is the one most likely not to embed (not pulled, Ollama down),
// and an old wording must not stay on disk because it failed.
func (v *Vectors) put(ctx context.Context, docs []vecDoc) error {
	if len(docs) == 0 {
		return nil
	}
	v.mu.Lock()
	err := v.dropKept(ctx, docs)
	v.mu.Unlock()
	if err != nil {
		return err
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	model := v.current()
	vecs, err := v.embedAll(ctx, model, texts)
	if err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !api.SameModel(v.model, model) {
		return nil
	}
	for i, d := range docs {
		if err := v.col.AddDocument(ctx, chromem.Document{ID: d.ID, Content: d.Text, Embedding: vecs[i]}); err != nil {
			return fmt.Errorf("store vector of memory %s: %w", d.ID, err)
		}
	}
	return nil
}

// remove deletes the vectors of ids, in memory and on disk; unknown IDs are
// ignored.
func (v *Vectors) remove(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.col.Delete(ctx, nil, nil, ids...); err != nil {
		return fmt.Errorf("delete memory vectors: %w", err)
	}
	if v.kept != nil {
		if err := v.kept.Delete(ctx, nil, nil, ids...); err != nil {
			return fmt.Errorf("delete the saved model's memory vectors: %w", err)
		}
	}
	return nil
}

// clear deletes the whole collection, folder and all, and starts an empty
// one, so no forgotten text stays on disk; the kept collection goes too.
func (v *Vectors) clear() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.kept != nil {
		if err := v.db.DeleteCollection(v.keptName); err != nil {
			return fmt.Errorf("delete the saved model's memory vectors: %w", err)
		}
		v.kept, v.keptName = nil, ""
	}
	if err := v.db.DeleteCollection(v.name); err != nil {
		return fmt.Errorf("delete memory vector collection: %w", err)
	}
	col, err := v.db.CreateCollection(v.name, map[string]string{"model": v.model}, v.embedOne)
	if err != nil {
		return fmt.Errorf("recreate memory vector collection: %w", err)
	}
	v.col = col
	return nil
}

// count is how many memories have a vector.
func (v *Vectors) count() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.col.Count()
}

// query returns up to k memories nearest to text, best first. An empty
// collection answers without embedding the query.
func (v *Vectors) query(ctx context.Context, text string, k int) ([]vecHit, error) {
	if k <= 0 || v.count() == 0 {
		return nil, nil
	}
	model := v.current()
	vecs, err := v.embedAll(ctx, model, []string{text})
	if err != nil {
		return nil, err
	}
	q := vecs[0]
	v.mu.RLock()
	defer v.mu.RUnlock()
	if !api.SameModel(v.model, model) { // switched meanwhile: no vectors to compare with yet
		return nil, nil
	}
	// chromem refuses nResults above the number of documents.
	n := min(k, v.col.Count())
	if n == 0 {
		return nil, nil
	}
	res, err := v.col.QueryEmbedding(ctx, q, n, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("search memory vectors: %w", err)
	}
	hits := make([]vecHit, len(res))
	for i, r := range res {
		hits[i] = vecHit{ID: r.ID, Text: r.Content, Score: r.Similarity}
	}
	return hits, nil
}

// sync makes the collection hold vectors only for want (memory ID → text):
// vectors of other IDs are deleted, and the IDs whose vector is missing or
// was made from other text are returned for embedding.
//
// chromem v0.7.0 cannot list a collection's documents, so the orphans are
// found by a search with nResults = Count, which returns every document; its
// query vector is any stored vector of a wanted memory, which has the right
// length. When no wanted memory has a vector, every document is an orphan
// and the collection is started afresh.
func (v *Vectors) sync(ctx context.Context, want map[string]string) (stale []string, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	present := 0
	var probe []float32
	for id, text := range want {
		d, err := v.col.GetByID(ctx, id)
		if err != nil { // not found: the only error for a non-empty ID
			stale = append(stale, id)
			continue
		}
		present++
		probe = d.Embedding
		if d.Content != text {
			stale = append(stale, id)
		}
	}
	n := v.col.Count()
	if n == present {
		return stale, nil
	}
	if probe == nil {
		if err := v.db.DeleteCollection(v.name); err != nil {
			return nil, fmt.Errorf("delete orphaned memory vectors: %w", err)
		}
		if v.col, err = v.db.CreateCollection(v.name, map[string]string{"model": v.model}, v.embedOne); err != nil {
			return nil, fmt.Errorf("recreate memory vector collection: %w", err)
		}
		return stale, nil
	}
	all, err := v.col.QueryEmbedding(ctx, probe, n, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("list memory vectors: %w", err)
	}
	var orphans []string
	for _, r := range all {
		if _, ok := want[r.ID]; !ok {
			orphans = append(orphans, r.ID)
		}
	}
	if len(orphans) > 0 {
		if err := v.col.Delete(ctx, nil, nil, orphans...); err != nil {
			return nil, fmt.Errorf("delete orphaned memory vectors: %w", err)
		}
	}
	return stale, nil
}
