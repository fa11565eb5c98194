package keyword

import (
	"encoding/json"
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkAddKorean indexes the Korean question set's 4,044 paragraphs
// (heading and text, as the importer gives them): the cost of indexing
// Korean text, the heap the index takes and its number of terms (the
// bigrams across spaces, spacing.go, are most of what Korean adds).
func BenchmarkAddKorean(b *testing.B) {
	var texts []string
	readJSONL(b, "../testdata/ko/corpus.jsonl", func(line []byte) {
		var d struct{ Title, Text string }
		if err := json.Unmarshal(line, &d); err != nil {
			b.Fatal(err)
		}
		texts = append(texts, d.Title+"\n"+d.Text)
	})
	var before, after runtime.MemStats
	var ix *Index
	for b.Loop() {
		ix = nil
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix = New(DefaultAnalyzer(), DefaultParams())
		for i, t := range texts {
			ix.Add(strconv.Itoa(i), t)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-heap")
	b.ReportMetric(float64(len(ix.postings)), "terms")
	runtime.KeepAlive(ix)
}
