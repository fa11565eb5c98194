package app

import (
	"regexp"
	"testing"
)

// The command line is Wayfinder's own voice, as the window's notices are:
// its Korean ends statements in 합니다체 ("시작하지 못했습니다"), never
// 해요체 ("못했어요"), so `wayfinder mcp list` reads like Settings › MCP
// servers. Imperatives (-하세요) and questions (…할까요?) stay; the rule is
// written in frontend/src/i18n/register.test.ts, which holds ko.json.
func TestTheCommandLineSpeaksOneRegister(t *testing.T) {
	// A word ending in 요 before punctuation, a space, a bracket or the
	// end; not before "?" (a question).
	haeyo := regexp.MustCompile(`[가-힣]*요([.!…,:;)(\]\s"”’—]|$)`)
	allowed := regexp.MustCompile(`(세요|필요|중요|주요|개요)$`)
	catalogs := map[string]map[string][2]string{
		"askText": askText, "doctorText": doctorText, "reasonText": reasonText, "errorText": errorText, "cliHintText": cliHintText,
		"mcpProblemText": mcpProblemText, "cliText": cliText, "mistakeText": mistakeText, "progressText": progressText, "mcpReasonText": mcpReasonText, "retryText": retryText,
	}
	for name, s := range map[string]startupText{"startup busy": startupTexts["ko"].busy, "startup other": startupTexts["ko"].other} {
		catalogs[name] = map[string][2]string{"heading": {"", s.Heading}, "problem": {"", s.Problem}, "next": {"", string(s.Next)}}
	}
	n := 0
	for name, catalog := range catalogs {
		for key, text := range catalog {
			n++
			for _, m := range haeyo.FindAllStringSubmatch(text[1], -1) {
				word := m[0][:len(m[0])-len(m[1])]
				if !allowed.MatchString(word) {
					t.Errorf("%s %s: 해요체 %q in %q: write -습니다/-입니다/-됩니다", name, key, word, text[1])
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d texts checked", n)
	}
}
