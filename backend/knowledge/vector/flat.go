package vector

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync"
)

// flat holds the vectors of one model in fixed-size blocks of rows and
// searches them exhaustively.
//
// Why not chromem-go's collection: its query sends every document through a
// channel to filter it and takes a mutex per document to keep the top n, so
// at 100k documents it spent 124 ms of CPU per query here (384 dimensions)
// where this contiguous scan with a per-worker top-k spends 14 ms; the
// issue's goal is a hybrid query under 40 ms at 100k chunks on 2 cores (see
// BenchmarkQuery and BenchmarkChromemQuery). Blocks never move, so adding
// rows never copies the whole index.
type flat struct {
	dim    int
	blocks [][]float32
	ids    []string // by row; "" marks a free row
	metas  []map[string]string
	free   []int
	rows   map[string]int
}

const blockRows = 4096

func newFlat() *flat { return &flat{rows: map[string]int{}} }

func (f *flat) len() int { return len(f.rows) }

func (f *flat) vector(row int) []float32 {
	b := f.blocks[row/blockRows]
	off := (row % blockRows) * f.dim
	return b[off : off+f.dim : off+f.dim]
}

// put stores a copy of vec (of length f.dim, or the first vector sets dim).
func (f *flat) put(id string, vec []float32, meta map[string]string) {
	if f.dim == 0 {
		f.dim = len(vec)
	}
	row, ok := f.rows[id]
	if !ok {
		if n := len(f.free); n > 0 {
			row, f.free = f.free[n-1], f.free[:n-1]
		} else {
			row = len(f.ids)
			if row%blockRows == 0 {
				f.blocks = append(f.blocks, make([]float32, blockRows*f.dim))
			}
			f.ids = append(f.ids, "")
			f.metas = append(f.metas, nil)
		}
		f.rows[id] = row
	}
	copy(f.vector(row), vec)
	f.ids[row], f.metas[row] = id, meta
}

func (f *flat) remove(id string) {
	row, ok := f.rows[id]
	if !ok {
		return
	}
	delete(f.rows, id)
	f.ids[row], f.metas[row] = "", nil
	f.free = append(f.free, row)
}

type scored struct {
	id    string
	row   int
	score float32
}

// better orders hits: higher score first, then id, so equal scores come back
// in the same order every time.
func better(a, b scored) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	return cmp.Compare(a.id, b.id)
}

// search returns the k rows most similar to q (normalised, length f.dim)
// among those whose metadata matches where, best first.
func (f *flat) search(ctx context.Context, q []float32, k int, where map[string]string) ([]scored, error) {
	n := len(f.ids)
	k = min(k, len(f.rows)) // a huge k must not size the heaps
	if k <= 0 {
		return nil, nil
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), n/1024))
	parts := make([][]scored, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w], errs[w] = f.scan(ctx, q, k, where, n*w/workers, n*(w+1)/workers)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	all := slices.Concat(parts...)
	slices.SortFunc(all, better)
	return all[:min(k, len(all))], nil
}

// scan keeps the top k of rows [lo, hi) in a min-heap (worst on top).
func (f *flat) scan(ctx context.Context, q []float32, k int, where map[string]string, lo, hi int) ([]scored, error) {
	top := make([]scored, 0, k)
	for row := lo; row < hi; row++ {
		if row%blockRows == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		id := f.ids[row]
		if id == "" {
			continue
		}
		s := scored{id: id, row: row, score: dot(q, f.vector(row))}
		full := len(top) == k
		if full && better(s, top[0]) >= 0 {
			continue
		}
		// The filter is checked only for rows that would enter the top k:
		// a map lookup costs more than most of the dot products it saves.
		if len(where) > 0 && !matches(f.metas[row], where) {
			continue
		}
		if full {
			top[0] = s
			siftDown(top, 0)
		} else {
			top = append(top, s)
			siftUp(top, len(top)-1)
		}
	}
	return top, nil
}

// The heap's root is the worst hit kept: better(parent, child) > 0.
func siftUp(h []scored, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if better(h[p], h[i]) >= 0 {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []scored, i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && better(h[l], h[worst]) > 0 {
			worst = l
		}
		if r < len(h) && better(h[r], h[worst]) > 0 {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// dot is the cosine similarity of two unit vectors; four accumulators let
// the CPU overlap the multiplications.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
