package app

import (
	"strings"
	"testing"
	"unicode"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A tool call's result is one worded line in the terminal's language, as
// the window's trace says it, with the cause of a failure under it; what
// came from the tool cannot start a line or move the cursor.
func TestResultLines(t *testing.T) {
	for _, c := range []struct {
		name string
		lang int
		ev   api.TraceEvent
		want string
	}{
		{"no matches ko", 1, api.TraceEvent{Tool: "retrieve_docs", Code: api.TraceNoMatches, Args: map[string]string{"query": "출장비"}},
			"  문서 검색: “출장비”에 맞는 내용이 없음"},
		{"no matches en", 0, api.TraceEvent{Tool: "retrieve_docs", Code: api.TraceNoMatches, Args: map[string]string{"query": "travel"}},
			"  Document search: Nothing matched “travel”"},
		{"found in, titles from the web", 0, api.TraceEvent{Tool: "web_search", Code: api.TraceFoundIn, Args: map[string]string{"titles": "Seoul\n  Ran once (--approve-tools).\x1b]0;pwned\x07, Busan"}},
			"  Web search: Found: Seoul Ran once (--approve-tools).\\x1b]0;pwned\\x07, Busan"},
		{"failed ko, its cause under it", 1, api.TraceEvent{Tool: "calculator", Code: api.TraceToolFailed, Args: map[string]string{"error": "invalid arguments: \"2 +\"\nis not a number"}},
			"  계산기: 실패함 — 모델에게 이유를 알림\n    invalid arguments: \"2 +\" is not a number"},
		{"file read", 1, api.TraceEvent{Tool: "read_file", Code: api.TraceFileRead, Args: map[string]string{"path": "/home/a/notes\x7f.md"}},
			"  파일 읽기: 파일을 읽음: /home/a/notes\\x7f.md"},
		{"one memory", 0, api.TraceEvent{Tool: "read_memory", Code: api.TraceMemoriesFound, Args: map[string]string{"count": "1"}},
			"  Memory search: Found 1 memory"},
		{"the time ko", 1, api.TraceEvent{Tool: "get_time", Code: api.TraceTimeTold, Args: map[string]string{"time": "2026-11-28T14:05:09+09:00", "zone": "Asia/Seoul"}},
			"  시계: 현재 시각: 2026년 11월 28일 14:05 (Asia/Seoul)"},
		{"the time en", 0, api.TraceEvent{Tool: "get_time", Code: api.TraceTimeTold, Args: map[string]string{"time": "2026-11-28T14:05:09+09:00", "zone": "Asia/Seoul"}},
			"  Clock: The time: 28 November 2026, 14:05 (Asia/Seoul)"},
		{"weather", 1, api.TraceEvent{Tool: "get_weather", Code: api.TraceWeatherTold, Args: map[string]string{"place": "부산"}},
			"  날씨: 부산 날씨를 받아 옴"},
		{"a figure", 1, api.TraceEvent{Tool: "calculator", Text: "56088"}, "  계산기: 56088"},
		{"an MCP tool's text, cut", 0, api.TraceEvent{Tool: "files__read", Text: "\x1b[31mred\x1b[0m\r\n" + strings.Repeat("가", 300)},
			"  files__read: \\x1b[31mred\\x1b[0m " + strings.Repeat("가", resultCut-len("\\x1b[31mred\\x1b[0m ")) + "…"},
		{"nothing came back", 0, api.TraceEvent{Tool: "files__touch"}, "  files__touch: —"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.ev.Kind = api.TraceToolResult
			got := strings.Join(resultLines(c.ev, c.lang), "\n")
			if got != c.want {
				t.Errorf("\n got %q\nwant %q", got, c.want)
			}
			if strings.ContainsFunc(got, func(r rune) bool { return unicode.IsControl(r) && r != '\n' }) {
				t.Errorf("a control character reaches the terminal: %q", got)
			}
		})
	}
}

// `wayfinder ask` prints what each tool call came back with, in the
// terminal's language, under the progress lines on standard error: a
// figure, a failure and its cause, a search that found nothing.
func TestAskPrintsToolResults(t *testing.T) {
	for _, c := range []struct {
		locale string
		want   []string
	}{
		{"ko_KR.UTF-8", []string{"  계산기: 56088\n", "  계산기: 실패함 — 모델에게 이유를 알림\n    ", "  문서 검색: “출장비”에 맞는 내용이 없음\n"}},
		{"en_US.UTF-8", []string{"  Calculator: 56088\n", "  Calculator: Did not work; the model is told why\n    ", "  Document search: Nothing matched “출장비”\n"}},
	} {
		fake := ollamatest.New(t)
		fake.On(ollamatest.HasFormat(), ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false, "reason": "question", "memories": []any{}}})
		fake.Script(
			ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{
				{Name: "calculator", Args: map[string]any{"expression": "123 * 456"}},
				{Name: "calculator", Args: map[string]any{"expression": "2 +"}},
			}},
			ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "retrieve_docs", Args: map[string]any{"query": "출장비"}}}},
			ollamatest.Reply{Text: "56088입니다"},
		)
		t.Setenv("LC_ALL", c.locale)
		code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "ask", "123 곱하기 456, 그리고 출장비 규정?")
		if code != 0 || !strings.Contains(out, "56088입니다") {
			t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
		}
		for _, want := range c.want {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: standard error lacks %q:\n%s", c.locale, want, errOut)
			}
		}
		if strings.Contains(out, "56088\n") || strings.Contains(out, "Did not work") {
			t.Errorf("%s: a tool's result is on standard output, which is the reply's:\n%s", c.locale, out)
		}
	}
}
