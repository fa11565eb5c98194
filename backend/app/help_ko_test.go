package app

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// everyHelp is the arguments of every --help the command line has.
func everyHelp() [][]string {
	helps := [][]string{{"--help"}, {"help"}}
	for _, c := range commands() {
		helps = append(helps, []string{c.name, "--help"})
	}
	for sub := range kbUsage {
		helps = append(helps, []string{"kb", sub, "--help"})
	}
	return append(helps, []string{"memory", "add", "--help"}, []string{"memory", "rm", "--help"}, []string{"mcp", "add", "--help"}, []string{"mcp", "list", "--help"}, []string{"folders", "add", "--help"}, []string{"folders", "list", "--help"})
}

// The kind of value a flag takes is said in the help's language, in
// every command's help: "-top 정수", "-data-dir 문자열" in Korean, where
// they read "-top int" among Korean descriptions; English keeps the flag
// package's words, and a placeholder named in a description (`ID`) stays
// as typed in both.
func TestHelpSaysValueKindsInItsLanguage(t *testing.T) {
	flagLine := regexp.MustCompile(`^  -([a-z0-9-]+)(?: (\S+))?(?:\t|$)`)
	for _, tc := range []struct {
		lang  string
		kinds []string
	}{
		{"ko_KR.UTF-8", []string{"문자열", "정수", "실수", "기간", "값"}},
		{"en_US.UTF-8", []string{"string", "int", "float", "duration", "value"}},
	} {
		t.Run(tc.lang[:2], func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			dir := t.TempDir()
			seen := map[string]bool{}
			for _, args := range everyHelp() {
				_, out, _ := wayfinder(t, append([]string{"--data-dir", dir}, args...)...)
				for _, line := range strings.Split(out, "\n") {
					m := flagLine.FindStringSubmatch(line)
					if m == nil || m[2] == "" {
						continue
					}
					seen[m[2]] = true
					if !slices.Contains(tc.kinds, m[2]) && m[2] != strings.ToUpper(m[2]) {
						t.Errorf("%v: -%s takes %q, want one of %v or a placeholder", args, m[1], m[2], tc.kinds)
					}
				}
			}
			// The kinds the commands have now, so that the check above
			// is not vacuous.
			for _, k := range tc.kinds[:3] {
				if !seen[k] {
					t.Errorf("no flag takes %q: seen %v", k, seen)
				}
			}
		})
	}
}

// In a Korean terminal every command's --help says what each command and
// each flag does in Korean: a line a person reads has Hangul in it; only
// the syntax (wayfinder kb import PATH..., -data-dir string) stays as it
// is typed. All of it was English.
func TestHelpIsKoreanInKorean(t *testing.T) {
	t.Setenv("LC_ALL", "ko_KR.UTF-8")
	dir := t.TempDir()
	for _, args := range everyHelp() {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir}, args...)...)
			if code != 0 || errOut != "" || out == "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			for _, line := range strings.Split(out, "\n") {
				read := strings.TrimSpace(line)
				if i := strings.Index(read, "\t"); strings.HasPrefix(read, "-") {
					if i < 0 {
						continue // -flag kind: as typed
					}
					read = read[i+1:] // -v<TAB>what it does
				}
				if i := strings.LastIndex(read, " (기본값: "); i > 0 {
					read = read[:i] // the default's word is not the description's
				}
				if read == "" || strings.HasPrefix(read, "wayfinder ") {
					continue
				}
				if !strings.ContainsFunc(read, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
					t.Errorf("a line in English:\n%s\nin:\n%s", line, out)
				}
			}
		})
	}
}
