package keyword

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// refIndexTerms is what a document was indexed as before indexTerms left
// out the query's lookups, stemmed from a cache and skipped NFKC's tables:
// the query's terms, made by the unchanged rules, less what a document
// drops.
func refIndexTerms(a Analyzer, s string) []string {
	var out []string
	for _, t := range a.wordTerms(nil, norm.NFKC.String(s), nil) {
		if t.term == "" {
			continue
		}
		out = append(out, t.term)
		if t.alt != "" {
			out = append(out, t.alt)
		}
	}
	return out
}

// TestIndexTermsAsBefore: a document's terms are those the query's rules
// make, for English with endings, Korean with particles, loan words and
// other words for one thing (which only a query looks up), decomposed
// Hangul, full-width letters, ligatures, mixed scripts.
func TestIndexTermsAsBefore(t *testing.T) {
	cases := []string{
		"Connections relational generalization operating measurements; the reporters observed.",
		"문서를 읽습니다. 책을 집에서 읽었다. 컴퓨터 프로그램을 설치하려면 패키지를 내려받는다.",
		"리눅스 커널을 업그레이드하고 데이터베이스를 백업했다. 사진을 찍다, 촬영하다, 고치다, 수리.",
		norm.NFD.String("한국어 문서를 분해된 자모로 저장한 파일"),
		"Ｗａｙｆｉｎｄｅｒ ﬁle １２３ ①② ㈜ café naïve Ωmega 東京 ひらがな カタカナ",
		"위 임 장(갑) 도구 모음 적\n용한다 제1조(목적) 1980년 6월 16일",
		strings.Repeat("가나다라마바사", 300) + " " + strings.Repeat("x", 500),
		"",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		cases = append(cases, randomText(rng, 200))
	}
	for _, a := range []Analyzer{DefaultAnalyzer(), {}, {Stem: true, Stopwords: true}} {
		for i, s := range cases {
			if got, want := a.indexTerms(s), refIndexTerms(a, s); !slices.Equal(got, want) {
				t.Fatalf("%+v case %d %q:\n got %q\nwant %q", a, i, s, got, want)
			}
		}
	}
}

// TestStemCacheAsPorter: past the cache's bound (it is emptied and filled
// again) every word still gets its Porter stem.
func TestStemCacheAsPorter(t *testing.T) {
	a := DefaultAnalyzer()
	ends := []string{"", "s", "ing", "ed", "ational", "ness"}
	var sb strings.Builder
	for i := range maxStems + maxStems/2 {
		fmt.Fprintf(&sb, "w%sconnect%s ", strings.Repeat("a", i%7), ends[i%len(ends)])
		if i%500 == 499 { // a chunk's worth
			text := sb.String()
			if got, want := a.indexTerms(text), refIndexTerms(a, text); !slices.Equal(got, want) {
				t.Fatalf("at word %d:\n got %q\nwant %q", i, got, want)
			}
			sb.Reset()
		}
	}
	words := make([]string, 0, 3*maxStems)
	for i := range 3 * maxStems {
		words = append(words, fmt.Sprintf("z%xations", i))
	}
	d := &docAnalysis{stems: map[string]string{}}
	for _, w := range words {
		if got, want := d.stem(w), porterStem(w); got != want {
			t.Fatalf("stem(%q) = %q, want %q", w, got, want)
		}
	}
	if len(d.stems) > maxStems {
		t.Errorf("the cache holds %d words, want at most %d", len(d.stems), maxStems)
	}
}

// TestNFKCAsNorm: nfkc gives what norm.NFKC does, on text its shortcut
// takes (ASCII and syllables) and on text it does not: conjoining jamo
// after a syllable, which compose with it, compatibility characters,
// combining marks.
func TestNFKCAsNorm(t *testing.T) {
	cases := []string{
		"", "plain ASCII.", "한국어 문서", "가" + "\u11A8", "가\u11A8나", "ᄒ\u1161\u11AB", "e\u0301", "ﬁ", "Ａ", "①", "가\u0301",
		"ㄱㅏ", "\u3131\u314F", string([]byte{0xff, 'a'}), "한\xed\x9f\xbf", "힣\u11A8",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		cases = append(cases, randomText(rng, 12))
	}
	for _, s := range cases {
		if got, want := nfkc(s), norm.NFKC.String(s); got != want {
			t.Fatalf("nfkc(%+q) = %+q, want %+q", s, got, want)
		}
	}
}

// TestOneSyllableStemAsBefore: the length check before the particles are
// tried changes no answer.
func TestOneSyllableStemAsBefore(t *testing.T) {
	old := func(word string) string {
		for _, p := range particles {
			stem, ok := strings.CutSuffix(word, p)
			if ok && utf8.RuneCountInString(stem) == 1 {
				return stem
			}
		}
		return ""
	}
	words := []string{"책을", "집에서", "집에", "나는", "문서를", "가", "", "한국어를", "에서", "책은요", "x를", "ab에서"}
	rng := rand.New(rand.NewPCG(5, 6))
	syll := []rune("책집나문서가을를은는에서게으로까지부터처럼보다한테이랑하고도")
	for range 20000 {
		r := make([]rune, 1+rng.IntN(4))
		for i := range r {
			r[i] = syll[rng.IntN(len(syll))]
		}
		words = append(words, string(r))
	}
	for _, w := range words {
		if got, want := oneSyllableStem(w), old(w); got != want {
			t.Fatalf("oneSyllableStem(%q) = %q, want %q", w, got, want)
		}
	}
}

// randomText draws n characters from the kinds a document holds: ASCII
// letters, digits, spaces and punctuation, Hangul syllables, conjoining
// and compatibility jamo, CJK, Latin with diacritics, combining marks,
// full-width and ligature forms.
func randomText(rng *rand.Rand, n int) string {
	ranges := [][2]rune{
		{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {' ', ' '}, {'\n', '\n'}, {'.', '.'},
		{0xAC00, 0xD7A3}, {0xAC00, 0xAC20}, {0x1100, 0x1112}, {0x1161, 0x1175}, {0x11A8, 0x11C2},
		{0x3131, 0x318E}, {0x4E00, 0x4E40}, {0x00C0, 0x00FF}, {0x0300, 0x036F},
		{0xFF01, 0xFF5E}, {0xFB00, 0xFB06}, {0x2460, 0x2473},
	}
	var sb strings.Builder
	for range n {
		r := ranges[rng.IntN(len(ranges))]
		sb.WriteRune(r[0] + rune(rng.IntN(int(r[1]-r[0]+1))))
	}
	return sb.String()
}

// TestScriptOfAsBefore: the shortcut for ASCII gives every character the
// script the tables give it.
func TestScriptOfAsBefore(t *testing.T) {
	old := func(r rune) script {
		switch {
		case r >= 0xAC00 && r <= 0xD7A3, r >= 0x1100 && r <= 0x11FF, r >= 0x3130 && r <= 0x318F:
			return scriptHangul
		case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
			return scriptCJK
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.Is(unicode.Mn, r):
			return scriptWord
		}
		return scriptNone
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := scriptOf(r), old(r); got != want {
			t.Fatalf("scriptOf(%U) = %d, want %d", r, got, want)
		}
	}
}

// TestRespellAsReplace: respell, which looks for a key before calling the
// replacer, gives what the replacer gives: on words holding a key at
// either end or inside, two keys, keys' first syllables without the key,
// and random words of the keys' syllables.
func TestRespellAsReplace(t *testing.T) {
	var syll []rune
	for i := 0; i < len(spellingPairs); i += 2 {
		k := spellingPairs[i]
		if r, _ := utf8.DecodeRuneInString(k); r < 0xAC00 || r > 0xD7A3 {
			t.Fatalf("key %q does not begin with a Hangul syllable: respell would miss it", k)
		}
		syll = append(syll, []rune(k)...)
	}
	words := []string{"", "디렉토리", "디렉토리를", "새디렉토리", "메세지와데이타", "디렉", "윈도우즈", "윈도", "쉘스크립트", "ab쉘", "\u1100\u1161쉘"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 50000 {
		r := make([]rune, 1+rng.IntN(6))
		for i := range r {
			r[i] = syll[rng.IntN(len(syll))]
		}
		words = append(words, string(r))
	}
	replaced := 0
	for _, w := range words {
		got, want := respell(w), spellings.Replace(w)
		if got != want {
			t.Fatalf("respell(%q) = %q, want %q", w, got, want)
		}
		if want != w {
			replaced++
		}
	}
	if replaced < 100 {
		t.Fatalf("only %d of the words held a key: the test tries too few", replaced)
	}
}

// TestBigramsAsBefore: appendBigrams, walking the run without a table of
// its characters' places, makes the same bigrams, invalid bytes counting
// one character each as before.
func TestBigramsAsBefore(t *testing.T) {
	old := func(run string) []string {
		idx := make([]int, 0, len(run)/3+1)
		for i := range run {
			idx = append(idx, i)
		}
		idx = append(idx, len(run))
		n := len(idx) - 1
		if n <= 2 {
			return []string{run}
		}
		var out []string
		for i := 0; i+2 <= n; i++ {
			out = append(out, run[idx[i]:idx[i+2]])
		}
		return out
	}
	runs := []string{"", "가", "가나", "가나다", "문서를읽습니다", "\xff\xfe가", "가\xff나다", "ab"}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		runs = append(runs, randomText(rng, rng.IntN(12)))
	}
	for _, run := range runs {
		var got []string
		for _, qt := range appendBigrams(nil, run) {
			got = append(got, qt.term)
		}
		if want := old(run); !slices.Equal(got, want) {
			t.Fatalf("appendBigrams(%+q) = %q, want %q", run, got, want)
		}
	}
}
