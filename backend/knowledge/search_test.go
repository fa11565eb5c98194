package knowledge

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// openSmallChunks opens a Base whose chunks are at most size runes, so a
// paragraph of a test file becomes several overlapping chunks.
func openSmallChunks(t testing.TB, size int) *Base {
	t.Helper()
	dir := t.TempDir()
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeDB(t, db) })
	b, err := Open(context.Background(), db, filepath.Join(dir, "knowledge"), Options{Chunk: chunk.Options{Size: size}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeIn writes text to name in dir and returns its path.
func writeIn(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		writeIn(t, dir, name, text)
	}
	return dir
}

// TestSearchScope: a question about the person's documents never returns
// the built-in catalog, by keywords or by vectors; the catalog is searched
// only when asked for.
func TestSearchScope(t *testing.T) {
	ctx := context.Background()
	b := openSmallChunks(t, 0)
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SyncCatalog(ctx, b, c, nil); err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"notes.txt": "우리 카페 홍보 영상에는 자막을 꼭 넣기로 했다. 영상 편집은 금요일까지."})
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	// The catalog has tools for exactly this (Vrew: 자막 자동 생성 영상 편집).
	const q = "영상 자막 편집"
	kinds := func(hits []Hit) (docs, cat int) {
		for _, h := range hits {
			if h.Kind == KindCatalog {
				cat++
			} else {
				docs++
			}
		}
		return docs, cat
	}
	catalogHit, err := b.Search(ctx, q, SearchOptions{TopK: 5, Scope: ScopeCatalog})
	if err != nil {
		t.Fatal(err)
	}
	if d, c := kinds(catalogHit); d != 0 || c == 0 {
		t.Fatalf("catalog scope: %d documents, %d catalog entries; want catalog entries only", d, c)
	}
	vectorSides := map[string]VectorSearcher{
		"keywords only": nil,
		// The vector half ranks a catalog entry first: the scope must hold there too.
		"hybrid": fakeVectors{ranked: []Ranked{{ID: catalogHit[0].ChunkID, Score: 0.9}}},
	}
	for name, v := range vectorSides {
		b.opts.Vectors = v
		for _, scope := range []Scope{"", ScopeDocuments} {
			hits, err := b.Search(ctx, q, SearchOptions{TopK: 5, Scope: scope})
			if err != nil {
				t.Fatal(err)
			}
			if d, c := kinds(hits); d != 1 || c != 0 {
				t.Errorf("%s, scope %q: %d documents, %d catalog entries; want the note alone", name, scope, d, c)
			}
		}
		all, err := b.Search(ctx, q, SearchOptions{TopK: 10, Scope: ScopeAll})
		if err != nil {
			t.Fatal(err)
		}
		if d, c := kinds(all); d != 1 || c == 0 {
			t.Errorf("%s, scope all: %d documents, %d catalog entries; want both", name, d, c)
		}
	}
	if _, err := b.Search(ctx, q, SearchOptions{Scope: "web"}); err == nil {
		t.Error("unknown scope accepted")
	}
}

// TestOneBestChunkPerDocument: two chunks of one paragraph do not fill two
// of the top places unless the caller asks for that.
func TestOneBestChunkPerDocument(t *testing.T) {
	ctx := context.Background()
	b := openSmallChunks(t, 120)
	long := strings.Repeat("연차 휴가 신청은 팀장 승인 후 인사팀에 제출한다. ", 12)
	dir := writeFiles(t, map[string]string{
		"policy.txt": long,
		"memo.txt":   "휴가 일정은 공유 달력에 적어 둔다.",
	})
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	all, err := b.Search(ctx, "휴가 신청 승인", SearchOptions{TopK: 5, PerDoc: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitSources(all); len(got) < 3 || got[0] != "policy.txt" || got[1] != "policy.txt" {
		t.Fatalf("without a limit: %v; want several policy chunks first (the test needs them)", got)
	}
	hits, err := b.Search(ctx, "휴가 신청 승인", SearchOptions{TopK: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitSources(hits); strings.Join(got, " ") != "policy.txt memo.txt" {
		t.Errorf("default: %v; want the best policy chunk, then the memo", got)
	}
	if hits[0].ChunkID != all[0].ChunkID {
		t.Errorf("kept chunk %s, want the best one %s", hits[0].ChunkID, all[0].ChunkID)
	}
	two, err := b.Search(ctx, "휴가 신청 승인", SearchOptions{TopK: 5, PerDoc: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitSources(two); strings.Join(got, " ") != "policy.txt policy.txt memo.txt" {
		t.Errorf("two per document: %v", got)
	}
}

// TestRelevanceFloor: a passage sharing only a minor word of the question
// is not offered as a source; one matching most of it is.
func TestRelevanceFloor(t *testing.T) {
	ctx := context.Background()
	b := openSmallChunks(t, 120)
	var filler []string
	for i := range 40 {
		// Common words: "the" and "policy" appear everywhere, like in real files.
		filler = append(filler, "the kitchen policy "+strings.Repeat("x", i%7+1)+": the office kitchen is cleaned on friday")
	}
	dir := writeFiles(t, map[string]string{
		"leave.txt":  "The parental leave policy grants sixteen weeks of paid parental leave.",
		"office.txt": strings.Join(filler, "\n\n"),
	})
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	const q = "how many weeks of paid parental leave does the policy grant"
	hits, err := b.Search(ctx, q, SearchOptions{TopK: 5, PerDoc: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitSources(hits); len(got) != 1 || got[0] != "leave.txt" {
		t.Errorf("with the floor: %v; want leave.txt alone", got)
	}
	open, err := b.Search(ctx, q, SearchOptions{TopK: 5, PerDoc: -1, Floor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 5 || filepath.Base(open[0].Source) != "leave.txt" {
		t.Errorf("without the floor: %v; want leave.txt first and four weak office chunks", hitSources(open))
	}
}

// A query longer than maxQueryRunes is searched by its beginning and its
// end, whole characters each.
func TestBoundQuery(t *testing.T) {
	half := maxQueryRunes / 2
	for _, tt := range []struct {
		name, query, want string
	}{
		{"short", "휴가 신청", "휴가 신청"},
		{"exactly the bound", strings.Repeat("가", maxQueryRunes), strings.Repeat("가", maxQueryRunes)},
		{"longer: its ends", "질문 " + strings.Repeat("나", 3*maxQueryRunes) + " 끝", "질문 " + strings.Repeat("나", half-3) + "\n" + strings.Repeat("나", half-2) + " 끝"},
		{"bytes past the bound, runes within", strings.Repeat("é", maxQueryRunes), strings.Repeat("é", maxQueryRunes)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := boundQuery(tt.query); got != tt.want {
				t.Errorf("boundQuery: %d runes, want %d", utf8.RuneCountInString(got), utf8.RuneCountInString(tt.want))
			}
		})
	}
}

// A document pasted into the message with the question after it is
// searched by its ends: the question still finds its passage.
func TestSearchAPastedDocument(t *testing.T) {
	ctx := context.Background()
	b := openSmallChunks(t, 120)
	dir := writeFiles(t, map[string]string{
		"travel.txt": "출장비 정산은 귀국 후 14일 안에 영수증과 함께 신청한다.",
		"leave.txt":  "연차 휴가는 1년에 15일이다.",
	})
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	paste := strings.Repeat("회의록의 한 줄입니다. 다음 분기 계획을 논의했다. ", 2<<20/60)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hits, err := b.Search(ctx, paste+"\n\n이 회의와 관련해 출장비 정산 기한이 언제야?", SearchOptions{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := hitSources(hits); len(got) == 0 || got[0] != "travel.txt" {
		t.Fatalf("hits %v, want travel.txt first", got)
	}
	// Allocations, not time: the whole paste as terms took hundreds of MB.
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 32 {
		t.Errorf("the search allocated %d MB; a query is searched by its ends", mb)
	}
}

// BenchmarkSearchPastedDocument is a 2 MB paste as a search: bounded by
// maxQueryRunes, its cost is that of a long question, not of the paste.
func BenchmarkSearchPastedDocument(b *testing.B) {
	ctx := context.Background()
	kb := openSmallChunks(b, 120)
	dir := writeFiles(b, map[string]string{"travel.txt": "출장비 정산은 귀국 후 14일 안에 신청한다."})
	if _, err := kb.Import(ctx, []string{dir}, nil); err != nil {
		b.Fatal(err)
	}
	q := strings.Repeat("칼크스프레드시트", 2<<20/24) + " 출장비"
	for b.Loop() {
		if _, err := kb.Search(ctx, q, SearchOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
