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
	catalogs := cliCatalogs()
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

// cliCatalogs are the command line's texts, each an English and a Korean.
func cliCatalogs() map[string]map[string][2]string {
	catalogs := map[string]map[string][2]string{
		"askText": askText, "doctorText": doctorText, "reasonText": reasonText, "errorText": errorText, "cliHintText": cliHintText,
		"mcpProblemText": mcpProblemText, "cliText": cliText, "mistakeText": mistakeText, "progressText": progressText, "mcpReasonText": mcpReasonText, "retryText": retryText,
	}
	for name, s := range map[string]startupText{"startup busy": startupTexts["ko"].busy, "startup other": startupTexts["ko"].other} {
		catalogs[name] = map[string][2]string{"heading": {"", s.Heading}, "problem": {"", s.Problem}, "next": {"", string(s.Next)}}
	}
	return catalogs
}

// A size is written "12 MB" in both languages, as the window writes it
// (frontend/src/i18n/i18n.test.ts holds its catalogs to the same): the
// Korean said "{max}MB" in some lines and "{max} MB" in others.
func TestSizesKeepASpaceBeforeTheirUnit(t *testing.T) {
	stuck := regexp.MustCompile(`(\{\w+\}|%[0-9.]*[dfsv]|\d)(B|KB|MB|GB|KiB|MiB|GiB)\b`)
	n := 0
	for name, catalog := range cliCatalogs() {
		for key, text := range catalog {
			for lang, s := range text {
				n++
				if stuck.MatchString(s) {
					t.Errorf("%s %s [%d]: %q writes a unit against its figure: write \"12 MB\"", name, key, lang, s)
				}
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d texts checked", n)
	}
}
