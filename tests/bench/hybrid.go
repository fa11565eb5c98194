package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// hybridResult is hybrid search latency over n chunks.
type hybridResult struct {
	chunks, dim, queries int
	p50, p95             time.Duration
	importTime           time.Duration
}

// measureHybrid imports n synthetic records (≈80 words each, English and
// Korean, Zipf-distributed, seeded: the same generator as the knowledge
// benchmarks) into a Base with a vector index whose embedder is the fake's
// deterministic bag-of-words vector (no HTTP), then times Search, which
// fuses keyword and vector rankings.
func measureHybrid(ctx context.Context, n, dim, queries int) (hybridResult, error) {
	res := hybridResult{dim: dim, queries: queries}
	dir, err := os.MkdirTemp("", "wayfinder-bench-hybrid-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "records.jsonl")
	qs, err := knowledgetest.WriteCorpus(src, n, 200)
	if err != nil {
		return res, err
	}
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		return res, err
	}
	defer func() {
		if s, err := db.DB(); err == nil {
			s.Close()
		}
	}()
	embed := vector.EmbedFunc(func(_ context.Context, in []string) ([][]float32, error) {
		out := make([][]float32, len(in))
		for i, t := range in {
			out[i] = ollamatest.Vector(t, dim)
		}
		return out, nil
	})
	ix := vector.Open(filepath.Join(dir, "chunks.vec"), "bench-embed", embed, vector.WithBatchSize(256))
	defer ix.Close()
	v := knowledge.Vectors{Index: ix}
	kb, err := knowledge.Open(ctx, db, filepath.Join(dir, "knowledge"), knowledge.Options{Sink: v, Vectors: v})
	if err != nil {
		return res, err
	}
	start := time.Now()
	rep, err := kb.Import(ctx, []string{src}, nil)
	if err != nil {
		return res, err
	}
	res.importTime = time.Since(start)
	res.chunks = rep.Chunks
	if err := ix.Wait(ctx); err != nil {
		return res, fmt.Errorf("vector index: %w", err)
	}
	for st := ix.Status(); st.Pending > 0; st = ix.Status() {
		time.Sleep(100 * time.Millisecond)
	}
	lat := make([]time.Duration, 0, queries)
	for i := range queries {
		t := time.Now()
		if _, err := kb.Search(ctx, qs[i%len(qs)], knowledge.SearchOptions{TopK: 10}); err != nil {
			return res, err
		}
		lat = append(lat, time.Since(t))
	}
	slices.Sort(lat)
	res.p50 = lat[len(lat)/2]
	res.p95 = lat[len(lat)*95/100]
	return res, nil
}

// hybridRow measures hybrid search (measureHybrid, 300 queries) and adds
// its row to the report.
func hybridRow(ctx context.Context, o options, t *table, log func(string, ...any)) {
	log("hybrid search over %d chunks (%d-dimension vectors)", o.hybridChunks, o.dim)
	h, err := measureHybrid(ctx, o.hybridChunks, o.dim, 300)
	if err != nil {
		t.fail("hybrid query p50", err)
		return
	}
	t.add(fmt.Sprintf("hybrid query p50 / p95 at %dk chunks (%d-d vectors, RRF)", h.chunks/1000, h.dim),
		fmt.Sprintf("%s / %s", ms(h.p50), ms(h.p95)), "goal p50 ≤ 40 ms", verdict(h.p50 <= 40*time.Millisecond))
}
