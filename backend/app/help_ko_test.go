package app

import (
	"strings"
	"testing"
	"unicode"
)

// In a Korean terminal every command's --help says what each command and
// each flag does in Korean: a line a person reads has Hangul in it; only
// the syntax (wayfinder kb import PATH..., -data-dir string) stays as it
// is typed. All of it was English.
func TestHelpIsKoreanInKorean(t *testing.T) {
	t.Setenv("LC_ALL", "ko_KR.UTF-8")
	dir := t.TempDir()
	helps := [][]string{{"--help"}, {"help"}}
	for _, c := range commands() {
		helps = append(helps, []string{c.name, "--help"})
	}
	for sub := range kbUsage {
		helps = append(helps, []string{"kb", sub, "--help"})
	}
	helps = append(helps, []string{"memory", "add", "--help"}, []string{"memory", "rm", "--help"}, []string{"mcp", "add", "--help"}, []string{"mcp", "list", "--help"}, []string{"folders", "add", "--help"}, []string{"folders", "list", "--help"})
	for _, args := range helps {
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
