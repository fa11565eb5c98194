package vector

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// Mirror keeps kept — the saved embedding model's vector file (OpenKept)
// — true to the documents while this index serves a model chosen for one
// run (`--embed-model`): what is deleted, relabelled or cleared here is
// deleted, relabelled or cleared there too, and a document added here
// with a text or metadata other than kept's loses its vector there.
// Nothing is ever embedded into kept, so its vectors stay the saved
// model's; the next run with that model finds them as they were and
// embeds only what this run added or changed. kept is read on its first
// change, its vectors left in the file, and closed with this index. Its
// failures are not returned, this index's change stands, but they cost
// kept its file (mirrored).
func Mirror(kept *Kept) Option { return func(c *config) { c.mirror = kept } }

// mirrorTimeout bounds a change passed to the kept index of Mirror, which
// runs past its caller's cancellation: it reads and writes a local file.
const mirrorTimeout = time.Minute

// mirrored runs f on the kept index of Mirror, if any. It runs without the
// caller's cancellation (bounded by mirrorTimeout): Stop pressed or the
// app shutting down just after this index changed must not leave kept
// with a deleted document's text or a stale vector, which the next run
// with the saved model would trust for good (it looks for missing chunks
// by id only). If f fails all the same, kept is closed and its file
// removed, so that the next run with the saved model embeds everything
// again rather than answer from what this run deleted or changed; nothing
// is passed to it after that.
func (ix *Index) mirrored(ctx context.Context, what string, f func(ctx context.Context, kept *Kept) error) {
	kept := ix.cfg.mirror
	if kept == nil || ix.mirrorLost.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mirrorTimeout)
	defer cancel()
	err := f(ctx, kept)
	if err == nil {
		return
	}
	log := ix.cfg.logger
	log.Warn("keep the saved embedding model's vectors in step", "change", what, "path", kept.path, "err", err)
	if !ix.mirrorLost.CompareAndSwap(false, true) {
		return
	}
	cerr := kept.Close()
	if rerr := os.Remove(kept.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		log.Error("remove the saved embedding model's vectors, out of step", "path", kept.path, "err", errors.Join(cerr, rerr))
		return
	}
	log.Warn("the saved embedding model's vectors removed, out of step: the next run with it embeds everything again", "path", kept.path)
}
