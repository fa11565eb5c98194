package memory_test

import (
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/memory"
)

// After each answered turn the agent asks Plan what to fold away; the
// summary goes into the window, and load_context formats the window for the
// system prompt.
func Example() {
	msgs := make([]memory.Msg, 11) // one more than MaxMessages
	var state memory.WindowState
	old, keep := memory.Plan(state, msgs)
	fmt.Println(len(old), "to summarise,", len(keep), "kept")

	state = state.Advance("사용자 이름은 철수", len(old))
	state = state.Advance("프로젝트 마감일은 3월 15일", 6)
	fmt.Println(memory.FormatSummaryForPrompt(state.Summary, "ko"))
	// Output:
	// 6 to summarise, 5 kept
	// [대화 기록 1]
	// 사용자 이름은 철수
	//
	// [대화 기록 2]
	// 프로젝트 마감일은 3월 15일
}
