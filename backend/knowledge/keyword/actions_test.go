package keyword

import (
	"slices"
	"testing"
)

func TestActionWord(t *testing.T) {
	tests := map[string]string{
		"지우려면": "삭제", "지워요": "삭제", "바꾸고": "변경", "바꿔": "변경", "바뀌었어요": "변경",
		"고를": "선택", "보이게": "표시", "넣으려면": "삽입", "켜면": "활성",
		"지역": "", "보고서": "", "고정": "", "바다": "", "": "",
	}
	for word, want := range tests {
		if got := actionVerbs.of(word); got != want {
			t.Errorf("actionVerbs.of(%q) = %q, want %q", word, got, want)
		}
	}
}

// TestActionNouns: a question asked with a native verb finds the passage
// that names the action with its Sino-Korean noun; the noun is a query
// term only, never added to a document.
func TestActionNouns(t *testing.T) {
	ix := New(DefaultAnalyzer(), DefaultParams())
	ix.Add("a-insert", "행 삽입: 선택한 위치에 행을 삽입합니다.")
	ix.Add("b-delete", "행 삭제: 선택한 행을 삭제합니다.")
	ix.Add("a-hover", "메모 위에 마우스를 올립니다.")
	ix.Add("b-show", "메모 표시: 메모를 표시합니다.")
	for query, want := range map[string]string{
		"행을 지우려면":    "b-delete",
		"행을 넣으려면":    "a-insert",
		"메모가 보이게 해요": "b-show",
	} {
		if hits := ix.Search(query, 2, nil); len(hits) == 0 || hits[0].ID != want {
			t.Errorf("%q: %v, want %s first", query, hits, want)
		}
	}
	if slices.Contains(ix.analyzer.Tokens("지우기 메뉴"), "삭제") {
		t.Error("a document holding 지우기 was indexed with 삭제")
	}
}
