package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// manyChunks is a Markdown text of about n chunks of 200 characters, each
// holding words found nowhere else ("zanzibarite", "무지개송어").
func manyChunks(n int) string {
	var sb strings.Builder
	sb.WriteString("# Field notes\n\n")
	for i := range n {
		fmt.Fprintf(&sb, "Note %d: the zanzibarite sample %d was logged beside 무지개송어 in the river, as before.\n\n", i, i)
	}
	return sb.String()
}

// TestStopWhileIndexing: an import or upload stopped while its file's
// words are indexed (StageIndexing, as it begins, after its first page,
// and inside its second page, 300 passages in) ends StageStopped and
// leaves nothing of the file: no rows, staged or not, no passage in the
// keyword index (searches do not find its words and the index holds the
// documents it held before), no uploaded copy; an earlier version of the
// file stays, found as before. A stop inside a page is felt within
// indexCheck passages, not at the page's end. Before, indexing came after
// the swap and ran to its end whatever Stop said.
func TestStopWhileIndexing(t *testing.T) {
	for _, how := range []string{"import", "import over an earlier version", "upload"} {
		for _, at := range []int{0, 1000, 1300} {
			inPage := at%1000 != 0
			t.Run(fmt.Sprintf("%s, stopped at %d indexed", how, at), func(t *testing.T) {
				e := newPlainEnv(t)
				uploads := filepath.Join(e.dir, "uploads")
				b := e.openWith(Options{Sink: e.sink, UploadDir: uploads, Chunk: chunk.Options{Size: 200, Overlap: 0}})
				dir := t.TempDir()
				path := filepath.Join(dir, "notes.md")
				if how == "import over an earlier version" {
					writeIn(t, dir, "notes.md", "# Field notes\n\nblueberries of the first version\n")
					if rep, err := b.Import(context.Background(), []string{path}, nil); err != nil || len(rep.Imported) != 1 {
						t.Fatalf("first version: %+v, %v", rep, err)
					}
				}
				docs0, chunks0 := rows(t, b)
				indexed0, embedded0 := b.keywords.Len(), sinkLen(e.sink)
				text := manyChunks(2500)

				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var mu sync.Mutex
				var stages []Stage
				stoppedAt := -1
				added, addedAfter := 0, 0
				if inPage {
					hook := passageIndexed
					t.Cleanup(func() { passageIndexed = hook })
					passageIndexed = func() {
						mu.Lock()
						defer mu.Unlock()
						if added++; stoppedAt >= 0 {
							addedAfter++
						} else if added == at {
							stoppedAt = at
							cancel()
						}
					}
				}
				onProgress := func(p Progress) {
					mu.Lock()
					defer mu.Unlock()
					stages = append(stages, p.Stage)
					if p.Stage == StageIndexing && p.Indexed >= at && stoppedAt < 0 && !inPage {
						stoppedAt = p.Indexed
						cancel()
					}
					if p.Stage == StageIndexing && stoppedAt >= 0 && p.Indexed > stoppedAt {
						t.Errorf("indexed %d after the stop at %d", p.Indexed, stoppedAt)
					}
				}
				if how == "upload" {
					res, err := b.Upload(ctx, "notes.md", strings.NewReader(text), onProgress)
					if !errors.Is(err, context.Canceled) || res.Outcome != UploadStopped {
						t.Errorf("upload: %s, %v; want it stopped", res.Outcome, err)
					}
				} else {
					writeIn(t, dir, "notes.md", text)
					rep, err := b.Import(ctx, []string{path}, onProgress)
					if !errors.Is(err, context.Canceled) || len(rep.Imported) != 0 || !slices.Equal(base(rep.Stopped), []string{"notes.md"}) {
						t.Errorf("import: imported %v, stopped %v, %v; want notes.md stopped", rep.Imported, rep.Stopped, err)
					}
				}

				if stoppedAt < 0 {
					t.Fatalf("no indexing progress: stages %v", stages)
				}
				if addedAfter > indexCheck {
					t.Errorf("%d passages indexed after the stop at %d, want at most %d", addedAfter, stoppedAt, indexCheck)
				}
				if last := stages[len(stages)-1]; last != StageStopped {
					t.Errorf("last stage %s, want stopped (stages %v)", last, slices.Compact(stages))
				}
				if slices.Contains(stages, StageEmbedding) || slices.Contains(stages, StageDone) {
					t.Errorf("the file went on after the stop: %v", slices.Compact(stages))
				}
				docs, chunks := rows(t, b)
				if docs != docs0 || chunks != chunks0 {
					t.Errorf("%d documents, %d chunks; want %d, %d as before", docs, chunks, docs0, chunks0)
				}
				if n := b.keywords.Len(); n != indexed0 {
					t.Errorf("keyword index holds %d passages, want %d as before", n, indexed0)
				}
				for q, want := range map[string]int{"zanzibarite": 0, "무지개송어": 0, "blueberries": int(min(chunks0, 1))} {
					hits, err := b.Search(context.Background(), q, SearchOptions{Floor: -1})
					if err != nil {
						t.Fatal(err)
					}
					if len(hits) != want {
						t.Errorf("search %q: %d hits, want %d", q, len(hits), want)
					}
				}
				var kept []string
				filepath.WalkDir(uploads, func(p string, d fs.DirEntry, err error) error {
					if err == nil && !d.IsDir() {
						kept = append(kept, p)
					}
					return nil
				})
				if len(kept) > 0 {
					t.Errorf("uploaded copies left: %v", kept)
				}
				if n := sinkLen(e.sink); n != embedded0 {
					t.Errorf("the sink holds %d passages, want %d as before", n, embedded0)
				}
			})
		}
	}
}

// TestIndexingProgress: after its passages are stored, a file's progress
// says how many have their words indexed (StageIndexing, Indexed of
// Chunks) as it goes, a page of 1,000 at a time, from 0 to all of them,
// between chunking and embedding; and it is then found by its words.
func TestIndexingProgress(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink, Chunk: chunk.Options{Size: 200, Overlap: 0}})
	path := writeIn(t, t.TempDir(), "notes.md", manyChunks(2500))
	var stages []Stage
	var indexed, of []int
	chunks := 0
	rep, err := b.Import(context.Background(), []string{path}, func(p Progress) {
		stages = append(stages, p.Stage)
		if p.Stage == StageIndexing {
			indexed, of = append(indexed, p.Indexed), append(of, p.Chunks)
		}
		if p.Stage == StageDone {
			chunks = p.Chunks
		}
	})
	if err != nil || len(rep.Imported) != 1 {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	var want []int
	for n := 0; n < chunks; n += 1000 {
		want = append(want, n)
	}
	want = append(want, chunks)
	if chunks < 2000 || !slices.Equal(indexed, want) || slices.ContainsFunc(of, func(n int) bool { return n != chunks }) {
		t.Errorf("indexed %v of %v chunks, want %v of %d", indexed, of, want, chunks)
	}
	if got, want := slices.Compact(slices.Clone(stages)), []Stage{StageReading, StageChunking, StageIndexing, StageEmbedding, StageDone}; !slices.Equal(got, want) {
		t.Errorf("stages %v, want %v", got, want)
	}
	hits, err := b.Search(context.Background(), "zanzibarite 무지개송어", SearchOptions{PerDoc: -1, TopK: 3})
	if err != nil || len(hits) != 3 || b.keywords.Len() != chunks {
		t.Errorf("after the import: %d hits (%v), %d passages indexed of %d", len(hits), err, b.keywords.Len(), chunks)
	}
}

func sinkLen(s *fakeSink) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.upserted)
}
