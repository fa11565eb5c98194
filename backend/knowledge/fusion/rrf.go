// Package fusion merges ranked result lists from different retrievers
// (BM25 keywords, vectors) into one ranking. It holds only ranking logic,
// so keyword-only callers need not import the vector index.
package fusion

import "sort"

// DefaultK is the usual RRF constant: it damps the weight of the very first
// ranks so that one retriever's top hit cannot outvote agreement between
// retrievers (Cormack et al., 2009).
const DefaultK = 60

// Fused is one id with its fused score. Ranks holds its 1-based rank in
// each input list, 0 where the list does not contain it, for explaining a
// result.
type Fused struct {
	ID    string
	Score float64
	Ranks []int
}

// RRF fuses lists by reciprocal rank: score(id) = Σ 1/(k + rank), rank
// starting at 1, over the lists that contain id. k <= 0 means DefaultK. An
// id repeated within one list counts once, at its first rank. Ties keep a
// stable order: the better best rank first, then the order in which ids
// first appear reading the lists in turn.
func RRF(k int, lists ...[]string) []Fused {
	return RRFCovered(k, nil, lists...)
}

// RRFCovered is RRF for retrievers that cannot each rank every id:
// covers(list, id) says whether lists[list] could have held id (a vector
// ranking cannot hold a chunk that is not embedded yet). An id's score is
// its reciprocal ranks summed over the lists that cover it, scaled by how
// many lists there are over how many cover it, so an id is neither
// punished nor favoured for a list that could not rank it: a chunk found
// first by its words while it waits for its vector scores as one found
// first by both. covers nil means every list covers every id.
func RRFCovered(k int, covers func(list int, id string) bool, lists ...[]string) []Fused {
	if k <= 0 {
		k = DefaultK
	}
	type acc struct {
		Fused
		best  int
		first int
	}
	byID := map[string]*acc{}
	var order []*acc
	for li, list := range lists {
		for pos, id := range list {
			a := byID[id]
			if a == nil {
				a = &acc{Fused: Fused{ID: id, Ranks: make([]int, len(lists))}, best: pos + 1, first: len(order)}
				byID[id] = a
				order = append(order, a)
			}
			if a.Ranks[li] != 0 {
				continue // repeated in this list
			}
			a.Ranks[li] = pos + 1
			a.Score += 1 / float64(k+pos+1)
			a.best = min(a.best, pos+1)
		}
	}
	if covers != nil {
		for _, a := range order {
			n := 0
			for li := range lists {
				if a.Ranks[li] > 0 || covers(li, a.ID) {
					n++
				}
			}
			a.Score *= float64(len(lists)) / float64(n)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.best != b.best {
			return a.best < b.best
		}
		return a.first < b.first
	})
	out := make([]Fused, len(order))
	for i, a := range order {
		out[i] = a.Fused
	}
	return out
}
