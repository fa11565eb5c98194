package vector

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"os"
	"slices"
	"sync"
)

// Kept is the saved embedding model's vector file while a run tries
// another model (Mirror): changed in place, never loaded. It holds what
// telling a change needs, for each document its id, its metadata (shared
// by the documents that have the same), a hash of its text and where its
// record is in the file: 14 MB at 100k documents of 1024 dimensions,
// where the saved file opened as an Index held 488 MB of vectors and
// texts (BenchmarkMirrorHeap). A delete is a
// record appended; a relabel reads the document's record back from the
// file and appends it with the new label, vector and all. The next run
// with the saved model loads the file as usual (and rewrites it when most
// of it is dead records).
//
// The file is read on the first change. Kept is safe for concurrent use.
type Kept struct {
	path string
	seed maphash.Seed

	mu     sync.Mutex
	loaded bool
	closed bool
	docs   map[string]keptDoc
	metas  map[string]map[string]string // one map for each distinct metadata
	last   map[string]string            // the last one shared
	key    []byte
	f      *os.File // open for appending once loaded
	buf    []byte
}

// keptDoc is what Kept knows of one document.
type keptDoc struct {
	text uint64            // maphash of the text
	meta map[string]string // shared: never changed in place
	off  int64             // its record in the file, frame included
	size int
}

// OpenKept returns the saved model's vector file at path for Mirror. It
// reads nothing until the first change.
func OpenKept(path string) *Kept { return &Kept{path: path, seed: maphash.MakeSeed()} }

// load reads the file's documents once and opens it for appending, a
// record cut short by a crash cut off as Index does. Callers hold mu.
func (k *Kept) load(ctx context.Context) error {
	if k.closed {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if k.loaded {
		return nil
	}
	docs := map[string]keptDoc{}
	k.metas = map[string]map[string]string{}
	good, _, err := scanLog(k.path, func(r record, off int64, size int) {
		if r.op == opDelete {
			delete(docs, r.id)
			return
		}
		docs[r.id] = keptDoc{text: maphash.String(k.seed, r.text), meta: k.shared(r.meta), off: off, size: size}
	})
	if err != nil {
		return err
	}
	f, err := openAppend(k.path, good)
	if err != nil {
		return err
	}
	k.docs, k.f, k.loaded = docs, f, true
	return nil
}

// shared returns the one map Kept holds for metadata equal to meta: a
// file's chunks all have the same, and follow one another in the file.
func (k *Kept) shared(meta map[string]string) map[string]string {
	if k.last != nil && maps.Equal(meta, k.last) {
		return k.last
	}
	key := k.key[:0]
	for _, name := range slices.Sorted(maps.Keys(meta)) {
		key = appendString(appendString(key, name), meta[name])
	}
	k.key = key
	m, ok := k.metas[string(key)]
	if !ok {
		m = meta
		k.metas[string(key)] = m
	}
	k.last = m
	return m
}

// Delete removes documents; unknown ids are ignored.
func (k *Kept) Delete(ctx context.Context, ids ...string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(ctx); err != nil {
		return err
	}
	return k.deleteLocked(ids)
}

func (k *Kept) deleteLocked(ids []string) error {
	b := k.buf[:0]
	var gone []string
	for _, id := range ids {
		if _, ok := k.docs[id]; ok {
			r := record{op: opDelete, id: id}
			b, gone = r.encode(b), append(gone, id)
		}
	}
	if _, err := k.append(b); err != nil {
		return err
	}
	for _, id := range gone {
		delete(k.docs, id)
	}
	return nil
}

// append writes b at the end of the file and syncs it; it returns where b
// begins.
func (k *Kept) append(b []byte) (int64, error) {
	if cap(b) <= 1<<20 {
		k.buf = b[:0]
	}
	if len(b) == 0 {
		return 0, nil
	}
	off, err := k.f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = k.f.Write(b)
	}
	if err == nil {
		err = k.f.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("write vector index %q: %w", k.path, err)
	}
	return off, nil
}

// DeleteWhere removes every document whose metadata has all the pairs of
// where (which must not be empty) and returns how many it removed.
func (k *Kept) DeleteWhere(ctx context.Context, where map[string]string) (int, error) {
	if len(where) == 0 {
		return 0, errors.New("delete from vector index: empty filter")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(ctx); err != nil {
		return 0, err
	}
	var ids []string
	for id, d := range k.docs {
		if matches(d.meta, where) {
			ids = append(ids, id)
		}
	}
	return len(ids), k.deleteLocked(ids)
}

// dropChanged deletes the documents of docs whose text or metadata differ
// from the file's: their vector no longer says what they say.
func (k *Kept) dropChanged(ctx context.Context, docs []Doc) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(ctx); err != nil {
		return err
	}
	var ids []string
	for _, d := range docs {
		if e, ok := k.docs[d.ID]; ok && (e.text != maphash.String(k.seed, d.Text) || !maps.Equal(e.meta, d.Metadata)) {
			ids = append(ids, d.ID)
		}
	}
	return k.deleteLocked(ids)
}

// Relabel sets metadata key to value on every document whose metadata
// has all the pairs of where (which must not be empty), as Index.Relabel
// does: each record is read back and appended with the new label, its
// vector (or none) and model as they were. It returns how many changed.
func (k *Kept) Relabel(ctx context.Context, where map[string]string, key, value string) (int, error) {
	if len(where) == 0 {
		return 0, errors.New("relabel in vector index: empty filter")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(ctx); err != nil {
		return 0, err
	}
	var ids []string
	for id, d := range k.docs {
		if matches(d.meta, where) && d.meta[key] != value {
			ids = append(ids, id)
		}
	}
	var (
		dec   decoder
		frame []byte
		b     = k.buf[:0]
		moved = map[string]keptDoc{}
		start []string // the documents of b, in order
	)
	flush := func() error {
		off, err := k.append(b)
		if err != nil {
			return err
		}
		for _, id := range start {
			d := moved[id]
			d.off += off
			k.docs[id] = d
		}
		b, start = k.buf[:0], start[:0]
		return nil
	}
	for _, id := range ids {
		d := k.docs[id]
		if cap(frame) < d.size {
			frame = make([]byte, d.size)
		}
		frame = frame[:d.size]
		if _, err := k.f.ReadAt(frame, d.off); err != nil {
			return 0, fmt.Errorf("read vector index %q: %w", k.path, err)
		}
		r, err := dec.record(frame[8:])
		if err != nil || r.op != opPut || r.id != id {
			return 0, fmt.Errorf("read vector index %q: record of %s: %w", k.path, id, errCorrupt)
		}
		r.meta = maps.Clone(d.meta)
		if r.meta == nil {
			r.meta = map[string]string{}
		}
		r.meta[key] = value
		at := len(b)
		b = r.encode(b)
		moved[id] = keptDoc{text: d.text, meta: k.shared(r.meta), off: int64(at), size: len(b) - at}
		start = append(start, id)
		if len(b) >= 1<<20 {
			if err := flush(); err != nil {
				return 0, err
			}
		}
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return len(ids), nil
}

// Clear removes every document and rewrites the file empty, so nothing
// deleted lingers on disk.
func (k *Kept) Clear(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if k.f != nil {
		if err := k.f.Close(); err != nil {
			return fmt.Errorf("close vector index %q: %w", k.path, err)
		}
		k.f = nil
	}
	// Unusable until both succeed rather than writing to a closed file.
	k.closed = true
	if err := writeLog(k.path, func(func(*record) bool) {}); err != nil {
		return err
	}
	f, err := openAppend(k.path, int64(len(fileMagic)))
	if err != nil {
		return err
	}
	k.f, k.closed, k.loaded = f, false, true
	k.docs, k.metas, k.last = map[string]keptDoc{}, map[string]map[string]string{}, nil
	return nil
}

// Close closes the file.
func (k *Kept) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	wasClosed := k.closed
	k.closed = true
	if k.f == nil {
		return nil
	}
	err := k.f.Close()
	k.f = nil
	if err != nil && !wasClosed {
		return fmt.Errorf("close vector index %q: %w", k.path, err)
	}
	return nil
}
