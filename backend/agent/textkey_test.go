package agent

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"
)

func TestLineKey(t *testing.T) {
	for _, tc := range []struct {
		name, text, lang, want string
		args                   map[string]string
	}{
		{"cancelled in Korean", msgCancelled.ko, "ko", keyCancelled, nil},
		{"cancelled in English", msgCancelled.en, "en", keyCancelled, nil},
		{"no answer", msgNoAnswer.en, "en", keyNoAnswer, nil},
		{"empty message", msgEmpty.ko, "ko", keyEmpty, nil},
		{"out of scope", msgOutOfScope.en, "en", keyOutOfScope, nil},
		{"the model's words", "Hello!", "en", "", nil},
		{"a line of the other language", msgCancelled.en, "ko", "", nil},
		{"remember failed", msgRememberFailed.ko, "ko", keyRememberFail, nil},
		{"remembered, with what", fmt.Sprintf(msgRemembered.en, "I like tea"), "en", keyRemembered, map[string]string{"what": "I like tea"}},
		{"remembered in Korean", fmt.Sprintf(msgRemembered.ko, "커피를 좋아해"), "ko", keyRemembered, map[string]string{"what": "커피를 좋아해"}},
		{"only the start of a line", "Got it, I'll remember: “", "en", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, args := lineKey(tc.text, tc.lang)
			if got != tc.want || !maps.Equal(args, tc.args) {
				t.Fatalf("lineKey(%q, %q) = %q %v, want %q %v", tc.text, tc.lang, got, args, tc.want, tc.args)
			}
		})
	}
}

// The window's words for each key are the agent's, so a line stored before
// it had a key (matched by its words) and one shown from its key read the
// same; a phrase changed here without the window fails.
func TestWindowHasTheLines(t *testing.T) {
	blank := func(p phrases, name string) phrases {
		return phrases{ko: strings.ReplaceAll(p.ko, "%s", "{"+name+"}"), en: strings.ReplaceAll(p.en, "%s", "{"+name+"}")}
	}
	withTool := func(p phrases) phrases { return blank(p, "tool") }
	want := map[string]phrases{
		keyPlanIntro:        msgPlanIntro,
		keyPlanFallback:     {ko: msgPlanFallback.ko + " " + msgPlanIntro.ko, en: msgPlanFallback.en + " " + msgPlanIntro.en},
		keyPlanRecovered:    {ko: msgPlanRecovered.ko + " " + msgPlanIntro.ko, en: msgPlanRecovered.en + " " + msgPlanIntro.en},
		keyPlanAgain:        msgPlanAgain,
		keyPlanFailed:       msgPlanFailed,
		keyPlanStopped:      msgPlanStopped,
		keyPlanStoppedNone:  msgPlanStoppedNone,
		keyPlanStoppedGuide: msgPlanStoppedGuide,
		keyToolAsk:          withTool(msgToolAsk),
		keyToolAgain:        withTool(msgToolAgain),
		keyToolStopped:      withTool(msgToolStopped),
		keyCancelled:        msgCancelled,
		keyNoAnswer:         msgNoAnswer,
		keyEmpty:            msgEmpty,
		keyOutOfScope:       msgOutOfScope,
		keyRememberFail:     msgRememberFailed,
		keyRemembered:       blank(msgRemembered, "what"),
	}
	for _, lang := range []string{"en", "ko"} {
		catalog := i18ntest.Catalog(t, lang)
		for key, p := range want {
			if got := catalog["line."+key]; got != p.in(lang) {
				t.Errorf("%s.json line.%s = %q, want %q", lang, key, got, p.in(lang))
			}
		}
	}
}
