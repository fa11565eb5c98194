package app

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
)

// resultText words what a tool call came back with, as the window's live
// trace and a reply's Details do ("trace.say.<code>" in frontend/src/i18n;
// a test holds them equal): that a search found nothing, what was found
// and where, that the call failed (its cause, in English, on a line of its
// own under it, as the window shows it apart), and a built-in tool's own
// line. "trace.clock" writes get_time's answer as the window does.
var resultText = map[string][2]string{
	"trace.say.no_matches":         {"Nothing matched “{query}”", "“{query}”에 맞는 내용이 없음"},
	"trace.say.tool_failed":        {"Did not work; the model is told why", "실패함 — 모델에게 이유를 알림"},
	"trace.say.found_in":           {"Found: {titles}", "찾은 항목: {titles}"},
	"trace.say.file_read":          {"Read {path}", "파일을 읽음: {path}"},
	"trace.say.memories_found":     {"Found {count} memories", "기억 {count}개를 찾음"},
	"trace.say.memories_found.one": {"Found {count} memory", "기억 {count}개를 찾음"},
	"trace.say.time_told":          {"The time: {time} ({zone})", "현재 시각: {time} ({zone})"},
	"trace.say.weather_told":       {"Got the weather for {place}", "{place} 날씨를 받아 옴"},
	"trace.clock":                  {"{day} {month} {year}, {hour}:{minute}", "{year}년 {month}월 {day}일 {hour}:{minute}"},
}

// resultCut is how much of a result no sentence words (a figure, a
// program's output, an MCP tool's text) a line shows, in characters, and
// of a failure's cause: enough to see what came back, not the whole of it
// (the reply's Details and `--json` have it all).
const resultCut = 160

// resultLines are the lines of a tool call's result (a trace event of
// kind tool_result) in language lang: "  {tool}: {what}", and under a
// failure its cause. Every value from the tool (titles, a query, a path,
// a program's output) is made one line of text by oneLine: a title from
// the web cannot move the cursor or print a line that looks like
// Wayfinder's own.
func resultLines(ev api.TraceEvent, lang int) []string {
	what := ""
	key := "trace.say." + string(ev.Code)
	if v := agent.Variant(ev.Code, ev.Args); v != "" {
		if _, ok := resultText[key+v]; ok {
			key += v
		}
	}
	if text, ok := resultText[key]; ok && ev.Code != "" {
		args := make(map[string]string, len(ev.Args))
		for k, v := range ev.Args {
			args[k] = oneLine(v)
		}
		if ev.Code == api.TraceTimeTold {
			args["time"] = clockTime(args["time"], lang)
		}
		what = fill(text[lang], args)
	} else { // a result no sentence words: what came back, cut short
		what = cutText(oneLine(ev.Text), resultCut)
		if what == "" {
			what = "—"
		}
	}
	lines := []string{"  " + oneLine(toolName(ev.Tool, lang)) + ": " + what}
	if ev.Code == api.TraceToolFailed {
		if cause := cutText(oneLine(ev.Args["error"]), resultCut); cause != "" {
			lines = append(lines, "    "+cause)
		}
	}
	return lines
}

var rfc3339Minute = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})`)

// englishMonths name the months as the window's English does (28 November
// 2026); Korean numbers them (11월).
var englishMonths = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

// clockTime is get_time's answer (RFC 3339, in the zone asked for) as the
// window writes it ("2026년 11월 28일 14:05", "28 November 2026, 14:05"),
// read from the text so the wall clock of that zone is shown; the text as
// it is when it is no such time.
func clockTime(iso string, lang int) string {
	m := rfc3339Minute.FindStringSubmatch(iso)
	if m == nil {
		return iso
	}
	month, _ := strconv.Atoi(m[2])
	day, _ := strconv.Atoi(m[3])
	if month < 1 || month > 12 {
		return iso
	}
	name := strconv.Itoa(month)
	if lang == 0 {
		name = englishMonths[month-1]
	}
	return fill(resultText["trace.clock"][lang], map[string]string{
		"year": m[1], "month": name, "day": strconv.Itoa(day), "hour": m[4], "minute": m[5]})
}

// cutText is s cut to n characters, with "…" when it was longer.
func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}

// printResult writes the lines of a tool call's result under the progress
// lines, starting on a line of its own if the reply's text is mid-line.
func (p *progressPrinter) printResult(ev api.TraceEvent, lang int) {
	lead := ""
	if p.midLine {
		lead, p.midLine = "\n", false
	}
	fmt.Fprintf(p.w, "%s%s\n", lead, strings.Join(resultLines(ev, lang), "\n"))
	p.said = ""
}
