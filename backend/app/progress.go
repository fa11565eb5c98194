package app

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
)

// progressText holds the sentences `wayfinder ask` prints on standard
// error while the model works, in English and Korean: the same as the
// window's progress line ("progress.*" in frontend/src/i18n, a test holds
// them equal), so the terminal and the window say the same thing.
var progressText = map[string][2]string{
	"progress.routing":     {"Deciding how to handle your message…", "메시지를 어떻게 처리할지 정하는 중…"},
	"progress.planning":    {"Making a plan: splitting the task into steps…", "계획을 세우는 중: 작업을 단계로 나누고 있습니다…"},
	"progress.revising":    {"Revising the plan with your feedback…", "의견을 반영해 계획을 고치는 중…"},
	"progress.step":        {"Step {number} of {total}: finding a tool for “{step}”…", "{total}단계 중 {number}단계: “{step}”에 맞는 도구를 찾는 중…"},
	"progress.stepMissing": {"Step {number} of {total}: still looking for {missing}…", "{total}단계 중 {number}단계: 더 찾는 중 — {missing}…"},
	"progress.stepDone":    {"Step {number} of {total}: {tool} for “{step}”", "{total}단계 중 {number}단계: “{step}”에는 {tool}"},
	"progress.guide":       {"Writing the guide…", "가이드를 쓰는 중…"},
	"progress.answering":   {"Writing the answer…", "답을 쓰는 중…"},
	"progress.tool":        {"Using {tool}…", "{tool} 사용 중…"},
	// A built-in tool says what it does; an MCP server's keeps its name.
	"progress.using.retrieve_docs":    {"Searching your documents…", "문서에서 찾는 중…"},
	"progress.using.calculator":       {"Calculating…", "계산하는 중…"},
	"progress.using.web_search":       {"Searching the web…", "웹에서 찾는 중…"},
	"progress.using.search_wikipedia": {"Looking it up in Wikipedia…", "위키백과에서 찾는 중…"},
	"progress.using.get_weather":      {"Checking the weather…", "날씨를 확인하는 중…"},
	"progress.using.get_time":         {"Checking the time…", "시간을 확인하는 중…"},
	"progress.using.read_file":        {"Reading a file…", "파일을 읽는 중…"},
	"progress.using.read_memory":      {"Recalling what you told me…", "기억해 둔 내용을 찾는 중…"},
	"progress.using.run_python":       {"Running Python code…", "파이썬 코드를 실행하는 중…"},
	"progress.retry":                  {"The model call failed ({error}); trying again…", "모델 호출이 실패해 다시 시도하는 중… ({error})"},
	"progress.mcpStarting":            {"Starting MCP server {server}…", "MCP 서버 {server} 시작하는 중…"},
	"progress.mcpFailed":              {"MCP server {server} did not start ({error}); going on without its tools", "MCP 서버 {server} 시작 실패({error}) — 이 서버의 도구 없이 계속합니다"},
	"progress.mcpInvalid": {"MCP server {server} not started (its entry in mcp.json has mistakes; see Settings › MCP servers); going on without its tools",
		"MCP 서버 {server} 시작 안 함(mcp.json의 항목에 잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — 이 서버의 도구 없이 계속합니다"},
	// mcp.json could not be read at all: why (its line and column when it
	// is not JSON), and the servers still in use from before the edit.
	"progress.mcpUnreadable": {"MCP servers could not be read (mcp.json has a mistake; see Settings › MCP servers); going on without their tools",
		"MCP 서버 설정을 읽지 못함(mcp.json에 잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — MCP 서버의 도구 없이 계속합니다"},
	"progress.mcpUnreadable.syntax": {"MCP servers could not be read (mcp.json is not valid JSON at line {line}, column {column}; see Settings › MCP servers); going on without their tools",
		"MCP 서버 설정을 읽지 못함(mcp.json의 {line}번째 줄 {column}번째 글자에서 JSON 형식이 잘못됨 — 설정 › MCP 서버에서 확인) — MCP 서버의 도구 없이 계속합니다"},
	"progress.mcpUnreadable.kept": {"mcp.json could not be read again (it has a mistake; see Settings › MCP servers); the MCP servers as set up before the edit keep running: {servers}",
		"mcp.json을 다시 읽지 못함(잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — 고치기 전 설정대로 MCP 서버를 계속 실행합니다: {servers}"},
	"progress.mcpUnreadable.syntax.kept": {"mcp.json could not be read again (it is not valid JSON at line {line}, column {column}; see Settings › MCP servers); the MCP servers as set up before the edit keep running: {servers}",
		"mcp.json을 다시 읽지 못함({line}번째 줄 {column}번째 글자에서 JSON 형식이 잘못됨 — 설정 › MCP 서버에서 확인) — 고치기 전 설정대로 MCP 서버를 계속 실행합니다: {servers}"},
}

// mcpReasonText words why an MCP server did not start, for
// progress.mcpFailed's {error}: the same as the window's "mcp.reason.*"
// (a test holds them equal), so a Korean line carries no English error.
// A failure without a known reason says "mcp.reason.failed" (the error
// itself is in the log and in Settings).
var mcpReasonText = map[string][2]string{
	"mcp.reason.command_missing": {"program not found: {command}", "실행할 프로그램이 없음: {command}"},
	"mcp.reason.command_failed":  {"the program could not be run: {command}", "프로그램을 실행할 수 없음: {command}"},
	"mcp.reason.exited":          {"the program quit before it answered: {command}", "응답하기 전에 프로그램이 끝남: {command}"},
	"mcp.reason.timeout":         {"no answer within {seconds} s", "{seconds}초 안에 응답 없음"},
	"mcp.reason.unreachable":     {"no MCP server answered at {url}", "{url}에서 MCP 서버가 응답하지 않음"},
	"mcp.reason.no_tools":        {"it did not list its tools", "도구 목록을 받지 못함"},
	"mcp.reason.stopped":         {"it stopped", "실행 중에 멈춤"},
	"mcp.reason.failed":          {"an error; see Settings › MCP servers", "오류 — 설정 › MCP 서버에서 확인"},
}

// retryText words why a model call is made again (model_retry's error
// code), for progress.retry's {error}: the window's "error.<code>" titles
// (a test holds them equal), without their final full stop. A code not
// here stays as it is.
var retryText = map[string][2]string{
	"error.timeout":            {"The model took too long to answer.", "모델의 응답이 너무 오래 걸렸습니다."},
	"error.ollama_error":       {"Ollama reported an error.", "Ollama에서 오류가 났습니다."},
	"error.stream_dropped":     {"The reply was cut off before it finished.", "응답이 끝나기 전에 끊겼습니다."},
	"error.ollama_unreachable": {"Ollama is not reachable.", "Ollama에 연결할 수 없습니다."},
}

// retryWhy is progress.retry's blanks with {error} worded.
func retryWhy(args map[string]string, lang int) map[string]string {
	text, ok := retryText["error."+args["error"]]
	if !ok {
		return args
	}
	return map[string]string{"error": strings.TrimRight(text[lang], ".")}
}

// mcpWhy is progress.mcpFailed's blanks with {error} worded from the
// trace's reason and its particulars.
func mcpWhy(args map[string]string, lang int) map[string]string {
	out := map[string]string{"server": args["server"]}
	why, ok := mcpReasonText["mcp.reason."+args["reason"]]
	if !ok {
		why = mcpReasonText["mcp.reason.failed"]
	}
	text := why[lang]
	for k, v := range args {
		if k != "error" && k != "server" && k != "reason" {
			text = strings.ReplaceAll(text, "{"+k+"}", v)
		}
	}
	if strings.Contains(text, "{") && strings.Contains(text, "}") { // a particular missing
		text = mcpReasonText["mcp.reason.failed"][lang]
	}
	out["error"] = text
	return out
}

// terminalPlaces swaps the window's place in a progress line (its
// Settings, where the window shows mcp.json's mistakes) for the command
// that shows them in a terminal, which has no Settings: the sentences stay
// the window's (a test holds them equal), the place is the terminal's.
var terminalPlaces = strings.NewReplacer(
	"see Settings › MCP servers", "see `wayfinder mcp list`",
	"설정 › MCP 서버에서 확인", "`wayfinder mcp list`로 확인",
)

// progressKey is the sentence a trace event is shown with, and its blanks;
// "" for events that are no progress a person waits on (node boundaries,
// the answer itself, which streams on standard output; a tool's result
// has lines of its own, resultLines).
func progressKey(ev api.TraceEvent) (string, map[string]string) {
	switch ev.Code {
	case api.TraceRouting:
		return "progress.routing", nil
	case api.TracePlanSplitting:
		return "progress.planning", nil
	case api.TracePlanRevising:
		return "progress.revising", nil
	case api.TraceToolFinding:
		return "progress.step", ev.Args
	case api.TraceStepMissing:
		return "progress.stepMissing", ev.Args
	case api.TraceStepRecommend:
		return "progress.stepDone", ev.Args
	case api.TraceGuideWriting:
		return "progress.guide", nil
	case api.TraceModelRetry:
		return "progress.retry", ev.Args
	case api.TraceMCPStarting:
		return "progress.mcpStarting", ev.Args
	case api.TraceMCPFailed:
		return "progress.mcpFailed", ev.Args
	case api.TraceMCPInvalid: // its mistakes (English) stay out: `mcp list` words them
		return "progress.mcpInvalid", map[string]string{"server": ev.Args["server"]}
	case api.TraceMCPUnreadable: // the mistake's English stays out: `mcp list` words it
		return "progress.mcpUnreadable" + agent.Variant(ev.Code, ev.Args),
			map[string]string{"line": ev.Args["line"], "column": ev.Args["column"], "servers": ev.Args["servers"]}
	}
	if ev.Kind == api.TraceToolSelected && ev.Tool != "" && ev.Code == "" {
		return "progress.tool", map[string]string{"tool": ev.Tool}
	}
	// The answer's first words can be many seconds away on a local model
	// (the prompt with the passages found is read first): without this
	// line the terminal still said "Searching your documents…" meanwhile.
	if ev.Kind == api.TraceNodeStarted && ev.Node == "answer" {
		return "progress.answering", nil
	}
	return "", nil
}

// progressPrinter writes a turn's progress lines with the time since the
// command started ("Step 2 of 4: finding a tool for “Edit the video”… 12 s").
// The reply streams on standard output meanwhile: a line never starts in
// the middle of the reply's text on a terminal that shows both.
type progressPrinter struct {
	w     io.Writer
	ko    bool
	start time.Time
	now   func() time.Time

	mu      sync.Mutex
	midLine bool      // the reply's text so far does not end with a newline
	steps   bool      // a sub-task is being recommended: its line says enough
	last    string    // the key of the line printed last
	said    string    // the sentence printed last, "" after a tool's result
	saidAt  time.Time // when it was printed
}

// sayAgainAfter is how long a sentence said already stays unsaid when it
// comes again: then it is printed again with the time it has taken, so a
// person waiting on a step that searches for minutes sees it is alive.
const sayAgainAfter = 30 * time.Second

func newProgressPrinter(w io.Writer, lang string) *progressPrinter {
	return &progressPrinter{w: w, ko: lang == "ko", start: time.Now(), now: time.Now}
}

// lang is the index of the [2]string tables for the printer's language.
func (p *progressPrinter) lang() int {
	if p.ko {
		return 1
	}
	return 0
}

// text notes the reply's text as it streams.
func (p *progressPrinter) text(s string) {
	if s == "" {
		return
	}
	p.mu.Lock()
	p.midLine = !strings.HasSuffix(s, "\n")
	p.mu.Unlock()
}

// event prints the line of a trace event, if it has one, and what a tool
// call came back with (resultLines), as the window's trace shows it.
func (p *progressPrinter) event(ev api.TraceEvent) {
	key, args := progressKey(ev)
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev.Kind == api.TraceToolResult {
		p.printResult(ev, p.lang())
		return
	}
	switch key {
	case "":
		return
	case "progress.step", "progress.stepMissing":
		p.steps = true
	case "progress.guide":
		p.steps = false
	case "progress.answering":
		if p.last == key || p.midLine { // said already, or the answer is streaming
			return
		}
	case "progress.tool":
		if p.steps { // the scout's searches: its step's line says what it does
			return
		}
		if _, ok := progressText["progress.using."+args["tool"]]; ok {
			key = "progress.using." + args["tool"]
		}
	}
	lang := p.lang()
	switch key {
	case "progress.tool": // a built-in tool without its own sentence: its window name
		args = map[string]string{"tool": toolName(args["tool"], lang)}
	case "progress.mcpFailed":
		args = mcpWhy(args, lang)
	case "progress.retry":
		args = retryWhy(args, lang)
	}
	line := progressText[key][lang]
	for k, v := range args {
		line = strings.ReplaceAll(line, "{"+k+"}", v)
	}
	line = terminalPlaces.Replace(line)
	// The same sentence again at once says nothing new: a step still
	// looking for what it misses printed "Step 2 of 2: still looking
	// for …" once for each search; a retry is a new attempt and is said.
	// Said sayAgainAfter ago or more, it is said again with its new time.
	now := p.now()
	if line == p.said && key != "progress.retry" && now.Sub(p.saidAt) < sayAgainAfter {
		return
	}
	p.last, p.said, p.saidAt = key, line, now
	lead := ""
	if p.midLine {
		lead, p.midLine = "\n", false
	}
	// On a terminal wrapped at spaces to its width, the lines after the
	// first indented, as the other sentences of the command are.
	fmt.Fprintln(p.w, lead+wrapped(line+" "+durationText(now.Sub(p.start), lang), columns(p.w), "", "  "))
}

// durationText says how long something has taken, in whole seconds, in
// language lang: "12 s", "1 min 5 s", "1 h 2 min" ("12초", "1분 5초",
// "1시간 2분"), the units the window's "chat.detailsSeconds" writes. A
// Korean terminal read "0 s" after its Korean sentence, and a long turn
// counted "754 s" in both languages.
func durationText(d time.Duration, lang int) string {
	units := [2][3]string{{"h", "min", "s"}, {"시간", "분", "초"}}[lang]
	sep := [2]string{" ", ""}[lang]
	s := max(int(d/time.Second), 0)
	h, m, sec := s/3600, s/60%60, s%60
	var parts []string
	add := func(n int, unit string) { parts = append(parts, strconv.Itoa(n)+sep+unit) }
	switch {
	case h > 0:
		add(h, units[0])
		if m > 0 {
			add(m, units[1])
		}
	case m > 0:
		add(m, units[1])
		if sec > 0 {
			add(sec, units[2])
		}
	default:
		add(sec, units[2])
	}
	return strings.Join(parts, " ")
}
