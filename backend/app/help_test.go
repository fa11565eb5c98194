package app

import (
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
