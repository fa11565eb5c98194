package keyword

import "slices"

// maxRarestTried bounds the posting lists Rarest walks: the terms rarest in
// the whole index are tried first, and one of the first few is nearly
// always rare in the document asked about too.
const maxRarestTried = 4

// Rarest returns the ids of the documents, among those keep keeps, holding
// the one of terms (index terms, as Tokens gives them) that the fewest of
// them hold. A caller looking for a text word for word compares it only
// with these, not with every document: a document holding the text holds
// each of its words. ok is false when terms is empty, or when each term
// tried is held by more than limit kept documents (then ids is nil, and
// comparing with them all is the caller's slower way). A term the index
// has never seen is held by none: ids is empty and ok true.
func (ix *Index) Rarest(terms []string, keep func(id string) bool, limit int) (ids []string, ok bool) {
	if len(terms) == 0 {
		return nil, false
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	terms = slices.Clone(terms)
	slices.SortFunc(terms, func(a, b string) int { return int(ix.count(a)) - int(ix.count(b)) })
	terms = slices.Compact(terms)
	var best []uint32
	found := false
	for i, t := range terms {
		if i == maxRarestTried {
			break
		}
		bound := limit
		if found {
			bound = min(bound, len(best)-1)
		}
		docs, within := ix.holding(t, keep, bound)
		if within {
			best, found = docs, true
		}
		if found && len(best) == 0 {
			break
		}
	}
	if !found {
		return nil, false
	}
	ids = make([]string, len(best))
	for i, doc := range best {
		ids[i] = ix.docs[doc].id
	}
	return ids, true
}

// count is how many documents term's posting list holds, deleted ones
// included: an upper bound, cheap, to order terms by. Must be called with
// ix.mu held.
func (ix *Index) count(term string) uint32 {
	if pl := ix.postings[term]; pl != nil {
		return pl.n
	}
	return 0
}

// holding is the live documents keep keeps that hold term, and false as
// soon as there are more than bound. Must be called with ix.mu held.
func (ix *Index) holding(term string, keep func(id string) bool, bound int) ([]uint32, bool) {
	var out []uint32
	pl := ix.postings[term]
	if pl == nil {
		return out, bound >= 0
	}
	for c := pl.cursor(); ; {
		doc, _, ok := c.next()
		if !ok {
			return out, true
		}
		if ix.lens[doc] == deletedLen || (keep != nil && !keep(ix.docs[doc].id)) {
			continue
		}
		if len(out) == bound {
			return nil, false
		}
		out = append(out, doc)
	}
}

// Holders calls f(i, id) for each live document keep keeps that holds
// terms[i] (index terms, as Tokens gives them), term after term in the
// order given, and stops when f returns false. keep is asked once per
// document whatever the number of terms (nil keeps all). A caller weighs
// documents by the terms they hold, and counts each term's holders, from
// the posting lists alone: without reading the documents, and in the time
// it takes to decode the lists, not to score them. f is called with the
// index locked for reading, so it must not call the index.
func (ix *Index) Holders(terms []string, keep func(id string) bool, f func(i int, id string) bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	const (
		unasked uint8 = iota
		kept
		left
	)
	asked := make([]uint8, len(ix.docs))
	for i, t := range terms {
		pl := ix.postings[t]
		if pl == nil {
			continue
		}
		for c := pl.cursor(); ; {
			doc, _, ok := c.next()
			if !ok {
				break
			}
			if ix.lens[doc] == deletedLen {
				continue
			}
			if asked[doc] == unasked {
				asked[doc] = left
				if keep == nil || keep(ix.docs[doc].id) {
					asked[doc] = kept
				}
			}
			if asked[doc] == kept && !f(i, ix.docs[doc].id) {
				return
			}
		}
	}
}
