package keyword

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSkeletonsMatch: a loan word's Hangul spelling and its English word
// (as the index stores it, Porter-stemmed) share a skeleton; words that
// only look alike do not.
func TestSkeletonsMatch(t *testing.T) {
	tests := []struct {
		hangul, latin string
		same          bool
	}{
		{"칼크", "calc", true},
		{"임프레스", "impress", true},
		{"시프트", "shift", true},
		{"태스크", "task", true},
		{"인덱스", "index", true},
		{"데비안", "debian", true},
		{"리눅스", "linux", true},
		{"테스트", "test", true},
		{"라이터", "writer", true}, // r before a consonant or at the end is silent
		{"인터넷", "internet", true},
		{"스트링", "string", true}, // ㅇ and -ng
		{"갤러리", porterStem("gallery"), true},
		{"매쓰", "math", true},
		{"칼크", "impress", false},
		{"데비안", "debug", false},
		{"시프트", "script", false},
	}
	for _, tt := range tests {
		got := slices.Contains(latinKeys(tt.latin), hangulKey(tt.hangul))
		if got != tt.same {
			t.Errorf("%s (%s) and %s (%v): same skeleton %v, want %v", tt.hangul, hangulKey(tt.hangul), tt.latin, latinKeys(tt.latin), got, tt.same)
		}
	}
}

func TestLoanCandidates(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"칼크에서", []string{"칼크에서", "칼크에"}}, // 칼크에 and 칼크 share K-L-K
		{"태스크라는", []string{"태스크라는", "태스크라", "태스크"}},
		{"임프레스", []string{"임프레스", "임프레"}},
		{"크", nil},    // one syllable
		{"문서를", nil},  // no syllable a loan word needs
		{"고르게", nil},  // 르 is native
		{"Calc", nil}, // not Hangul
		{"스위치", nil},  // S-S is S alone, too short
	}
	for _, tt := range tests {
		var got []string
		for _, c := range loanCandidates(tt.word) {
			got = append(got, c.word)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("loanCandidates(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestLoanWordSearch: a question that names a product in Hangul finds the
// text that names it in Latin letters, and only loan words are looked up.
func TestLoanWordSearch(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("calc", "LibreOffice Calc에서 셀 서식을 바꿉니다.")
	ix.Add("writer", "LibreOffice Writer에서 문단 서식을 바꿉니다.")
	ix.Add("impress", "Impress 프레젠테이션을 HTML로 내보냅니다.")
	ix.Add("month", "The MONTH function returns the month of a date.")
	ix.Add("doc1", "문서를 저장합니다.")
	ix.Add("doc2", "문서를 인쇄합니다.")
	ix.Add("linux1", "리눅스 커널과 Linux 배포판")
	ix.Add("linux2", "리눅스 설치")

	tests := []struct {
		query, want string
		absent      string
	}{
		{"칼크에서 서식 바꾸기", "calc", ""},
		{"임프레스 발표 자료 내보내기", "impress", ""},
		// 문서 has the skeleton of "month" but is no loan word.
		{"문서", "doc1", "month"},
	}
	for _, tt := range tests {
		hits := ix.Search(tt.query, 3, nil)
		if len(hits) == 0 || hits[0].ID != tt.want {
			t.Errorf("%q: %v, want %s first", tt.query, hits, tt.want)
		}
		if tt.absent != "" && slices.Contains(ids(hits), tt.absent) {
			t.Errorf("%q found %s: %v", tt.query, tt.absent, hits)
		}
	}
	// 리눅스 is written in Hangul more often than "linux": the Hangul
	// bigrams do the work and the Latin word is not added.
	for _, qt := range ix.analyzer.appendTerms(nil, "리눅스") {
		if got := ix.forms(qt); qt.loan != nil && got != nil {
			t.Errorf("리눅스 looked up as %v, want nothing", got)
		}
	}
	// The loan word's Latin form counts in the query's weight (the
	// relevance floor's scale) as in its score.
	if w, plain := ix.QueryWeight("칼크"), ix.QueryWeight("calc"); w < plain {
		t.Errorf("QueryWeight(칼크) = %.3f, want at least calc's %.3f", w, plain)
	}
	// Documents are indexed without skeletons.
	for _, term := range ix.analyzer.Tokens("칼크에서") {
		if term == "" || strings.ContainsAny(term, "KLS") {
			t.Errorf("document term %q", term)
		}
	}
	// A new Latin word is found by the next search.
	ix.Add("shift", "Shift 키를 누른 채 그립니다.")
	if hits := ix.Search("시프트", 1, nil); len(hits) == 0 || hits[0].ID != "shift" {
		t.Errorf("시프트 after adding: %v", hits)
	}
}

func FuzzLoanKeys(f *testing.F) {
	for _, s := range []string{"칼크에서", "calc", "thx", "ngng", "스", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range append(latinKeys(s), hangulKey(s)) {
			if strings.Trim(k, "KTPSLMN") != "" {
				t.Fatalf("key %q of %q holds other letters", k, s)
			}
		}
		for _, c := range loanCandidates(s) {
			if !strings.HasPrefix(s, c.word) || len(c.key) < minLoanKey {
				t.Fatalf("candidate %+v of %q", c, s)
			}
		}
	})
}

// BenchmarkLoanTable is what the first search with a Hangul loan word pays
// after the index changed: the skeletons of 100k distinct Latin words.
func BenchmarkLoanTable(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	ix := New(DefaultAnalyzer(), DefaultParams())
	for range 100_000 {
		w := make([]byte, 4+rng.IntN(8))
		for j := range w {
			w[j] = byte('a' + rng.IntN(26))
		}
		ix.Add(string(w), string(w))
	}
	for b.Loop() {
		ix.loan.built = false
		ix.Search("칼크에서", 10, nil)
	}
}

// BenchmarkLongHangulQuery is a 2 MB paste of Hangul without spaces as a
// query: its cost must grow with its length, not with its square.
func BenchmarkLongHangulQuery(b *testing.B) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("calc", "LibreOffice Calc 시트")
	q := strings.Repeat("칼크스프레드시트", 2<<20/24)
	for b.Loop() {
		ix.Search(q, 10, nil)
	}
}
