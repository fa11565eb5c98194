package agent

import (
	"fmt"
	"strings"
	"testing"
)

// Line words every key as the agent wrote it, in both languages (the
// export rewords stored lines with it), and knows no key it did not write.
func TestLineWordsEveryKey(t *testing.T) {
	for _, lang := range []string{"en", "ko"} {
		for _, tc := range []struct {
			key  string
			args map[string]string
			want string
		}{
			{keyPlanIntro, nil, msgPlanIntro.in(lang)},
			{keyPlanFallback, nil, msgPlanFallback.in(lang) + " " + msgPlanIntro.in(lang)},
			{keyPlanRecovered, nil, msgPlanRecovered.in(lang) + " " + msgPlanIntro.in(lang)},
			{keyPlanAgain, nil, msgPlanAgain.in(lang)},
			{keyPlanFailed, nil, msgPlanFailed.in(lang)},
			{keyPlanStoppedNone, nil, msgPlanStoppedNone.in(lang)},
			{keyPlanStoppedGuide, nil, msgPlanStoppedGuide.in(lang)},
			{keyPlanStopped, map[string]string{"done": "“a”", "left": "“b”, “c”"},
				strings.NewReplacer("{done}", "“a”", "{left}", "“b”, “c”").Replace(msgPlanStopped.in(lang))},
			{keyToolAsk, map[string]string{"tool": "web_search"}, fmt.Sprintf(msgToolAsk.in(lang), "web_search")},
			{keyToolAgain, map[string]string{"tool": "web_search"}, fmt.Sprintf(msgToolAgain.in(lang), "web_search")},
			{keyToolStopped, map[string]string{"tool": "web_search"}, fmt.Sprintf(msgToolStopped.in(lang), "web_search")},
			{keyCancelled, nil, msgCancelled.in(lang)},
			{keyNoAnswer, nil, msgNoAnswer.in(lang)},
			{keyEmpty, nil, msgEmpty.in(lang)},
			{keyOutOfScope, nil, msgOutOfScope.in(lang)},
			{keyRemembered, map[string]string{"what": "tea %s"}, fmt.Sprintf(msgRemembered.in(lang), "tea %s")},
			{keyRememberFail, nil, msgRememberFailed.in(lang)},
		} {
			got, ok := Line(tc.key, tc.args, lang)
			if !ok || got != tc.want {
				t.Errorf("Line(%s, %s) = %q, %v; want %q", tc.key, lang, got, ok, tc.want)
			}
			// What lineKey reads back from a line it knows is this key.
			if k, args := lineKey(got, lang); k != "" && (k != tc.key || fmt.Sprint(args) != fmt.Sprint(tc.args)) {
				t.Errorf("lineKey(Line(%s, %s)) = %s %v", tc.key, lang, k, args)
			}
		}
		for _, bad := range []struct {
			key  string
			args map[string]string
		}{{"", nil}, {"no_such_key", nil}, {keyToolAsk, nil}, {keyRemembered, map[string]string{"tool": "x"}}, {keyPlanStopped, map[string]string{"done": "“a”"}}} {
			if got, ok := Line(bad.key, bad.args, lang); ok {
				t.Errorf("Line(%q, %v, %s) = %q, want not ok", bad.key, bad.args, lang, got)
			}
		}
	}
}
