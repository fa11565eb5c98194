package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// newPlainEnv is an env without PDFium, for tests of other formats.
func newPlainEnv(t *testing.T) *env {
	return &env{t: t, dir: t.TempDir(), sink: &fakeSink{}}
}

// openWith opens a Base over the env's data with other options.
func (e *env) openWith(opts Options) *Base {
	e.t.Helper()
	db, err := store.OpenDB(filepath.Join(e.dir, "wayfinder.db"))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { closeDB(e.t, db) })
	b, err := Open(context.Background(), db, filepath.Join(e.dir, "knowledge"), opts)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// rows counts documents (staged ones too) and chunks in the database.
func rows(t *testing.T, b *Base) (docs, chunks int64) {
	t.Helper()
	if err := b.db.Model(&Document{}).Count(&docs).Error; err != nil {
		t.Fatal(err)
	}
	if err := b.db.Model(&Chunk{}).Count(&chunks).Error; err != nil {
		t.Fatal(err)
	}
	return docs, chunks
}

func junk(n int) []byte {
	rng := rand.New(rand.NewPCG(9, 9))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestImportEncodingsAndJunk imports files people have: Korean text in the
// encodings Windows tools write, and files that are not text at all.
func TestImportEncodingsAndJunk(t *testing.T) {
	const text = "출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n"
	u16, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(text)
	u16be, _ := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().String(text)
	euckr, _ := korean.EUCKR.NewEncoder().String(text)
	tests := []struct {
		name, file string
		data       []byte
		failed     string // in the error; "" when it imports
		warning    string
	}{
		{"UTF-16 with a BOM", "a.txt", []byte(u16), "", ""},
		{"UTF-16BE without a BOM", "b.md", []byte(u16be), "", ""},
		{"EUC-KR", "c.txt", []byte(euckr), "", ""},
		{"UTF-8 with a BOM", "d.md", append([]byte("\xef\xbb\xbf"), text...), "", ""},
		{"a few bad bytes", "e.txt", []byte(text + "끝 \xff\n"), "", "1 invalid character replaced with \uFFFD (line 4)"},
		{"2 MB of random bytes named .md", "random.md", junk(2 << 20), "it looks like binary data", ""},
		{"random bytes named .jsonl", "random.jsonl", junk(1 << 20), "it looks like binary data", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newPlainEnv(t)
			b := e.openWith(Options{})
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			var last Progress
			rep, err := b.Import(context.Background(), []string{path}, func(p Progress) { last = p })
			if err != nil {
				t.Fatal(err)
			}
			if tt.failed != "" {
				if len(rep.Failed) != 1 || !errors.Is(rep.Failed[0].Err, importer.ErrNotText) || !strings.Contains(rep.Failed[0].Err.Error(), tt.failed) {
					t.Fatalf("want a failure saying %q: %+v", tt.failed, rep)
				}
				if last.Stage != StageFailed || !strings.Contains(last.Error, tt.failed) {
					t.Errorf("last progress %+v", last)
				}
				if d, c := rows(t, b); d != 0 || c != 0 {
					t.Errorf("a refused file left %d documents and %d chunks", d, c)
				}
				return
			}
			if len(rep.Imported) != 1 {
				t.Fatalf("not imported: %+v", rep)
			}
			hits, err := b.Search(context.Background(), "출장비는", SearchOptions{})
			if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Text, "10만원까지") {
				t.Fatalf("search in the decoded text: %+v, %v", hits, err)
			}
			got := ""
			if len(last.Warnings) > 0 {
				got = last.Warnings[0]
			}
			if got != tt.warning || len(rep.Warnings) != min(1, len(tt.warning)) {
				t.Errorf("warning %q (report %v), want %q", got, rep.Warnings, tt.warning)
			}
		})
	}
}

// TestFailedImportLeavesNothing: a new version of a file that turns out to
// be junk after several batches were written keeps the old version, and
// leaves no staged rows; nor does a crash (staged rows at start).
func TestFailedImportLeavesNothing(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink})
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("the first version talks about tangerines\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err := b.Import(ctx, []string{path}, nil); err != nil || len(rep.Imported) != 1 {
		t.Fatalf("first version: %+v, %v", rep, err)
	}
	docs0, chunks0 := rows(t, b)

	var v2 strings.Builder
	for i := range 20000 { // ≈ 2 MB: several batches are written before the junk
		fmt.Fprintf(&v2, "Line %d of the second version, about pomegranates.\n", i)
	}
	data := append([]byte(v2.String()), junk(1<<20)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var most int
	rep, err := b.Import(ctx, []string{path}, func(p Progress) { most = max(most, p.Chunks) })
	if err != nil || len(rep.Failed) != 1 || !errors.Is(rep.Failed[0].Err, importer.ErrNotText) {
		t.Fatalf("second version: %+v, %v", rep, err)
	}
	if most < 2*stageBatch {
		t.Fatalf("only %d chunks were staged before the junk; the test needs several batches", most)
	}
	if d, c := rows(t, b); d != docs0 || c != chunks0 {
		t.Errorf("after the failure: %d documents, %d chunks; want the first version's %d, %d", d, c, docs0, chunks0)
	}
	if hits, _ := b.Search(ctx, "tangerines", SearchOptions{}); len(hits) != 1 {
		t.Errorf("the first version is gone: %v", hits)
	}
	if hits, _ := b.Search(ctx, "pomegranates", SearchOptions{}); len(hits) != 0 {
		t.Errorf("the failed version is found: %d hits", len(hits))
	}
	if n := e.sink.count(); n != int(chunks0) {
		t.Errorf("sink has %d chunks, want %d", n, chunks0)
	}

	// A crash mid-import leaves staged rows; the next start removes them.
	staged := Document{ID: "crashed", Source: path, Kind: "text", Staged: true, Chunks: 1}
	if err := b.db.Create(&staged).Error; err != nil {
		t.Fatal(err)
	}
	if err := b.db.Create(&Chunk{ID: "crashed:0", DocID: "crashed", Text: "half imported pomegranates"}).Error; err != nil {
		t.Fatal(err)
	}
	if docs, _ := b.List(ctx); len(docs) != 1 {
		t.Errorf("List shows staged rows: %+v", docs)
	}
	b2 := e.openWith(Options{})
	if d, c := rows(t, b2); d != docs0 || c != chunks0 {
		t.Errorf("after a restart: %d documents, %d chunks; want %d, %d", d, c, docs0, chunks0)
	}
}

// slowPDF never finishes a page.
type slowPDF struct{}

func (slowPDF) ExtractReader(ctx context.Context, _ io.ReaderAt, _ int64) ([]pdftext.Page, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestImportTimeBudget(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{PDF: slowPDF{}, FileTime: 200 * time.Millisecond})
	path := filepath.Join(t.TempDir(), "slow.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, err := b.Import(context.Background(), []string{path}, nil)
	if err != nil || len(rep.Failed) != 1 || !strings.Contains(rep.Failed[0].Err.Error(), "took longer than 200ms") {
		t.Fatalf("slow file: %+v, %v", rep, err)
	}
	if time.Since(start) > time.Minute {
		t.Errorf("the budget did not stop the file")
	}
	// Cancelling the whole import is not the file's fault.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Import(ctx, []string{path}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: %v", err)
	}
}

// TestLargeTextIsChunkedLikeASmallOne: a file read in blocks gives the
// chunks of the whole text (the Splitter's tests prove the cuts; this
// proves the importer and stager hand it over without gaps).
func TestLargeTextIsChunkedLikeASmallOne(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{})
	var sb strings.Builder
	for i := range 12000 {
		fmt.Fprintf(&sb, "문단 %d: 한국어 문서를 읽습니다. Paragraph %d of a long file.\n\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "long.md")
	if err := os.WriteFile(path, []byte("# Long\n\n"+sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := b.Import(ctx, []string{path}, nil); err != nil {
		t.Fatal(err)
	}
	docs, _ := b.List(ctx)
	if len(docs) != 1 || docs[0].Title != "Long" {
		t.Fatalf("documents: %+v", docs)
	}
	cs, err := b.Chunks(ctx, docs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	want, err := importer.ParseMarkdown(path, []byte("# Long\n\n"+sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != docs[0].Chunks || len(cs) < stageBatch {
		t.Fatalf("%d chunks stored, document says %d", len(cs), docs[0].Chunks)
	}
	for _, i := range []int{0, 11999} {
		q := fmt.Sprintf("Paragraph %d of", i)
		found := false
		for _, c := range cs {
			found = found || strings.Contains(c.Text, q)
		}
		if !found {
			t.Errorf("%q is in no chunk", q)
		}
	}
	if !strings.Contains(want[0].Parts[0].Text, "Paragraph 11999") {
		t.Fatal("the parser lost the end")
	}
}
