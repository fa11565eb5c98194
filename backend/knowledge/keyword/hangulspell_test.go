package keyword

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHangulSpellings: a Latin word in a query finds the Hangul spelling a
// Korean text writes it with, from the index's bigrams alone; a word that
// only shares consonants or is spelled otherwise is not taken for it.
func TestHangulSpellings(t *testing.T) {
	tests := []struct {
		latin string
		text  string // the document's words
		want  string // the spelling found, or "" for none
	}{
		{"INDEX", "열 인덱스를 나타냅니다", "인덱스"},
		{"browser", "웹 브라우저에서 엽니다", "브라우저"},
		{"macro", "매크로를 기록합니다", "매크로"},
		{"macros", "매크로를 기록합니다", "매크로"}, // the stem's key
		{"font", "폰트 크기", "폰트"},
		{"fonts", "폰트 크기", "폰트"},
		{"license", "라이선스 조건", "라이선스"}, // a glide: 라이
		{"debian", "데비안 패키지", "데비안"},
		{"change", "체인지 로그", "체인지"},      // a glide with a last consonant: 인
		{"button", "버튼을 누릅니다", "버튼"},     // ㅡ for a vowel English says
		{"manage", "매니지드 서비스", ""},       // ㅣ does not write a (manage's second vowel)
		{"server", "서버를 시작합니다", ""},      // two consonants: left to minLoanKey
		{"gallery", "갤러리에서 고릅니다", "갤러리"}, // ㄹ at both edges
		{"string", "스트링 함수", "스트링"},      // -ng as a last ㅇ
		{"emacs", "이맥스 편집기", "이맥스"},
		{"excel", "엑셀 파일", "엑셀"},
		{"task", "디스크 공간", ""},   // disk: ㅣ does not write a
		{"soft", "시프트 키", ""},    // shift: ㅣ does not write o
		{"calc", "깔고 싶은", ""},    // a native verb
		{"month", "문서를 엽니다", ""}, // a vowel where month has none
	}
	for _, tt := range tests {
		ix := New(DefaultAnalyzer(), DefaultParams())
		ix.Add("doc", tt.text)
		var got []string
		for _, qt := range ix.analyzer.appendTerms(nil, tt.latin) {
			for _, s := range ix.hangulForms(qt, nil) {
				got = append(got, s.word)
			}
		}
		if tt.want == "" && got != nil || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("%s in %q: spellings %q, want %q", tt.latin, tt.text, got, tt.want)
		}
	}
}

// TestHangulSpellingSearch: a question with a Latin word finds the passage
// that writes it in Hangul, counted once, and a name the text writes in
// Latin letters more often than in Hangul keeps its Latin matches only.
func TestHangulSpellingSearch(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("index", "열은 참조 범위의 열 인덱스를 나타냅니다.")
	ix.Add("column", "열 너비를 입력합니다.")
	ix.Add("macro", "매크로를 기록하고 실행합니다.")
	ix.Add("record", "변경 내용을 기록합니다.")
	for _, tt := range []struct{ query, want string }{
		{"INDEX 열", "index"},
		{"macro 실행", "macro"},
	} {
		if hits := ix.Search(tt.query, 1, nil); len(hits) == 0 || hits[0].ID != tt.want {
			t.Errorf("%q: %v, want %s first", tt.query, hits, tt.want)
		}
	}
	// The spelling counts once, as the better of the two forms: a passage
	// holding both the Latin word and its spelling scores as one holding
	// either.
	both := New(DefaultAnalyzer(), DefaultParams())
	both.Add("a", "index 인덱스")
	both.Add("b", "index 인덱스")
	both.Add("c", "다른 글")
	plain := New(DefaultAnalyzer(), DefaultParams())
	plain.Add("a", "index 인덱스")
	plain.Add("b", "index 인덱스")
	plain.Add("c", "다른 글")
	plain.hangul = 0 // no Hangul spellings looked for
	got, want := both.Search("index", 1, nil), plain.Search("index", 1, nil)
	if len(got) == 0 || len(want) == 0 || got[0].Score != want[0].Score {
		t.Errorf("index with its spelling: %v, without: %v, want the same score", got, want)
	}
	// The relevance floor's scale counts the spelling as the score does.
	if w := ix.QueryWeight("INDEX"); w == 0 {
		t.Errorf("QueryWeight(INDEX) = 0, want the spelling's idf")
	}
	// "linux" written in Latin letters more often than 리눅스: not spelled.
	lx := New(DefaultAnalyzer(), DefaultParams())
	lx.Add("1", "Linux kernel")
	lx.Add("2", "Linux 배포판")
	lx.Add("3", "리눅스 설치")
	for _, qt := range lx.analyzer.appendTerms(nil, "linux") {
		if got := lx.hangulForms(qt, nil); got != nil {
			t.Errorf("linux: spellings %v, want none (the text writes linux more often)", got)
		}
	}
	// A spelling the question writes itself is not counted again.
	for q, want := range map[string]bool{"INDEX 열": true, "인덱스(INDEX) 열": false} {
		terms := ix.analyzer.queryTerms(q)
		found := false
		for _, qt := range terms {
			found = found || ix.hangulForms(qt, terms) != nil
		}
		if found != want {
			t.Errorf("%q: spelling looked for %v, want %v", q, found, want)
		}
	}
	// Documents are indexed as written: no spelling becomes a term.
	if terms := ix.analyzer.Tokens("INDEX"); !slices.Equal(terms, []string{"index"}) {
		t.Errorf("Tokens(INDEX) = %q", terms)
	}
	// An index loaded from its snapshot finds the spellings too (it counts
	// its Hangul terms as it loads them).
	path := filepath.Join(t.TempDir(), "kw.snap")
	if err := ix.Save(path, "s"); err != nil {
		t.Fatal(err)
	}
	loaded, _, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if hits := loaded.Search("INDEX", 1, nil); len(hits) == 0 || hits[0].ID != "index" {
		t.Errorf("INDEX after loading the snapshot: %v, want index first", hits)
	}
	// An index without Hangul is not searched for spellings.
	en := New(DefaultAnalyzer(), DefaultParams())
	en.Add("1", "the index of a book")
	if en.hangul != 0 {
		t.Errorf("an English index counts %d Hangul terms", en.hangul)
	}
	// Hangul terms are counted as documents bring them, and leave the
	// count when the index compacts their removed documents away.
	const n = 1025 // removing this many compacts the index
	for i := range n {
		en.Add("h"+strconv.Itoa(i), "인덱스")
	}
	if en.hangul != 2 { // 인덱, 덱스
		t.Errorf("%d Hangul terms counted, want 2", en.hangul)
	}
	for i := range n {
		en.Remove("h" + strconv.Itoa(i))
	}
	if en.hangul != 0 || en.deleted != 0 {
		t.Errorf("after removing and compacting: %d Hangul terms counted (%d deleted documents), want 0", en.hangul, en.deleted)
	}
}

// TestRareSpellingWeighsNoMore: every Hangul spelling of a Latin word
// weighs as its most written one does, so that a rare wrong spelling
// (배정 for version, two passages beside 버전's many) does not outrank
// the passages that write the word as people do.
func TestRareSpellingWeighsNoMore(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	for i := range 8 {
		ix.Add("v"+strconv.Itoa(i), "버전 정보를 봅니다")
	}
	ix.Add("wrong", "배정 정보를 봅니다")
	for i := range 30 {
		ix.Add("o"+strconv.Itoa(i), "다른 문서 "+strconv.Itoa(i))
	}
	var words []string
	for _, qt := range ix.analyzer.queryTerms("version") {
		for _, s := range ix.hangulForms(qt, nil) {
			words = append(words, s.word)
		}
	}
	if !slices.Contains(words, "배정") || !slices.Contains(words, "버전") {
		t.Fatalf("spellings of version: %q, want 배정 and 버전 (the case this test is about)", words)
	}
	hits := ix.Search("version", 10, nil)
	score := map[string]float64{}
	for _, h := range hits {
		score[h.ID] = h.Score
	}
	if score["wrong"] > score["v0"] || score["v0"] == 0 {
		t.Errorf("version: 배정's passage scores %v, 버전's %v; want 배정's no higher", score["wrong"], score["v0"])
	}
}

// BenchmarkHangulSpellings is what looking for Hangul spellings costs a
// query's Latin word (b.N counts words): every Latin word of the Korean
// question set's 547 questions, against its 4,044 paragraphs.
func BenchmarkHangulSpellings(b *testing.B) {
	ix := koreanSet(b)
	type word struct {
		t     queryTerm
		terms []queryTerm
	}
	var words []word
	readJSONL(b, "../testdata/ko/queries.jsonl", func(line []byte) {
		var q struct{ Text string }
		if err := json.Unmarshal(line, &q); err != nil {
			b.Fatal(err)
		}
		terms := ix.analyzer.queryTerms(q.Text)
		for _, t := range terms {
			if t.sounds != "" {
				words = append(words, word{t, terms})
			}
		}
	})
	i := 0
	for b.Loop() {
		w := words[i%len(words)]
		ix.hangulForms(w.t, w.terms)
		i++
	}
}

// FuzzHangulSpellings: any Latin word is looked up without a panic, and
// every spelling found sounds like it.
func FuzzHangulSpellings(f *testing.F) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("1", "인덱스 브라우저 매크로 폰트 라이선스 데비안 갤러리 페이지 체인지 스트링 이맥스 엑셀 테이블에서")
	for _, s := range []string{"index", "browser", "macros", "freeze", strings.Repeat("ab", 32), "thx", "ngng", "y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, qt := range ix.analyzer.queryTerms(s) {
			for _, sp := range ix.hangulForms(qt, nil) {
				if !soundAlike(sp.word, qt.sounds) && !soundAlike(sp.word, qt.term) {
					t.Fatalf("%q spelled %q", s, sp.word)
				}
			}
		}
	})
}
