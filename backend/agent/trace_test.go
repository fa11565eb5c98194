package agent

import (
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"

	"github.com/wayfinder-app/wayfinder/backend/api"
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
