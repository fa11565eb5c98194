package memory

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

var seedTurns = []Msg{
	{Role: "user", Content: "내 이름은 철수야"},
	{Role: "assistant", Content: "안녕하세요 철수님! 반갑습니다."},
	{Role: "user", Content: "프로젝트 마감일은 3월 15일이고 예산은 1억원이야"},
	{Role: "assistant", Content: "알겠습니다. 3월 15일 마감, 예산 1억원으로 기억할게요."},
	{Role: "user", Content: "좋아, 고마워"},
	{Role: "assistant", Content: "천만에요!"},
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file (run with -update after checking):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestSummaryPrompt checks the summarising request, in both languages,
// against golden files: on its own, and carrying the summary that slides
// out of a full window.
func TestSummaryPrompt(t *testing.T) {
	carried := map[string]string{"ko": "사용자는 카페 '블루 랜턴'을 운영하고, 예산은 370만 원이다.",
		"en": "The person runs a café called Blue Lantern; the budget is 3,700,000 won."}
	for _, lang := range []string{"ko", "en"} {
		for _, carry := range []bool{false, true} {
			name := "summarize_prompt_" + lang
			c := ""
			if carry {
				name, c = name+"_carried", carried[lang]
			}
			t.Run(name, func(t *testing.T) {
				var b strings.Builder
				for _, m := range SummaryPrompt(seedTurns, c, lang) {
					b.WriteString("### " + m.Role + "\n" + m.Content + "\n")
				}
				golden(t, name+".golden", b.String())
			})
		}
	}
}

func TestSummaryPromptCutsLongMessages(t *testing.T) {
	long := strings.Repeat("가", maxSummarizedChars+100)
	msgs := SummaryPrompt([]Msg{{Role: "user", Content: long}}, "", "ko")
	if n := len([]rune(msgs[1].Content)); n > maxSummarizedChars+20 {
		t.Errorf("transcript is %d runes", n)
	}
}
