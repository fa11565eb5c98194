package knowledge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// openBench opens a Base without PDF support in a fresh directory.
func openBench(b *testing.B, dir string) *Base {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if s, err := db.DB(); err == nil {
			_ = s.Close()
		}
	})
	kb, err := Open(context.Background(), db, filepath.Join(dir, "knowledge"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	return kb
}

// writeSyntheticJSONL writes the shared synthetic corpus of n records and
// returns 100 queries.
func writeSyntheticJSONL(b *testing.B, path string, n int) []string {
	b.Helper()
	queries, err := knowledgetest.WriteCorpus(path, n, 100)
	if err != nil {
		b.Fatal(err)
	}
	return queries
}

// BenchmarkImportJSONL measures ingestion of text (parse, chunk, store,
// index) without embedding, in chunks per second.
func BenchmarkImportJSONL(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "records.jsonl")
	writeSyntheticJSONL(b, src, 5000)
	chunks := 0
	for i := 0; b.Loop(); i++ {
		kb := openBench(b, filepath.Join(dir, fmt.Sprint(i)))
		rep, err := kb.Import(context.Background(), []string{src}, nil)
		if err != nil || len(rep.Failed) > 0 {
			b.Fatal(err, rep.Failed)
		}
		chunks += rep.Chunks
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
}

// benchmarkSearch measures a whole Search (ranking plus loading the chunk
// rows) over n stored chunks.
func benchmarkSearch(b *testing.B, n int) {
	dir := b.TempDir()
	src := filepath.Join(dir, "records.jsonl")
	queries := writeSyntheticJSONL(b, src, n)
	kb := openBench(b, dir)
	if _, err := kb.Import(context.Background(), []string{src}, nil); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := kb.Search(ctx, queries[i%len(queries)], SearchOptions{TopK: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch10k(b *testing.B)  { benchmarkSearch(b, 10_000) }
func BenchmarkSearch100k(b *testing.B) { benchmarkSearch(b, 100_000) }

// BenchmarkOpen50k measures start-up with 50k chunks and a current
// keyword snapshot: the time before the library can answer.
func BenchmarkOpen50k(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "records.jsonl")
	writeSyntheticJSONL(b, src, 50_000)
	kb := openBench(b, dir)
	if _, err := kb.Import(context.Background(), []string{src}, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		openBench(b, dir)
	}
}

// BenchmarkSciFactPipeline runs BEIR SciFact through the real path: the
// JSON Lines importer, the chunker, the database and Search, ranking
// documents by their best chunk. It reports nDCG@10 and recall@100.
func BenchmarkSciFactPipeline(b *testing.B) {
	const dir = "../../../shared/eval/scifact"
	corpus := filepath.Join(dir, "corpus.jsonl")
	if _, err := os.Stat(corpus); err != nil {
		b.Skipf("SciFact not found at %s (evaluation data is not part of the repository)", dir)
	}
	queries, qrels := loadQueries(b, dir)
	kb := openBench(b, b.TempDir())
	if _, err := kb.Import(context.Background(), []string{corpus}, nil); err != nil {
		b.Fatal(err)
	}
	var ndcg, recall float64
	for b.Loop() {
		ndcg, recall = 0, 0
		for qid, text := range queries {
			hits, err := kb.Search(context.Background(), text, SearchOptions{TopK: 300})
			if err != nil {
				b.Fatal(err)
			}
			var ranked []string
			seen := map[string]bool{}
			for _, h := range hits {
				if !seen[h.RecordID] {
					seen[h.RecordID] = true
					ranked = append(ranked, h.RecordID)
				}
			}
			ndcg += ndcg10(ranked, qrels[qid])
			recall += recall100(ranked, qrels[qid])
		}
		ndcg /= float64(len(queries))
		recall /= float64(len(queries))
	}
	b.ReportMetric(ndcg, "nDCG@10")
	b.ReportMetric(recall, "recall@100")
}

func loadQueries(b *testing.B, dir string) (map[string]string, map[string]map[string]bool) {
	raw, err := os.ReadFile(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	qrels := map[string]map[string]bool{}
	for i, line := range strings.Split(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) != 3 || f[2] == "0" {
			continue
		}
		if qrels[f[0]] == nil {
			qrels[f[0]] = map[string]bool{}
		}
		qrels[f[0]][f[1]] = true
	}
	queries := map[string]string{}
	qf, err := os.Open(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer qf.Close()
	sc := bufio.NewScanner(qf)
	for sc.Scan() {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if json.Unmarshal(sc.Bytes(), &q) == nil && qrels[q.ID] != nil {
			queries[q.ID] = q.Text
		}
	}
	return queries, qrels
}

func ndcg10(ranked []string, rel map[string]bool) float64 {
	dcg, idcg := 0.0, 0.0
	for i, id := range ranked[:min(10, len(ranked))] {
		if rel[id] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(10, len(rel)) {
		idcg += 1 / math.Log2(float64(i+2))
	}
	return dcg / idcg
}

func recall100(ranked []string, rel map[string]bool) float64 {
	found := 0
	for _, id := range ranked[:min(100, len(ranked))] {
		if rel[id] {
			found++
		}
	}
	return float64(found) / float64(len(rel))
}
