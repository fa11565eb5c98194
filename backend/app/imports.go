package app

import (
	"context"
	"strings"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
)

// imports are the background imports and uploads of the App, each with
// its own context, so that the person can stop one (CancelImport) while
// the others go on. Its zero value is ready.
type imports struct {
	mu  sync.Mutex
	run map[string]*running
}

// running is one import in flight.
type running struct {
	cancel context.CancelFunc
	ended  chan struct{}
	// embedding is the file the import embeds now ("" before and after):
	// it is in, found by its words, and Add to library can take it at
	// once, leaving its embedding to go on in the background.
	embedding string
}

// start gives the import id a context of its own under parent; done ends
// it and forgets the id once the import has ended.
func (im *imports) start(parent context.Context, id string) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(parent)
	r := &running{cancel: cancel, ended: make(chan struct{})}
	im.mu.Lock()
	if im.run == nil {
		im.run = map[string]*running{}
	}
	im.run[id] = r
	im.mu.Unlock()
	return ctx, func() {
		im.mu.Lock()
		delete(im.run, id)
		im.mu.Unlock()
		cancel()
		close(r.ended)
	}
}

// embeds records which file the import id embeds now ("" when none).
func (im *imports) embeds(id, source string) {
	im.mu.Lock()
	defer im.mu.Unlock()
	if r := im.run[id]; r != nil {
		r.embedding = source
	}
}

// stopEmbedding stops the import that embeds source, if one does, and
// returns what closes when it has ended (nil when none embeds it).
func (im *imports) stopEmbedding(source string) <-chan struct{} {
	im.mu.Lock()
	defer im.mu.Unlock()
	for _, r := range im.run {
		if r.embedding != "" && r.embedding == source {
			r.cancel()
			return r.ended
		}
	}
	return nil
}

// stop cancels the import id and reports whether it was running.
func (im *imports) stop(id string) bool {
	im.mu.Lock()
	r := im.run[id]
	im.mu.Unlock()
	if r != nil {
		r.cancel()
	}
	return r != nil
}

// stopAll cancels every running import, when the app closes.
func (im *imports) stopAll() {
	im.mu.Lock()
	defer im.mu.Unlock()
	for _, r := range im.run {
		r.cancel()
	}
}

// CancelImport stops the background import or upload importID (the id
// Import, Upload or Attach returned), where it is: the file it is on is
// not added (nothing of it stays, an earlier version of it stays as it
// was) unless it is embedding — then it is in, found by its words, and
// only its embedding stops, its passages not embedded yet left to the
// vector index's background embedding, paused there until the person
// resumes it (ResumeEmbedding, embed_stopped) —, files it has
// done stay, files not started and a file waiting for another import are
// not imported. Its knowledge.import events end those
// files with stage "stopped", and its knowledge.import_done report lists
// them in Stopped. An import that has ended already has nothing to stop:
// that is no error, as the person may press Stop as it ends.
func (k *KnowledgeService) CancelImport(importID string) error {
	if strings.TrimSpace(importID) == "" {
		return api.NewError(api.ErrInvalidInput, "Say which import to stop.", "")
	}
	// Its passages not embedded yet wait for the person's Resume (pause.go).
	if source := k.app.imports.embedding(importID); source != "" {
		k.app.library.pause(source)
	}
	if k.app.imports.stop(importID) {
		k.app.log.Info("import stopped by the person", "import", importID)
	}
	return nil
}

// embedsAt records, from an import's progress p, which file the import
// id embeds now: the file Stop then pauses, and stopEmbedding stops.
func (im *imports) embedsAt(id string, p api.ImportProgress) {
	if p.Stage == string(knowledge.StageEmbedding) {
		im.embeds(id, p.File)
	} else {
		im.embeds(id, "")
	}
}
