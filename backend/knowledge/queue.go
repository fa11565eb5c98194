package knowledge

import (
	"context"
	"sync"
)

// Imports and uploads take turns (Base.write, and Base.uploads before it
// for uploads). A file waiting for its turn said only "waiting for another
// import": a person who attached a file to a conversation while a folder
// was read on the Knowledge screen, or in another conversation, could not
// tell what it waited for, nor whether it would be long. Its progress now
// names the file being read (Progress.WaitingFor), and names the next as
// the import holding the turn goes on to it.

// reading is the file the import holding the library's turn reads now,
// with a signal for those waiting that it changed. Its zero value is
// ready.
type reading struct {
	mu      sync.Mutex
	file    string
	changed chan struct{} // closed, and replaced, when file changes
}

// set records file ("" when the holder is done, or reads none).
func (r *reading) set(file string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if file == r.file {
		return
	}
	r.file = file
	if r.changed != nil {
		close(r.changed)
	}
	r.changed = make(chan struct{})
}

// get returns the file and what closes when it changes.
func (r *reading) get() (string, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.changed == nil {
		r.changed = make(chan struct{})
	}
	return r.file, r.changed
}

// waitFor takes mu for the file of p. When another import or removal holds
// it, p first says the file waits, and for which file being read: an
// upload queued behind a long import would otherwise show nothing at all
// until its turn. It says so again when the holder goes on to another
// file (not when it ends: the turn is about to come, and a waiting row
// that lost its file's name would only flicker). The wait ends when ctx
// does (the person stopped the import): then mu is not held and the error
// is ctx's; the lock taken later is given back at once.
func (b *Base) waitFor(ctx context.Context, mu *sync.Mutex, p Progress, onProgress func(Progress)) error {
	if mu.TryLock() {
		if err := ctx.Err(); err != nil {
			mu.Unlock()
			return err
		}
		return nil
	}
	got := make(chan struct{})
	go func() {
		mu.Lock()
		close(got)
	}()
	p.Stage = StageWaiting
	said := false
	for {
		file, changed := b.reading.get()
		if !said || file != "" && file != p.WaitingFor {
			p.WaitingFor, said = file, true
			onProgress(p)
		}
		select {
		case <-got:
			if err := ctx.Err(); err != nil {
				mu.Unlock()
				return err
			}
			return nil
		case <-ctx.Done():
			go func() {
				<-got
				mu.Unlock()
			}()
			return ctx.Err()
		case <-changed:
		}
	}
}
