package app

import (
	"context"
	"strings"
	"sync"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// imports are the background imports and uploads of the App, each with
// its own context, so that the person can stop one (CancelImport) while
// the others go on. Its zero value is ready.
type imports struct {
	mu     sync.Mutex
	cancel map[string]context.CancelFunc
}

// start gives the import id a context of its own under parent; done ends
// it and forgets the id once the import has ended.
func (im *imports) start(parent context.Context, id string) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(parent)
	im.mu.Lock()
	if im.cancel == nil {
		im.cancel = map[string]context.CancelFunc{}
	}
	im.cancel[id] = cancel
	im.mu.Unlock()
	return ctx, func() {
		im.mu.Lock()
		delete(im.cancel, id)
		im.mu.Unlock()
		cancel()
	}
}

// stop cancels the import id and reports whether it was running.
func (im *imports) stop(id string) bool {
	im.mu.Lock()
	cancel := im.cancel[id]
	im.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return cancel != nil
}

// stopAll cancels every running import, when the app closes.
func (im *imports) stopAll() {
	im.mu.Lock()
	defer im.mu.Unlock()
	for _, cancel := range im.cancel {
		cancel()
	}
}

// CancelImport stops the background import or upload importID (the id
// Import, Upload or Attach returned), where it is: the file it is on is
// not added (nothing of it stays, an earlier version of it stays as it
// was), files it has done stay, files not started and a file waiting for
// another import are not imported. Its knowledge.import events end those
// files with stage "stopped", and its knowledge.import_done report lists
// them in Stopped. An import that has ended already has nothing to stop:
// that is no error, as the person may press Stop as it ends.
func (k *KnowledgeService) CancelImport(importID string) error {
	if strings.TrimSpace(importID) == "" {
		return api.NewError(api.ErrInvalidInput, "Say which import to stop.", "")
	}
	if k.app.imports.stop(importID) {
		k.app.log.Info("import stopped by the person", "import", importID)
	}
	return nil
}
