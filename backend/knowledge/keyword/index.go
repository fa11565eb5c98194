// Package keyword is Wayfinder's keyword search: BM25 over chunks, in
// memory, with a compact snapshot file so a restart loads instead of
// rebuilding.
//
// Why its own index: bleve's CJK analysis does not bigram Hangul, and
// SQLite FTS5 with Go-made bigrams answered in ≈4 ms per query where this
// in-memory index answers in well under 1 ms (FACTS.md). Korean is handled
// by the Analyzer (whole words plus syllable bigrams), English by
// lower-cased, stemmed words.
package keyword

import (
	"container/heap"
	"math"
	"slices"
	"strings"
	"sync"
)

// Params are the BM25 constants. k1 bounds how much repeated terms count,
// b how strongly long chunks are penalised.
type Params struct {
	K1 float64
	B  float64
}

// DefaultParams are Anserini's defaults, taken as published rather than
// tuned on SciFact's test queries (k1=1.2, b=0.75 scored 0.004 higher there,
// within noise of 300 queries).
func DefaultParams() Params { return Params{K1: 0.9, B: 0.4} }

// Hit is one search result.
type Hit struct {
	ID    string
	Score float64
}

// deletedLen marks a deleted document in Index.lens.
const deletedLen = math.MaxUint32

type docInfo struct {
	id      string
	length  uint32
	deleted bool
}

// Index is a BM25 index safe for concurrent use. Document ids are the
// caller's (chunk ids); adding an existing id replaces it.
type Index struct {
	mu       sync.RWMutex
	analyzer Analyzer
	params   Params
	docs     []docInfo
	lens     []uint32 // lens[doc] = docs[doc].length, or deletedLen; dense for the scoring loop
	byID     map[string]uint32
	postings map[string]*plist
	totalLen int64
	live     int
	deleted  int
	scratch  sync.Pool // *scratch, reused across searches
	// vocab counts changes to the set of terms, so that loan can tell
	// when it is out of date.
	vocab uint64
	loan  loanTable
	// hangul counts the terms that begin with a Hangul syllable, so that a
	// Latin word's Hangul spellings are not looked for in an index without
	// any (hangulspell.go).
	hangul int
}

// loanTable maps the keys of sounds to the Latin terms of the index
// (loanword.go). It is built on the first search that needs it, and again
// after the terms changed: documents are added far more rarely than
// searched, and a keyword search of Latin words never builds it.
type loanTable struct {
	mu    sync.Mutex
	vocab uint64
	built bool
	byKey map[string][]loanEntry
}

// loanEntry is a Latin term of the index and the vowels of one of its keys.
type loanEntry struct{ term, vowels string }

// scratch is the per-search score table, dense by document number: at 100k
// chunks a slice is several times faster than a map.
type scratch struct {
	scores  []float64
	touched []uint32
}

// New returns an empty index.
func New(a Analyzer, p Params) *Index {
	return &Index{analyzer: a, params: p, byID: map[string]uint32{}, postings: map[string]*plist{}}
}

// Analyzer returns the analyzer the index was built with.
func (ix *Index) Analyzer() Analyzer { return ix.analyzer }

// Len returns the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Terms returns the number of different terms the index holds. Each costs
// about 90 bytes in memory whatever its documents (a map entry, the term's
// text, its posting list), so a file's batch is bounded by its terms as
// well as by its passages (knowledge's maxFileTerms).
func (ix *Index) Terms() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.postings)
}

// Add indexes text under id, replacing an earlier document with that id.
func (ix *Index) Add(id, text string) {
	terms := ix.analyzer.indexTerms(text)
	tf := tfMaps.Get().(map[string]uint32)
	defer func() {
		clear(tf) // holds no text while pooled
		tfMaps.Put(tf)
	}()
	length := uint32(0)
	for _, t := range terms {
		tf[t]++
		if !strings.HasPrefix(t, spacingMark) {
			length++
		}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.removeLocked(id)
	doc := ix.appendDoc(docInfo{id: id, length: length})
	for t, n := range tf {
		pl := ix.postings[t]
		if pl == nil {
			pl = &plist{}
			ix.postings[t] = pl
			ix.vocab++
			ix.hangul += hangulTerm(t)
		}
		pl.add(doc, n)
	}
}

// tfMaps are the term counts Add fills: one map of its own for each
// chunk of a large import was made, grown and dropped each time.
var tfMaps = sync.Pool{New: func() any { return map[string]uint32{} }}

func (ix *Index) appendDoc(d docInfo) uint32 {
	doc := uint32(len(ix.docs))
	ix.docs = append(ix.docs, d)
	ix.lens = append(ix.lens, d.length)
	ix.byID[d.id] = doc
	ix.totalLen += int64(d.length)
	ix.live++
	return doc
}

// Remove deletes the document with id; unknown ids are ignored.
func (ix *Index) Remove(id string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.removeLocked(id)
}

// removeLocked marks a document deleted. Deleted documents stay in posting
// lists until they are a quarter of the index, so replacing one file does
// not rewrite every list.
func (ix *Index) removeLocked(id string) {
	doc, ok := ix.byID[id]
	if !ok {
		return
	}
	delete(ix.byID, id)
	ix.docs[doc].deleted = true
	ix.lens[doc] = deletedLen
	ix.totalLen -= int64(ix.docs[doc].length)
	ix.live--
	ix.deleted++
	if ix.deleted > 1024 && ix.deleted*4 > len(ix.docs) {
		ix.compactLocked()
	}
}

// compactLocked renumbers live documents and drops deleted postings.
func (ix *Index) compactLocked() {
	remap := make([]uint32, len(ix.docs))
	docs := make([]docInfo, 0, ix.live)
	for i, d := range ix.docs {
		if d.deleted {
			remap[i] = math.MaxUint32
			continue
		}
		remap[i] = uint32(len(docs))
		docs = append(docs, d)
	}
	for t, pl := range ix.postings {
		out := pl.remapped(remap, math.MaxUint32)
		if out.n == 0 {
			delete(ix.postings, t)
			ix.vocab++
			ix.hangul -= hangulTerm(t)
		} else {
			out.b = slices.Clip(out.b)
			*pl = out
		}
	}
	ix.docs = docs
	ix.lens = make([]uint32, len(docs))
	for i, d := range docs {
		ix.byID[d.id] = uint32(i)
		ix.lens[i] = d.length
	}
	ix.deleted = 0
}

// QueryWeight is the score a document of average length would get by
// holding each of the query's indexed terms once: the sum of their idf.
// A hit's Score divided by it says how much of the query it matches, on a
// scale that does not depend on the query's length or the corpus, which is
// what a relevance floor needs (see knowledge.SearchOptions.Floor). Terms
// the index has never seen count for nothing: no document can match them.
// The bigrams across spaces (spacing.go) are left out: they are other
// spellings of the words' terms, rare and so heavy, and counted here they
// raised the floor of every Korean question (it then cut an answer on
// each part of the Korean set).
func (ix *Index) QueryWeight(query string) float64 {
	terms := ix.analyzer.appendTerms(nil, query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n := float64(ix.live)
	w := 0.0
	for _, t := range terms {
		if t.space {
			continue
		}
		idf := 0.0
		for _, term := range ix.forms(t) {
			if df := ix.liveDF(term); term != "" && df > 0 {
				idf = max(idf, math.Log(1+(n-df+0.5)/(df+0.5)))
			}
		}
		for _, s := range ix.hangulForms(t, terms) {
			idf = max(idf, spelledIDF(n, s))
		}
		w += idf
	}
	return w
}

// forms returns the index terms a query term may take: its own, its
// one-syllable stem and the other word documents use for it (an action's
// noun, a synonym), or for a Hangul word the Latin words that sound like
// it. Must be called with ix.mu held.
func (ix *Index) forms(t queryTerm) []string {
	if t.loan == nil {
		return []string{t.term, t.alt, t.other}
	}
	return ix.loanForms(t.loan)
}

// loanForms returns the Latin words of the index that sound like the
// longest beginning of a Hangul word that sounds like any, if the Hangul
// spelling is at most as common as the Latin one in the index: a name the
// text writes in Latin letters (Calc) is rarely or never written 칼크 there,
// whereas a word the text itself spells in Hangul more often (리눅스) needs
// no help. A Hangul word's frequency is bounded by that of its rarest
// bigram. (Only where the Hangul spelling was the rarer, 태스크 in one
// paragraph and task in another stayed apart.)
func (ix *Index) loanForms(cands []loanCandidate) []string {
	for _, c := range cands {
		var terms []string
		for _, k := range c.keys {
			for _, e := range ix.loanTerms(k.key) {
				if k.writes(e.vowels) && !slices.Contains(terms, e.term) {
					terms = append(terms, e.term)
				}
			}
		}
		if terms == nil {
			continue
		}
		hangul := math.Inf(1)
		for _, qt := range appendBigrams(nil, c.word) {
			hangul = min(hangul, ix.liveDF(qt.term))
		}
		latin := 0.0
		for _, t := range terms {
			latin = max(latin, ix.liveDF(t))
		}
		if hangul > latin {
			return nil
		}
		return terms
	}
	return nil
}

// loanTerms returns the Latin terms of the index that have key, with the
// vowels of that key. The table holds keys of two consonants too, as a
// Hangul word's key without its last s (hangulKeys) may have two.
// Must be called with ix.mu held (for reading is enough).
func (ix *Index) loanTerms(key string) []loanEntry {
	lt := &ix.loan
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if !lt.built || lt.vocab != ix.vocab {
		lt.byKey = map[string][]loanEntry{}
		for t := range ix.postings {
			if len(t) < minLoanKey || strings.HasPrefix(t, spacingMark) {
				continue
			}
			for _, k := range latinKeys(t) {
				if consonants(k.key) >= minLoanKey-1 {
					lt.byKey[k.key] = append(lt.byKey[k.key], loanEntry{t, k.vowels})
				}
			}
		}
		lt.vocab, lt.built = ix.vocab, true
	}
	return lt.byKey[key]
}

// liveDF is the number of live documents holding term t. Deleted postings
// stay until compaction but must not count: scores would depend on what
// was deleted before.
func (ix *Index) liveDF(t string) float64 {
	pl := ix.postings[t]
	if pl == nil {
		return 0
	}
	if ix.deleted == 0 {
		return float64(pl.n)
	}
	df := 0.0
	for c := pl.cursor(); ; {
		doc, _, ok := c.next()
		if !ok {
			return df
		}
		if ix.lens[doc] != deletedLen {
			df++
		}
	}
}

// Search returns the k best documents for query, best first. keep, when
// not nil, filters documents by id (e.g. by source) before ranking.
func (ix *Index) Search(query string, k int, keep func(id string) bool) []Hit {
	terms := ix.analyzer.queryTerms(query)
	if len(terms) == 0 || k <= 0 {
		return nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.live == 0 {
		return nil
	}
	n := float64(ix.live)
	avg := float64(ix.totalLen) / n
	if avg == 0 {
		avg = 1
	}
	k1, b := ix.params.K1, ix.params.B
	normBase, normPerTerm := k1*(1-b), k1*b/avg
	sc, _ := ix.scratch.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	defer ix.scratch.Put(sc)
	if len(sc.scores) < len(ix.docs) {
		sc.scores = make([]float64, len(ix.docs))
	}
	scores := sc.scores
	touched := sc.touched[:0]
	bm25 := func(idf float64, tf uint32, l uint32) float64 {
		return idf * float64(tf) * (k1 + 1) / (float64(tf) + normBase + normPerTerm*float64(l))
	}
	for _, qt := range terms {
		spellings := ix.hangulForms(qt, terms)
		if alt := ix.postings[qt.alt]; spellings != nil || qt.loan != nil || qt.other != "" || alt != nil && alt.n > 0 {
			// A one-syllable word with a particle, a verb with its
			// action's noun, a word with its synonym, a loan word's
			// Latin spellings or a Latin word's Hangul ones: each
			// document counts the best of the forms, once (see
			// queryTerm).
			best := map[uint32]float64{}
			for _, t := range ix.forms(qt) {
				pl := ix.postings[t]
				if pl == nil {
					continue
				}
				df := ix.liveDF(t)
				idf := qt.scale() * math.Log(1+(n-df+0.5)/(df+0.5))
				for c := pl.cursor(); ; {
					doc, tf, ok := c.next()
					if !ok {
						break
					}
					if l := ix.lens[doc]; l != deletedLen {
						best[doc] = max(best[doc], bm25(idf, tf, l))
					}
				}
			}
			for _, s := range spellings {
				idf := qt.scale() * spelledIDF(n, s)
				for i, doc := range s.docs {
					best[doc] = max(best[doc], bm25(idf, s.tfs[i], ix.lens[doc]))
				}
			}
			for doc, s := range best {
				if scores[doc] == 0 {
					touched = append(touched, doc)
				}
				scores[doc] += s
			}
			continue
		}
		t := qt.term
		pl := ix.postings[t]
		if pl == nil || pl.n == 0 {
			continue
		}
		df := ix.liveDF(t)
		idf := qt.scale() * math.Log(1+(n-df+0.5)/(df+0.5))
		// The postings are decoded here rather than through a cursor: the
		// compiler inlines neither, and this loop runs millions of times
		// per query at 100k chunks.
		b, doc := pl.b, uint32(0)
		for i := 0; i < len(b); {
			gap, f := uint32(b[i]), uint32(0)
			if gap < 0x80 {
				i++
			} else {
				gap, i = uvarintSlow(b, i)
			}
			if f = uint32(b[i]); f < 0x80 {
				i++
			} else {
				f, i = uvarintSlow(b, i)
			}
			doc += gap
			l := ix.lens[doc]
			if l == deletedLen {
				continue
			}
			tf := float64(f)
			norm := normBase + normPerTerm*float64(l)
			if scores[doc] == 0 {
				touched = append(touched, doc)
			}
			scores[doc] += idf * tf * (k1 + 1) / (tf + norm)
		}
	}
	h := make(hitHeap, 0, k+1)
	for _, doc := range touched {
		s := scores[doc]
		scores[doc] = 0
		if keep != nil && !keep(ix.docs[doc].id) {
			continue
		}
		hit := Hit{ID: ix.docs[doc].id, Score: s}
		if len(h) < k {
			heap.Push(&h, hit)
		} else if better(hit, h[0]) {
			h[0] = hit
			heap.Fix(&h, 0)
		}
	}
	sc.touched = touched
	out := make([]Hit, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(Hit)
	}
	return out
}

// better orders hits by score, then by id so results are deterministic.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}

// hitHeap is a min-heap: the worst of the current top k is at index 0.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
