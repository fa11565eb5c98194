package vector

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// writeBenchSaved writes n documents of dim-dimension vectors of the saved
// model "a", 300 bytes of text each, a hundred to a source, as a library
// of n chunks leaves chunks.vec.
func writeBenchSaved(b *testing.B, path string, n, dim int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(4, 4))
	text := string(make([]byte, 300))
	err := writeLog(path, func(yield func(*record) bool) {
		for i := range n {
			r := record{op: opPut, id: fmt.Sprintf("doc-%d", i), model: "a", text: text,
				meta: map[string]string{"source": fmt.Sprintf("/home/me/문서/보고서-%d.pdf", i/100), "kind": "file"}, vec: randomVector(rng, dim)}
			if !yield(&r) {
				return
			}
		}
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMirrorHeap measures what the saved model's vectors cost a run
// that tries another model (Mirror) once its first change reached them:
// the heap they hold and the time that change took. "index" is the saved
// file opened as an Index, as the mirror did before; "kept" is OpenKept.
//
//	go test -run '^$' -bench MirrorHeap -benchtime 1x -benchmem ./backend/knowledge/vector/
func BenchmarkMirrorHeap(b *testing.B) {
	const dim = 1024
	for _, n := range []int{10_000, 100_000} {
		path := filepath.Join(b.TempDir(), "chunks.vec")
		writeBenchSaved(b, path, n, dim)
		for _, how := range []string{"index", "kept"} {
			b.Run(fmt.Sprintf("docs=%d/%s", n, how), func(b *testing.B) {
				var held, took float64
				for i := 0; b.Loop(); i++ {
					before := heapInUse()
					start := time.Now()
					var kept interface {
						Delete(context.Context, ...string) error
						Close() error
					} = OpenKept(path)
					if how == "index" {
						kept = Open(path, "a", nil, LoadOnUse())
					}
					if err := kept.Delete(b.Context(), fmt.Sprintf("doc-%d", i)); err != nil {
						b.Fatal(err)
					}
					took = float64(time.Since(start).Milliseconds())
					held = float64(heapInUse()-before) / (1 << 20)
					kept.Close()
				}
				b.ReportMetric(held, "held-MB")
				b.ReportMetric(took, "first-change-ms")
			})
		}
	}
}
