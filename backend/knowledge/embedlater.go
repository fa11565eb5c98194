package knowledge

import (
	"context"
	"errors"
	"sync"
)

// An embedding model that hangs must not hold a person's imports for
// minutes. Imports and uploads run one at a time, and each file is
// embedded after it is swapped in: with an Ollama that does not answer,
// each file waited out the embedding client's timeout (and once its
// retries: eight minutes a file, forty for five dropped files).
//
// So once a file's embedding times out, the rest of its import and of the
// imports and uploads queued with it are not embedded in line: their
// chunks go to the vector index unembedded (LaterSink), which embeds them
// in the background, and each file ends at once, found by its words, its
// EmbedErr an *EmbedLaterError. When the queue is empty the next import
// tries in line again. An Ollama that is away (no connection) is not a
// timeout: each file fails at once, and says so, as before.

// EmbedLaterError is a file's EmbedErr when its chunks were left to the
// vector index's background embedding, because an embedding of its import
// (or of one queued with it) timed out. Err is that timeout.
type EmbedLaterError struct{ Err error }

func (e *EmbedLaterError) Error() string {
	return "the embedding model did not answer in time; embedding goes on in the background: " + e.Err.Error()
}

func (e *EmbedLaterError) Unwrap() error { return e.Err }

// LaterSink is a ChunkSink that can keep chunks to be embedded later, in
// the background, instead of now (Vectors does).
type LaterSink interface {
	UpsertLater(ctx context.Context, chunks []IndexedChunk) error
}

// SourceMover is a ChunkSink that keeps each chunk's source beside it
// (Vectors does, for filters and for what its background embedding
// reports): a file that moves (Promote) moves there too, with its vectors
// and its chunks still waiting for theirs, so that what says its meaning
// is still being indexed, and then that it is done, names it where it is.
type SourceMover interface {
	MoveSource(ctx context.Context, from, to string) error
}

// timedOut says whether err is an embedding that did not answer in time
// (llm.Error and net errors say so with Timeout), not the import's own
// stop.
func timedOut(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// A file embeds in line while nothing waits behind it. Imports and uploads
// run one at a time and an import holds its turn until its file is
// embedded, minutes with a local model, so a second file attached to a
// conversation waited all that time before it was even read, and the
// question waited for both. Once another import or upload joins the
// queue, the file embedding in line hands the rest of its embedding on to
// the vector index's background embedding (as a stop does) and its import
// ends, found by its words; files read while others wait do the same at
// once. The file's EmbedErr is then ErrEmbedHandedOn.

// ErrEmbedHandedOn is a file's EmbedErr when its embedding went on in the
// background so that the imports queued behind it could be read.
var ErrEmbedHandedOn = errors.New("embedding goes on in the background while the next file is read")

// embedQueue is what the imports and uploads queued together know of the
// embedding model: whether one of them found it hung, and how to hand the
// embedding running in line on to the background.
type embedQueue struct {
	mu     sync.Mutex
	queued int                     // imports and uploads waiting or running
	later  *EmbedLaterError        // set by a timeout; nil again when the queue is empty
	inLine context.CancelCauseFunc // ends the embedding running in line, if any
}

// join counts an import or upload in the queue until leave is called
// (once; later calls do nothing): before its turn is given back, so that
// the next one does not count it as waiting. One that joins behind
// another hands that one's embedding on.
func (q *embedQueue) join() (leave func()) {
	q.mu.Lock()
	q.queued++
	if q.queued > 1 && q.inLine != nil {
		q.inLine(ErrEmbedHandedOn)
	}
	q.mu.Unlock()
	return sync.OnceFunc(func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.queued--; q.queued == 0 {
			q.later = nil
		}
	})
}

// waiting says whether an import or upload waits behind the running one.
func (q *embedQueue) waiting() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queued > 1
}

// hung notes that err, an embedding's timeout, sends the queue's
// embeddings to the background, and returns the error that says so.
func (q *embedQueue) hung(err error) *EmbedLaterError {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.later == nil {
		q.later = &EmbedLaterError{Err: err}
	}
	return q.later
}

// embedInLine returns the context a file embeds in line with: it ends
// with cause ErrEmbedHandedOn when another import or upload joins the
// queue (at once when one waits already). done forgets it.
func (q *embedQueue) embedInLine(ctx context.Context) (_ context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.inLine = cancel
	if q.queued > 1 {
		cancel(ErrEmbedHandedOn)
	}
	return ctx, func() {
		q.mu.Lock()
		q.inLine = nil
		q.mu.Unlock()
		cancel(nil)
	}
}

// deferred is the error of the queue's timeout, nil while embeddings run
// in line.
func (q *embedQueue) deferred() *EmbedLaterError {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.later
}

// keepForLater hands chunks to the sink to be embedded in the background;
// a sink that cannot keep them leaves them to Reindex.
func (s *stager) keepForLater(ctx context.Context, rows []Chunk, docs map[string]Document) error {
	ls, ok := s.b.opts.Sink.(LaterSink)
	if !ok || len(rows) == 0 {
		return nil
	}
	if err := ls.UpsertLater(ctx, indexed(rows, docs)); err != nil {
		if ctx.Err() == nil {
			s.b.log.Warn("chunks not kept for embedding; keyword search still finds them", "file", s.source, "err", err)
		}
		return err
	}
	return nil
}
