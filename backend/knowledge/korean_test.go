package knowledge

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// koreanSet is the Korean question set: paragraphs of the Debian FAQ and
// LibreOffice's help in Korean as documents, questions written by hand
// (testdata/ko/README.md says how).
const koreanSet = "testdata/ko"

// rankSet runs every query of set through Search and returns the record
// ids of the hits, best first, one per document.
func rankSet(tb testing.TB, kb *Base, set knowledgetest.QuestionSet, opts SearchOptions) map[string][]string {
	tb.Helper()
	out := make(map[string][]string, len(set.Queries))
	for id, text := range set.Queries {
		hits, err := kb.Search(context.Background(), text, opts)
		if err != nil {
			tb.Fatal(err)
		}
		seen := map[string]bool{}
		for _, h := range hits {
			if !seen[h.RecordID] {
				seen[h.RecordID] = true
				out[id] = append(out[id], h.RecordID)
			}
		}
	}
	return out
}

// TestKoreanRetrieval holds keyword-only retrieval on the Korean set at
// what it reaches (keyword/README.md, "Korean question set"): recall@5 0.934 on the
// questions the analyzer was chosen on and 0.920 on the held-out ones it
// never was (an answer in the top five for 0.925 of them; through the CLI
// 0.932 and 0.920). Issue 18's goal is 0.99; the misses are mostly
// questions that share no word with their paragraph (synonyms,
// paraphrase) or whose words its neighbours under the same heading share,
// which keywords alone cannot tell apart. Each part is also held against a
// plain Hangul-bigram BM25 over whole paragraphs (referenceRun), which
// reaches 0.898 and 0.887 here.
func TestKoreanRetrieval(t *testing.T) {
	e := newEnv(t)
	kb, _ := e.open()
	if _, err := kb.Import(context.Background(), []string{filepath.Join(koreanSet, "corpus.jsonl")}, nil); err != nil {
		t.Fatal(err)
	}
	// dev-pooled is dev with the other paragraphs that answer a question
	// as well (testdata/ko/README.md): its floor is on an answer in the
	// top five, as recall@5 asks for every relevant paragraph.
	floor := map[string]float64{"dev": 0.934, "heldout": 0.922, "dev-pooled": 0.952}
	run := newReferenceRun(t, kb, koreanSet)
	for _, split := range koreanParts([]string{"dev", "heldout", "dev-pooled"}, os.Getenv("WAYFINDER_KO_PARTS")) {
		sc := run.compare(t, filepath.Join("qrels", split+".tsv"))
		if sc.Success5 < floor[split] {
			t.Errorf("%s: an answer in the top 5 for %.4f of the questions, want ≥ %.3f", split, sc.Success5, floor[split])
		}
	}
}

// koreanParts returns the parts of the Korean set a run measures: all, or
// those named in only (WAYFINDER_KO_PARTS, comma-separated: "dev" or
// "dev,dev-pooled"). A session choosing a change on the dev part then sees
// no held-out figures, which `-v` would otherwise print with their misses;
// the floors of the parts left out are not checked.
func koreanParts(all []string, only string) []string {
	if strings.TrimSpace(only) == "" {
		return all
	}
	var out []string
	for _, p := range all {
		for _, want := range strings.Split(only, ",") {
			if strings.TrimSpace(want) == p {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestKoreanPagesRetrieval asks the same questions of the set's paragraphs
// joined back into the pages they came from (a help page, a FAQ chapter; up
// to 7,500 characters), so that a document is several chunks, as most
// documents people import are: the answer must be found although its words
// are spread over chunks and the other chunks of its page compete for the
// top five. It holds ours against the plain bigram BM25 over whole pages,
// which sees each page as one text (keyword/README.md, "Pages of several chunks").
func TestKoreanPagesRetrieval(t *testing.T) {
	dir := writePageSet(t, koreanSet)
	e := newEnv(t)
	kb, _ := e.open()
	rep, err := kb.Import(context.Background(), []string{filepath.Join(dir, "corpus.jsonl")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 1,317 chunks for 1,144 pages: the FAQ's chapters and the long help
	// pages, which more than half the questions are about, span several.
	if rep.Chunks < rep.Documents+150 {
		t.Fatalf("%d chunks for %d pages: the long pages must span several chunks", rep.Chunks, rep.Documents)
	}
	floor := map[string]float64{"dev": 0.972, "heldout": 0.97}
	run := newReferenceRun(t, kb, dir)
	for _, split := range koreanParts([]string{"dev", "heldout"}, os.Getenv("WAYFINDER_KO_PARTS")) {
		sc := run.compare(t, filepath.Join("qrels", split+".tsv"))
		if sc.Success5 < floor[split] {
			t.Errorf("pages %s: an answer in the top 5 for %.4f of the questions, want ≥ %.3f", split, sc.Success5, floor[split])
		}
	}
}

// TestFloorSweep prints what the relevance floor cuts from the top five on
// the Korean set and on SciFact (when ../shared/eval is there): irrelevant
// passages removed, and the recall@5 it costs. Opt in with
// WAYFINDER_FLOOR_SWEEP=1; README.md has the figures.
func TestFloorSweep(t *testing.T) {
	if os.Getenv("WAYFINDER_FLOOR_SWEEP") == "" {
		t.Skip("set WAYFINDER_FLOOR_SWEEP=1 to print the relevance floor's effect")
	}
	sets := []struct{ name, dir, corpus, qrels string }{
		{"korean dev+heldout", koreanSet, "corpus.jsonl", "qrels/all"},
		{"scifact test", sciFactDir(), "corpus.jsonl", "qrels/test.tsv"},
	}
	for _, s := range sets {
		if _, err := os.Stat(filepath.Join(s.dir, s.corpus)); err != nil {
			t.Logf("%s: not found, skipped", s.name)
			continue
		}
		set := loadSets(t, s.dir, s.qrels)
		e := newEnv(t)
		kb, _ := e.open()
		if _, err := kb.Import(context.Background(), []string{filepath.Join(s.dir, s.corpus)}, nil); err != nil {
			t.Fatal(err)
		}
		base := 0
		for _, floor := range []float64{-1, 0.05, 0.1, 0.15, 0.2, 0.3} {
			ranked := rankSet(t, kb, set, SearchOptions{TopK: 5, Floor: floor})
			irrelevant, passages := 0, 0
			for id, got := range ranked {
				passages += len(got)
				for _, d := range got {
					if !set.Rel[id][d] {
						irrelevant++
					}
				}
			}
			if floor < 0 {
				base = irrelevant
			}
			sc := set.Evaluate(ranked)
			t.Logf("%s floor %5.2f: %4d passages in the top 5, %4d irrelevant (%4d cut), recall@5 %.4f",
				s.name, floor, passages, irrelevant, base-irrelevant, sc.Recall5)
		}
	}
}

// writePageSet writes the set of dir with its paragraphs joined into
// their pages (a paragraph's id is its page's id, a dot and its number)
// to a temporary folder and returns it: each page's text holds its
// paragraphs in order with their headings between them, and the
// judgements name the page of each judged paragraph.
func writePageSet(t *testing.T, dir string) string {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	out := filepath.Join(t.TempDir(), "ko-pages")
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pageOf := func(paragraph string) string { return paragraph[:strings.LastIndexByte(paragraph, '.')] }

	type page struct{ id, title, text, heading string }
	var pages []*page
	byID := map[string]*page{}
	for _, line := range strings.Split(strings.TrimSpace(read("corpus.jsonl")), "\n") {
		var r struct {
			ID    string `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		p := byID[pageOf(r.ID)]
		if p == nil {
			p = &page{id: pageOf(r.ID), title: r.Title}
			byID[p.id] = p
			pages = append(pages, p)
		}
		if r.Title != p.heading {
			p.text += r.Title + "\n\n"
			p.heading = r.Title
		}
		p.text += r.Text + "\n\n"
	}
	var corpus strings.Builder
	for _, p := range pages {
		b, err := json.Marshal(map[string]string{"_id": p.id, "title": p.title, "text": p.text})
		if err != nil {
			t.Fatal(err)
		}
		corpus.Write(append(b, '\n'))
	}
	write("corpus.jsonl", corpus.String())
	write("queries.jsonl", read("queries.jsonl"))
	for _, split := range []string{"qrels/dev.tsv", "qrels/heldout.tsv"} {
		qrels, seen := "query-id\tcorpus-id\tscore\n", map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(read(split)), "\n")[1:] {
			f := strings.Split(line, "\t")
			if row := f[0] + "\t" + pageOf(f[1]) + "\t" + f[2] + "\n"; !seen[row] {
				seen[row] = true
				qrels += row
			}
		}
		write(split, qrels)
	}
	return out
}

// loadSets reads one qrels file, or with "qrels/all" the dev and held-out
// parts of the Korean set together.
func loadSets(t *testing.T, dir, qrels string) knowledgetest.QuestionSet {
	t.Helper()
	if qrels != "qrels/all" {
		set, err := knowledgetest.LoadQuestionSet(dir, qrels)
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	all := knowledgetest.QuestionSet{Queries: map[string]string{}, Rel: map[string]map[string]bool{}}
	for _, f := range []string{"qrels/dev.tsv", "qrels/heldout.tsv"} {
		set, err := knowledgetest.LoadQuestionSet(dir, f)
		if err != nil {
			t.Fatal(err)
		}
		maps.Copy(all.Queries, set.Queries)
		maps.Copy(all.Rel, set.Rel)
	}
	return all
}

// sciFactDir is BEIR SciFact beside the repository (shared/eval), or where
// WAYFINDER_SCIFACT points (a worktree has no shared/ beside it).
func sciFactDir() string {
	if d := os.Getenv("WAYFINDER_SCIFACT"); d != "" {
		return d
	}
	return "../../../shared/eval/scifact"
}

func TestKoreanParts(t *testing.T) {
	all := []string{"dev", "heldout", "dev-pooled"}
	tests := []struct {
		only string
		want []string
	}{
		{"", all},
		{"dev", []string{"dev"}},
		{" dev , dev-pooled", []string{"dev", "dev-pooled"}},
		{"heldout", []string{"heldout"}},
		{"dev-pool", nil},
	}
	for _, tc := range tests {
		if got := koreanParts(all, tc.only); !slices.Equal(got, tc.want) {
			t.Errorf("koreanParts(%q) = %v, want %v", tc.only, got, tc.want)
		}
	}
}
