package keyword

import (
	"slices"
	"testing"
)

func TestSynonymWord(t *testing.T) {
	tests := map[string]string{
		"형식을": "유형", "유형": "형식", "종류별로": "유형", "문단의": "단락", "날짜가": "일자",
		"비밀번호를": "암호", "폰트": "글꼴", "찾으려면": "검색", "그래프에": "차트", "왼쪽에": "좌측",
		"꺾이는": "구부", "설정을": "구성", "감춰진": "숨기",
		// Not a listed form, or one only at the end.
		"방법": "", "데이터": "", "표": "", "형": "", "정형식": "", "": "",
	}
	for word, want := range tests {
		if got := synonyms.of(word); got != want {
			t.Errorf("synonyms.of(%q) = %q, want %q", word, got, want)
		}
	}
}

// TestSynonyms: a question asked with one word finds the passage that uses
// the other; a passage holding the asked word is not outranked by one that
// holds only its synonym, and the synonym is a query term only, never
// added to a document.
func TestSynonyms(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("a-type", "열 유형: 데이터 유형을 선택합니다.")
	ix.Add("b-preview", "미리 보기: 데이터를 보여 주고 데이터를 정렬합니다.")
	ix.Add("c-para", "단락 간격을 정합니다.")
	ix.Add("d-page", "간격: 페이지 간격을 정합니다.")
	ix.Add("e-date", "작성 일자: 문서의 작성 일자입니다.")
	ix.Add("f-time", "작성 시간: 문서를 만든 시간입니다.")
	for query, want := range map[string]string{
		"데이터 형식을 정하려면": "a-type",
		"문단 간격":        "c-para",
		"문서 만든 날짜":     "e-date",
	} {
		if hits := ix.Search(query, 2, nil); len(hits) == 0 || hits[0].ID != want {
			t.Errorf("%q: %v, want %s first", query, hits, want)
		}
	}

	ix.Add("g-format", "데이터 형식: 데이터 형식을 선택합니다.")
	hits := ix.Search("데이터 형식", 2, nil)
	if len(hits) != 2 || hits[0].ID != "g-format" || hits[1].ID != "a-type" {
		t.Errorf("데이터 형식: %v, want g-format (the asked word) before a-type (its synonym)", hits)
	}
	if slices.Contains(ix.analyzer.Tokens("데이터 형식"), "유형") {
		t.Error("a document holding 형식 was indexed with 유형")
	}
}
