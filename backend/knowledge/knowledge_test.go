package knowledge

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// env is one data directory: a database file and the knowledge directory.
type env struct {
	t    *testing.T
	dir  string
	pdf  *pdftext.Extractor
	sink *fakeSink
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return &env{t: t, dir: t.TempDir(), pdf: sharedExtractor(t), sink: &fakeSink{}}
}

// sharedExtractor compiles PDFium once per test binary through wazero's
// on-disk cache.
func sharedExtractor(t *testing.T) *pdftext.Extractor {
	t.Helper()
	e, err := pdftext.New(context.Background(), filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close(context.Background()) })
	return e
}

// open opens the database and the Base, closing both when the test ends.
func (e *env) open() (*Base, *gorm.DB) {
	e.t.Helper()
	db, err := store.OpenDB(filepath.Join(e.dir, "wayfinder.db"))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			_ = sqlDB.Close()
		}
	})
	b, err := Open(context.Background(), db, filepath.Join(e.dir, "knowledge"), Options{PDF: e.pdf, Sink: e.sink})
	if err != nil {
		e.t.Fatal(err)
	}
	return b, db
}

func closeDB(t testing.TB, db *gorm.DB) {
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlDB.Close(); err != nil {
		t.Fatal(err)
	}
}

// copyLibrary copies testdata/library to a temporary folder the test may change.
func copyLibrary(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "library")
	if err := os.CopyFS(dst, os.DirFS("testdata/library")); err != nil {
		t.Fatal(err)
	}
	return dst
}

type fakeSink struct {
	mu       sync.Mutex
	upserted map[string]bool
}

func (s *fakeSink) Upsert(_ context.Context, chunks []IndexedChunk, onProgress func(done, total int)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.upserted == nil {
		s.upserted = map[string]bool{}
	}
	for i, c := range chunks {
		if c.Source == "" || c.Kind == "" {
			return errors.New("chunk without source or kind")
		}
		s.upserted[c.ID] = true
		onProgress(i+1, len(chunks))
	}
	return nil
}

func (s *fakeSink) Delete(_ context.Context, ids []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.upserted, id)
	}
	return nil
}

func (s *fakeSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.upserted)
}

func base(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	slices.Sort(out)
	return out
}

func TestImportFolder(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	lib := copyLibrary(t)
	var events []Progress
	rep, err := b.Import(context.Background(), []string{lib}, func(p Progress) { events = append(events, p) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"guide.md", "hello.pdf", "leave-policy.txt", "records.jsonl", "tools.json"}, base(rep.Imported)); diff != "" {
		t.Errorf("imported (-want +got):\n%s", diff)
	}
	// Each broken PDF fails alone, with the reason a person can act on.
	wantFailed := map[string]error{"blank.pdf": pdftext.ErrNoText, "corrupt.pdf": pdftext.ErrCorrupt, "encrypted.pdf": pdftext.ErrEncrypted}
	if len(rep.Failed) != len(wantFailed) {
		t.Fatalf("failed = %v", rep.Failed)
	}
	for _, f := range rep.Failed {
		if want := wantFailed[filepath.Base(f.Path)]; !errors.Is(f, want) {
			t.Errorf("%s failed with %v, want %v", f.Path, f.Err, want)
		}
	}
	if rep.Documents != 6 || rep.Pages != 1 {
		t.Errorf("documents %d pages %d, want 6 and 1", rep.Documents, rep.Pages)
	}
	// Progress: every file ends in exactly one final event, in order.
	final := map[string]Stage{}
	for _, p := range events {
		if p.FilesTotal != 8 {
			t.Fatalf("event %+v: files_total != 8", p)
		}
		if p.Stage == StageDone || p.Stage == StageFailed || p.Stage == StageSkipped {
			if _, dup := final[p.File]; dup {
				t.Errorf("two final events for %s", p.File)
			}
			final[p.File] = p.Stage
		}
		if p.Stage == StageDone && p.Chunks == 0 {
			t.Errorf("done without chunks: %+v", p)
		}
		if p.Stage == StageFailed && p.Error == "" {
			t.Errorf("failed without error: %+v", p)
		}
	}
	if len(final) != 8 {
		t.Errorf("final events for %d files, want 8", len(final))
	}
	pdfDone := slices.IndexFunc(events, func(p Progress) bool { return p.Stage == StageDone && strings.HasSuffix(p.File, "hello.pdf") })
	if pdfDone < 0 || events[pdfDone].Pages != 1 || events[pdfDone].Embedded != events[pdfDone].Chunks {
		t.Errorf("hello.pdf done event: %+v", events[max(pdfDone, 0)])
	}
	if e.sink.count() != rep.Chunks {
		t.Errorf("sink has %d chunks, want %d", e.sink.count(), rep.Chunks)
	}
	docs, err := b.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var recordIDs []string
	for _, d := range docs {
		if strings.HasPrefix(d.Source, filepath.Join(lib, ".hidden")) {
			t.Errorf("hidden file imported: %s", d.Source)
		}
		if d.RecordID != "" {
			recordIDs = append(recordIDs, d.RecordID)
		}
	}
	slices.Sort(recordIDs)
	if diff := cmp.Diff([]string{"10", "r1", "r2"}, recordIDs); diff != "" {
		t.Errorf("JSON record ids (-want +got):\n%s", diff)
	}
}

func TestImportExplicitBadPaths(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	lib := copyLibrary(t)
	rep, err := b.Import(context.Background(), []string{
		filepath.Join(lib, "picture.png"), filepath.Join(lib, "missing.md"), filepath.Join(lib, "guide.md"),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Imported) != 1 || len(rep.Failed) != 2 {
		t.Fatalf("report %+v", rep)
	}
	var unsupported, missing bool
	for _, f := range rep.Failed {
		unsupported = unsupported || errors.Is(f, importer.ErrUnsupported)
		missing = missing || errors.Is(f, os.ErrNotExist)
	}
	if !unsupported || !missing {
		t.Errorf("failures %v: want one unsupported and one missing", rep.Failed)
	}
}

func hitSources(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, filepath.Base(h.Source))
	}
	return out
}

func TestSearch(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	lib := copyLibrary(t)
	if _, err := b.Import(context.Background(), []string{lib}, nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tests := []struct {
		query string
		opts  SearchOptions
		want  string // base name of the top hit's file; "" for no hits
		page  int
	}{
		{"문서", SearchOptions{}, "leave-policy.txt", 0}, // "문서를" in the text
		{"휴가를 신청", SearchOptions{}, "leave-policy.txt", 0},
		{"번역", SearchOptions{}, "records.jsonl", 0},
		{"revenue regions", SearchOptions{}, "hello.pdf", 1},
		{"slide deck", SearchOptions{}, "tools.json", 0},
		{"embedding models", SearchOptions{Kinds: []string{"markdown"}}, "guide.md", 0},
		{"embedding models", SearchOptions{Kinds: []string{"pdf"}}, "", 0},
		{"video", SearchOptions{Sources: []string{filepath.Join(lib, "records.jsonl")}}, "records.jsonl", 0},
		{"video", SearchOptions{Sources: []string{filepath.Join(lib, "guide.md")}}, "", 0},
		{"video", SearchOptions{Sources: []string{lib}}, "records.jsonl", 0},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := b.Search(ctx, tt.query, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(hits) != 0 {
					t.Fatalf("want no hits, got %v", hitSources(hits))
				}
				return
			}
			if len(hits) == 0 || filepath.Base(hits[0].Source) != tt.want || hits[0].Page != tt.page {
				t.Fatalf("hits %v, want %s first (page %d)", hitSources(hits), tt.want, tt.page)
			}
			h := hits[0]
			if h.Snippet == "" || h.Text == "" || h.ChunkID == "" || h.Title == "" || h.Score <= 0 {
				t.Errorf("incomplete hit %+v", h)
			}
			if c := h.Citation(); c.ID != h.ChunkID || c.Source != h.Source || c.Page != h.Page {
				t.Errorf("citation %+v from %+v", c, h)
			}
		})
	}
}

// TestOtherCodePointsSameWords: a file written in decomposed Hangul (as
// macOS names and some exports store it) and full-width letters is found
// by a question typed the usual way, and its snippet reads composed.
func TestOtherCodePointsSameWords(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	path := filepath.Join(t.TempDir(), "mac.txt")
	text := norm.NFD.String("휴가 신청서를 제출하는 방법") + " Ｃａｌｃ 시트"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Import(context.Background(), []string{path}, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"신청서 제출", "calc"} {
		hits, err := b.Search(context.Background(), q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "휴가 신청서를") {
			t.Errorf("%q: %+v, want mac.txt with a composed snippet", q, hits)
		}
	}
}

func TestReimportSkipsUnchangedAndReplacesChanged(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	lib := copyLibrary(t)
	ctx := context.Background()
	guide := filepath.Join(lib, "guide.md")
	if _, err := b.Import(ctx, []string{guide}, nil); err != nil {
		t.Fatal(err)
	}
	rep, err := b.Import(ctx, []string{guide}, nil)
	if err != nil || len(rep.Skipped) != 1 || len(rep.Imported) != 0 {
		t.Fatalf("unchanged re-import: %+v, %v", rep, err)
	}
	if err := os.WriteFile(guide, []byte("# Wayfinder Guide\n\nNow about tangerines only.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = b.Import(ctx, []string{guide}, nil)
	if err != nil || len(rep.Imported) != 1 {
		t.Fatalf("changed re-import: %+v, %v", rep, err)
	}
	if hits, _ := b.Search(ctx, "ollama", SearchOptions{}); len(hits) != 0 {
		t.Errorf("old text still found: %v", hits)
	}
	if hits, _ := b.Search(ctx, "tangerines", SearchOptions{}); len(hits) != 1 {
		t.Errorf("new text not found: %v", hits)
	}
	docs, _ := b.List(ctx)
	if len(docs) != 1 || docs[0].Chunks != 1 {
		t.Errorf("documents after replace: %+v", docs)
	}
	if e.sink.count() != 1 {
		t.Errorf("sink kept %d chunks, want 1", e.sink.count())
	}
}

func TestRemove(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	lib := copyLibrary(t)
	ctx := context.Background()
	if _, err := b.Import(ctx, []string{lib}, nil); err != nil {
		t.Fatal(err)
	}
	hits, _ := b.Search(ctx, "번역", SearchOptions{})
	if len(hits) == 0 {
		t.Fatal("no hit to remove")
	}
	if err := b.Remove(ctx, hits[0].DocID); err != nil {
		t.Fatal(err)
	}
	if hits, _ := b.Search(ctx, "번역", SearchOptions{}); len(hits) != 0 {
		t.Errorf("removed document still found")
	}
	if err := b.Remove(ctx, hits[0].DocID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second remove: %v", err)
	}
	n, err := b.RemoveSource(ctx, filepath.Join(lib, "records.jsonl"))
	if err != nil || n != 1 {
		t.Errorf("RemoveSource = %d, %v; want the remaining record", n, err)
	}
	if hits, _ := b.Search(ctx, "video", SearchOptions{}); len(hits) != 0 {
		t.Errorf("removed source still found")
	}
}

// TestRestart checks that a new process finds the same results from the
// snapshot, and rebuilds when the snapshot is missing, damaged or stale.
func TestRestart(t *testing.T) {
	e := newEnv(t)
	b, db := e.open()
	ctx := context.Background()
	if _, err := b.Import(ctx, []string{copyLibrary(t)}, nil); err != nil {
		t.Fatal(err)
	}
	queries := []string{"문서", "revenue", "번역 품질", "slide"}
	want := map[string][]Hit{}
	for _, q := range queries {
		want[q], _ = b.Search(ctx, q, SearchOptions{})
	}
	closeDB(t, db)
	snap := filepath.Join(e.dir, "knowledge", snapshotName)
	before, err := os.Stat(snap)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string) {
		t.Helper()
		b, db := e.open()
		defer closeDB(t, db)
		for _, q := range queries {
			got, err := b.Search(ctx, q, SearchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want[q], got); diff != "" {
				t.Errorf("%s: %q differs after restart:\n%s", name, q, diff)
			}
		}
	}
	check("snapshot")
	if after, _ := os.Stat(snap); !after.ModTime().Equal(before.ModTime()) {
		t.Error("a current snapshot was rewritten at start (rebuilt instead of loaded)")
	}
	if err := os.WriteFile(snap, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("damaged snapshot")
	if err := os.Remove(snap); err != nil {
		t.Fatal(err)
	}
	check("missing snapshot")
	// A stale snapshot: the database changed after it was written.
	b2, db2 := e.open()
	stale, _ := os.ReadFile(snap)
	// A copy with a line of its own: the same bytes would be one hit (copies_test.go).
	other := filepath.Join(copyLibrary(t), "guide.md")
	if f, err := os.OpenFile(other, os.O_APPEND|os.O_WRONLY, 0); err != nil {
		t.Fatal(err)
	} else if _, err := f.WriteString("\nA copy kept elsewhere.\n"); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	if _, err := b2.Import(ctx, []string{other}, nil); err != nil {
		t.Fatal(err)
	}
	closeDB(t, db2)
	if err := os.WriteFile(snap, stale, 0o644); err != nil {
		t.Fatal(err)
	}
	b3, db3 := e.open()
	defer closeDB(t, db3)
	if hits, _ := b3.Search(ctx, "ollama", SearchOptions{}); len(hits) != 2 {
		t.Errorf("stale snapshot used: %d hits for a term in two imported files, want 2", len(hits))
	}
}

func TestExtract(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "한국어\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	tests := []struct {
		name, path, want string
		warnings         int
	}{
		{"pdf pages", "testdata/library/hello.pdf", "--- page 1 ---\nQuarterly revenue grew in every region\n", 0},
		{"slides", "importer/testdata/office/notes.pptx", "--- slide 1 ---\n# 휴학 안내\n\n휴학은 포털에서 신청한다.\n\n> 발표자 메모: 휴학 신청 마감은 개강 2주 전이라고 말할 것.\n" +
			"--- slide 2 ---\n# 복학 안내\n\n복학은 학기 시작 전에 신청한다.\n", 0},
		{"utf-16 text", write("u.txt", utf16), "한국어\n", 0},
		{"invalid byte, reported", write("bad.txt", []byte("ok\nbad \xff here\n")), "ok\nbad \uFFFD here\n", 1},
		{"json records", write("r.jsonl", []byte(`{"title":"A","text":"one"}`+"\n"+`{"title":"B","text":"two"}`)), "# A\none\n# B\ntwo\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			warnings, err := b.Extract(context.Background(), tt.path, &out)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want || len(warnings) != tt.warnings {
				t.Errorf("Extract = %q, %q; want %q and %d warnings", out.String(), warnings, tt.want, tt.warnings)
			}
		})
	}
	if _, err := b.Extract(context.Background(), "testdata/library/encrypted.pdf", io.Discard); !errors.Is(err, pdftext.ErrEncrypted) {
		t.Errorf("encrypted: %v", err)
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("앞부분 내용입니다. ", 40) + "핵심 문서를 여기서 찾습니다. " + strings.Repeat("뒷부분 내용. ", 40)
	// around: a text with an early word that shares a bigram with the query
	// and, far later, the word itself with spaces in it.
	around := func(early, late string) string {
		return early + " " + strings.Repeat("앞부분 내용입니다. ", 40) + late + " " + strings.Repeat("뒷부분 내용. ", 40)
	}
	an := keyword.DefaultAnalyzer()
	tests := []struct {
		name, text, query, wantHas string
	}{
		// A gap wider than one break stays wider (two spaces), so no mark spans it.
		{"short text whole", "짧은  글\n입니다", "", "짧은  글 입니다"},
		{"window around term", long, "문서", "핵심 문서를"},
		{"no term found starts at beginning", long, "없음", "앞부분"},
		// Decomposed Hangul (as macOS stores it) is shown composed, and
		// the window is found around the composed term.
		{"decomposed hangul", norm.NFD.String(long), "문서", "핵심 문서를"},
		// A Korean word whatever the spaces between its syllables, as the
		// index finds it and the window marks it (marks.go), rather than an
		// earlier piece of it.
		{"letter-spaced title", around("위임 사항을", "위 임 장(갑)"), "위임장", "위 임 장(갑)"},
		{"compound written apart", around("도구를 모아", "도구 모음 표시"), "도구모음", "도구 모음 표시"},
		{"compound typed apart", around("앞", "도구모음을 엽니다"), "도구 모음", "도구모음을 엽니다"},
		{"word broken across a line", around("적용 범위", "적\n용한다"), "적용한다", "적 용한다"},
		{"no whole word: the first bigram, as before", around("위임 사항을", "임장 조사"), "위임장", "위임 사항을"},
		{"a Latin stem found before the word", around("policies", "the policy"), "policy", "policies"},
		// A query pasted from a macOS file name is decomposed: the window
		// is still around the word, not the earlier bigram.
		{"decomposed query", around("위임 사항을", "위 임 장(갑)"), norm.NFD.String("위임장"), "위 임 장(갑)"},
		// Syllables a blank line apart are no word: the window is around
		// the bigram, and the blank lines do not collapse into "위 임 장".
		{"blank lines between syllables", around("위임 사항을", "위\n\n임\n\n장"), "위임장", "위임 사항을"},
	}
	for _, tt := range tests {
		got := snippet(tt.text, newMarks(tt.query), an.Tokens(norm.NFC.String(tt.query)))
		if !strings.Contains(got, tt.wantHas) {
			t.Errorf("%s: snippet %q lacks %q", tt.name, got, tt.wantHas)
		}
		if n := len([]rune(got)); n > snippetRunes+2 {
			t.Errorf("%s: snippet has %d runes", tt.name, n)
		}
	}
}

// TestEvalPDFs imports every PDF of the shared evaluation set.
func TestEvalPDFs(t *testing.T) {
	dir := "../../../shared/eval/pdfs"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no evaluation PDFs at %s (not part of the repository)", dir)
	}
	e := newEnv(t)
	b, _ := e.open()
	rep, err := b.Import(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) != 0 || len(rep.Imported) != 7 {
		t.Fatalf("imported %d, failed %v", len(rep.Imported), rep.Failed)
	}
	t.Logf("%d files, %d pages, %d chunks", len(rep.Imported), rep.Pages, rep.Chunks)
	hits, err := b.Search(context.Background(), "한국어 질의응답 데이터셋", SearchOptions{TopK: 3})
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].Source, "KorQuAD") || hits[0].Page == 0 {
		t.Errorf("Korean query: %v, %v", hitSources(hits), err)
	}
}

func TestImportRecords(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	b, _ := e.open()
	record := func(id, title, text string) importer.Document {
		return importer.Document{ID: id, Title: title, Source: "builtin:catalog", Kind: "catalog", Parts: []chunk.Input{{Text: text}}}
	}
	v1 := []importer.Document{
		record("catalog:vrew", "Vrew", "Vrew 자막 자동 생성 영상 편집 subtitles video editing"),
		record("catalog:papago", "Papago", "Papago 번역 translation Korean English"),
	}
	changed, err := b.ImportRecords(ctx, "builtin:catalog", "v1", v1, nil)
	if err != nil || !changed {
		t.Fatalf("first import: %v, %v", changed, err)
	}
	hits, err := b.Search(ctx, "자막을", SearchOptions{TopK: 5, Scope: ScopeCatalog})
	if err != nil || len(hits) == 0 || hits[0].RecordID != "catalog:vrew" || hits[0].Kind != "catalog" {
		t.Fatalf("search after import: %+v, %v", hits, err)
	}
	if changed, err := b.ImportRecords(ctx, "builtin:catalog", "v1", v1, nil); err != nil || changed {
		t.Fatalf("same version again: %v, %v", changed, err)
	}
	v2 := []importer.Document{record("catalog:papago", "Papago", "Papago 번역 translation")}
	if changed, err := b.ImportRecords(ctx, "builtin:catalog", "v2", v2, nil); err != nil || !changed {
		t.Fatalf("new version: %v, %v", changed, err)
	}
	if hits, _ := b.Search(ctx, "자막", SearchOptions{TopK: 5, Scope: ScopeCatalog}); len(hits) != 0 {
		t.Fatalf("entry removed in v2 still found: %+v", hits)
	}
	docs, _ := b.List(ctx)
	if len(docs) != 1 || docs[0].FileHash != "v2" {
		t.Fatalf("documents after v2: %+v", docs)
	}
}

func TestSyncCatalog(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	b, _ := e.open()
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := SyncCatalog(ctx, b, c, nil); err != nil || !changed {
		t.Fatalf("first sync: %v, %v", changed, err)
	}
	if changed, err := SyncCatalog(ctx, b, c, nil); err != nil || changed {
		t.Fatalf("second sync of the same version: %v, %v", changed, err)
	}
	tests := []struct{ query, want string }{
		{"자막 자동 생성 영상 편집", "Vrew"},
		{"translate Korean documents", "Papago"},
	}
	for _, tt := range tests {
		hits, err := b.Search(ctx, tt.query, SearchOptions{TopK: 10, Scope: ScopeCatalog})
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, h := range hits {
			titles = append(titles, h.Title)
		}
		if !slices.Contains(titles, tt.want) {
			t.Errorf("%q: top 10 %v lacks %s", tt.query, titles, tt.want)
		}
	}
}
