package keyword

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpacingTerms: a document is indexed with the bigram across each
// single space between two Hangul words, marked; the words' terms
// (Tokens) never hold it; a query looks its bigrams up both ways at
// spacingWeight.
func TestSpacingTerms(t *testing.T) {
	a := DefaultAnalyzer()
	m := spacingMark
	tests := []struct {
		name  string
		in    string
		index []string
		query []queryTerm
	}{
		{"two words", "도구 모음", []string{"도구", m + "구모", "모음"}, []queryTerm{
			{term: "도구"}, {term: m + "도구", weight: spacingWeight},
			{term: m + "구모", weight: spacingWeight}, {term: "구모", weight: spacingWeight},
			{term: "모음"}, {term: m + "모음", weight: spacingWeight},
		}},
		{"compound", "도구모음", []string{"도구", "구모", "모음"}, []queryTerm{
			{term: "도구"}, {term: m + "도구", weight: spacingWeight},
			{term: "구모"}, {term: m + "구모", weight: spacingWeight},
			{term: "모음"}, {term: m + "모음", weight: spacingWeight},
		}},
		{"one-syllable word and particle", "시트 탭을", []string{"시트", m + "트탭", "탭을", "탭"}, []queryTerm{
			{term: "시트"}, {term: m + "시트", weight: spacingWeight},
			{term: m + "트탭", weight: spacingWeight}, {term: "트탭", weight: spacingWeight},
			{term: "탭을", alt: "탭"}, {term: m + "탭을", weight: spacingWeight},
		}},
		{"spellings mapped first", "새 디렉토리", []string{"새", m + "새디", "디렉", "렉터", "터리"}, nil},
		{"across a line break: a PDF's line may end inside a word", "학생에게 적\n용한다", []string{"학생", "생에", "에게", m + "게적", "적", m + "적용", "용한", "한다"}, nil},
		{"across a Windows line break", "적\r\n용한다", []string{"적", m + "적용", "용한", "한다"}, nil},
		{"a word spaced out letter by letter gives its own bigrams", "위 임 장", []string{"위", "위임", "임", "임장", "장"}, nil},
		{"and across a line break", "적\r\n용", []string{"적", "적용", "용"}, nil},
		{"not across a paragraph break, punctuation or two spaces", "제목\n\n본문, 다음  줄\r\n\r\n끝", []string{"제목", "본문", "다음", "줄", "끝"}, nil},
		{"not across Latin letters or digits", "리브레 Calc 시트 3 장", []string{"리브", "브레", "calc", "시트", "3", "장"}, nil},
		{"english has none", "Pivot table", []string{"pivot", "tabl"}, []queryTerm{{term: "pivot", sounds: "pivot"}, {term: "tabl", sounds: "table"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.index, a.indexTerms(tt.in)); diff != "" {
				t.Errorf("indexTerms(%q) (-want +got):\n%s", tt.in, diff)
			}
			for _, tok := range a.Tokens(tt.in) {
				if tok[:1] == m {
					t.Errorf("Tokens(%q) holds the spacing term %q", tt.in, tok)
				}
			}
			if tt.query == nil {
				return
			}
			// A Hangul word's loan-word lookup is loanword_test.go's.
			got := slices.DeleteFunc(a.queryTerms(tt.in), func(q queryTerm) bool { return q.loan != nil })
			if diff := cmp.Diff(tt.query, got, cmp.AllowUnexported(queryTerm{})); diff != "" {
				t.Errorf("queryTerms(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestSpacingInsensitiveSearch: a compound finds the passage that spaces
// it, and spaced words the passage that writes them as one, ahead of a
// passage that holds the parts apart and one more (common) word of the
// question: without the bigrams across spaces that passage comes first.
func TestSpacingInsensitiveSearch(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("spaced", "도구 모음은 창 아래에 있습니다.")
	ix.Add("parts", "도구 상자와 글자 모음의 위치")
	ix.Add("joined", "데이터파일럿 표")
	ix.Add("apart", "데이터와 파일럿의 위치")
	for _, filler := range []string{"창 위치", "표 위치", "셀 위치", "쪽 위치"} {
		ix.Add(filler, filler+"를 바꿉니다.")
	}
	for query, want := range map[string]string{
		"도구모음 위치":    "spaced",
		"데이터 파일럿 위치": "joined",
	} {
		if hits := ix.Search(query, 8, nil); len(hits) == 0 || hits[0].ID != want {
			t.Errorf("%q: %v, want %s first", query, hits, want)
		}
	}
}

// TestWordBrokenAcrossLines: a PDF of Korean set without keep-all breaks
// lines inside words (적|용한다); the word is found across the break,
// ahead of a passage that holds its syllables apart.
func TestWordBrokenAcrossLines(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("broken", "이 규정은 학부 과정의 모든 학생에게 적\n용한다. 다만, 대학원은 따로 정한다.")
	ix.Add("apart", "적은 비용으로 용도를 정한다.")
	for _, filler := range []string{"학칙 개정", "휴학 기간", "등록금 납부"} {
		ix.Add(filler, filler+"을 정한다.")
	}
	if hits := ix.Search("적용 대상", 5, nil); len(hits) == 0 || hits[0].ID != "broken" {
		t.Errorf("적용 대상: %v, want the passage that breaks 적용 across a line first", hits)
	}
}

// TestQueryWeightLeavesSpacingOut: the relevance floor's scale is the
// words' terms only; the bigrams across spaces are other spellings of
// them and would raise the floor of every Korean question.
func TestQueryWeightLeavesSpacingOut(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("a", "도구 모음은 창 아래에 있습니다.")
	ix.Add("b", "도구모음 위치")
	ix.Add("c", "다른 문서")
	whole, parts := ix.QueryWeight("도구 모음"), ix.QueryWeight("도구")+ix.QueryWeight("모음")
	if whole == 0 || math.Abs(whole-parts) > 1e-9 {
		t.Errorf("QueryWeight(도구 모음) = %v, want the words' own %v", whole, parts)
	}
}

// TestSpacingLeavesLengthsAlone: a document's length is its words' terms,
// so that the bigrams across spaces change no score of text without them.
func TestSpacingLeavesLengthsAlone(t *testing.T) {
	for _, text := range []string{"도구 모음은 창 아래에 있습니다.", "Pivot tables 피벗 테이블", "책을 읽는 사람"} {
		ix := New(DefaultAnalyzer(), DefaultParams())
		ix.Add("d", text)
		if got, want := ix.docs[0].length, uint32(len(ix.analyzer.Tokens(text))); got != want {
			t.Errorf("%q: length %d, want the words' %d terms", text, got, want)
		}
	}
}

// TestLetterSpacedWord: a title or label spaced out letter by letter, as
// forms set them and PDF text keeps them ("위 임 장"), is found by the
// word as typed as strongly as a passage holding part of it beside other
// words, where its bigrams across spaces counted half and a passage of
// "위임 … 장" ranked above it.
func TestLetterSpacedWord(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("form", "위 임 장\n성 명 | 홍길동")
	ix.Add("partial", "위임 사항을 정리한 장")
	ix.Add("other", "다른 문서의 글입니다")
	for q, want := range map[string]string{"위임장": "form", "성명": "form", "위임장 성명": "form"} {
		if hits := ix.Search(q, 3, nil); len(hits) == 0 || hits[0].ID != want {
			t.Errorf("%s: %v, want %s first", q, hits, want)
		}
	}
}
