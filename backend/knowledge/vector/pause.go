package vector

// A person who stops a file's embedding wants the machine back: the
// passages the stop leaves pending must not be picked up by the
// background worker at once, which keeps the CPU or GPU as busy as
// before. So pending documents can be paused by a metadata value (a
// file's source): the worker skips them, they stay pending (PendingBy
// still counts them) until Resume. Pausing lives in memory only: the
// next Open embeds whatever is pending, as it always did, so a pause
// never strands passages without their vectors.

// label is a metadata pair that pauses the documents that have it.
type label struct{ key, value string }

// Pause keeps the worker from embedding the pending documents whose
// metadata key is value, now and those added later, until Resume. A
// batch the worker embeds already is still stored.
func (ix *Index) Pause(key, value string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.paused == nil {
		ix.paused = map[label]struct{}{}
	}
	ix.paused[label{key, value}] = struct{}{}
	// The catch-up after a model change waits for no paused file: with
	// only paused ones left, it is over and search by meaning is on.
	if ix.reembedTotal > 0 && ix.waitingLocked() == 0 {
		ix.reembedTotal = 0
	}
}

// Resume lets the worker embed the documents Pause held back, and wakes
// it. It reports whether they were paused.
func (ix *Index) Resume(key, value string) bool {
	ix.mu.Lock()
	_, was := ix.paused[label{key, value}]
	if was && ix.reembedTotal > 0 {
		// Resumed during a catch-up after a model change: its passages
		// join it, counted, and are embedded with the new model.
		before := ix.waitingLocked()
		delete(ix.paused, label{key, value})
		ix.reembedTotal += ix.waitingLocked() - before
	}
	delete(ix.paused, label{key, value})
	ix.mu.Unlock()
	if was {
		ix.wake()
	}
	return was
}

// PausedBy lists the values of metadata key that are paused.
func (ix *Index) PausedBy(key string) map[string]bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := map[string]bool{}
	for l := range ix.paused {
		if l.key == key {
			out[l.value] = true
		}
	}
	return out
}

// pausedLocked says whether the worker must skip e. Callers hold mu.
func (ix *Index) pausedLocked(e *entry) bool {
	for l := range ix.paused {
		if v, ok := e.meta[l.key]; ok && v == l.value {
			return true
		}
	}
	return false
}

// relabelPausedLocked moves a pause along with the documents Relabel
// moves: a paused file added to the library stays paused under its new
// name. Callers hold mu.
func (ix *Index) relabelPausedLocked(where map[string]string, key, value string) {
	if from, ok := where[key]; ok {
		if _, was := ix.paused[label{key, from}]; was {
			delete(ix.paused, label{key, from})
			ix.paused[label{key, value}] = struct{}{}
		}
	}
}

// waitingLocked counts the pending documents the worker will embed: those
// not paused. Callers hold mu.
func (ix *Index) waitingLocked() int {
	if len(ix.paused) == 0 {
		return len(ix.pending)
	}
	n := 0
	for id := range ix.pending {
		if e := ix.docs[id]; e != nil && !ix.pausedLocked(e) {
			n++
		}
	}
	return n
}
