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

// BenchmarkKoreanQueries asks the Korean question set's 547 questions of
// its 4,044 paragraphs, one search per question (b.N counts questions):
// what a person's search costs with the Korean terms (bigrams, bigrams
// across spaces, one-syllable stems, action nouns, loan words' Latin
// spellings, Latin words' Hangul spellings). The table of loan words' keys
// is built once, before the clock.
func BenchmarkKoreanQueries(b *testing.B) {
	ix := koreanSet(b)
	var queries []string
	readJSONL(b, "../testdata/ko/queries.jsonl", func(line []byte) {
		var q struct{ Text string }
		if err := json.Unmarshal(line, &q); err != nil {
			b.Fatal(err)
		}
		queries = append(queries, q.Text)
	})
	ix.Search("칼크", 1, nil)
	i := 0
	for b.Loop() {
		ix.Search(queries[i%len(queries)], 10, nil)
		i++
	}
}

// koreanSet indexes the Korean question set's 4,044 paragraphs (heading
// and text, as the importer gives them) for the benchmarks that ask of it.
func koreanSet(b *testing.B) *Index {
	ix := New(DefaultAnalyzer(), DefaultParams())
	readJSONL(b, "../testdata/ko/corpus.jsonl", func(line []byte) {
		var d struct {
			ID    string `json:"_id"`
			Title string
			Text  string
		}
		if err := json.Unmarshal(line, &d); err != nil {
			b.Fatal(err)
		}
		ix.Add(d.ID, d.Title+"\n"+d.Text)
	})
	return ix
}
