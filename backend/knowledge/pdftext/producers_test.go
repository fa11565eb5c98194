package pdftext

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// Two more producers of HTML pages, printed from the Chromium tier's
// fixtures (testdata/chromium): WeasyPrint (Python, pydyf: CSS columns
// balanced by whole paragraphs, @page margin boxes, no keep-all, so
// Korean breaks inside words) and wkhtmltopdf (Qt WebKit: no CSS columns
// or margin boxes, <sup> set in the text's own size and raised by half
// of it). Each read a page out of order before the rules they brought.

// TestPageTextSectionAfterShortColumn: two sections in two columns with a
// heading between them, where the first section's left column ends three
// lines above its right one (WeasyPrint balances columns by whole
// paragraphs) on a short last line. The heading was no section break when
// the columns' ends lay more than two pitches apart; and the white beside
// the short last line starts a strip of its own down to the page's foot,
// which does not see the left column above and read the first section's
// right column's last paragraph with the second section.
func TestPageTextSectionAfterShortColumn(t *testing.T) {
	title := "제목은 두 단에 걸쳐 있습니다 아주 길게 씁니다 정말 길게"
	left := []string{"왼쪽 단의 첫째 줄입니다 여기에", "왼쪽 단의 둘째 줄입니다 여기에", "끝입니다."}
	right := []string{"오른쪽 단의 첫째 줄입니다 여기", "오른쪽 단의 둘째 줄입니다.", "오른쪽 단의 셋째 줄입니다 여기", "오른쪽 단의 넷째 줄입니다 여기", "오른쪽 단의 다섯째 줄입니다 여", "오른쪽 단의 여섯째 줄입니다."}
	// The second section's left lines end a little short of the first's,
	// as a justified column's lines end a hair apart.
	below := []string{"아래 왼쪽 단의 첫째 줄입니", "아래 왼쪽 단의 둘째 줄입니", "아래 왼쪽 단의 셋째 줄입니", "아래 오른쪽 단의 첫째 줄입", "아래 오른쪽 단의 둘째 줄입", "아래 오른쪽 단의 셋째 줄입"}
	line := func(gs []glyph, s string, x, y float64) []glyph {
		return append(append(gs, brk()), glyphLine(s, x, y, nil)...)
	}
	gs := glyphLine(title, 72, 760, nil)
	y := 730.0
	for i, l := range left {
		gs = line(gs, l, 72, y-14*float64(i))
	}
	for i, r := range right {
		at := y - 14*float64(i)
		if i >= 2 {
			at -= 10 // a paragraph gap, beside the left column's last line
		}
		gs = line(gs, r, 332, at)
	}
	bottom := y - 14*5 - 10
	gs = line(gs, "제2절 학적", 72, bottom-36)
	for i := range 3 {
		gs = line(gs, below[i], 72, bottom-72-14*float64(i))
		gs = line(gs, below[3+i], 332, bottom-72-14*float64(i))
	}
	want := append(append(append(append([]string{title}, left...), right...), "제2절 학적"), below...)
	if got := nonEmptyLines(pageText(gs)); got != strings.Join(want, "\n") {
		t.Errorf("pageText =\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// TestPageTextSectionAfterLongColumn: the mirror of the above, where the
// first section's left column ends lines below its right one (a long
// paragraph that a producer does not split, or a column set by hand): the
// heading under the left column is a section break, the second section
// read after both of the first's columns, up to five lines' difference.
// Further apart, the white beside the left column's tail is more likely
// a figure in the right column beside a subheading, and the heading stays
// in its column.
func TestPageTextSectionAfterLongColumn(t *testing.T) {
	title := "제목은 두 단에 걸쳐 있습니다 아주 길게 씁니다 정말 길게"
	right := []string{"오른쪽 단의 첫째 줄입니다 여기", "오른쪽 단의 둘째 줄입니다.", "끝입니다."}
	below := []string{"아래 왼쪽 단의 첫째 줄입니", "아래 왼쪽 단의 둘째 줄입니", "아래 왼쪽 단의 셋째 줄입니", "아래 오른쪽 단의 첫째 줄입", "아래 오른쪽 단의 둘째 줄입", "아래 오른쪽 단의 셋째 줄입"}
	line := func(gs []glyph, s string, x, y float64) []glyph {
		return append(append(gs, brk()), glyphLine(s, x, y, nil)...)
	}
	for _, tt := range []struct {
		longer int // lines the left column runs on below the right one
		broken bool
	}{{3, true}, {5, true}, {8, false}} {
		t.Run(fmt.Sprint(tt.longer), func(t *testing.T) {
			var left []string
			for i := range len(right) + tt.longer {
				left = append(left, fmt.Sprintf("왼쪽 단의 %d번째 줄입니다 여기에", i+1))
			}
			left[len(left)-1] = "끝입니다."
			gs := glyphLine(title, 72, 760, nil)
			y := 730.0
			for i, l := range left {
				gs = line(gs, l, 72, y-14*float64(i))
			}
			for i, r := range right {
				gs = line(gs, r, 332, y-14*float64(i))
			}
			bottom := y - 14*float64(len(left)-1)
			gs = line(gs, "제2절 학적", 72, bottom-36)
			for i := range 3 {
				gs = line(gs, below[i], 72, bottom-72-14*float64(i))
				gs = line(gs, below[3+i], 332, bottom-72-14*float64(i))
			}
			want := append(append(append(append([]string{title}, left...), right...), "제2절 학적"), below...)
			got := nonEmptyLines(pageText(gs))
			if broken := got == strings.Join(want, "\n"); broken != tt.broken {
				t.Errorf("section break %v, want %v:\n%s", broken, tt.broken, got)
			}
		})
	}
}

// TestPageTextMarkInTextSize: a note's mark in the text's own size,
// raised by half its height right after the full stop it follows
// (wkhtmltopdf's <sup>), stays on its line; it overlapped its line by
// less than half and came out as a line of its own above it
// ("1)" / "…갖추었다."). A run in the text's size that does not touch the
// glyph before it is no mark.
func TestPageTextMarkInTextSize(t *testing.T) {
	body := []string{"중앙도서관이 새 건물에서 문을 열었다 새 도서관은", "열람석 1,200석과 세미나실 12개를 갖추었다.", "1층에는 24시간 운영되는 열람실이 있다."}
	mark := func(gap float64) []glyph {
		var gs []glyph
		for i, l := range body {
			y := 700 - 16*float64(i)
			gs = append(append(gs, brk()), glyphLine(l, 72, y, nil)...)
			if i == 1 {
				end := gs[len(gs)-1].x1 + gap
				for k, r := range "1)" {
					x := end + 5*float64(k)
					gs = append(gs, glyph{r: r, x0: x, x1: x + 5, lo: y + 3.1, hi: y + 13.1, h: 10})
				}
			}
		}
		return gs[1:]
	}
	for _, tt := range []struct {
		name string
		gap  float64
		want []string
	}{
		{"touching", 0, []string{body[0], body[1] + "1)", body[2]}},
		{"apart", 4, []string{body[0], "1)", body[1], body[2]}},
	} {
		if got := nonEmptyLines(pageText(mark(tt.gap))); got != strings.Join(tt.want, "\n") {
			t.Errorf("%s: pageText =\n%s\nwant\n%s", tt.name, got, strings.Join(tt.want, "\n"))
		}
	}
}

// TestPageTextLeadingNoteMark: a note's number set against its text at a
// line's start (LaTeX's footnotes, pdfLaTeX and XeLaTeX alike: a 6-point
// mark before 8-point text) is written apart from the text's first word,
// as pdftotext writes it ("1 우기 점검에는"); it ran into it ("1우기"), and
// a search for the word missed it. A superscript after a word stays on
// it, and a line that starts with a digit or a bracket in the text's own
// size, or lower, reads as before.
func TestPageTextLeadingNoteMark(t *testing.T) {
	// noted sets text from x with marks (raised, 6 pt) before the
	// glyphs at the given places.
	noted := func(text string, y float64, at map[int]string) []glyph {
		var gs []glyph
		x := 72.0
		for i, r := range []rune(text) {
			for _, m := range at[i] {
				gs = append(gs, glyph{r: m, x0: x, x1: x + 3, lo: y + 2, hi: y + 8, h: 6})
				x += 3
			}
			w := 5.0
			if hangul(r) {
				w = 10
			}
			if r != ' ' {
				gs = append(gs, glyph{r: r, x0: x, x1: x + w, lo: y - 2, hi: y + 8, h: 10})
			}
			x += w
		}
		return gs
	}
	for _, tt := range []struct {
		name string
		gs   []glyph
		want string
	}{
		{"a number", noted("우기 점검에는 배수 시설을 포함한다.", 700, map[int]string{0: "1"}), "1 우기 점검에는 배수 시설을 포함한다."},
		{"a number and a bracket", noted("우기 점검에는 배수 시설을 포함한다.", 700, map[int]string{0: "12)"}), "12) 우기 점검에는 배수 시설을 포함한다."},
		{"a star", noted("본 연구는 지원을 받았다.", 700, map[int]string{0: "∗"}), "∗ 본 연구는 지원을 받았다."},
		{"after a word", noted("배수 시설을 포함한다.", 700, map[int]string{6: "1"}), "배수 시설을1 포함한다."},
		{"a bracket before a formula", noted("−1, −1)이다.", 700, map[int]string{0: "("}), "(−1, −1)이다."},
		{"a digit in the text's size", noted("1층에는 열람실이 있다.", 700, nil), "1층에는 열람실이 있다."},
	} {
		if got := nonEmptyLines(pageText(tt.gs)); got != tt.want {
			t.Errorf("%s: pageText = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// htmlProducer prints an HTML file to a PDF.
type htmlProducer struct {
	name, env, packages string
	// pages says whether the producer prints the fixtures' @page margin
	// boxes and page breaks (a running header first and a page number
	// last on each page, a page per section).
	pages bool
	print func(ctx context.Context, bin, src, out string) error
}

var htmlProducers = []htmlProducer{
	{"weasyprint", "WAYFINDER_WEASYPRINT", "weasyprint, fonts-unfonts-core and poppler-utils", true,
		func(ctx context.Context, bin, src, out string) error {
			// UnDotum, a TrueType font of a few MB: WeasyPrint subsets
			// Noto Sans CJK's 16 MB collection for seconds of CPU a file.
			css := out + ".css"
			if err := os.WriteFile(css, []byte("body { font-family: UnDotum, sans-serif !important }"), 0o644); err != nil {
				return err
			}
			return run(ctx, bin, "-q", "-s", css, src, out)
		}},
	{"wkhtmltopdf", "WAYFINDER_WKHTMLTOPDF", "wkhtmltopdf, fonts-noto-cjk and poppler-utils", false,
		func(ctx context.Context, bin, src, out string) error {
			return run(ctx, bin, "-q", src, out)
		}},
}

func run(ctx context.Context, bin string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+os.TempDir())
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w\n%s", filepath.Base(bin), err, b)
	}
	return nil
}

// TestHTMLProducers prints the Chromium tier's fixtures with WeasyPrint
// and wkhtmltopdf and checks every block of each fixture in its order,
// table rows and prose whole (Korean compared without the spaces between
// syllables, or between a syllable and a digit: neither producer keeps
// Korean words whole at a line's end, "9 / 등급으로"),
// with WeasyPrint the running header first and the page number last on
// every page, and word recall against pdftotext of at least 0.97.
func TestHTMLProducers(t *testing.T) {
	var wg sync.WaitGroup
	type printed struct {
		p    htmlProducer
		d    chromiumDoc
		pdf  string
		err  error
		skip string
	}
	var jobs []*printed
	for _, p := range htmlProducers {
		bin := ""
		t.Run(p.name+"/find", func(t *testing.T) { bin = progtest.Command(t, p.env, p.name, p.packages, "pdftotext") })
		if bin == "" {
			continue
		}
		dir := t.TempDir()
		if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
			dir = d // keep the files
		}
		for _, d := range chromiumDocs {
			j := &printed{p: p, d: d, pdf: filepath.Join(dir, p.name+"-"+d.file+".pdf")}
			jobs = append(jobs, j)
			wg.Add(1)
			go func() {
				defer wg.Done()
				j.err = p.print(context.Background(), bin, filepath.Join("testdata", "chromium", d.file), j.pdf)
			}()
		}
	}
	wg.Wait()
	e := newTestExtractor(t)
	for _, j := range jobs {
		t.Run(j.p.name+"/"+j.d.file, func(t *testing.T) {
			if j.err != nil {
				t.Fatal(j.err)
			}
			want := fixturePages(t, filepath.Join("testdata", "chromium", j.d.file))
			pages, err := e.ExtractFile(context.Background(), j.pdf)
			if err != nil {
				t.Fatal(err)
			}
			if j.p.pages && len(pages) != len(want) {
				t.Fatalf("%d pages, the fixture has %d sections", len(pages), len(want))
			}
			var all strings.Builder
			for n, p := range pages {
				all.WriteString(p.Text + "\n")
				if !j.p.pages {
					continue
				}
				lines := strings.Split(nonEmptyLines(p.Text), "\n")
				if lines[0] != j.d.header {
					t.Errorf("page %d: first line %q, want the running header %q", n+1, lines[0], j.d.header)
				}
				if last := lines[len(lines)-1]; last != j.d.footer(n+1) {
					t.Errorf("page %d: last line %q, want the page number %q", n+1, last, j.d.footer(n+1))
				}
				checkBlocks(t, fmt.Sprintf("page %d", n+1), p.Text, want[n], brokenKorean)
			}
			if !j.p.pages {
				var blocks []block
				for _, b := range want {
					blocks = append(blocks, b...)
				}
				checkBlocks(t, j.d.file, all.String(), blocks, brokenKorean)
			}
			ref, err := exec.Command("pdftotext", "-enc", "UTF-8", j.pdf, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			r := wordRecall(string(ref), all.String())
			t.Logf("%d pages, word recall against pdftotext %.4f", len(pages), r)
			if r < 0.97 {
				t.Errorf("word recall against pdftotext %.4f < 0.97", r)
			}
		})
	}
}

// brokenKorean drops the spaces inside Korean words that a line's end
// broke: between two syllables and between a syllable and a Latin letter,
// a digit or ASCII punctuation.
func brokenKorean(s string) string { return unspaced(joinHangul(s)) }

// TestSectionAfterLongColumn prints testdata/chromium/longleft.html with
// Chromium: a section whose left column ends five lines below its right
// one (column-fill: auto), then a heading and a section in two balanced
// columns. The heading is read after both of the first section's
// columns, the second section after it; it was read inside the left
// column, before the first section's right column.
func TestSectionAfterLongColumn(t *testing.T) {
	pdf := filepath.Join(t.TempDir(), "longleft.pdf")
	if err := printPDF(context.Background(), chromium(t), filepath.Join("testdata", "chromium", "longleft.html"), pdf); err != nil {
		t.Fatal(err)
	}
	pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	text := pages[0].Text
	at := -1
	for _, s := range []string{"학사 운영 안내", "첫째 절의 첫 문단", "둘째 문단입니다.", "셋째 문단입니다.", "교양 과목은", "정한 학점 이상을 들어야 합니다.", "제2절 학적", "둘째 절의 왼쪽 단", "둘째 절의 오른쪽 단"} {
		i := strings.Index(text, s)
		if i <= at {
			t.Fatalf("%q is not where it should be, after the one before:\n%s", s, text)
		}
		at = i
	}
}
