package knowledge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// TestAgainstReferenceBM25 holds Wayfinder's keyword search (Base.Search,
// the path the CLI takes: importer, chunks, one best chunk per document,
// relevance floor) against a plain bigram BM25 over whole documents
// (knowledgetest.RefBM25) on SciFact, when it is there
// (TestKoreanRetrieval does the same on the Korean set). Importing 5,183
// abstracts takes minutes under the race detector, so that run skips it;
// `go test ./backend/knowledge -run AgainstReference` runs it.
func TestAgainstReferenceBM25(t *testing.T) {
	dir := sciFactDir()
	corpus := filepath.Join(dir, "corpus.jsonl")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("%s not found (evaluation data beside the repository)", corpus)
	}
	if raceDetector {
		t.Skip("SciFact through the importer is too slow under -race; run without it")
	}
	e := newEnv(t)
	kb, _ := e.open()
	if _, err := kb.Import(context.Background(), []string{corpus}, nil); err != nil {
		t.Fatal(err)
	}
	newReferenceRun(t, kb, dir).compare(t, "qrels/test.tsv")
}

// referenceRun compares Base.Search with the reference BM25 over the
// corpus of dir (already imported into kb) on one or more qrels files of
// the same queries; each query is ranked once by each side.
type referenceRun struct {
	kb         *Base
	dir        string
	docs       map[string]string // record id → heading and text
	ref        *knowledgetest.RefBM25
	ours, refs map[string][]string // query id → record ids, best first
}

func newReferenceRun(t *testing.T, kb *Base, dir string) *referenceRun {
	t.Helper()
	docs := readCorpus(t, filepath.Join(dir, "corpus.jsonl"))
	return &referenceRun{kb: kb, dir: dir, docs: docs, ref: knowledgetest.NewRefBM25(docs, 0.9, 0.4),
		ours: map[string][]string{}, refs: map[string][]string{}}
}

// compare evaluates both on one qrels file: ours must find at least as
// many answers in the top five, with an nDCG@10 no more than 0.005 below.
// With -v it lists our misses, marking those the reference finds in its
// top five. It returns our scores.
func (r *referenceRun) compare(t *testing.T, qrels string) knowledgetest.Scores {
	t.Helper()
	set, err := knowledgetest.LoadQuestionSet(r.dir, qrels)
	if err != nil {
		t.Fatal(err)
	}
	todo := knowledgetest.QuestionSet{Queries: map[string]string{}, Rel: set.Rel}
	for id, text := range set.Queries {
		if _, ok := r.ours[id]; !ok {
			todo.Queries[id] = text
			r.refs[id] = r.ref.Search(text, 10)
		}
	}
	maps.Copy(r.ours, rankSet(t, r.kb, todo, SearchOptions{TopK: 10}))
	ours, theirs := set.Evaluate(r.ours), set.Evaluate(r.refs)
	t.Logf("%s %s: %d questions; ours: answer in the top 5 %.4f, recall@5 %.4f, nDCG@10 %.4f; plain bigram BM25: %.4f, %.4f, %.4f",
		filepath.Base(r.dir), qrels, ours.Queries, ours.Success5, ours.Recall5, ours.NDCG10, theirs.Success5, theirs.Recall5, theirs.NDCG10)
	if testing.Verbose() {
		missed := map[string]bool{}
		for _, id := range theirs.Misses {
			missed[id] = true
		}
		for _, id := range ours.Misses {
			note := ""
			if !missed[id] {
				note = " (the reference finds it)"
			}
			t.Logf("  miss %s %q%s", id, set.Queries[id], note)
			if os.Getenv("WAYFINDER_KO_MISSES") != "" {
				r.explainMiss(t, set, id)
			}
		}
	}
	// nDCG@10 may trail by a question's worth of rank changes: the
	// one-syllable stems move answers within the top ten.
	if ours.Recall5 < theirs.Recall5 || ours.NDCG10 < theirs.NDCG10-0.005 {
		t.Errorf("%s: ours (recall@5 %.4f, nDCG@10 %.4f) is below the plain bigram BM25 (%.4f, %.4f)",
			qrels, ours.Recall5, ours.NDCG10, theirs.Recall5, theirs.NDCG10)
	}
	return ours
}

// readCorpus reads a BEIR corpus.jsonl as id → title and text, the way the
// importer indexes a record (its title is every chunk's heading).
func readCorpus(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	docs := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var d struct {
			ID    string `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		docs[d.ID] = d.Title + "\n" + d.Text
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return docs
}

// explainMiss logs, under a miss, where the first relevant document ranks
// among the first 100 and the texts of it and of the five found instead:
// what reading a miss needs (WAYFINDER_KO_MISSES=1 with -v).
func (r *referenceRun) explainMiss(t *testing.T, set knowledgetest.QuestionSet, id string) {
	t.Helper()
	deep := rankSet(t, r.kb, knowledgetest.QuestionSet{Queries: map[string]string{id: set.Queries[id]}}, SearchOptions{TopK: 100})[id]
	place := "past place 100"
	for i, d := range deep {
		if set.Rel[id][d] {
			place = fmt.Sprintf("at place %d", i+1)
			break
		}
	}
	for d := range set.Rel[id] {
		t.Logf("      answer %s (%s): %s", d, place, shorten(r.docs[d], 240))
	}
	for i, d := range deep[:min(5, len(deep))] {
		t.Logf("      %d. %s: %s", i+1, d, shorten(r.docs[d], 160))
	}
}

// shorten returns s on one line, cut to n runes.
func shorten(s string, n int) string {
	r := []rune(strings.ReplaceAll(s, "\n", " | "))
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return string(r)
}
