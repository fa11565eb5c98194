package vector

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFlatMatchesBruteForce compares the heap-based parallel scan with
// sorting every score, across sizes that exercise several workers, block
// boundaries, reused rows and filters.
func TestFlatMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const dim = 8
	f := newFlat()
	live := map[string][]float32{}
	kinds := map[string]string{}
	for i := range 3 * blockRows / 2 {
		id := fmt.Sprintf("d%05d", i)
		v := randomVector(rng, dim)
		if i%10 == 0 {
			v = randomVector(rand.New(rand.NewPCG(1, 1)), dim) // exact ties
		}
		kind := []string{"a", "b", "c"}[i%3]
		f.put(id, v, map[string]string{"kind": kind})
		live[id], kinds[id] = v, kind
	}
	for i := 0; i < 3*blockRows/2; i += 7 { // free rows, then reuse some
		id := fmt.Sprintf("d%05d", i)
		f.remove(id)
		delete(live, id)
	}
	for i := range 500 {
		id := fmt.Sprintf("n%05d", i)
		v := randomVector(rng, dim)
		f.put(id, v, map[string]string{"kind": "a"})
		live[id], kinds[id] = v, "a"
	}
	if f.len() != len(live) {
		t.Fatalf("len = %d, want %d", f.len(), len(live))
	}
	q := randomVector(rand.New(rand.NewPCG(1, 1)), dim)
	for _, tc := range []struct {
		k     int
		where map[string]string
	}{{1, nil}, {10, nil}, {100, map[string]string{"kind": "a"}}, {len(live) + 50, nil}, {5, map[string]string{"kind": "none"}}} {
		t.Run(fmt.Sprint(tc.k, tc.where), func(t *testing.T) {
			var want []scored
			for id, v := range live {
				if tc.where == nil || kinds[id] == tc.where["kind"] {
					want = append(want, scored{id: id, score: dot(q, v)})
				}
			}
			slices.SortFunc(want, better)
			want = want[:min(tc.k, len(want))]
			got, err := f.search(t.Context(), q, tc.k, tc.where)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].row = 0
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(scored{})); diff != "" {
				t.Errorf("search (-brute force +flat):\n%s", diff)
			}
		})
	}
}

func TestDot(t *testing.T) {
	for n := range 11 {
		a, b := make([]float32, n), make([]float32, n)
		var want float32
		for i := range n {
			a[i], b[i] = float32(i+1), float32(2*i-3)
			want += a[i] * b[i]
		}
		if got := dot(a, b); got != want {
			t.Errorf("dot len %d = %v, want %v", n, got, want)
		}
	}
}

func TestFlatHugeK(t *testing.T) {
	f := newFlat()
	f.put("a", []float32{1, 0}, nil)
	got, err := f.search(t.Context(), []float32{1, 0}, 1<<40, nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("search with huge k = %v, %v", got, err)
	}
}
