package knowledge

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

var update = flag.Bool("update", false, "rewrite testdata/largetext.golden from the current output")

// largeTextQueries are searched in TestLargeTextAsBefore: English words
// with endings, Korean words with particles and without spaces, a loan
// word, decomposed Hangul.
var largeTextQueries = []string{
	"connections relational", "protein expression regulates", "패키지를 설치하려면", "데비안 설명서",
	"리눅스", "설치방법", "Ｗａｙｆｉｎｄｅｒ file", norm.NFD.String("한국어 문서"), "커널을 업그레이드",
}

// largeTextFiles are the files of TestLargeTextAsBefore: a Markdown file
// of English and Korean under headings, with a 60 KB line, a Korean
// section of one line and one without spaces, decomposed Hangul and
// full-width letters; and a text file without a line break.
func largeTextFiles(t *testing.T, dir string) []string {
	t.Helper()
	en := knowledgetest.LargeEnglish(120 << 10)
	ko, err := knowledgetest.LargeKorean(filepath.Join("testdata", "ko", "corpus.jsonl"), 120<<10)
	if err != nil {
		t.Fatal(err)
	}
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var md strings.Builder
	md.WriteString("# English report\n\n" + en[:40<<10] + "\n\n")
	md.WriteString("## 한국어 부분\n\n" + ko[:40<<10] + "\n\n")
	md.WriteString("### A very long line\n\n" + oneLine(en[40<<10:100<<10]) + "\n\n")
	md.WriteString("## 줄바꿈 없는 한국어\n\n" + oneLine(ko[40<<10:100<<10]) + "\n\n")
	md.WriteString("## 띄어쓰기 없는 한국어\n\n" + strings.Join(strings.Fields(ko[100<<10:110<<10]), "") + "\n\n")
	md.WriteString("### 분해된 한글 (NFD)\n\n" + norm.NFD.String(ko[110<<10:]) + "\nＷａｙｆｉｎｄｅｒ reads the ﬁle, １２３.\n\n# 끝\n")
	flat := oneLine(en[100<<10:] + " " + ko[:60<<10] + " " + en[:40<<10])
	files := map[string]string{"varied.md": md.String(), "flat.txt": flat}
	var paths []string
	for _, name := range []string{"varied.md", "flat.txt"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.ToValidUTF8(files[name], "")), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestLargeTextAsBefore imports varied English and Korean text and
// compares what the library made of it with testdata/largetext.golden,
// written by the code before the import was made faster (and by every
// change since that keeps the chunks and the index): each chunk's place,
// heading, length and a hash of its text, a hash of the keyword index
// built from them (its snapshot, with ids that do not change between
// runs), and the hits and scores of searches. A change that moves a chunk
// boundary, changes a term or a score fails here; one meant to rewrites
// the file with -update, and the diff shows what changed.
func TestLargeTextAsBefore(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{})
	paths := largeTextFiles(t, t.TempDir())
	rep, err := b.Import(context.Background(), paths, nil)
	if err != nil || len(rep.Failed) > 0 || len(rep.Imported) != len(paths) {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	var out strings.Builder
	name := map[string]string{} // chunk id → file:seq
	ix := keyword.New(keyword.DefaultAnalyzer(), keyword.DefaultParams())
	for _, p := range paths {
		var chunks []Chunk
		err := b.db.Raw("SELECT c.* FROM kb_chunks c JOIN kb_documents d ON d.id = c.doc_id WHERE d.source = ? ORDER BY c.seq", p).Scan(&chunks).Error
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(p)
		all := sha256.New()
		fmt.Fprintf(&out, "%s: %d chunks\n", base, len(chunks))
		for _, c := range chunks {
			name[c.ID] = fmt.Sprintf("%s:%d", base, c.Seq)
			ix.Add(name[c.ID], indexText(c))
			fmt.Fprintf(all, "%d\x00%d\x00%s\x00%s\x00", c.Seq, c.Page, c.Heading, c.Text)
			fmt.Fprintf(&out, "  %d page %d heading %q %d bytes %x\n", c.Seq, c.Page, c.Heading, len(c.Text), sha256.Sum256([]byte(c.Text)))
		}
		fmt.Fprintf(&out, "  all %x\n", all.Sum(nil))
	}
	snap := filepath.Join(t.TempDir(), "index.snap")
	if err := ix.Save(snap, "largetext"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&out, "keyword index: %d chunks, snapshot %d bytes %x\n", ix.Len(), len(data), sha256.Sum256(data))
	for _, q := range largeTextQueries {
		hits, err := b.Search(context.Background(), q, SearchOptions{TopK: 5, PerDoc: -1, Floor: -1})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "search %q:", q)
		for _, h := range hits {
			fmt.Fprintf(&out, " %s %.9f", name[h.ChunkID], h.Score)
		}
		out.WriteString("\n")
	}
	golden := filepath.Join("testdata", "largetext.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("the chunks, index or hits differ from %s (-update rewrites it), first at line %d:\n got %s\nwant %s", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("the chunks, index or hits differ from %s (-update rewrites it): %d lines, want %d", golden, len(gl), len(wl))
	}
}
