package knowledgetest

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// RefBM25 is a plain BM25 over whole documents, the yardstick Wayfinder's
// keyword search is held against (issue 18): Hangul runs give their
// syllable bigrams (a one-syllable run itself), any other run of letters
// and digits is one lower-cased word. No stemming, no stop words, no
// chunking, no particles, no floor: what anyone would write first.
type RefBM25 struct {
	k1, b    float64
	ids      []string
	lens     []float64
	avg      float64
	postings map[string]map[int]float64 // term → document → term frequency
}

// NewRefBM25 indexes docs (id → text) with Lucene-style idf and the given
// k1 and b (Anserini's 0.9 and 0.4 for the comparisons in the README).
func NewRefBM25(docs map[string]string, k1, b float64) *RefBM25 {
	r := &RefBM25{k1: k1, b: b, postings: map[string]map[int]float64{}}
	ids := make([]string, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	total := 0.0
	for n, id := range ids {
		terms := RefTerms(docs[id])
		r.ids = append(r.ids, id)
		r.lens = append(r.lens, float64(len(terms)))
		total += float64(len(terms))
		for _, t := range terms {
			if r.postings[t] == nil {
				r.postings[t] = map[int]float64{}
			}
			r.postings[t][n]++
		}
	}
	r.avg = max(total/float64(max(len(ids), 1)), 1)
	return r
}

// Search returns the ids of the k best documents for query, best first
// (ties by id).
func (r *RefBM25) Search(query string, k int) []string {
	scores := map[int]float64{}
	n := float64(len(r.ids))
	for _, t := range RefTerms(query) {
		pl := r.postings[t]
		df := float64(len(pl))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for doc, tf := range pl {
			norm := r.k1 * (1 - r.b + r.b*r.lens[doc]/r.avg)
			scores[doc] += idf * tf * (r.k1 + 1) / (tf + norm)
		}
	}
	docs := make([]int, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool {
		if scores[docs[i]] != scores[docs[j]] {
			return scores[docs[i]] > scores[docs[j]]
		}
		return r.ids[docs[i]] < r.ids[docs[j]]
	})
	out := make([]string, 0, min(k, len(docs)))
	for _, d := range docs[:min(k, len(docs))] {
		out = append(out, r.ids[d])
	}
	return out
}

// RefTerms are RefBM25's terms of s: syllable bigrams of Hangul runs,
// lower-cased words otherwise.
func RefTerms(s string) []string {
	var out []string
	var run []rune
	hangulRun := false
	flush := func() {
		switch {
		case len(run) == 0:
		case !hangulRun:
			out = append(out, strings.ToLower(string(run)))
		case len(run) == 1:
			out = append(out, string(run))
		default:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
	}
	for _, c := range s {
		h := c >= 0xAC00 && c <= 0xD7A3
		word := h || unicode.IsLetter(c) || unicode.IsDigit(c)
		if !word || (len(run) > 0 && h != hangulRun) {
			flush()
		}
		if word {
			hangulRun = h
			run = append(run, c)
		}
	}
	flush()
	return out
}
