package app

import (
	"bytes"
	"testing"
)

// TestTermSafe: what reaches a terminal cannot drive it: escape sequences,
// carriage returns, bells and C1 controls (also split across writes) are
// written as visible escapes; newlines, tabs and Korean stay.
func TestTermSafe(t *testing.T) {
	for _, tt := range []struct {
		writes []string
		want   string
	}{
		{[]string{"가나\t다\n"}, "가나\t다\n"},
		{[]string{"ctl\x1b[31mred\x07\rover\x7f\x00"}, `ctl\x1b[31mred\x07\x0dover\x7f\x00`},
		{[]string{"a\u009b31mb"}, `a\u009b31mb`},
		{[]string{"a\xc2", "\x9b31m"}, `a\u009b31m`},
		{[]string{"é\xc2", "\xa9"}, "é©"},
		{[]string{"\u0100\u00a0"}, "\u0100\u00a0"},
	} {
		var b bytes.Buffer
		w := &termSafe{w: &b}
		for _, s := range tt.writes {
			if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
				t.Fatalf("%q: wrote %d, %v", s, n, err)
			}
		}
		if b.String() != tt.want {
			t.Errorf("%q: %q, want %q", tt.writes, b.String(), tt.want)
		}
	}
}

// TestShownPath: a path with a newline or an escape is printed quoted, on
// one line; any other, Korean included, as it is.
func TestShownPath(t *testing.T) {
	for in, want := range map[string]string{
		"/문서/보고서.txt":                  "/문서/보고서.txt",
		"/tmp/a\nImported 9 files.txt": `"/tmp/a\nImported 9 files.txt"`,
		"/tmp/\x1b[31m빨강.txt":          `"/tmp/\x1b[31m빨강.txt"`,
	} {
		if got := shownPath(in); got != want {
			t.Errorf("shownPath(%q) = %s, want %s", in, got, want)
		}
	}
}
