package knowledge

import (
	"cmp"
	"container/list"
	"context"
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// maxHolding bounds the chunks exactByIndex compares with a cited text:
// the chunks holding its rarest word. A passage has a word of its own
// nearly always; when each of its words is in more chunks than this (a
// document of one sentence over and over), the document is read instead.
const maxHolding = 256

// exactByIndex finds the chunk of document docID whose text is want (as
// sameText compares: want is a normCited text; prefix when it is a
// snippet's start) through the keyword index, without reading the
// document: a chunk whose text is want holds each of want's words, so only
// the chunks holding its rarest one (keyword.Index.Rarest) are read and
// compared. Of several, the nearest seq opens, the earlier at a tie, as
// the scan has it. It returns -1 when no chunk's text is want, or when the
// index cannot say (want's words all too common, or none indexed): then
// the scan reads the document, which also weighs likeness.
//
// Each whitespace-separated word of want is a word of such a chunk too, so
// the index's terms of the words (Tokens: runs of one script, never across
// a space) are terms of the chunk — but for a snippet cut short, whose last
// word may be cut, so it is left out.
func (b *Base) exactByIndex(ctx context.Context, docID string, seq int, want string, prefix bool) (at int, sure bool, err error) {
	terms := b.citedTerms(want, prefix)
	in := docID + ":"
	ids, ok := b.keywords.Rarest(terms, func(id string) bool { return strings.HasPrefix(id, in) }, maxHolding)
	if !ok {
		return -1, false, nil
	}
	if len(ids) == 0 {
		return -1, true, nil
	}
	seqs := make([]int, 0, len(ids))
	for _, id := range ids {
		if s, err := strconv.Atoi(id[len(in):]); err == nil {
			seqs = append(seqs, s)
		}
	}
	got, err := b.chunksAt(ctx, docID, seqs...)
	if err != nil {
		return 0, false, err
	}
	slices.SortFunc(got, func(x, y Chunk) int { return x.Seq - y.Seq })
	exact := -1
	for _, c := range got {
		if sameText(norm.NFC.String(c.Text), want, prefix) && nearer(seq, c.Seq, exact) {
			exact = c.Seq
		}
	}
	return exact, true, nil
}

// citedTerms are the index's terms of the cited text (want, as normCited
// has it), but for the last word of a snippet cut short (prefix), which
// may be cut: each whitespace-separated word's terms (Tokens: runs of one
// script, never across a space) are terms of a chunk holding that word.
func (b *Base) citedTerms(want string, prefix bool) []string {
	words := strings.Fields(want)
	if prefix && len(words) > 0 {
		words = words[:len(words)-1]
	}
	analyzer := b.keywords.Analyzer()
	var terms []string
	for _, w := range words {
		terms = analyzer.AppendTokens(terms, w)
	}
	return terms
}

// maxLikeHolders bounds the chunks likeByIndex weighs: those holding one
// of the cited text's rarest terms. Past it (a passage made only of words
// most chunks hold) the document is read instead.
const maxLikeHolders = 4096

// likeByIndex is the scan's likeness through the keyword index, for a
// cited text that exactByIndex found no chunk holding word for word: the
// chunk holding the largest share of the cited text's terms, each weighed
// by how rare it is in the document (likeness's weight, the counts taken
// from the posting lists), without reading the document. It answers as
// the scan does — FoundText when the text runs whole over that chunk and
// its neighbours (across), FoundSimilar when the chunk holds at least
// similarShare, else FoundGone at the cited place — and done is false
// when it cannot say (no terms, or more than limit chunks to weigh):
// then the scan reads the document.
//
// Only a chunk holding similarShare of the weight matters, and such a
// chunk holds one of the heaviest terms that together weigh more than the
// rest (else it would hold less than the rest weighs): so only the chunks
// holding one of those — the rare ones, a few chunks — are weighed, the
// common terms' lists are walked only to count and to add to them. The
// scan kept 32 chunks by their number of words, unweighed; here every
// chunk that could reach the share is weighed whole.
//
// Its terms are the index's (stemmed English, Korean in syllable pairs,
// the chunk's heading with its text), the scan's its own words: the two
// can differ on a passage at the edge of the share.
func (b *Base) likeByIndex(ctx context.Context, doc Document, seq int, want string, prefix bool, limit int) (at int, found Found, done bool, err error) {
	terms := b.citedTerms(want, prefix)
	slices.Sort(terms)
	if terms = slices.Compact(terms); len(terms) == 0 {
		return 0, "", false, nil
	}
	in := doc.ID + ":"
	keep := func(id string) bool { return strings.HasPrefix(id, in) }
	df := make([]int, len(terms))
	b.keywords.Holders(terms, keep, func(i int, _ string) bool { df[i]++; return true })
	weight := make([]float64, len(terms))
	total := 0.0
	for i, n := range df {
		weight[i] = termWeight(doc.Chunks, n)
		total += weight[i]
	}
	// The heaviest terms first, as many as weigh more than the share left to the rest.
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(weight[y], weight[x]) })
	rare, sum := 0, 0.0
	for rare < len(order) && sum <= (1-similarShare)*total {
		sum += weight[order[rare]]
		rare++
	}
	ordered := make([]string, len(order))
	for k, i := range order {
		ordered[k] = terms[i]
	}
	held := map[string]float64{}
	over := false
	b.keywords.Holders(ordered, keep, func(k int, id string) bool {
		w, ok := held[id]
		switch {
		case k < rare && !ok && len(held) == limit:
			over = true
			return false
		case k < rare || ok:
			held[id] = w + weight[order[k]]
		}
		return true
	})
	if over {
		return 0, "", false, nil
	}
	similar, share := -1, 0.0
	for id, h := range held {
		s, err := strconv.Atoi(id[len(in):])
		if err != nil {
			continue
		}
		if f := h / total; f > share || (f == share && nearest(seq, s, similar)) {
			similar, share = s, f
		}
	}
	at, found, err = b.settle(ctx, doc, seq, want, similar, share)
	return at, found, true, err
}

// nearest is nearer with ties to the earlier chunk, for candidates met in
// no order.
func nearest(seq, s, than int) bool {
	return than < 0 || abs(s-seq) < abs(than-seq) || (abs(s-seq) == abs(than-seq) && s < than)
}

// maxFound is how many answers foundCache keeps: a few hundred citations
// opened, each key under 100 bytes.
const maxFound = 512

// foundCache remembers where locate found cited passages. A document's
// chunks never change under its id (importing a file again makes a new
// document), so an answer holds as long as its document is there: the
// reader opening the same citation again, or another reply citing the
// same passage, does not look again. Answers of a removed document are
// forgotten with it; past maxFound the least recently used goes.
type foundCache struct {
	mu    sync.Mutex
	order *list.List // of foundEntry, the most recently used first
	byKey map[foundKey]*list.Element
}

// foundKey is what locate's answer depends on: the document, the cited
// chunk's number (ties and FoundGone go by it) and the cited text, by its
// hash so that a kept key stays small.
type foundKey struct {
	doc    string
	seq    int
	prefix bool
	text   [sha256.Size]byte
}

type foundEntry struct {
	key   foundKey
	at    int
	found Found
}

func newFoundKey(doc string, seq int, want string, prefix bool) foundKey {
	return foundKey{doc: doc, seq: seq, prefix: prefix, text: sha256.Sum256([]byte(want))}
}

func newFoundCache() *foundCache {
	return &foundCache{order: list.New(), byKey: map[foundKey]*list.Element{}}
}

func (c *foundCache) get(k foundKey) (int, Found, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return 0, "", false
	}
	c.order.MoveToFront(e)
	v := e.Value.(foundEntry)
	return v.at, v.found, true
}

func (c *foundCache) put(k foundKey, at int, found Found) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		e.Value = foundEntry{k, at, found}
		c.order.MoveToFront(e)
		return
	}
	c.byKey[k] = c.order.PushFront(foundEntry{k, at, found})
	for c.order.Len() > maxFound {
		last := c.order.Back()
		delete(c.byKey, last.Value.(foundEntry).key)
		c.order.Remove(last)
	}
}

// forget drops the answers of the documents.
func (c *foundCache) forget(docIDs []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.order.Front(); e != nil; {
		next := e.Next()
		if k := e.Value.(foundEntry).key; slices.Contains(docIDs, k.doc) {
			delete(c.byKey, k)
			c.order.Remove(e)
		}
		e = next
	}
}

// len is how many answers are kept.
func (c *foundCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
