package app

import (
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
)

// A person presses Stop on a file that embeds to get the machine back.
// The stop keeps the file, found by its words, and leaves its passages
// not embedded yet to the vector index's background embedding, which
// would pick them up at once and keep the CPU or GPU as busy as before.
// So a person's Stop (CancelImport) pauses the file's passages there
// first: they wait until the person resumes them (ResumeEmbedding), or
// until Wayfinder next starts — the pause lives in memory, and the
// catch-up at start embeds what is missing, paced behind chat turns as
// always. A hand-on (another file joins the queue) and Add to library are
// no stop of the person's: their embedding goes on in the background.

// pause holds back the background embedding of source's passages, and
// tells the windows (EventEmbedPause): another window's row of the file
// says it is paused, with Resume, at once.
func (l *library) pause(source string) {
	l.vectors.Pause("source", source)
	l.tell(api.EmbedPauseChanged{Source: source, Paused: true})
}

// tell sends the windows a pause begun or ended, when they listen.
func (l *library) tell(ev api.EmbedPauseChanged) {
	if l.emit != nil {
		l.emit(api.EventEmbedPause, ev)
	}
}

// pausedSources says which files' background embedding is paused.
func (l *library) pausedSources() map[string]bool { return l.vectors.PausedBy("source") }

// forgetPaused drops the pauses of files removed (Remove, RemoveAttached
// call it after a removal: a paused file has passages pending until it
// is gone), so that a file attached or imported again under the same
// name is not held back; the windows are told it was removed, so that a
// chat's row of it moved to the library says so rather than "paused".
func (l *library) forgetPaused() {
	pending := l.pendingSources()
	for source := range l.pausedSources() {
		if pending[source] == 0 && l.vectors.Resume("source", source) {
			l.tell(api.EmbedPauseChanged{Source: source, Removed: true})
		}
	}
}

// readAgain forgets the pause of a file being read in again (imported or
// attached anew, p its progress): the person wants it now. Its new
// passages embed in line, and what a hand-on leaves of them goes on in
// the background, not held back by the old Stop.
func (l *library) readAgain(p api.ImportProgress) {
	if p.Stage == string(knowledge.StageReading) && p.File != "" && l.vectors.Resume("source", p.File) {
		l.tell(api.EmbedPauseChanged{Source: p.File})
	}
}

// embedding names the file the import id embeds now ("" if none): Stop
// pauses it, so that stopping the import leaves its passages waiting.
func (im *imports) embedding(id string) string {
	im.mu.Lock()
	defer im.mu.Unlock()
	if r := im.run[id]; r != nil {
		return r.embedding
	}
	return ""
}

// ResumeEmbedding lets the background embedding index the meaning of a
// file whose embedding the person stopped (source, as Attached and
// Documents list it): its passages are embedded from now on, and
// EventEmbedding counts them down. A file not paused (resumed already,
// or Wayfinder restarted meanwhile) is no error: its embedding goes on.
func (k *KnowledgeService) ResumeEmbedding(source string) error {
	if strings.TrimSpace(source) == "" {
		return api.NewError(api.ErrInvalidInput, "Say which file to index.", "")
	}
	if k.app.library.vectors.Resume("source", source) {
		k.app.log.Info("meaning indexing resumed by the person", "file", source)
		// Every window's row of it says so now, not at its first batch.
		k.app.library.tell(api.EmbedPauseChanged{Source: source})
	}
	return nil
}

// useEmbedModel embeds the library's passages with model from now on (the
// person picked it in Settings). Every passage then waits for it, so the
// windows are told each document's passages left (EventEmbedding): the
// worker's batches tell those it embeds, but a paused file waits for its
// Resume, and its "N of M passages left" would go on saying the old count.
func (a *App) useEmbedModel(model string) {
	was := a.library.vectors.Status().Model
	changed := was != model && !api.SameModel(was, model) // "bge-m3:latest" is "bge-m3"
	a.library.vectors.SetEmbedder(model, a.models.embedder(model))
	if changed {
		a.events.Emit(api.EventEmbedding, embeddingProgress(a.library.pendingDocs()))
	}
}
