package keyword

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func koreanIndex() *Index {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("leave", "휴가 정책: 휴가를 신청하려면 문서를 제출해야 합니다.")
	ix.Add("doc", "문서 작성 요령과 보고서 양식")
	ix.Add("font", "한글 글꼴 설정 방법")
	ix.Add("en", "Submitting documents for leave requests")
	ix.Add("ai", "AI를 활용한 영상 편집 도구")
	return ix
}

func TestSearchKoreanAndEnglish(t *testing.T) {
	ix := koreanIndex()
	tests := []struct {
		query string
		want  []string // ids that must be returned, in this order, first
	}{
		{"문서", []string{"doc", "leave"}},  // bare noun finds the form with a particle
		{"문서를", []string{"leave", "doc"}}, // exact form ranks first, bare noun still found
		{"휴가 신청", []string{"leave"}},      //
		{"글꼴", []string{"font"}},          // two-syllable word (trigram tokenizers miss it)
		{"한글", []string{"font"}},          //
		{"document", []string{"en"}},      // stemming: documents → document
		{"LEAVE request", []string{"en"}}, // case and plural
		{"ai 영상", []string{"ai"}},         //
		{"없는단어", nil},                     // nothing shares a bigram
		{"", nil},                         //
		{"!!!", nil},                      //
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := ids(ix.Search(tt.query, 10, nil))
			if len(got) < len(tt.want) {
				t.Fatalf("Search(%q) = %v, want at least %v", tt.query, got, tt.want)
			}
			if len(tt.want) == 0 && len(got) != 0 {
				t.Fatalf("Search(%q) = %v, want nothing", tt.query, got)
			}
			if diff := cmp.Diff(tt.want, got[:len(tt.want)], cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Search(%q) = %v (-want +got):\n%s", tt.query, got, diff)
			}
		})
	}
}

func TestSearchFilterAndLimit(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	for i := range 20 {
		ix.Add(fmt.Sprintf("a/%02d", i), strings.Repeat("apple ", i+1)+"pie")
		ix.Add(fmt.Sprintf("b/%02d", i), "apple tart")
	}
	got := ix.Search("apple", 5, func(id string) bool { return strings.HasPrefix(id, "b/") })
	if len(got) != 5 {
		t.Fatalf("got %d hits, want 5", len(got))
	}
	for _, h := range got {
		if !strings.HasPrefix(h.ID, "b/") {
			t.Errorf("filtered search returned %s", h.ID)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].Score < got[i].Score {
			t.Errorf("hits not sorted: %v", got)
		}
	}
	if got := ix.Search("apple", 0, nil); got != nil {
		t.Errorf("k=0 gave %v", got)
	}
}

func TestReplaceAndRemove(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("c1", "old text about bananas")
	ix.Add("c2", "cherries")
	ix.Add("c1", "new text about mangoes")
	if got := ids(ix.Search("bananas", 10, nil)); len(got) != 0 {
		t.Errorf("replaced text still found: %v", got)
	}
	if got := ids(ix.Search("mangoes", 10, nil)); !cmp.Equal(got, []string{"c1"}) {
		t.Errorf("new text: %v", got)
	}
	ix.Remove("c1")
	ix.Remove("never-added")
	if ix.Len() != 1 || len(ix.Search("mangoes", 10, nil)) != 0 {
		t.Errorf("after remove: len %d", ix.Len())
	}
}

func TestCompactionKeepsResults(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	for i := range 3000 {
		ix.Add(fmt.Sprintf("d%04d", i), fmt.Sprintf("word%d common text %d", i%50, i))
	}
	want := ix.Search("word7 common", 20, func(id string) bool { return id >= "d2000" })
	for i := range 2000 {
		ix.Remove(fmt.Sprintf("d%04d", i))
	}
	ix.mu.RLock()
	compacted := len(ix.docs) < 3000
	ix.mu.RUnlock()
	if !compacted {
		t.Fatal("expected compaction after removing two thirds")
	}
	got := ix.Search("word7 common", 20, nil)
	if len(got) != len(want) {
		t.Fatalf("got %d hits after compaction, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID {
			t.Errorf("hit %d = %s, want %s", i, got[i].ID, want[i].ID)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	ix := koreanIndex()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				ix.Add(fmt.Sprintf("g%d-%d", g, i%10), "문서를 동시에 추가합니다")
				ix.Search("문서", 5, nil)
			}
		}()
	}
	wg.Wait()
	if ix.Len() != 5+40 {
		t.Errorf("Len = %d, want 45", ix.Len())
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	ix := koreanIndex()
	ix.Remove("font")
	path := filepath.Join(t.TempDir(), "kw", "index.bin")
	if err := ix.Save(path, "gen-42"); err != nil {
		t.Fatal(err)
	}
	got, stamp, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if stamp != "gen-42" || got.Len() != ix.Len() || got.Analyzer() != ix.Analyzer() {
		t.Fatalf("stamp %q len %d analyzer %+v", stamp, got.Len(), got.Analyzer())
	}
	for _, q := range []string{"문서", "문서를", "document", "글꼴", "ai 영상"} {
		if diff := cmp.Diff(ix.Search(q, 10, nil), got.Search(q, 10, nil)); diff != "" {
			t.Errorf("query %q differs after reload:\n%s", q, diff)
		}
	}
	got.Add("new", "새 문서")
	if len(got.Search("새", 1, nil)) != 1 {
		t.Error("reloaded index does not accept additions")
	}
}

func TestLoadRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.bin")
	if err := koreanIndex().Save(path, "s"); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x55
	for name, data := range map[string][]byte{
		"flipped byte": flipped,
		"truncated":    good[:len(good)-9],
		"empty":        {},
		"other file":   []byte("%PDF-1.4 not an index"),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, err := Load(p); !errors.Is(err, ErrBadSnapshot) {
				t.Errorf("Load = %v, want ErrBadSnapshot", err)
			}
		})
	}
	if _, _, err := Load(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed.bin")
	if err := koreanIndex().Save(path, "seed"); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, _, err := decode(data)
		if err == nil {
			ix.Search("문서 document", 5, nil) // a decoded index must be usable
		}
	})
}

// synthetic indexes n chunks of 60 words of the shared test corpus.
func synthetic(n int) (*Index, []string) {
	texts, queries := knowledgetest.Corpus(n, 60, 200)
	ix := New(DefaultAnalyzer(), DefaultParams())
	for i, text := range texts {
		ix.Add(fmt.Sprintf("chunk-%d", i), text)
	}
	return ix, queries
}

func benchmarkSearch(b *testing.B, n int) {
	ix, queries := synthetic(n)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		ix.Search(queries[i%len(queries)], 10, nil)
		i++
	}
}

func BenchmarkSearch10k(b *testing.B)  { benchmarkSearch(b, 10_000) }
func BenchmarkSearch100k(b *testing.B) { benchmarkSearch(b, 100_000) }

func BenchmarkLoad50k(b *testing.B) {
	ix, _ := synthetic(50_000)
	path := filepath.Join(b.TempDir(), "index.bin")
	if err := ix.Save(path, ""); err != nil {
		b.Fatal(err)
	}
	if st, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
	}
	ix = nil
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var loaded *Index
	for b.Loop() {
		var err error
		if loaded, _, err = Load(path); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-heap")
	runtime.KeepAlive(loaded)
}

// Scores after deletions (before any compaction) are those of an index
// that never held the deleted documents: deleted postings do not count in
// a term's document frequency.
func TestDeletedDocumentsDoNotCountInScores(t *testing.T) {
	live := New(DefaultAnalyzer(), DefaultParams())
	churned := New(DefaultAnalyzer(), DefaultParams())
	for i := range 40 {
		text := fmt.Sprintf("휴가 정책 문서 %d", i)
		if i%4 == 0 {
			text += " 연차"
		}
		churned.Add(fmt.Sprintf("gone%d", i), "연차 연차 휴가 신청 "+text) // removed below
		churned.Add(fmt.Sprintf("d%d", i), text)
		live.Add(fmt.Sprintf("d%d", i), text)
	}
	for i := range 40 {
		churned.Remove(fmt.Sprintf("gone%d", i))
	}
	want := live.Search("연차 휴가", 10, nil)
	got := churned.Search("연차 휴가", 10, nil)
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("scores after deletions differ from a clean index (-clean +churned):\n%s", diff)
	}
}

// A one-syllable word is found with or without its particle: "책" finds
// "책을", and "책을" finds "책".
func TestOneSyllableKoreanWords(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("read", "어제 그 책을 다 읽었다")
	ix.Add("shelf", "책 세 권이 있다")
	ix.Add("other", "영화를 봤다")
	for _, q := range []string{"책", "책을", "책은"} {
		got := ids(ix.Search(q, 10, nil))
		slices.Sort(got)
		if !cmp.Equal(got, []string{"read", "shelf"}) {
			t.Errorf("Search(%q) = %v, want read and shelf", q, got)
		}
	}
}

// The stem of a one-syllable word does not count on top of its exact form:
// "책을" scores a document holding "책을" as a term of the same rarity
// ("읽었") does, not more. Counted twice, every verb form that ends like a
// particle (좋은, 넣을, 하는) weighed double and a plain bigram BM25 ranked
// better.
func TestStemCountsOnce(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("read", "책을 읽었다")
	ix.Add("shelf", "책 세 권")
	stem, exact := ix.Search("책을", 1, nil), ix.Search("읽었", 1, nil)
	if len(stem) != 1 || len(exact) != 1 || stem[0].ID != "read" {
		t.Fatalf("Search(책을) = %v, Search(읽었) = %v", stem, exact)
	}
	if math.Abs(stem[0].Score-exact[0].Score) > 1e-9 {
		t.Errorf("score of 책을 %v, of 읽었 %v: want equal (the stem 책 must not add to the exact form)", stem[0].Score, exact[0].Score)
	}
	if w, w1 := ix.QueryWeight("책을"), ix.QueryWeight("읽었"); math.Abs(w-w1) > 1e-9 {
		t.Errorf("QueryWeight(책을) %v, QueryWeight(읽었) %v: want equal", w, w1)
	}
}

// Other spellings of a loan word find each other (spelling.go).
func TestLoanWordSpellings(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("dir", "홈 디렉터리에 설정 파일이 있습니다")
	ix.Add("msg", "오류 메시지를 확인하세요")
	ix.Add("other", "창을 닫습니다")
	for q, want := range map[string]string{"디렉토리": "dir", "홈디렉토리는": "dir", "메세지가": "msg", "메시지": "msg"} {
		if got := ids(ix.Search(q, 1, nil)); !cmp.Equal(got, []string{want}) {
			t.Errorf("Search(%q) = %v, want %s", q, got, want)
		}
	}
}
