package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLineKey(t *testing.T) {
	for _, tc := range []struct {
		name, text, lang, want string
	}{
		{"cancelled in Korean", msgCancelled.ko, "ko", keyCancelled},
		{"cancelled in English", msgCancelled.en, "en", keyCancelled},
		{"no answer", msgNoAnswer.en, "en", keyNoAnswer},
		{"empty message", msgEmpty.ko, "ko", keyEmpty},
		{"out of scope", msgOutOfScope.en, "en", keyOutOfScope},
		{"the model's words", "Hello!", "en", ""},
		{"a line of the other language", msgCancelled.en, "ko", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lineKey(tc.text, tc.lang); got != tc.want {
				t.Fatalf("lineKey(%q, %q) = %q, want %q", tc.text, tc.lang, got, tc.want)
			}
		})
	}
}

// The window's words for each key are the agent's, so a line stored before
// it had a key (matched by its words) and one shown from its key read the
// same; a phrase changed here without the window fails.
func TestWindowHasTheLines(t *testing.T) {
	withTool := func(p phrases) phrases {
		return phrases{ko: strings.ReplaceAll(p.ko, "%s", "{tool}"), en: strings.ReplaceAll(p.en, "%s", "{tool}")}
	}
	want := map[string]phrases{
		keyPlanIntro:    msgPlanIntro,
		keyPlanFallback: {ko: msgPlanFallback.ko + " " + msgPlanIntro.ko, en: msgPlanFallback.en + " " + msgPlanIntro.en},
		keyPlanAgain:    msgPlanAgain,
		keyToolAsk:      withTool(msgToolAsk),
		keyToolAgain:    withTool(msgToolAgain),
		keyCancelled:    msgCancelled,
		keyNoAnswer:     msgNoAnswer,
		keyEmpty:        msgEmpty,
		keyOutOfScope:   msgOutOfScope,
	}
	for _, lang := range []string{"en", "ko"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "frontend", "src", "i18n", lang+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var catalog map[string]string
		if err := json.Unmarshal(b, &catalog); err != nil {
			t.Fatal(err)
		}
		for key, p := range want {
			if got := catalog["line."+key]; got != p.in(lang) {
				t.Errorf("%s.json line.%s = %q, want %q", lang, key, got, p.in(lang))
			}
		}
	}
}
