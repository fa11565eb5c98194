package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// `wayfinder --help` lists every command as its syntax on one line and
// what it does under it, indented alike: a long syntax does not push its
// sentence out of line (it did, with one padded column), and a command's
// syntax is the one its own --help gives.
func TestHelpListsEachCommandAlike(t *testing.T) {
	code, out, errOut := wayfinder(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	usage, _, _ := strings.Cut(out, "\nFlags (accepted by every command):")
	lines := strings.Split(strings.TrimRight(usage[strings.Index(usage, "Usage:\n")+len("Usage:\n"):], "\n"), "\n")
	want := []string{"  wayfinder [flags]", "      open the desktop window"}
	for _, c := range commands() {
		want = append(want, "  wayfinder "+c.usage, "      "+c.summary)
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("--help's commands:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	for _, c := range commands() {
		if c.name == "kb" || c.name == "memory" || c.name == "mcp" || c.name == "folders" {
			continue // their own --help lists each subcommand's syntax
		}
		_, own, _ := wayfinder(t, c.name, "--help")
		if first, _, _ := strings.Cut(own, "\n"); first != "Usage: wayfinder "+c.usage {
			t.Errorf("%s --help says %q; wayfinder --help says %q", c.name, first, c.usage)
		}
	}
}

// A command group's --help (kb, memory, mcp, folders) lists each
// subcommand's syntax on a line of its own, as `wayfinder --help` lists
// the commands, where one line of up to 150 columns was cut wherever the
// terminal's edge fell; at 60 columns a long one is wrapped at spaces,
// indented under its start, in English and Korean.
func TestGroupHelpHasALinePerSubcommand(t *testing.T) {
	for _, tc := range []struct {
		group string
		subs  []string // the start of each line, after "wayfinder "
	}{
		{"kb", []string{"kb import PATH...", "kb list", "kb remove ID", "kb search [--top N]", "kb extract FILE"}},
		{"memory", []string{"memory list", "memory add [--kind K] TEXT", "memory edit [--kind K] ID TEXT", "memory rm ID", "memory rm --all [--yes]"}},
		{"mcp", []string{"mcp list [--json]", "mcp add NAME [--env KEY=VALUE]... -- COMMAND", "mcp add NAME --url URL", "mcp remove NAME", "mcp on|off NAME [TOOL]"}},
		{"folders", []string{"folders list [--json]", "folders add [--hidden] [--secrets] PATH", "folders remove PATH"}},
	} {
		for _, env := range []string{"en_US.UTF-8", "ko_KR.UTF-8"} {
			for _, cols := range []int{0, 60} {
				t.Run(fmt.Sprintf("%s %s %d", tc.group, env[:2], cols), func(t *testing.T) {
					t.Setenv("LC_ALL", env)
					var out bytes.Buffer
					Main(context.Background(), []string{"--data-dir", t.TempDir(), tc.group, "--help"}, strings.NewReader(""), sized{&out, cols}, io.Discard, testShells)
					var starts []string
					for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
						if rest, ok := strings.CutPrefix(line, "  wayfinder "); ok {
							starts = append(starts, rest)
						}
						if cols > 0 && shownWidth(line) > cols && len(strings.Fields(line)) > 1 {
							t.Errorf("a line of %d columns:\n%s", shownWidth(line), line)
						}
					}
					// Where each command's own flags are, in the help's language.
					own := map[string]string{"en": "Run `wayfinder " + tc.group + " COMMAND --help` for a command's own flags.", "ko": "`wayfinder " + tc.group + " 명령 --help`로 볼 수 있습니다."}[env[:2]]
					if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), own) {
						t.Errorf("want %q in:\n%s", own, out.String())
					}
					if len(starts) != len(tc.subs) {
						t.Fatalf("%d syntax lines, want %d:\n%s", len(starts), len(tc.subs), out.String())
					}
					for i, want := range tc.subs {
						if !strings.HasPrefix(starts[i], want) {
							t.Errorf("line %d: %q, want it to start %q", i+1, starts[i], want)
						}
					}
				})
			}
		}
	}
}
