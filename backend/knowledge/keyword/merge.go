package keyword

import "encoding/binary"

// NewBatch returns an empty index with ix's analyzer and parameters, for
// building the postings of one file apart from ix and moving them in with
// Merge once the file is kept. A file stopped or failed while its batch is
// built is dropped with the batch: ix never held a posting of it, so
// searches meanwhile neither find its passages nor count them in their
// scores, and nothing has to be taken out again.
func (ix *Index) NewBatch() *Index { return New(ix.analyzer, ix.params) }

// Merge moves every document of batch into ix, as if each had been added
// to ix with Add in the order it was added to batch (a document whose id
// ix holds replaces it, as Add does): the documents, lengths and posting
// lists are the same, so are scores and the snapshot. batch must be made
// by ix.NewBatch and not be used afterwards.
//
// It is quick: a posting list is stored as gaps between documents, so
// batch's lists are appended to ix's as they are, only their first gap
// written again. That is what ix's lock is held for, not the terms of
// every passage, which were made while batch was built.
func (ix *Index) Merge(batch *Index) {
	batch.mu.Lock()
	defer batch.mu.Unlock()
	if batch.deleted > 0 {
		batch.compactLocked()
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, d := range batch.docs {
		ix.removeLocked(d.id) // may compact ix: base is taken after
	}
	base := uint32(len(ix.docs))
	if base == 0 {
		// A library's first file: batch's documents are ix's as they are.
		ix.docs, ix.lens, ix.byID = batch.docs, batch.lens, batch.byID
		ix.totalLen, ix.live = batch.totalLen, batch.live
	} else {
		for _, d := range batch.docs {
			ix.appendDoc(d)
		}
	}
	// Of the two maps of terms the larger is kept and the other's lists go
	// into it: a large file's hundreds of thousands of Korean bigrams
	// would otherwise be two maps at once (about 10 MB more at the peak of
	// a 60 MB import into an empty library).
	keepBatch := len(batch.postings) > len(ix.postings)
	for t, bl := range batch.postings {
		if bl.n == 0 {
			delete(batch.postings, t)
			continue
		}
		first, rest := uvarint(bl.b, 0) // the first gap is the first document
		pl := ix.postings[t]
		if pl == nil {
			// A term new to ix takes batch's list itself, its first gap
			// moved by base (in a library's first file, not at all).
			if base > 0 {
				b := make([]byte, 0, len(bl.b)+binary.MaxVarintLen32)
				b = binary.AppendUvarint(b, uint64(base+first))
				bl.b = append(b, bl.b[rest:]...)
				bl.last += base
			}
			if !keepBatch {
				ix.postings[t] = bl
			}
			ix.vocab++
			ix.hangul += hangulTerm(t)
			continue
		}
		gap := base + first
		if pl.n > 0 {
			gap -= pl.last
		}
		pl.b = binary.AppendUvarint(pl.b, uint64(gap))
		pl.b = append(pl.b, bl.b[rest:]...)
		pl.n += bl.n
		pl.last = base + bl.last
		if keepBatch {
			batch.postings[t] = pl
		}
	}
	if keepBatch {
		for t, pl := range ix.postings {
			if _, ok := batch.postings[t]; !ok {
				batch.postings[t] = pl
			}
		}
		ix.postings = batch.postings
	}
	batch.docs, batch.lens, batch.byID, batch.postings = nil, nil, map[string]uint32{}, map[string]*plist{}
	batch.totalLen, batch.live, batch.deleted = 0, 0, 0
}
