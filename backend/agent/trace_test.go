package agent

import (
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// The English of every trace sentence is the UI's English, word for word,
// so the trace reads the same in the app and in logs or API clients. The
// frontend's type check makes sure every code has a catalog entry.
func TestTraceSentencesMatchTheUICatalog(t *testing.T) {
	catalog := i18ntest.Catalog(t, "en")
	n := 0
	for key, want := range catalog {
		code, ok := strings.CutPrefix(key, "trace.say.")
		if !ok {
			continue
		}
		n++
		if got := english(api.TraceCode(code)); got != want {
			t.Errorf("%s: Go says %q, en.json %q", code, got, want)
		}
	}
	if n == 0 {
		t.Fatal("no trace.say.* entries in en.json")
	}
}

func TestTraceLineFillsItsBlanks(t *testing.T) {
	for _, tt := range []struct {
		line line
		want string
	}{
		{say(api.TraceToolFinding, "number", "2", "step", "촬영 장비 고르기"), "Finding a tool for step 2: 촬영 장비 고르기"},
		{say(api.TraceMemories, "count", "3"), "Recalled 3 memories"},
		{say(api.TraceMemories, "count", "1"), "Recalled 1 memory"},
		{say(api.TracePlanApproved, "count", "1"), "Plan approved (1 step)"},
		{say(api.TraceSummarizing, "count", "1"), "Summarising the oldest message to fit the model's context"},
		{say(api.TraceRouting), "Deciding how to handle the message"},
	} {
		ev := tt.line.event(api.TracePlanning, "router")
		if ev.Text != tt.want || ev.Code != tt.line.code || ev.Node != "router" {
			t.Errorf("%s: event %+v, want text %q", tt.line.code, ev, tt.want)
		}
	}
	if ev := (line{}).event(api.TraceGenerating, "answer"); ev.Text != "" || ev.Code != "" {
		t.Errorf("a zero line has text: %+v", ev)
	}
}

// Every result of a built-in tool is said in the trace by a code the
// window words in the person's language; the model's English (an error,
// "Nothing remembered about …", "File: …") is never the step's line. Only
// a figure or a program's output is shown as it is.
func TestToolResultsAreSaidByTheirCode(t *testing.T) {
	doc := func(title string) api.Source { return api.Source{ID: title, Title: title} }
	for _, tt := range []struct {
		name    string
		out     tools.Outcome
		code    api.TraceCode
		args    map[string]string
		text    string
		sources int
	}{
		{"failed", tools.Outcome{Err: errors.New("no Wikipedia is set up"), Result: tools.Result{Text: "Error: no Wikipedia is set up"}},
			api.TraceToolFailed, map[string]string{"error": "no Wikipedia is set up"}, "Did not work; the model is told why", 0},
		{"nothing", tools.Outcome{Result: tools.Result{Text: `Nothing remembered about "카메라".`, NoMatch: "카메라"}},
			api.TraceNoMatches, map[string]string{"query": "카메라"}, "Nothing matched “카메라”", 0},
		{"said", tools.Outcome{Result: tools.Result{Text: "File: /home/a/plan.md\n\n# Plan", Said: tools.Said{Code: api.TraceFileRead, Args: map[string]string{"path": "/home/a/plan.md"}}}},
			api.TraceFileRead, map[string]string{"path": "/home/a/plan.md"}, "Read /home/a/plan.md", 0},
		{"one memory", tools.Outcome{Result: tools.Result{Text: "1. [preference] 짧은 영상", Said: tools.Said{Code: api.TraceMemoriesFound, Args: map[string]string{"count": "1"}}}},
			api.TraceMemoriesFound, map[string]string{"count": "1"}, "Found 1 memory", 0},
		{"passages", tools.Outcome{Result: tools.Result{Text: "[1] 연차 규정.pdf p. 3\n…", Sources: []api.Source{doc("연차 규정.pdf"), doc("연차 규정.pdf"), doc("복지.hwp"), doc("a.md"), doc("b.md")}}},
			api.TraceFoundIn, map[string]string{"titles": "연차 규정.pdf, 복지.hwp, a.md, …"}, "Found: 연차 규정.pdf, 복지.hwp, a.md, …", 5},
		{"passages without titles", tools.Outcome{Result: tools.Result{Text: "[1] passage", Sources: []api.Source{{ID: "x"}}}},
			"", nil, "[1] passage", 1},
		{"a figure", tools.Outcome{Result: tools.Result{Text: "42"}}, "", nil, "42", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.out.Call = tools.Call{Name: "some_tool"}
			ev := resultEvent(tt.out, "tools")
			if ev.Kind != api.TraceToolResult || ev.Node != "tools" || ev.Tool != "some_tool" || ev.Code != tt.code || ev.Text != tt.text || len(ev.Sources) != tt.sources {
				t.Fatalf("event = %+v", ev)
			}
			if len(ev.Args) != len(tt.args) {
				t.Fatalf("args = %v, want %v", ev.Args, tt.args)
			}
			for k, v := range tt.args {
				if ev.Args[k] != v {
					t.Errorf("args[%s] = %q, want %q", k, ev.Args[k], v)
				}
			}
		})
	}
}
