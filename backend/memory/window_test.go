package memory

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func nums(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestPlan(t *testing.T) {
	tests := []struct {
		name           string
		next, messages int
		wantSum        []int
		wantKeep       []int
	}{
		{name: "empty", messages: 0, wantKeep: []int{}},
		{name: "under the limit", messages: 5, wantKeep: nums(5)},
		{name: "exactly MaxMessages is not more", messages: 10, wantKeep: nums(10)},
		{name: "eleven: six summarised, five kept", messages: 11, wantSum: nums(6), wantKeep: []int{6, 7, 8, 9, 10}},
		{name: "fifteen", messages: 15, wantSum: nums(10), wantKeep: []int{10, 11, 12, 13, 14}},
		{name: "after a summary only new ones count", next: 6, messages: 16, wantKeep: []int{6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{name: "after a summary, over again", next: 6, messages: 17, wantSum: []int{6, 7, 8, 9, 10, 11}, wantKeep: []int{12, 13, 14, 15, 16}},
		{name: "next past the end (messages removed)", next: 20, messages: 3, wantKeep: []int{}},
		{name: "negative next", next: -4, messages: 2, wantKeep: []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, keep := Plan(WindowState{Next: tt.next}, nums(tt.messages))
			if diff := cmp.Diff(tt.wantSum, sum, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("toSummarize (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantKeep, keep, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("keep (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAddSummaryToWindow(t *testing.T) {
	const sep = "\n---SUMMARY_BREAK---\n"
	tests := []struct {
		name, existing, add, want string
	}{
		{"first summary has no separator", "", "요약1", "요약1"},
		{"second", "요약1", "요약2", "요약1" + sep + "요약2"},
		{"third", "요약1" + sep + "요약2", "요약3", "요약1" + sep + "요약2" + sep + "요약3"},
		{"fourth slides the oldest out", "요약1" + sep + "요약2" + sep + "요약3", "요약4", "요약2" + sep + "요약3" + sep + "요약4"},
		{"empty new summary changes nothing", "요약1", "  ", "요약1"},
		{"new summary is trimmed", "", "  요약1\n", "요약1"},
		{"separator inside the new summary cannot split it", "a", "b" + sep + "c", "a" + sep + "b\n\nc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AddSummaryToWindow(tt.existing, tt.add); got != tt.want {
				t.Errorf("AddSummaryToWindow(%q, %q) = %q, want %q", tt.existing, tt.add, got, tt.want)
			}
		})
	}
	if SummarySeparator != sep {
		t.Errorf("SummarySeparator = %q, seed 001 says %q", SummarySeparator, sep)
	}
}

func TestFormatSummaryForPrompt(t *testing.T) {
	window := "이름은 철수" + SummarySeparator + "마감일은 3월 15일"
	tests := []struct {
		name, summary, lang, want string
	}{
		{"korean", window, "ko", "[대화 기록 1]\n이름은 철수\n\n[대화 기록 2]\n마감일은 3월 15일"},
		{"korean region tag", "하나", "ko-KR", "[대화 기록 1]\n하나"},
		{"english", "Name is Chulsoo" + SummarySeparator + "Deadline March 15", "en",
			"[Conversation record 1]\nName is Chulsoo\n\n[Conversation record 2]\nDeadline March 15"},
		{"unknown language falls back to english", "x", "", "[Conversation record 1]\nx"},
		{"empty", "", "ko", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatSummaryForPrompt(tt.summary, tt.lang); got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestSlidingOut(t *testing.T) {
	window := ""
	for i, s := range []string{"요약1", "요약2", "요약3"} {
		if got := SlidingOut(window); got != "" {
			t.Fatalf("with %d summaries, %q would slide out", i, got)
		}
		window = AddSummaryToWindow(window, s)
	}
	if got := SlidingOut(window); got != "요약1" {
		t.Fatalf("full window: %q slides out, want 요약1", got)
	}
	if next := AddSummaryToWindow(window, "요약4"); strings.Contains(next, "요약1") || !strings.HasPrefix(next, "요약2") {
		t.Fatalf("the summary SlidingOut named did not slide out: %q", next)
	}
}
