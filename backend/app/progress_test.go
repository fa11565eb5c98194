package app

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// The progress lines are the window's sentences: the same text for every
// key in both languages.
func TestProgressTextMatchesTheWindow(t *testing.T) {
	for i, lang := range []string{"en", "ko"} {
		catalog := i18ntest.Catalog(t, lang)
		for _, texts := range []map[string][2]string{progressText, mcpReasonText, retryText, mcpProblemText, reasonText, errorText, toolWords, toolAbout, resultText} {
			for key, text := range texts {
				if catalog[key] != text[i] {
					t.Errorf("%s %s: Go says %q, %s.json %q", lang, key, text[i], lang, catalog[key])
				}
			}
		}
	}
}

// An MCP server that did not start is said with why in the person's
// language: the English error stays out of a Korean line.
func TestAskSaysWhyAServerDidNotStart(t *testing.T) {
	ev := api.TraceEvent{Kind: api.TraceToolSelected, Code: api.TraceMCPFailed, Args: map[string]string{
		"server": "files", "error": "start MCP server files: run npx: exec: \"npx\": executable file not found in $PATH",
		"reason": "command_missing", "command": "npx"}}
	for _, c := range []struct {
		lang string
		args map[string]string
		want string
	}{
		{"ko", ev.Args, "MCP 서버 files 시작 실패(실행할 프로그램이 없음: npx) — 이 서버의 도구 없이 계속합니다 0초\n"},
		{"en", ev.Args, "MCP server files did not start (program not found: npx); going on without its tools 0 s\n"},
		{"ko", map[string]string{"server": "files", "error": "some English error"}, "MCP 서버 files 시작 실패(오류 — `wayfinder mcp list`로 확인) — 이 서버의 도구 없이 계속합니다 0초\n"},
		{"ko", map[string]string{"server": "files", "error": "x", "reason": "timeout"}, "MCP 서버 files 시작 실패(오류 — `wayfinder mcp list`로 확인) — 이 서버의 도구 없이 계속합니다 0초\n"},
	} {
		if got := printedAtStart(c.lang, api.TraceEvent{Kind: ev.Kind, Code: ev.Code, Args: c.args}); got != c.want {
			t.Errorf("%s %v:\n got %q\nwant %q", c.lang, c.args, got, c.want)
		}
	}
}

// printedAtStart is the line a progress printer in lang writes for ev
// when no time has passed since the turn began.
func printedAtStart(lang string, ev api.TraceEvent) string {
	var b bytes.Buffer
	p := newProgressPrinter(&b, lang)
	p.now = func() time.Time { return p.start }
	p.event(ev)
	return b.String()
}

// A server not started for the mistakes of its entry in mcp.json is said
// in the person's language, pointing to where they are worded, without
// the mistakes' English.
func TestAskSaysAnEntryWithMistakesDidNotStart(t *testing.T) {
	ev := api.TraceEvent{Kind: api.TraceToolSelected, Code: api.TraceMCPInvalid, Args: map[string]string{
		"server": "web", "error": `server "web": url "ftp://h" must be an http:// or https:// address`}}
	for lang, want := range map[string]string{
		"ko": "MCP 서버 web 시작 안 함(mcp.json의 항목에 잘못된 곳이 있음 — `wayfinder mcp list`로 확인) — 이 서버의 도구 없이 계속합니다 0초\n",
		"en": "MCP server web not started (its entry in mcp.json has mistakes; see `wayfinder mcp list`); going on without its tools 0 s\n",
	} {
		if got := printedAtStart(lang, ev); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
		}
	}
}

// `wayfinder ask` with an entry of mcp.json that has mistakes: the turn
// says, once, that the server was not started (the MCP manager tells the
// agent which entries it leaves out), and answers all the same.
func TestAskWithABrokenMCPEntry(t *testing.T) {
	errOut := askWithMCP(t, `{"mcpServers": {"web": {"url": "ftp://h/mcp"}}}`, "en_US.UTF-8")
	const line = "MCP server web not started (its entry in mcp.json has mistakes; see `wayfinder mcp list`); going on without its tools"
	if strings.Count(errOut, line) != 1 {
		t.Fatalf("standard error says the entry with mistakes %d times, want once:\n%s", strings.Count(errOut, line), errOut)
	}
}

// A model call made again says why in the person's language, not its
// error code.
func TestAskSaysWhyACallIsRetried(t *testing.T) {
	for _, c := range []struct{ lang, code, want string }{
		{"ko", "timeout", "모델 호출이 실패해 다시 시도하는 중… (모델의 응답이 너무 오래 걸렸습니다) 0초\n"},
		{"en", "stream_dropped", "The model call failed (The reply was cut off before it finished); trying again… 0 s\n"},
		{"ko", "something_new", "모델 호출이 실패해 다시 시도하는 중… (something_new) 0초\n"},
	} {
		if got := printedAtStart(c.lang, api.TraceEvent{Kind: api.TraceRetry, Code: api.TraceModelRetry, Args: map[string]string{"error": c.code, "attempt": "2"}}); got != c.want {
			t.Errorf("%s %s:\n got %q\nwant %q", c.lang, c.code, got, c.want)
		}
	}
}

// TestAskPrintsProgress: `wayfinder ask` says on standard error what the
// model is doing while the person waits — routing, planning, each step of
// the approved plan as it starts and ends, the guide — with the seconds
// since the start, while the reply goes to standard output.
func TestAskPrintsProgress(t *testing.T) {
	fake := ollamatest.New(t)
	review := func(tool string) ollamatest.Reply {
		return ollamatest.Reply{JSON: map[string]any{"sufficient": true, "missing": "", "tool": tool, "why": "fits", "url": "https://example.com", "pricing": "free", "alternatives": []string{}}}
	}
	fake.Script(
		ollamatest.Reply{JSON: map[string]any{"route": "complex", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false, "reason": "a task"}},
		ollamatest.Reply{JSON: map[string]any{"sub_tasks": []map[string]string{
			{"id": "s1", "title": "Write the script", "detail": "30 seconds"},
			{"id": "s2", "title": "Edit the video", "detail": "vertical"},
		}}},
		ollamatest.Reply{Text: "ChatGPT writes scripts."}, review("ChatGPT"),
		ollamatest.Reply{Text: "Vrew edits video."}, review("Vrew"),
		ollamatest.Reply{Text: "# Guide\n\nUse ChatGPT, then Vrew."},
		ollamatest.Reply{JSON: map[string]any{"memories": []any{}}},
	)
	code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b",
		"ask", "--approve", "Help me make a YouTube Shorts video to promote my cafe")
	if code != 0 {
		t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Use ChatGPT, then Vrew.") || strings.Contains(out, "finding a tool") {
		t.Fatalf("standard output holds the reply only:\n%s", out)
	}
	want := []string{
		"Deciding how to handle your message…",
		"Making a plan: splitting the task into steps…",
		"Proposed plan (round 1):",
		"Step 1 of 2: finding a tool for “Write the script”…",
		"Step 1 of 2: ChatGPT for “Write the script”",
		"Step 2 of 2: finding a tool for “Edit the video”…",
		"Step 2 of 2: Vrew for “Edit the video”",
		"Writing the guide…",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(errOut[at:], w)
		if i < 0 {
			t.Fatalf("standard error lacks %q after position %d:\n%s", w, at, errOut)
		}
		at += i + len(w)
	}
	if !regexp.MustCompile(`(?m)^Step 2 of 2: finding a tool for “Edit the video”… \d+ s$`).MatchString(errOut) {
		t.Fatalf("a progress line ends with the time since the start:\n%s", errOut)
	}
}

// A progress line never starts in the middle of the reply's text, a
// built-in tool says what it does (an MCP server's keeps its name), and
// the scout's searches are not listed while its step's line is up.
func TestProgressPrinter(t *testing.T) {
	var buf bytes.Buffer
	p := newProgressPrinter(&buf, "ko")
	clock := p.start
	p.now = func() time.Time { return clock }
	p.event(api.TraceEvent{Kind: api.TraceToolSelected, Tool: "files__read_text_file"})
	p.event(api.TraceEvent{Kind: api.TraceToolSelected, Tool: "calculator"})
	p.text("The answer is ")
	clock = clock.Add(3 * time.Second)
	p.event(api.TraceEvent{Kind: api.TraceRetry, Code: api.TraceModelRetry, Args: map[string]string{"error": "timeout", "attempt": "2"}})
	p.event(api.TraceEvent{Kind: api.TracePlanning, Code: api.TraceToolFinding, Args: map[string]string{"number": "1", "total": "2", "step": "대본"}})
	p.event(api.TraceEvent{Kind: api.TraceToolSelected, Tool: "search_catalog"})
	p.event(api.TraceEvent{Kind: api.TraceNodeStarted, Node: "evaluate"})
	want := "files__read_text_file 사용 중… 0초\n" +
		"계산하는 중… 0초\n" +
		"\n모델 호출이 실패해 다시 시도하는 중… (모델의 응답이 너무 오래 걸렸습니다) 3초\n" +
		"2단계 중 1단계: “대본”에 맞는 도구를 찾는 중… 3초\n"
	if buf.String() != want {
		t.Fatalf("printed:\n%q\nwant:\n%q", buf.String(), want)
	}
}

// The time since the command started is said in the terminal's language,
// in minutes past a minute: "0초" after a Korean sentence, where it was
// "0 s", and "12 min 34 s" where it was "754 s".
func TestDurationText(t *testing.T) {
	for _, tc := range []struct {
		d      time.Duration
		en, ko string
	}{
		{0, "0 s", "0초"},
		{-time.Second, "0 s", "0초"},
		{999 * time.Millisecond, "0 s", "0초"},
		{12 * time.Second, "12 s", "12초"},
		{59*time.Second + 900*time.Millisecond, "59 s", "59초"},
		{time.Minute, "1 min", "1분"},
		{65 * time.Second, "1 min 5 s", "1분 5초"},
		{754 * time.Second, "12 min 34 s", "12분 34초"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1 h 2 min", "1시간 2분"},
		{2 * time.Hour, "2 h", "2시간"},
	} {
		t.Run(tc.en, func(t *testing.T) {
			if got := durationText(tc.d, 0); got != tc.en {
				t.Errorf("en: %q, want %q", got, tc.en)
			}
			if got := durationText(tc.d, 1); got != tc.ko {
				t.Errorf("ko: %q, want %q", got, tc.ko)
			}
		})
	}
	// As ask prints it: after the sentence, in the printer's language.
	for _, tc := range []struct{ lang, want string }{
		{"ko", "답을 쓰는 중… 1분 5초\n"},
		{"en", "Writing the answer… 1 min 5 s\n"},
	} {
		var buf bytes.Buffer
		p := newProgressPrinter(&buf, tc.lang)
		p.now = func() time.Time { return p.start.Add(65 * time.Second) }
		p.event(api.TraceEvent{Kind: api.TraceNodeStarted, Node: "answer"})
		if buf.String() != tc.want {
			t.Errorf("%s: printed %q, want %q", tc.lang, buf.String(), tc.want)
		}
	}
}

// Once the search is done the terminal says the answer is being written,
// where it said "Searching your documents…" until the first words, many
// seconds later on a local model: once a turn, and not over the answer.
func TestProgressSaysTheAnswerIsBeingWritten(t *testing.T) {
	var buf bytes.Buffer
	p := newProgressPrinter(&buf, "en")
	clock := p.start
	p.now = func() time.Time { return clock }
	p.event(api.TraceEvent{Kind: api.TracePlanning, Code: api.TraceRouting})
	p.event(api.TraceEvent{Kind: api.TraceToolSelected, Tool: "retrieve_docs"})
	clock = clock.Add(2 * time.Second)
	p.event(api.TraceEvent{Kind: api.TraceNodeStarted, Node: "answer"})
	p.event(api.TraceEvent{Kind: api.TraceNodeStarted, Node: "answer"})
	p.text("The report says")
	p.event(api.TraceEvent{Kind: api.TraceNodeStarted, Node: "answer"})
	p.event(api.TraceEvent{Kind: api.TraceNodeStarted, Node: "reflect"})
	want := "Deciding how to handle your message… 0 s\n" +
		"Searching your documents… 0 s\n" +
		"Writing the answer… 2 s\n"
	if buf.String() != want {
		t.Fatalf("printed:\n%q\nwant:\n%q", buf.String(), want)
	}
}

// An mcp.json that cannot be read at all is said in the person's
// language: where it is not JSON, or only that it has a mistake, and the
// servers still in use from before the edit; the mistake's English stays
// out.
func TestAskSaysMCPFileCannotBeRead(t *testing.T) {
	syntax := map[string]string{"case": "mcp_syntax", "line": "3", "column": "7", "servers": "", "error": "not valid JSON at line 3, column 7: invalid character"}
	kept := map[string]string{"case": "mcp_syntax", "line": "3", "column": "7", "servers": "files, web", "error": "not valid JSON"}
	big := map[string]string{"case": "mcp_too_big", "line": "", "column": "", "servers": "", "error": "mcp.json is larger than 1048576 bytes"}
	bigKept := map[string]string{"case": "mcp_too_big", "servers": "files", "error": "mcp.json is larger than 1048576 bytes"}
	for _, c := range []struct {
		lang string
		args map[string]string
		want string
	}{
		{"ko", syntax, "MCP 서버 설정을 읽지 못함(mcp.json의 3번째 줄 7번째 글자에서 JSON 형식이 잘못됨 — `wayfinder mcp list`로 확인) — MCP 서버의 도구 없이 계속합니다 0초\n"},
		{"en", syntax, "MCP servers could not be read (mcp.json is not valid JSON at line 3, column 7; see `wayfinder mcp list`); going on without their tools 0 s\n"},
		{"ko", kept, "mcp.json을 다시 읽지 못함(3번째 줄 7번째 글자에서 JSON 형식이 잘못됨 — `wayfinder mcp list`로 확인) — 고치기 전 설정대로 MCP 서버를 계속 실행합니다: files, web 0초\n"},
		{"en", kept, "mcp.json could not be read again (it is not valid JSON at line 3, column 7; see `wayfinder mcp list`); the MCP servers as set up before the edit keep running: files, web 0 s\n"},
		{"ko", big, "MCP 서버 설정을 읽지 못함(mcp.json에 잘못된 곳이 있음 — `wayfinder mcp list`로 확인) — MCP 서버의 도구 없이 계속합니다 0초\n"},
		{"en", bigKept, "mcp.json could not be read again (it has a mistake; see `wayfinder mcp list`); the MCP servers as set up before the edit keep running: files 0 s\n"},
	} {
		if got := printedAtStart(c.lang, api.TraceEvent{Kind: api.TraceToolSelected, Code: api.TraceMCPUnreadable, Args: c.args}); got != c.want {
			t.Errorf("%s %v:\n got %q\nwant %q", c.lang, c.args, got, c.want)
		}
	}
}

// `wayfinder ask` with an mcp.json that is not JSON: the turn says once,
// in the command's language, that MCP servers could not be read and
// where the file is wrong, and answers all the same.
func TestAskWithAnUnreadableMCPFile(t *testing.T) {
	errOut := askWithMCP(t, "{\"mcpServers\": {\n  \"web\": {\"url\": \"http://h/mcp\",}\n}}", "ko_KR.UTF-8")
	const line = "MCP 서버 설정을 읽지 못함(mcp.json의 2번째 줄 33번째 글자에서 JSON 형식이 잘못됨 — `wayfinder mcp list`로 확인) — MCP 서버의 도구 없이 계속합니다"
	if strings.Count(errOut, line) != 1 {
		t.Fatalf("standard error says the file cannot be read %d times, want once:\n%s", strings.Count(errOut, line), errOut)
	}
}

// askWithMCP runs `ask` in the locale with mcp.json as given, against a
// model that greets, and returns its standard error.
func askWithMCP(t *testing.T, mcpJSON, locale string) string {
	t.Helper()
	fake := ollamatest.New(t)
	fake.On(ollamatest.HasTools(), ollamatest.Reply{Text: "안녕하세요"})
	fake.On(ollamatest.HasFormat(), ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false, "reason": "chat", "memories": []any{}}})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(mcpJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LC_ALL", locale)
	code, out, errOut := wayfinder(t, "--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "ask", "무엇을 할 수 있어?")
	if code != 0 || !strings.Contains(out, "안녕하세요") {
		t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
	}
	return errOut
}

// No progress line sends a terminal user to the window: every sentence,
// with every reason an MCP server fails for, names a place a terminal has
// (mcp.json's mistakes: `wayfinder mcp list`), not Settings.
func TestProgressLinesNameNoWindowPlace(t *testing.T) {
	for _, lang := range []string{"en", "ko"} {
		i := 0
		if lang == "ko" {
			i = 1
		}
		for key, text := range progressText {
			if line := terminalPlaces.Replace(text[i]); windowWords.MatchString(line) {
				t.Errorf("%s %s: %q", lang, key, line)
			}
		}
		for reason := range mcpReasonText {
			ev := api.TraceEvent{Kind: api.TraceToolSelected, Code: api.TraceMCPFailed, Args: map[string]string{
				"server": "files", "reason": strings.TrimPrefix(reason, "mcp.reason."), "command": "npx", "seconds": "5", "url": "http://h/mcp"}}
			if got := printedAtStart(lang, ev); windowWords.MatchString(got) {
				t.Errorf("%s %s: %q", lang, reason, got)
			}
		}
	}
}

// Every built-in tool the window names (trace.tool.* in its catalogs) has
// its name on the command line too: a tool named in the window and not
// here would print its code name in a terminal.
func TestToolNamesAreTheWindows(t *testing.T) {
	for _, lang := range []string{"en", "ko"} {
		n := 0
		for key := range i18ntest.Catalog(t, lang) {
			if strings.HasPrefix(key, "trace.tool.") {
				n++
				if _, ok := toolWords[key]; !ok {
					t.Errorf("%s: the window names %s, the command line does not", lang, key)
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s: the window names no tool (trace.tool.*)", lang)
		}
	}
	if got := toolName("files__read_text_file", 1); got != "files__read_text_file" {
		t.Errorf("an MCP tool is named %q, want its own name", got)
	}
}

// `wayfinder ask` names a built-in tool with no sentence of its own (the
// tool catalog's search) by the window's name for it, in the person's
// language, never by its code name.
func TestAskNamesBuiltInToolsAsTheWindow(t *testing.T) {
	for _, c := range []struct{ locale, want string }{
		{"ko_KR.UTF-8", "도구 목록 검색 사용 중…"},
		{"en_US.UTF-8", "Using Tool catalog search…"},
	} {
		fake := ollamatest.New(t)
		fake.On(ollamatest.HasFormat(), ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false, "reason": "question", "memories": []any{}}})
		fake.Script(
			ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "search_catalog", Args: map[string]any{"query": "video"}}}},
			ollamatest.Reply{Text: "Vrew"},
		)
		t.Setenv("LC_ALL", c.locale)
		code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "ask", "영상 편집 도구?")
		if code != 0 || !strings.Contains(out, "Vrew") {
			t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
		}
		// The cause of a failed call, indented under its line, is Go's
		// English for the model (the window shows it apart too).
		lines := slices.DeleteFunc(strings.Split(errOut, "\n"), func(l string) bool { return strings.HasPrefix(l, "    ") })
		if !strings.Contains(errOut, c.want) || strings.Contains(strings.Join(lines, "\n"), "search_catalog") {
			t.Errorf("%s: standard error lacks %q or names search_catalog:\n%s", c.locale, c.want, errOut)
		}
	}
}

// A progress line that says again what the line before it said is not
// printed again at once: a step still looking for what it misses printed
// "2단계 중 2단계: 더 찾는 중 — …" once per search, three lines alike; a
// retry is a new attempt and is said each time, and a line after a tool's
// result is said again under it. Printed 30 s ago or more, it is printed
// again with its time, or a step searching for minutes looked stuck.
func TestProgressSaysALineOnce(t *testing.T) {
	missing := api.TraceEvent{Kind: api.TracePlanning, Code: api.TraceStepMissing, Args: map[string]string{"number": "2", "total": "2", "missing": "가격"}}
	retry := api.TraceEvent{Kind: api.TraceRetry, Code: api.TraceModelRetry, Args: map[string]string{"error": "timeout"}}
	result := api.TraceEvent{Kind: api.TraceToolResult, Tool: "calculator", Text: "4"}
	for _, tc := range []struct {
		name   string
		events []api.TraceEvent
		at     []time.Duration // when each event comes, after the start (nil: all at once)
		want   string
	}{
		{"the same step three times", []api.TraceEvent{missing, missing, missing}, nil, "2단계 중 2단계: 더 찾는 중 — 가격… 0초\n"},
		{"retries", []api.TraceEvent{retry, retry}, nil, strings.Repeat("모델 호출이 실패해 다시 시도하는 중… (모델의 응답이 너무 오래 걸렸습니다) 0초\n", 2)},
		{"a result between", []api.TraceEvent{missing, result, missing}, nil, "2단계 중 2단계: 더 찾는 중 — 가격… 0초\n  계산기: 4\n2단계 중 2단계: 더 찾는 중 — 가격… 0초\n"},
		// A step searching for minutes: its line again each 30 s or more
		// since it was last printed, with the time; the repeats between
		// stay unsaid.
		{"a long step", []api.TraceEvent{missing, missing, missing, missing, missing, missing, missing},
			[]time.Duration{0, 10 * time.Second, 29 * time.Second, 30 * time.Second, 45 * time.Second, 59 * time.Second, 65 * time.Second},
			"2단계 중 2단계: 더 찾는 중 — 가격… 0초\n2단계 중 2단계: 더 찾는 중 — 가격… 30초\n2단계 중 2단계: 더 찾는 중 — 가격… 1분 5초\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := newProgressPrinter(&buf, "ko")
			var at time.Duration
			p.now = func() time.Time { return p.start.Add(at) }
			for i, ev := range tc.events {
				if tc.at != nil {
					at = tc.at[i]
				}
				p.event(ev)
			}
			if buf.String() != tc.want {
				t.Errorf("printed:\n%q\nwant:\n%q", buf.String(), tc.want)
			}
		})
	}
}

// On a terminal of 60 columns a progress line and a source with its
// address are wrapped at spaces, the lines after the first indented,
// where the terminal cut them mid-word ("https://invideo" / ".io"); to a
// pipe each stays on one line.
func TestProgressAndSourcesFitTheWidth(t *testing.T) {
	ev := api.TraceEvent{Kind: api.TracePlanning, Code: api.TraceStepMissing, Args: map[string]string{"number": "2", "total": "2", "missing": "이 단계에 쓸 구체적인 도구와 그 링크, 가격"}}
	src := []api.Source{{Title: "invideo AI", Source: "Wayfinder AI tool catalog", URL: "https://invideo.io/make/youtube-shorts-maker/"}}
	for _, tc := range []struct {
		cols       int
		progress   string
		sourceLine string
	}{
		{0, "2단계 중 2단계: 더 찾는 중 — 이 단계에 쓸 구체적인 도구와 그 링크, 가격… 0초\n",
			"[1] invideo AI — Wayfinder AI tool catalog — https://invideo.io/make/youtube-shorts-maker/\n"},
		{60, "2단계 중 2단계: 더 찾는 중 — 이 단계에 쓸 구체적인 도구와 그\n  링크, 가격… 0초\n",
			"[1] invideo AI — Wayfinder AI tool catalog —\n    https://invideo.io/make/youtube-shorts-maker/\n"},
	} {
		t.Run(strconv.Itoa(tc.cols), func(t *testing.T) {
			var buf bytes.Buffer
			p := newProgressPrinter(sized{&buf, tc.cols}, "ko")
			p.now = func() time.Time { return p.start }
			p.event(ev)
			if buf.String() != tc.progress {
				t.Errorf("progress:\n%q\nwant:\n%q", buf.String(), tc.progress)
			}
			var out bytes.Buffer
			printSources(stdio{out: sized{&out, tc.cols}}, src, 0)
			if !strings.HasSuffix(out.String(), tc.sourceLine) {
				t.Errorf("sources:\n%q\nwant them to end with:\n%q", out.String(), tc.sourceLine)
			}
		})
	}
}
