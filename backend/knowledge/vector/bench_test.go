package vector

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// Benchmarks use seeded random unit vectors: exhaustive search costs the
// same whatever the vectors mean. Run with
//
//	go test -run '^$' -bench . -benchtime 200x ./backend/knowledge/vector/
//
// Query benchmarks report p50/p95 latency per query and the heap the index
// holds; the load benchmark reports the time until Open returns (what the
// window waits for) and until vector search is ready.

func randomVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var sum float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		sum += x * x
	}
	n := math.Sqrt(sum)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// fill puts n random documents straight into the collection, skipping the
// file, to benchmark search alone.
func fill(ix *Index, n, dim int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	ix.mu.Lock()
	defer ix.mu.Unlock()
	kinds := []string{"catalog", "file", "memory", "file"}
	for i := range n {
		id := fmt.Sprintf("doc-%d", i)
		meta := map[string]string{"kind": kinds[i%len(kinds)]}
		ix.vecs.put(id, randomVector(rng, dim), meta)
		ix.docs[id] = &entry{meta: meta, model: ix.model}
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	p := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.95), "p95-ms")
}

func BenchmarkQuery(b *testing.B) {
	for _, dim := range []int{384, 1024} {
		for _, n := range []int{10_000, 100_000} {
			for _, filtered := range []bool{false, true} {
				name := fmt.Sprintf("dim=%d/docs=%d", dim, n)
				if filtered {
					name += "/where"
				}
				b.Run(name, func(b *testing.B) {
					before := heapInUse()
					ix := Open(filepath.Join(b.TempDir(), "v"), "m", &fakeEmbedder{dim: dim})
					defer ix.Close()
					if err := ix.Wait(b.Context()); err != nil {
						b.Fatal(err)
					}
					fill(ix, n, dim, 1)
					indexMB := float64(heapInUse()-before) / (1 << 20)
					var where map[string]string
					if filtered {
						where = map[string]string{"kind": "file"} // half of the documents
					}
					rng := rand.New(rand.NewPCG(2, 2))
					queries := make([][]float32, 64)
					for i := range queries {
						queries[i] = randomVector(rng, dim)
					}
					lat := make([]time.Duration, 0, b.N)
					cpu := knowledgetest.CPUTime()
					b.ResetTimer()
					for i := 0; b.Loop(); i++ {
						start := time.Now()
						hits, err := ix.QueryVector(b.Context(), queries[i%len(queries)], 10, where)
						lat = append(lat, time.Since(start))
						if err != nil || len(hits) != 10 {
							b.Fatalf("query: %d hits, %v", len(hits), err)
						}
					}
					b.StopTimer()
					reportLatency(b, lat)
					b.ReportMetric(indexMB, "index-MB")
					b.ReportMetric(float64((knowledgetest.CPUTime()-cpu).Microseconds())/1000/float64(len(lat)), "cpu-ms/op")
				})
			}
		}
	}
}

// BenchmarkChromemQuery runs the same searches through chromem-go v0.7.0's
// collection, the engine this package was first built on, for comparison.
func BenchmarkChromemQuery(b *testing.B) {
	for _, dim := range []int{384, 1024} {
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprintf("dim=%d/docs=%d", dim, n), func(b *testing.B) {
				col, err := chromem.NewDB().CreateCollection("bench", nil, func(context.Context, string) ([]float32, error) {
					return nil, errors.New("not used")
				})
				if err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, 1))
				for i := range n {
					if err := col.AddDocument(b.Context(), chromem.Document{ID: fmt.Sprint(i), Embedding: randomVector(rng, dim),
						Metadata: map[string]string{"kind": "file"}}); err != nil {
						b.Fatal(err)
					}
				}
				q := randomVector(rand.New(rand.NewPCG(2, 2)), dim)
				lat := make([]time.Duration, 0, b.N)
				cpu := knowledgetest.CPUTime()
				for b.Loop() {
					start := time.Now()
					if _, err := col.QueryEmbedding(b.Context(), q, 10, nil, nil); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(start))
				}
				b.StopTimer()
				reportLatency(b, lat)
				b.ReportMetric(float64((knowledgetest.CPUTime()-cpu).Microseconds())/1000/float64(len(lat)), "cpu-ms/op")
			})
		}
	}
}

// BenchmarkLoad measures reopening an index of 50k 1024-dimension vectors
// with ~300 bytes of text each.
func BenchmarkLoad(b *testing.B) {
	const n, dim = 50_000, 1024
	path := filepath.Join(b.TempDir(), "v")
	rng := rand.New(rand.NewPCG(3, 3))
	text := string(make([]byte, 300))
	err := writeLog(path, func(yield func(*record) bool) {
		for i := range n {
			r := record{op: opPut, id: fmt.Sprintf("doc-%d", i), model: "m", text: text,
				meta: map[string]string{"source": "file.pdf", "page": fmt.Sprint(i % 300)}, vec: randomVector(rng, dim)}
			if !yield(&r) {
				return
			}
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	var open, ready []time.Duration
	cpu := knowledgetest.CPUTime()
	for b.Loop() {
		start := time.Now()
		ix := Open(path, "m", &fakeEmbedder{dim: dim})
		open = append(open, time.Since(start))
		if err := ix.Wait(b.Context()); err != nil {
			b.Fatal(err)
		}
		ready = append(ready, time.Since(start))
		if ix.Count() != n {
			b.Fatalf("loaded %d docs", ix.Count())
		}
		ix.Close()
	}
	b.ReportMetric(float64((knowledgetest.CPUTime()-cpu).Microseconds())/1000/float64(len(open)), "cpu-ms/op")
	slices.Sort(open)
	slices.Sort(ready)
	b.ReportMetric(float64(open[len(open)/2].Microseconds())/1000, "open-ms")
	b.ReportMetric(float64(ready[len(ready)/2].Microseconds())/1000, "ready-ms")
}

// BenchmarkAdd measures storing one document (a memory): embedding is the
// fake's, so this is the append and fsync.
func BenchmarkAdd(b *testing.B) {
	ix := Open(filepath.Join(b.TempDir(), "v"), "m", &fakeEmbedder{dim: 1024})
	defer ix.Close()
	for i := 0; b.Loop(); i++ {
		if err := ix.Add(b.Context(), []Doc{{ID: fmt.Sprint(i), Text: "사용자는 커피를 좋아한다"}}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
