package vector

import (
	"context"
	"maps"
)

// Mirror keeps kept — the index of the saved embedding model, opened
// without an embedder — true to the documents while this index serves a
// model chosen for one run (`--embed-model`): what is deleted, relabelled
// or cleared here is deleted, relabelled or cleared there too, and a
// document added here with a text or metadata other than kept's loses its
// vector there. Nothing is ever embedded into kept, so its vectors stay
// the saved model's; the next run with that model finds them as they were
// and embeds only what this run added or changed. kept is read on its
// first change (LoadOnUse suits it) and closed with this index. Its
// failures are logged, not returned: this index's change stands.
func Mirror(kept *Index) Option { return func(c *config) { c.mirror = kept } }

// mirrored runs f on the kept index of Mirror, if any, and logs its error.
func (ix *Index) mirrored(what string, f func(kept *Index) error) {
	if ix.cfg.mirror == nil {
		return
	}
	if err := f(ix.cfg.mirror); err != nil {
		ix.cfg.logger.Warn("keep the saved embedding model's vectors in step", "change", what, "path", ix.cfg.mirror.path, "err", err)
	}
}

// dropChanged deletes the documents of docs whose text or metadata differ
// from what the index holds: their vector no longer says what they say.
// Documents it holds as they are keep their vectors.
func (ix *Index) dropChanged(ctx context.Context, docs []Doc) error {
	if err := ix.Wait(ctx); err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var ids []string
	for _, d := range docs {
		if e, ok := ix.docs[d.ID]; ok && (e.text != d.Text || !maps.Equal(e.meta, d.Metadata)) {
			ids = append(ids, d.ID)
		}
	}
	return ix.deleteLocked(ctx, ids)
}
