package keyword_test

import (
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
)

// A query for the bare noun finds the form with a particle attached, and
// English plurals match through stemming.
func ExampleIndex_Search() {
	ix := keyword.New(keyword.DefaultAnalyzer(), keyword.DefaultParams())
	ix.Add("policy", "휴가를 신청하려면 문서를 제출해야 합니다.")
	ix.Add("fonts", "한글 글꼴 설정")
	ix.Add("report", "Quarterly reports for every region")

	for _, q := range []string{"문서", "글꼴", "report"} {
		for _, h := range ix.Search(q, 3, nil) {
			fmt.Println(q, "→", h.ID)
		}
	}
	// Output:
	// 문서 → policy
	// 글꼴 → fonts
	// report → report
}
