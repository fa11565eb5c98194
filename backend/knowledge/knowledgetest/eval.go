package knowledgetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// QuestionSet is a retrieval test set in BEIR's layout: queries.jsonl
// ({"_id", "text"}) and a qrels TSV (query id, corpus id, score; a header
// row) naming the relevant documents of each query. Any score above 0 is
// relevant (the Korean set grades 2 for the paragraph a question was
// written from, 1 for another that answers it; both count).
type QuestionSet struct {
	Queries map[string]string          // query id → text
	Rel     map[string]map[string]bool // query id → relevant corpus ids
}

// IDs returns the query ids in a fixed order.
func (s QuestionSet) IDs() []string {
	ids := make([]string, 0, len(s.Rel))
	for id := range s.Rel {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// LoadQuestionSet reads dir/queries.jsonl and the qrels file (relative to
// dir), keeping the queries that have a relevant document.
func LoadQuestionSet(dir, qrels string) (QuestionSet, error) {
	s := QuestionSet{Queries: map[string]string{}, Rel: map[string]map[string]bool{}}
	raw, err := os.ReadFile(filepath.Join(dir, qrels))
	if err != nil {
		return s, err
	}
	for i, line := range strings.Split(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) != 3 || f[2] == "0" {
			continue
		}
		if s.Rel[f[0]] == nil {
			s.Rel[f[0]] = map[string]bool{}
		}
		s.Rel[f[0]][f[1]] = true
	}
	qf, err := os.Open(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return s, err
	}
	defer qf.Close()
	sc := bufio.NewScanner(qf)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return s, fmt.Errorf("%s: %w", qf.Name(), err)
		}
		if s.Rel[q.ID] != nil {
			s.Queries[q.ID] = q.Text
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	for id := range s.Rel {
		if _, ok := s.Queries[id]; !ok {
			return s, fmt.Errorf("%s names query %q, which queries.jsonl lacks", qrels, id)
		}
	}
	return s, nil
}

// Scores are the mean metrics of a run over a question set.
type Scores struct {
	Queries int
	// Success5 is the share of queries with a relevant document in the
	// first five: an answer in sight. With one relevant document per query
	// it equals Recall5; with pooled judgements (several paragraphs answer
	// one question) Recall5 also asks for all of them.
	Success5  float64
	Recall5   float64
	NDCG10    float64
	Recall100 float64
	Misses    []string // ids of queries with no relevant document in the top 5
}

// Evaluate scores ranked corpus ids (best first, one entry per document)
// per query against the set.
func (s QuestionSet) Evaluate(ranked map[string][]string) Scores {
	var sc Scores
	for _, id := range s.IDs() {
		rel, got := s.Rel[id], ranked[id]
		sc.Queries++
		r5 := RecallAt(got, rel, 5)
		sc.Recall5 += r5
		sc.NDCG10 += NDCGAt(got, rel, 10)
		sc.Recall100 += RecallAt(got, rel, 100)
		if r5 == 0 {
			sc.Misses = append(sc.Misses, id)
		} else {
			sc.Success5++
		}
	}
	if sc.Queries > 0 {
		n := float64(sc.Queries)
		sc.Success5, sc.Recall5, sc.NDCG10, sc.Recall100 = sc.Success5/n, sc.Recall5/n, sc.NDCG10/n, sc.Recall100/n
	}
	return sc
}

// RecallAt is the share of the relevant documents found in the first k.
func RecallAt(ranked []string, rel map[string]bool, k int) float64 {
	if len(rel) == 0 {
		return 0
	}
	found := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] {
			found++
		}
	}
	return float64(found) / float64(len(rel))
}

// NDCGAt is binary-relevance nDCG over the first k, as BEIR computes it.
func NDCGAt(ranked []string, rel map[string]bool, k int) float64 {
	dcg, idcg := 0.0, 0.0
	for i, id := range ranked[:min(k, len(ranked))] {
		if rel[id] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(k, len(rel)) {
		idcg += 1 / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}
