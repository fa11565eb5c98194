package memory

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
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

// TestSummarize sends the summary prompt through the real client to the fake
// Ollama and checks the request against a golden file.
func TestSummarize(t *testing.T) {
	for _, lang := range []string{"ko", "en"} {
		t.Run(lang, func(t *testing.T) {
			srv := ollamatest.New(t)
			srv.Script(ollamatest.Reply{Text: "사용자 이름은 철수, 프로젝트 마감일은 3월 15일, 예산 1억원."})
			client, err := llm.New(srv.URL(), llm.WithRetry(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			s := &Summarizer{Chat: client, Model: "llama3.2:3b", Lang: lang}
			got, err := s.Summarize(t.Context(), seedTurns)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, "3월 15일") {
				t.Errorf("summary = %q", got)
			}
			reqs := srv.ChatRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d chat requests, want 1", len(reqs))
			}
			var b strings.Builder
			for _, m := range reqs[0].Messages {
				b.WriteString("### " + m.Role + "\n" + m.Content + "\n")
			}
			golden(t, "summarize_prompt_"+lang+".golden", b.String())
			if reqs[0].Model != "llama3.2:3b" || reqs[0].Options["temperature"] != float64(0) {
				t.Errorf("model %q, options %v", reqs[0].Model, reqs[0].Options)
			}
		})
	}
}

func TestSummarizeEmptyReply(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Script(ollamatest.Reply{Text: "   "})
	client, _ := llm.New(srv.URL(), llm.WithRetry(0, 0))
	s := &Summarizer{Chat: client, Model: "llama3.2:3b", Lang: "ko"}
	if _, err := s.Summarize(t.Context(), seedTurns); !errors.Is(err, ErrEmptySummary) {
		t.Fatalf("err = %v, want ErrEmptySummary", err)
	}
}

func TestSummaryPromptCutsLongMessages(t *testing.T) {
	long := strings.Repeat("가", maxSummarizedChars+100)
	msgs := SummaryPrompt([]Msg{{Role: "user", Content: long}}, "ko")
	if n := len([]rune(msgs[1].Content)); n > maxSummarizedChars+20 {
		t.Errorf("transcript is %d runes", n)
	}
}
