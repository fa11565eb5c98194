package vector

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Add embeds docs in batches (reporting progress after each; onProgress may
// be nil) and stores them, replacing documents with the same ID. Documents
// are stored even when embedding fails or no embedder is set: they are
// then pending, the background worker retries, and Add reports the
// embedding error. With a OnceEmbedder an attempt that times out is not
// tried again here (the worker does).
func (ix *Index) Add(ctx context.Context, docs []Doc, onProgress func(done, total int)) error {
	return ix.add(ctx, docs, true, Watch{Progress: onProgress})
}

// Watch hears how an Add goes; either field may be nil.
type Watch struct {
	// Progress is called after each batch with how many docs are embedded.
	Progress func(done, total int)
	// Waiting is called with true when a batch waits for the pace
	// (WithPace: the person's turn runs), and with false when it goes on,
	// so that an import's row can say why it does not move.
	Waiting func(bool)
}

// AddWatched is Add, telling w of its progress and of its waits.
func (ix *Index) AddWatched(ctx context.Context, docs []Doc, w Watch) error {
	return ix.add(ctx, docs, true, w)
}

// AddLater stores docs without embedding them, replacing documents with
// the same ID: they are pending, and the background worker embeds them.
// It is for a caller that knows the embedding model does not answer now
// (an import whose embedding timed out): Add would wait for it again.
func (ix *Index) AddLater(ctx context.Context, docs []Doc) error {
	return ix.add(ctx, docs, false, Watch{})
}

func (ix *Index) add(ctx context.Context, docs []Doc, embed bool, w Watch) error {
	if ix.cfg.readOnly {
		return ErrReadOnly
	}
	if err := ix.Wait(ctx); err != nil {
		return err
	}
	for _, d := range docs {
		if d.ID == "" {
			return errors.New("add to vector index: document without id")
		}
	}
	ix.mu.RLock()
	emb, model := ix.emb, ix.model
	ix.mu.RUnlock()

	var (
		vecs   [][]float32
		embErr error
	)
	if emb != nil && embed {
		vecs, embErr = ix.embedAll(ctx, emb, docs, w)
	}

	if err := ix.store(docs, vecs, model); err != nil {
		return err
	}
	ix.mirrored(ctx, "add", func(ctx context.Context, kept *Kept) error { return kept.dropChanged(ctx, docs) })
	if embErr != nil {
		return fmt.Errorf("embed %d documents with %s: %w", len(docs), model, embErr)
	}
	return nil
}

// store puts docs in the index and the file, with the vectors of model
// that vecs holds (fewer than docs, or none, when embedding failed).
func (ix *Index) store(docs []Doc, vecs [][]float32, model string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	recs := make([]record, 0, len(docs))
	for i, d := range docs {
		ix.seq++
		e := &entry{text: d.Text, meta: maps.Clone(d.Metadata), seq: ix.seq}
		rec := record{op: opPut, id: d.ID, text: d.Text, meta: e.meta}
		ix.vecs.remove(d.ID) // an older vector of a replaced document
		delete(ix.pending, d.ID)
		if i < len(vecs) && sameModel(model, ix.model) && (ix.vecs.dim == 0 || ix.vecs.dim == len(vecs[i])) {
			ix.vecs.put(d.ID, vecs[i], e.meta)
			e.model, rec.model, rec.vec = model, model, vecs[i]
		}
		if e.model == "" {
			ix.pending[d.ID] = struct{}{}
		}
		ix.docs[d.ID] = e
		recs = append(recs, rec)
	}
	if err := ix.persist(recs); err != nil {
		return err
	}
	if len(ix.pending) > 0 {
		ix.wake()
	}
	return nil
}

// embedAll embeds the texts of docs in batches. On failure it returns the
// vectors of the batches that succeeded.
func (ix *Index) embedAll(ctx context.Context, emb Embedder, docs []Doc, w Watch) ([][]float32, error) {
	out := make([][]float32, 0, len(docs))
	texts := make([]string, 0, ix.cfg.batch)
	waited := false
	waiting := func() {
		waited = true
		if w.Waiting != nil {
			w.Waiting(true)
		}
	}
	for start := 0; start < len(docs); start += ix.cfg.batch {
		if err := ix.paced(ctx, waiting); err != nil {
			return out, err
		}
		if waited && w.Waiting != nil {
			w.Waiting(false)
		}
		waited = false
		texts = texts[:0]
		for _, d := range docs[start:min(start+ix.cfg.batch, len(docs))] {
			texts = append(texts, d.Text)
		}
		vecs, err := embedBatch(ctx, once{emb}, texts)
		if err != nil {
			return out, err
		}
		out = append(out, vecs...)
		if w.Progress != nil {
			w.Progress(len(out), len(docs))
		}
	}
	return out, nil
}

// once embeds with a OnceEmbedder's EmbedOnce when it has one.
type once struct{ Embedder }

func (o once) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	if oe, ok := o.Embedder.(OnceEmbedder); ok {
		return oe.EmbedOnce(ctx, inputs)
	}
	return o.Embedder.Embed(ctx, inputs)
}

// embedBatch embeds texts and checks and normalises what comes back.
func embedBatch(ctx context.Context, emb Embedder, texts []string) ([][]float32, error) {
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("got %d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != len(vecs[0]) {
			return nil, fmt.Errorf("vectors of different lengths (%d and %d)", len(vecs[0]), len(v))
		}
		if vecs[i], err = normalize(v); err != nil {
			return nil, err
		}
	}
	return vecs, nil
}

// persist appends recs to the file. Callers hold mu, so the file's order is
// the order in which changes were made.
func (ix *Index) persist(recs []record) error {
	if len(recs) == 0 {
		return nil
	}
	b := ix.buf[:0]
	for i := range recs {
		b = recs[i].encode(b)
	}
	if cap(b) <= 1<<20 {
		ix.buf = b
	}
	if _, err := ix.f.Write(b); err != nil {
		return fmt.Errorf("write vector index %q: %w", ix.path, err)
	}
	if err := ix.f.Sync(); err != nil {
		return fmt.Errorf("sync vector index %q: %w", ix.path, err)
	}
	ix.records += len(recs)
	return nil
}

// Delete removes documents and their vectors; unknown ids are ignored.
func (ix *Index) Delete(ctx context.Context, ids ...string) error {
	if ix.cfg.readOnly {
		return ErrReadOnly
	}
	if err := ix.Wait(ctx); err != nil {
		return err
	}
	ix.mu.Lock()
	err := ix.deleteLocked(ctx, ids)
	ix.mu.Unlock()
	if err == nil {
		ix.mirrored(ctx, "delete", func(ctx context.Context, kept *Kept) error { return kept.Delete(ctx, ids...) })
	}
	return err
}

// DeleteWhere removes every document whose metadata has all the key-value
// pairs of where (which must not be empty) and returns how many it removed.
func (ix *Index) DeleteWhere(ctx context.Context, where map[string]string) (int, error) {
	if ix.cfg.readOnly {
		return 0, ErrReadOnly
	}
	if len(where) == 0 {
		return 0, errors.New("delete from vector index: empty filter")
	}
	if err := ix.Wait(ctx); err != nil {
		return 0, err
	}
	ix.mu.Lock()
	var ids []string
	for id, e := range ix.docs {
		if matches(e.meta, where) {
			ids = append(ids, id)
		}
	}
	err := ix.deleteLocked(ctx, ids)
	ix.mu.Unlock()
	if err == nil {
		ix.mirrored(ctx, "delete", func(ctx context.Context, kept *Kept) error { _, err := kept.DeleteWhere(ctx, where); return err })
	}
	return len(ids), err
}

func matches(meta, where map[string]string) bool {
	for k, v := range where {
		if got, ok := meta[k]; !ok || got != v {
			return false
		}
	}
	return true
}

func (ix *Index) deleteLocked(ctx context.Context, ids []string) error {
	if ix.closed {
		return ErrClosed
	}
	var recs []record
	for _, id := range ids {
		if _, ok := ix.docs[id]; !ok {
			continue
		}
		delete(ix.docs, id)
		delete(ix.pending, id)
		ix.vecs.remove(id)
		recs = append(recs, record{op: opDelete, id: id})
	}
	if ix.waitingLocked() == 0 {
		ix.reembedTotal = 0
	}
	return ix.persist(recs)
}

// Clear removes every document and rewrites the file empty, so nothing
// deleted lingers on disk.
func (ix *Index) Clear(ctx context.Context) error {
	err := ix.clear(ctx)
	if err == nil {
		ix.mirrored(ctx, "clear", func(ctx context.Context, kept *Kept) error { return kept.Clear(ctx) })
	}
	return err
}

func (ix *Index) clear(ctx context.Context) error {
	if ix.cfg.readOnly {
		return ErrReadOnly
	}
	if err := ix.Wait(ctx); err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	if err := ix.f.Close(); err != nil {
		return fmt.Errorf("close vector index %q: %w", ix.path, err)
	}
	err := writeLog(ix.path, func(func(*record) bool) {})
	f, oerr := openAppend(ix.path, int64(len(fileMagic)))
	if oerr != nil {
		// Leave the index unusable rather than writing to a closed file.
		ix.closed = true
		return errors.Join(err, oerr)
	}
	ix.f = f
	if err != nil {
		return err
	}
	clear(ix.docs)
	clear(ix.pending)
	ix.vecs = newFlat()
	ix.records, ix.reembedTotal = 0, 0
	return nil
}

// queryable returns the collection to search, or why vector search is off.
// Callers hold mu (read).
func (ix *Index) queryable() error {
	select {
	case <-ix.loaded:
	default:
		return fmt.Errorf("%w: still loading", ErrNotReady)
	}
	switch {
	case ix.closed:
		return ErrClosed
	case ix.loadErr != nil:
		return fmt.Errorf("%w: %w", ErrNotReady, ix.loadErr)
	case ix.emb == nil:
		return ErrNoEmbedder
	case ix.reembedTotal > 0:
		return fmt.Errorf("%w: re-embedding with %s, %d of %d left", ErrNotReady, ix.model, ix.waitingLocked(), ix.reembedTotal)
	}
	return nil
}

// Query embeds text and returns up to n documents by cosine similarity,
// best first, among those whose metadata matches where (exact match on
// every pair; nil matches all). It returns ErrNotReady or ErrNoEmbedder
// when vector search is unavailable; callers then use keywords alone.
func (ix *Index) Query(ctx context.Context, text string, n int, where map[string]string) ([]Hit, error) {
	if ix.cfg.onUse {
		// Loaded on use: only once the query has a vector, so a search
		// while no embedding model answers never reads the file.
		vec, err := ix.embedOne(ctx, text)
		if err != nil {
			return nil, fmt.Errorf("embed query: %w", err)
		}
		if err := ix.Wait(ctx); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotReady, err)
		}
		return ix.QueryVector(ctx, vec, n, where)
	}
	ix.mu.RLock()
	err := ix.queryable()
	ix.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	vec, err := ix.embedOne(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	return ix.QueryVector(ctx, vec, n, where)
}

// HasVectors reports which of ids have a vector of the current model, that
// is which can be among Query's results. A document added but not embedded
// yet cannot, and a ranking that fuses vector results with another must not
// count its absence against it.
func (ix *Index) HasVectors(ids []string) []bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]bool, len(ids))
	for i, id := range ids {
		_, out[i] = ix.vecs.rows[id]
	}
	return out
}

// QueryVector is Query with a vector made by the index's model.
func (ix *Index) QueryVector(ctx context.Context, vec []float32, n int, where map[string]string) ([]Hit, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.queryable(); err != nil {
		return nil, err
	}
	if ix.vecs.dim != 0 && len(vec) != ix.vecs.dim {
		return nil, fmt.Errorf("query vector has %d dimensions, index has %d", len(vec), ix.vecs.dim)
	}
	vec, err := normalize(vec)
	if err != nil {
		return nil, fmt.Errorf("vector query: %w", err)
	}
	// n is clamped by the scan itself: asking for more than exists is fine
	// (chromem-go made it an error).
	top, err := ix.vecs.search(ctx, vec, n, where)
	if err != nil {
		return nil, fmt.Errorf("vector query: %w", err)
	}
	hits := make([]Hit, len(top))
	for i, t := range top {
		e := ix.docs[t.id]
		hits[i] = Hit{ID: t.id, Text: e.text, Metadata: maps.Clone(e.meta), Score: t.score}
	}
	return hits, nil
}

// work embeds pending documents in the background: after a model change,
// and for documents whose embedding failed or had no embedder.
func (ix *Index) work() {
	defer ix.wg.Done()
	delay := ix.cfg.retryDelay
	for {
		select {
		case <-ix.ctx.Done():
			return
		case <-ix.kick:
		}
		for {
			if ix.paced(ix.ctx, nil) != nil {
				return
			}
			ids, texts, seqs, emb, model := ix.nextBatch()
			if len(ids) == 0 {
				break
			}
			vecs, err := embedBatch(ix.ctx, emb, texts)
			if err != nil {
				if ix.ctx.Err() != nil {
					return
				}
				ix.cfg.logger.Warn("embed pending documents", "model", model, "count", len(ids), "err", err, "retry_in", delay)
				select {
				case <-ix.ctx.Done():
					return
				case <-time.After(delay):
				}
				delay = min(2*delay, time.Minute)
				continue
			}
			delay = ix.cfg.retryDelay
			p, settled, left, err := ix.applyBatch(model, ids, seqs, vecs)
			if err != nil {
				ix.cfg.logger.Error("store re-embedded documents", "err", err)
				return
			}
			if ix.cfg.onProgress != nil {
				ix.cfg.onProgress(p)
			}
			if len(left) > 0 {
				ix.cfg.onLeft(left)
			}
			if len(settled) > 0 {
				ix.cfg.onSettled(settled)
			}
		}
	}
}

// paced waits for the pace of WithPace, if any; waiting (may be nil)
// hears that it blocks.
func (ix *Index) paced(ctx context.Context, waiting func()) error {
	if ix.cfg.pace == nil {
		return nil
	}
	return ix.cfg.pace(ctx, waiting)
}

// nextBatch picks pending documents to embed, none that are paused.
func (ix *Index) nextBatch() (ids, texts []string, seqs []uint64, emb Embedder, model string) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.emb == nil || ix.closed {
		return nil, nil, nil, nil, ""
	}
	for id := range ix.pending {
		e := ix.docs[id]
		if len(ix.paused) > 0 && ix.pausedLocked(e) {
			continue
		}
		ids, texts, seqs = append(ids, id), append(texts, e.text), append(seqs, e.seq)
		if len(ids) == ix.cfg.batch {
			break
		}
	}
	return ids, texts, seqs, ix.emb, ix.model
}

// applyBatch stores vectors for documents that were not replaced, deleted,
// or overtaken by another model change while they were being embedded,
// and returns the values of WithSettled's key that have nothing pending
// any more, and how many are left of the WithPendingLeft groups it
// touched.
func (ix *Index) applyBatch(model string, ids []string, seqs []uint64, vecs [][]float32) (Progress, []string, map[string]int, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	p := Progress{Model: ix.model, Reembedding: ix.reembedTotal > 0}
	if ix.closed || !sameModel(model, ix.model) {
		return p, nil, nil, nil
	}
	var recs []record
	for i, id := range ids {
		e, ok := ix.docs[id]
		if !ok || e.seq != seqs[i] || e.model != "" || (ix.vecs.dim != 0 && ix.vecs.dim != len(vecs[i])) {
			continue
		}
		ix.vecs.put(id, vecs[i], e.meta)
		e.model = model
		delete(ix.pending, id)
		recs = append(recs, record{op: opPut, id: id, model: model, text: e.text, meta: e.meta, vec: vecs[i]})
	}
	if err := ix.persist(recs); err != nil {
		return p, nil, nil, err
	}
	settled, left := ix.settledLocked(recs), ix.leftLocked(recs)
	if ix.reembedTotal > 0 {
		waiting := ix.waitingLocked()
		p.Total = ix.reembedTotal
		p.Done = max(0, ix.reembedTotal-waiting)
		if waiting == 0 {
			ix.reembedTotal = 0
		}
	} else {
		p.Total = len(ix.docs)
		p.Done = len(ix.docs) - len(ix.pending)
	}
	return p, settled, left, nil
}

// leftLocked counts the pending documents of each WithPendingLeft group
// that recs (documents just embedded) belong to. Callers hold mu.
func (ix *Index) leftLocked(recs []record) map[string]int {
	if ix.cfg.onLeft == nil || len(recs) == 0 {
		return nil
	}
	left := map[string]int{}
	for _, r := range recs {
		left[ix.cfg.leftGroup(r.id)] = 0
	}
	for id := range ix.pending {
		g := ix.cfg.leftGroup(id)
		if n, ok := left[g]; ok {
			left[g] = n + 1
		}
	}
	return left
}

// settledLocked lists the values of WithSettled's key among the metadata
// of recs (documents just embedded) that no pending document has: one
// pass over the pending set a batch, small beside the batch's embedding.
// Callers hold mu.
func (ix *Index) settledLocked(recs []record) []string {
	key := ix.cfg.settledKey
	if ix.cfg.onSettled == nil || len(recs) == 0 {
		return nil
	}
	done := map[string]bool{}
	for _, r := range recs {
		if v, ok := r.meta[key]; ok {
			done[v] = true
		}
	}
	for id := range ix.pending {
		if len(done) == 0 {
			break
		}
		if v, ok := ix.docs[id].meta[key]; ok {
			delete(done, v)
		}
	}
	return slices.Sorted(maps.Keys(done))
}

// PendingBy counts the pending documents by the value of metadata key (a
// document's source, say): those still to be embedded, so that a file
// left to the background can say so after a restart or in another
// window. It is empty with no embedder, when nothing would embed them.
func (ix *Index) PendingBy(key string) map[string]int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := map[string]int{}
	if ix.emb == nil {
		return out
	}
	for id := range ix.pending {
		if v, ok := ix.docs[id].meta[key]; ok {
			out[v]++
		}
	}
	return out
}

// PendingGrouped counts the pending documents by group(id) (the document
// a passage's id names, say): like PendingBy, for a grouping the metadata
// does not hold. It is empty with no embedder.
func (ix *Index) PendingGrouped(group func(id string) string) map[string]int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := map[string]int{}
	if ix.emb == nil {
		return out
	}
	for id := range ix.pending {
		out[group(id)]++
	}
	return out
}

// Close stops background work and closes the file. It does not wait for a
// re-embedding to finish: what was embedded so far is on disk, and the rest
// continues at the next Open.
func (ix *Index) Close() error {
	ix.cancel()
	ix.mu.Lock()
	wasClosed := ix.closed
	ix.closed = true // a load still running closes its file and stops
	ix.mu.Unlock()
	ix.start.Do(func() { close(ix.loaded) }) // never loaded: nothing to wait for
	ix.wg.Wait()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var err error
	if ix.cfg.mirror != nil && !wasClosed {
		err = ix.cfg.mirror.Close()
	}
	if wasClosed || ix.f == nil {
		return err
	}
	if cerr := ix.f.Close(); cerr != nil {
		return errors.Join(err, fmt.Errorf("close vector index %q: %w", ix.path, cerr))
	}
	return err
}

// IDs lists the stored documents, for reconciling the index with the
// database that owns the texts.
func (ix *Index) IDs(ctx context.Context) ([]string, error) {
	if err := ix.Wait(ctx); err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]string, 0, len(ix.docs))
	for id := range ix.docs {
		out = append(out, id)
	}
	return out, nil
}

// Relabel sets metadata key to value on every document whose metadata has
// all the pairs of where (which must not be empty), and returns how many
// it changed. Each keeps its vector, or its place among the pending
// documents, and its sequence number, so that a batch the worker embeds
// meanwhile is still stored, under the new label: a file that moves (a
// conversation's file added to the library) is neither embedded twice
// nor lost, and what WithSettled and PendingBy say of it names it where
// it is now. The records are written before memory changes, so a failed
// write changes nothing.
func (ix *Index) Relabel(ctx context.Context, where map[string]string, key, value string) (int, error) {
	n, err := ix.relabel(ctx, where, key, value)
	if err == nil {
		ix.mirrored(ctx, "relabel", func(ctx context.Context, kept *Kept) error {
			_, err := kept.Relabel(ctx, where, key, value)
			return err
		})
	}
	return n, err
}

func (ix *Index) relabel(ctx context.Context, where map[string]string, key, value string) (int, error) {
	if ix.cfg.readOnly {
		return 0, ErrReadOnly
	}
	if len(where) == 0 {
		return 0, errors.New("relabel in vector index: empty filter")
	}
	if err := ix.Wait(ctx); err != nil {
		return 0, err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return 0, ErrClosed
	}
	var (
		recs  []record
		moved []*entry
	)
	for id, e := range ix.docs {
		if !matches(e.meta, where) || e.meta[key] == value {
			continue
		}
		meta := maps.Clone(e.meta)
		if meta == nil {
			meta = map[string]string{}
		}
		meta[key] = value
		rec := record{op: opPut, id: id, text: e.text, meta: meta}
		if row, ok := ix.vecs.rows[id]; ok && e.model != "" {
			rec.model, rec.vec = e.model, ix.vecs.vector(row)
		}
		recs, moved = append(recs, rec), append(moved, e)
	}
	if err := ix.persist(recs); err != nil {
		return 0, err
	}
	ix.relabelPausedLocked(where, key, value)
	for i, e := range moved {
		e.meta = recs[i].meta
		if row, ok := ix.vecs.rows[recs[i].id]; ok {
			ix.vecs.metas[row] = e.meta
		}
	}
	return len(recs), nil
}
