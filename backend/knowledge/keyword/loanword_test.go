package keyword

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSkeletonsMatch: a loan word's Hangul spelling and its English word
// (as the index stores it, Porter-stemmed) share a key whose vowels the
// Hangul can write; native words and words that only share consonants do
// not.
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
		{"베이직", "basic", true},                   // no ㅡ: found by its vowels' places
		{"이맥스", porterStem("emacs"), true},       // the stemmer's cut s
		{"엑셀", "excel", true},                    // x is k-s
		{"그놈", "gnome", true},                    // a written ㅡ that English has not
		{"버튼", "button", true},                   // a written ㅡ that English has
		{"매크로", porterStem("macro"), true},       // a final vowel
		{"이미지", porterStem("image"), false},      // i-ma-ge: 이미지 writes a's sound, not its letter
		{"포맷", "format", true},                   // r before a consonant
		{"서버", porterStem("server"), true},       // ㅓ is any reduced vowel
		{"페이지", porterStem("page"), true},        // 지 for a final ge
		{"데이터베이스", porterStem("database"), true}, // a diphthong, a silent e
		{"칼크", "impress", false},
		{"데비안", "debug", false},
		{"시프트", "script", false},
		{"시프트", "soft", false}, // ㅣ does not write o
		{"태스크", "disk", false}, // ㅐ does not write i
		{"깔고", "calc", false},  // a native verb: its ㄲ, and the vowel after the last k
		{"뭔가요", porterStem("manage"), false},
		{"욕설", "excel", false},  // ㅛ does not write e
		{"깔았는데", "calc", false}, // ㅆ ends no loan word's syllable
		{"문서", "month", false},  // a vowel where month has none
		{"매쓰", "mass", true},    // two consonants: left to minLoanKey
	}
	for _, tt := range tests {
		got := soundAlike(tt.hangul, tt.latin)
		if got != tt.same {
			t.Errorf("%s (%v) and %s (%v): same key %v, want %v", tt.hangul, hangulKeys(tt.hangul), tt.latin, latinKeys(tt.latin), got, tt.same)
		}
	}
}

func TestLoanCandidates(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"칼크에서", []string{"칼크에서", "칼크에", "칼크"}},
		{"태스크라는", []string{"태스크라", "태스크"}}, // no English word ends in 는
		{"베이직을", []string{"베이직"}},
		{"임프레스", []string{"임프레스", "임프레"}},
		{"크", nil},    // one syllable
		{"깔았는데", nil}, // ㅆ: a native word
		{"넣든", nil},   // ㅎ
		{"빠졌으면", nil}, // ㅃ
		{"Calc", nil}, // not Hangul
		{"스위치", nil},  // S-V-S: two consonants
	}
	// maxLoanSyllables: a word of 12 syllables is looked up, one of 13 (a
	// pasted run of Hangul) is not.
	if loanCandidates(strings.Repeat("칼크", 6)) == nil || loanCandidates(strings.Repeat("칼크", 6)+"칼") != nil {
		t.Errorf("words of 12 and 13 syllables: %d and %d beginnings looked up, want some and none",
			len(loanCandidates(strings.Repeat("칼크", 6))), len(loanCandidates(strings.Repeat("칼크", 6)+"칼")))
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
	ix.Add("basic", "LibreOffice Basic 프로젝트의 모듈")
	ix.Add("emacs", "gcc, make, Emacs 같은 개발 도구")
	ix.Add("task", "tasksel로 task 하나를 설치합니다.")
	ix.Add("disk", "disk 공간이 모자랍니다.")

	tests := []struct {
		query, want string
		absent      string
	}{
		{"칼크에서 서식 바꾸기", "calc", ""},
		{"임프레스 발표 자료 내보내기", "impress", ""},
		{"베이직 모듈", "basic", ""},
		{"이맥스 편집기", "emacs", ""},
		// disk has 태스크's consonants, not its vowel.
		{"태스크", "task", "disk"},
		// 깔고 is a native verb (to install), not Calc.
		{"깔고 싶은 프로젝트", "basic", "calc"},
		// 문서 has the consonants of "month" but is no loan word.
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
	// A Hangul spelling as common in the index as the Latin one (태스크 once,
	// task once) still finds the Latin one.
	ix.Add("taskbar", "작업 표시줄(태스크 바)")
	if hits := ix.Search("태스크", 5, nil); !slices.Contains(ids(hits), "task") {
		t.Errorf("태스크 with 태스크 and task once each: %v, want task too", hits)
	}
	ix.Remove("taskbar")
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
	// Documents are indexed without keys of sounds.
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
	// 64 x's are 128 sounds: the longest word that has keys (it overran
	// the sounds' buffer once, a panic on the first Hangul search of an
	// index that held it).
	for _, s := range []string{"칼크에서", "calc", "thx", "ngng", "스", "", strings.Repeat("x", maxLatinLetters), "베이직을"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var keys []string
		for _, k := range latinKeys(s) {
			keys = append(keys, k.key)
		}
		for _, k := range hangulKeys(s) {
			keys = append(keys, k.key)
		}
		for _, k := range keys {
			if strings.Trim(k, "KTPSLMNV") != "" {
				t.Fatalf("key %q of %q holds other letters", k, s)
			}
		}
		for _, c := range loanCandidates(s) {
			if !strings.HasPrefix(s, c.word) || len(c.keys) == 0 || consonants(c.keys[0].key) < minLoanKey {
				t.Fatalf("candidate %+v of %q", c, s)
			}
		}
	})
}

// BenchmarkLoanTable is what the first search with a Hangul loan word pays
// after the index changed: the keys of 100k distinct Latin words.
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

// soundAlike says whether a Hangul word and a Latin one share a key whose
// vowels the Hangul word can write.
func soundAlike(hangul, latin string) bool {
	for _, h := range hangulKeys(hangul) {
		for _, l := range latinKeys(latin) {
			if h.key == l.key && h.writes(l.vowels) {
				return true
			}
		}
	}
	return false
}
