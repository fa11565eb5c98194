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

// A row of one cell among wider ones is written as it is when the rows
// are stacked, not lost (nor a panic).
func TestStackedTableKeepsAShortRow(t *testing.T) {
	var b bytes.Buffer
	tb := newTable(sized{&b, 40})
	fmt.Fprint(tb, "ID\tTITLE\tKIND\tSOURCE\n01a22276-0b01-7e93-aabb-34808e58411c\tLeave policy\tMarkdown\t/docs/leave.md\nalone\n")
	if err := tb.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "ID\n    TITLE         KIND\n01a22276-0b01-7e93-aabb-34808e58411c\n    Leave policy  Markdown\n    /docs/leave.md\nalone\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// On a terminal narrower than the table the last column goes under its
// row, indented, every line within the width; a table that fits, or one
// not on a terminal, is laid out as before.
func TestTableFitsTheTerminal(t *testing.T) {
	const text = "ID\t제목\t종류\t출처\n01a22276-0b01-7e93-aabb-34808e58411c\tunstructured_reliance\tPDF\t/work/shared/eval/pdfs/en/unstructured_reliance.pdf\n01a22276-0965-75c1-a486-fadef6832f6b\t휴가 정책\t마크다운\t/docs/leave.md\n"
	for _, tt := range []struct {
		name string
		cols int
		want string
	}{
		{"not a terminal", 0, "ID                                    제목                   종류      출처\n" +
			"01a22276-0b01-7e93-aabb-34808e58411c  unstructured_reliance  PDF       /work/shared/eval/pdfs/en/unstructured_reliance.pdf\n" +
			"01a22276-0965-75c1-a486-fadef6832f6b  휴가 정책              마크다운  /docs/leave.md\n"},
		{"a wide terminal", 160, "ID                                    제목                   종류      출처\n" +
			"01a22276-0b01-7e93-aabb-34808e58411c  unstructured_reliance  PDF       /work/shared/eval/pdfs/en/unstructured_reliance.pdf\n" +
			"01a22276-0965-75c1-a486-fadef6832f6b  휴가 정책              마크다운  /docs/leave.md\n"},
		{"80 columns", 80, "ID                                    제목                   종류\n" +
			"01a22276-0b01-7e93-aabb-34808e58411c  unstructured_reliance  PDF\n" +
			"    /work/shared/eval/pdfs/en/unstructured_reliance.pdf\n" +
			"01a22276-0965-75c1-a486-fadef6832f6b  휴가 정책              마크다운\n" +
			"    /docs/leave.md\n"},
		// A title that leaves no room beside the id is cut; its file's
		// name is whole in the path under it.
		{"56 columns", 56, "ID                                    제목      종류\n" +
			"01a22276-0b01-7e93-aabb-34808e58411c  unstruc…  PDF\n" +
			"    /work/shared/eval/pdfs/en/unstructured_reliance.pdf\n" +
			"01a22276-0965-75c1-a486-fadef6832f6b  휴가 정…  마크다운\n" +
			"    /docs/leave.md\n"},
		// Narrower than the id and the other columns cut to 8, each row
		// is the id on a line of its own, the cells after it under it,
		// lined up, the last under them; where they were one line the
		// terminal broke.
		{"50 columns", 50, "ID\n" +
			"    제목                   종류\n" +
			"01a22276-0b01-7e93-aabb-34808e58411c\n" +
			"    unstructured_reliance  PDF\n" +
			"    /work/shared/eval/pdfs/en/unstructured_reliance.pdf\n" +
			"01a22276-0965-75c1-a486-fadef6832f6b\n" +
			"    휴가 정책              마크다운\n" +
			"    /docs/leave.md\n"},
		{"30 columns", 30, "ID\n" +
			"    제목              종류\n" +
			"01a22276-0b01-7e93-aabb-34808e58411c\n" +
			"    unstructured_re…  PDF\n" +
			"    /work/shared/eval/pdfs/en/unstructured_reliance.pdf\n" +
			"01a22276-0965-75c1-a486-fadef6832f6b\n" +
			"    휴가 정책         마크다운\n" +
			"    /docs/leave.md\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tb := newTable(sized{&b, tt.cols})
			fmt.Fprint(tb, text)
			if err := tb.Flush(); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if tt.cols > 0 && shownWidth(line) > tt.cols && len(strings.Fields(line)) > 1 {
					t.Errorf("a line of %d columns: %s", shownWidth(line), line)
				}
			}
		})
	}
}
