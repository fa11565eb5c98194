package app

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
)

// Columns line up on a terminal with Korean in them: each cell after the
// first starts at the same shown column on every line (Hangul is two
// columns wide); with only narrow characters the output is tabwriter's.
func TestTableLinesUpWideCharacters(t *testing.T) {
	const text = "ID\t제목\t종류\tSOURCE\n0190abcd\t휴가 정책\tmarkdown\t/docs/leave.md\n01\tNotes\tpdf\t/docs/n.pdf\n"
	var b bytes.Buffer
	tb := newTable(&b)
	fmt.Fprint(tb, text)
	if err := tb.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := "ID        제목       종류      SOURCE"
	if lines[0] != want {
		t.Errorf("heading %q, want %q", lines[0], want)
	}
	// The third column starts at the same shown column on every line.
	at := func(line, cell string) int { return shownWidth(line[:strings.Index(line, cell)]) }
	if a, b2, c := at(lines[0], "종류"), at(lines[1], "markdown"), at(lines[2], "pdf"); a != b2 || b2 != c {
		t.Errorf("third column at %d, %d, %d:\n%s", a, b2, c, b.String())
	}

	narrow := "ID\tTITLE\tKIND\n0190abcd\tNotes\tmarkdown\n"
	var want2, got bytes.Buffer
	tw := tabwriter.NewWriter(&want2, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, narrow)
	tw.Flush()
	tb = newTable(&got)
	fmt.Fprint(tb, narrow)
	tb.Flush()
	if got.String() != want2.String() {
		t.Errorf("narrow:\n got %q\nwant %q", got.String(), want2.String())
	}
}

// shownWidth counts what a terminal shows: decomposed Hangul (as macOS
// names files) as wide as composed, ambiguous-width marks as one column
// whatever the locale.
func TestShownWidth(t *testing.T) {
	t.Setenv("LC_ALL", "ko_KR.UTF-8")
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"abc", 3},
		{"휴가", 4},
		{"\u1112\u1172\u1100\u1161", 4}, // 휴가 as jamo: the vowels take no column
		{"—", 1},
		{"a · b", 5},
	} {
		if got := shownWidth(tc.s); got != tc.want {
			t.Errorf("shownWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
