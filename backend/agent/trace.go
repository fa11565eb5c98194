package agent

import (
	"maps"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// line is a sentence of the live trace. The UI words it from its code and
// arguments in the person's language; the event's Text keeps the English
// for logs and for API clients that do not translate.
type line struct {
	code api.TraceCode
	args map[string]string
}

// say makes a line from its code and name, value pairs for its blanks.
func say(code api.TraceCode, kv ...string) line {
	l := line{code: code}
	if len(kv) > 0 {
		l.args = make(map[string]string, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			l.args[kv[i]] = kv[i+1]
		}
	}
	return l
}

// english is each code's sentence with {placeholders}, the same as
// "trace.say.<code>" in frontend/src/i18n/en.json (a test holds them equal).
func english(code api.TraceCode) string {
	switch code {
	case api.TraceRouting:
		return "Deciding how to handle the message"
	case api.TraceRouted:
		return "Route: {route} ({reason})"
	case api.TraceMemories:
		return "Recalled {count} memories"
	case api.TraceMemories + one:
		return "Recalled {count} memory"
	case api.TraceRepeatedCall:
		return "Skipped a repeated call"
	case api.TraceEmptyReply:
		return "Empty reply: asking again without tools"
	case api.TraceModelRetry:
		return "The model call failed ({error}); attempt {attempt}"
	case api.TraceJSONRepair:
		return "The model's JSON could not be used; asking it to repair the reply"
	case api.TraceJSONDefault:
		return "The model's JSON could not be repaired; using a safe default"
	case api.TracePlanRecovered:
		return "The model's JSON could not be repaired; the plan is the {count} complete steps recovered from its broken reply"
	case api.TracePlanSplitting:
		return "Splitting the task into steps"
	case api.TracePlanRevising:
		return "Revising the plan: {feedback}"
	case api.TracePlanApproved:
		return "Plan approved ({count} steps)"
	case api.TracePlanApproved + one:
		return "Plan approved ({count} step)"
	case api.TraceToolFinding:
		return "Finding a tool for step {number}: {step}"
	case api.TraceStepMissing:
		return "{step}: not enough yet, looking for {missing}"
	case api.TraceStepRecommend:
		return "{step}: recommend {tool}"
	case api.TraceIterationLimit:
		return "{step}: stopped after {limit} rounds"
	case api.TraceGuideWriting:
		return "Writing the guide"
	case api.TraceSummarizing:
		return "Summarising the {count} oldest messages to fit the model's context"
	case api.TraceSummarizing + one:
		return "Summarising the oldest message to fit the model's context"
	case api.TraceSummaryFailed:
		return "Could not summarise the {count} oldest messages; the model may not see all of them"
	case api.TraceSummaryFailed + one:
		return "Could not summarise the oldest message; the model may not see it"
	case api.TraceModelFallback:
		return "{model} failed ({reason}); continuing with {fallback}"
	case api.TraceMemorySaved:
		return "Remembered: {text}"
	case api.TraceQueryScrubbed:
		return "Left {count} words from documents or web pages out of the web search: {query}"
	case api.TraceQueryScrubbed + one:
		return "Left {count} word from documents or web pages out of the web search: {query}"
	case api.TraceToolAsk:
		return "Waiting for your approval to run {tool}"
	case api.TraceToolOnce:
		return "{tool}: allowed once"
	case api.TraceToolAlways:
		return "{tool}: allowed from now on"
	case api.TraceToolGranted:
		return "{tool}: allowed earlier for good"
	case api.TraceToolDenied:
		return "{tool}: denied, going on without it"
	case api.TraceNoMatches:
		return "Nothing matched “{query}”"
	case api.TraceToolFailed:
		return "Did not work; the model is told why"
	case api.TraceFoundIn:
		return "Found: {titles}"
	case api.TraceFileRead:
		return "Read {path}"
	case api.TraceMemoriesFound:
		return "Found {count} memories"
	case api.TraceMemoriesFound + one:
		return "Found {count} memory"
	case api.TraceTimeTold:
		return "The time: {time} ({zone})"
	case api.TraceWeatherTold:
		return "Got the weather for {place}"
	case api.TraceMCPStarting:
		return "Starting MCP server {server}"
	case api.TraceMCPStarted:
		return "MCP server {server} started"
	case api.TraceMCPFailed:
		return "MCP server {server} did not start ({error}); going on without its tools"
	case api.TraceMCPInvalid:
		return "MCP server {server} not started (its entry in mcp.json has mistakes; see Settings › MCP servers); going on without its tools"
	case api.TraceMCPUnreadable:
		return "MCP servers could not be read (mcp.json has a mistake; see Settings › MCP servers); going on without their tools"
	case api.TraceMCPUnreadable + syntax:
		return "MCP servers could not be read (mcp.json is not valid JSON at line {line}, column {column}; see Settings › MCP servers); going on without their tools"
	case api.TraceMCPUnreadable + kept:
		return "mcp.json could not be read again (it has a mistake; see Settings › MCP servers); the MCP servers as set up before the edit keep running: {servers}"
	case api.TraceMCPUnreadable + syntax + kept:
		return "mcp.json could not be read again (it is not valid JSON at line {line}, column {column}; see Settings › MCP servers); the MCP servers as set up before the edit keep running: {servers}"
	}
	return string(code)
}

// one suffixes a code whose sentence has a count, for its singular form
// (the UI catalog's "trace.say.<code>.one").
const one = ".one"

// syntax and kept suffix mcp_unreadable's code for its other forms (the
// UI catalog's "trace.say.mcp_unreadable.syntax", ".kept",
// ".syntax.kept"): the line and column of a file that is not JSON, and
// the servers still in use from before the edit.
const (
	syntax = ".syntax"
	kept   = ".kept"
)

// Variant is the suffix of the form of a trace sentence its args call
// for: ".one" for a count of 1, mcp_unreadable's ".syntax" and ".kept";
// "" for its plain form. The window (stepText) and ask's progress lines
// choose the same way.
func Variant(code api.TraceCode, args map[string]string) string {
	switch {
	case code == api.TraceMCPUnreadable:
		v := ""
		if args["case"] == "mcp_syntax" && args["line"] != "" && args["column"] != "" {
			v += syntax
		}
		if args["servers"] != "" {
			v += kept
		}
		return v
	case args["count"] == "1":
		return one
	}
	return ""
}

func (l line) text() string {
	s := english(l.code)
	if v := Variant(l.code, l.args); v != "" {
		if form := english(l.code + api.TraceCode(v)); form != string(l.code)+v {
			s = form
		}
	}
	for k, v := range l.args {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// event is the trace event of the line; a zero line has no text.
func (l line) event(kind api.TraceKind, node string) api.TraceEvent {
	if l.code == "" {
		return api.TraceEvent{Kind: kind, Node: node}
	}
	return api.TraceEvent{Kind: kind, Node: node, Text: l.text(), Code: l.code, Args: l.args}
}

// resultEvent is the live trace's step of a tool's result, said in the
// person's language: that it failed (the error, in English for the
// model, kept apart as its cause), that a search found nothing, what a
// built-in tool found (its Said), or where the passages found come from.
// Only a result none of these word (a figure, a program's or an MCP
// tool's output) shows its text, cut short.
func resultEvent(o tools.Outcome, node string) api.TraceEvent {
	var l line
	switch r, titles := o.Result, sourceTitles(o.Result.Sources, 3); {
	case o.Err != nil:
		l = say(api.TraceToolFailed, "error", cutRunes(o.Err.Error(), 200))
	case r.NoMatch != "":
		l = say(api.TraceNoMatches, "query", cutRunes(r.NoMatch, 120))
	case r.Said.Code != "":
		l = line{code: r.Said.Code, args: maps.Clone(r.Said.Args)}
	case titles != "":
		l = say(api.TraceFoundIn, "titles", titles)
	}
	ev := api.TraceEvent{Kind: api.TraceToolResult, Node: node, Text: cutRunes(o.Result.Text, 200)}
	if l.code != "" {
		ev = l.event(api.TraceToolResult, node)
	}
	ev.Tool, ev.Sources = o.Call.Name, o.Result.Sources
	return ev
}

// sourceTitles names the documents or pages of the first n sources, each
// once, with "…" when there are more.
func sourceTitles(srcs []api.Source, n int) string {
	var titles []string
	seen := map[string]bool{}
	more := false
	for _, s := range srcs {
		t := strings.TrimSpace(s.Title)
		if t == "" {
			t = strings.TrimSpace(s.Source)
		}
		if t == "" || seen[t] {
			continue
		}
		if len(titles) == n {
			more = true
			break
		}
		seen[t] = true
		titles = append(titles, cutRunes(t, 60))
	}
	out := strings.Join(titles, ", ")
	if more {
		out += ", …"
	}
	return out
}
