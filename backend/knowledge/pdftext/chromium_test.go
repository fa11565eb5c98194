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
	"unicode"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
	"golang.org/x/net/html"
)

// The Chromium tier: PDFs that a real third-party producer makes, not our
// own generator. The HTML fixtures in testdata/chromium lay out, one page
// each, what people's documents have: two columns with a table, a figure's
// caption or a closing paragraph under both; a full-width table between
// two sections in two columns; a left column longer than the right (an
// article's end) and a footnote under it; running headers and page
// numbers; numbered lists (제1조, ①, 가., 1.); a table with merged cells;
// Korean set with word-break: keep-all and without. Chromium prints them
// (as a person's "Save as PDF" does) and the text must come back in the
// order of the HTML.

// chromiumDoc is a fixture and the running header and page numbers its
// @page rules print on every page.
type chromiumDoc struct {
	file   string
	header string
	footer func(page int) string
}

var chromiumDocs = []chromiumDoc{
	{"ko.html", "한국대학교 학사 규정집", func(n int) string { return fmt.Sprintf("- %d -", n) }},
	{"en.html", "Campus Bulletin, Spring 2025", func(n int) string { return fmt.Sprintf("Page %d", n) }},
}

// chromium is the browser that prints the fixtures (WAYFINDER_CHROMIUM).
func chromium(t *testing.T) string {
	t.Helper()
	return progtest.Command(t, "WAYFINDER_CHROMIUM", "chromium", "chromium, fonts-noto-cjk and poppler-utils", "pdftotext")
}

// printPDF prints an HTML file to a PDF with headless Chromium, without
// its own date and title lines (the fixtures set their own).
func printPDF(ctx context.Context, browser, src, out string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--no-pdf-header-footer", "--user-data-dir="+out+".profile", "--print-to-pdf="+out, "file://"+abs)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("chromium %s: %w\n%s", src, err, b)
	}
	if _, err := os.Stat(out); err != nil {
		return fmt.Errorf("chromium printed no PDF of %s: %w", src, err)
	}
	return nil
}

// withEachPrinter prints the page html with wkhtmltopdf and with
// Chromium, the two that print the forms people fill in, and runs check
// on the lines each PDF reads as, one subtest a printer (named to check). The files go to
// WAYFINDER_PDF_OUT when it is set, to be looked at.
func withEachPrinter(t *testing.T, name, page string, check func(t *testing.T, printer string, lines []string)) {
	t.Helper()
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d
	}
	src := filepath.Join(dir, name+".html")
	if err := os.WriteFile(src, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	printers := map[string]func(t *testing.T, pdf string) error{
		"wkhtmltopdf": func(t *testing.T, pdf string) error {
			bin := progtest.Command(t, "WAYFINDER_WKHTMLTOPDF", "wkhtmltopdf", "wkhtmltopdf, fonts-noto-cjk and poppler-utils", "pdftotext")
			return run(context.Background(), bin, "-q", src, pdf)
		},
		"chromium": func(t *testing.T, pdf string) error {
			return printPDF(context.Background(), chromium(t), src, pdf)
		},
	}
	for printer, print := range printers {
		t.Run(printer, func(t *testing.T) {
			pdf := filepath.Join(dir, name+"-"+printer+".pdf")
			if err := print(t, pdf); err != nil {
				t.Fatal(err)
			}
			pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, p := range pages {
				lines = append(lines, strings.Split(p.Text, "\n")...)
			}
			check(t, printer, lines)
		})
	}
}

// block is a paragraph, a heading, a list item, a caption or a table row
// of a fixture.
type block struct {
	text   string   // its words, spaces collapsed
	cells  []string // a table row's cells
	whole  bool     // its words come out whole and in one run (not where Korean breaks inside words)
	merged bool     // a row of a table with merged cells: its cells are only looked for
}

// fixturePages reads a fixture's blocks, one slice per <section> (a page).
func fixturePages(t *testing.T, file string) [][]block {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var pages [][]block
	merged := false
	var walk func(n *html.Node, breakAll bool)
	walk = func(n *html.Node, breakAll bool) {
		if n.Type == html.ElementNode {
			breakAll = breakAll || hasClass(n, "breakall")
			switch n.Data {
			case "section":
				pages = append(pages, nil)
			case "table":
				merged = strings.Contains(nodeHTML(n), "rowspan")
			case "p", "li", "h1", "h2", "figcaption":
				pages[len(pages)-1] = append(pages[len(pages)-1], block{text: textOf(n), whole: !breakAll})
				return
			case "tr":
				b := block{merged: merged, whole: !merged}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
						b.cells = append(b.cells, textOf(c))
					}
				}
				b.text = strings.Join(b.cells, " ")
				pages[len(pages)-1] = append(pages[len(pages)-1], b)
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, breakAll)
		}
	}
	walk(doc, false)
	return pages
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && strings.Contains(" "+a.Val+" ", " "+class+" ") {
			return true
		}
	}
	return false
}

func nodeHTML(n *html.Node) string {
	var sb strings.Builder
	_ = html.Render(&sb, n)
	return sb.String()
}

func textOf(n *html.Node) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(sb.String()), " ")
}

// squeezed drops spaces and cell bars: Korean set without keep-all breaks
// lines inside words, and a row's cells may be apart by a space or a bar.
func squeezed(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '|' {
			return -1
		}
		return r
	}, s)
}

// TestChromiumLayouts prints the fixtures with Chromium and checks every
// page: the running header first and the page number last; every block of
// the HTML in the HTML's order (so a table or a caption under two columns
// comes after both, a longer left column before the right one); the
// blocks that the layout keeps whole (prose set at word boundaries, table
// rows "1학기 | 3월 2일 ~ 6월 21일 | 16주") whole, so no line mixes two
// columns; and word recall against pdftotext of at least 0.97.
func TestChromiumLayouts(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files
	}
	// Chromium takes seconds to start: both print at once.
	errs := make([]error, len(chromiumDocs))
	var wg sync.WaitGroup
	for i, d := range chromiumDocs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = printPDF(context.Background(), browser, filepath.Join("testdata", "chromium", d.file), filepath.Join(dir, d.file+".pdf"))
		}()
	}
	wg.Wait()
	e := newTestExtractor(t)
	for i, d := range chromiumDocs {
		t.Run(d.file, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			pdf := filepath.Join(dir, d.file+".pdf")
			want := fixturePages(t, filepath.Join("testdata", "chromium", d.file))
			pages, err := e.ExtractFile(context.Background(), pdf)
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != len(want) {
				t.Fatalf("%d pages, the fixture has %d sections", len(pages), len(want))
			}
			var all strings.Builder
			for n, p := range pages {
				all.WriteString(p.Text + "\n")
				checkChromiumPage(t, d, n+1, p.Text, want[n])
			}
			ref, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			r := wordRecall(string(ref), all.String())
			t.Logf("word recall against pdftotext %.4f", r)
			if r < 0.97 {
				t.Errorf("word recall against pdftotext %.4f < 0.97", r)
			}
		})
	}
}

func checkChromiumPage(t *testing.T, d chromiumDoc, n int, text string, blocks []block) {
	t.Helper()
	lines := strings.Split(nonEmptyLines(text), "\n")
	if lines[0] != d.header {
		t.Errorf("page %d: first line %q, want the running header %q", n, lines[0], d.header)
	}
	if last := lines[len(lines)-1]; last != d.footer(n) {
		t.Errorf("page %d: last line %q, want the page number %q", n, last, d.footer(n))
	}
	checkBlocks(t, fmt.Sprintf("page %d", n), text, blocks, nil)
}

// checkBlocks looks for the blocks in text in their order, and for the
// blocks kept whole whole (their words in one run, their cells apart by
// cellSep), after norm (nil: as they are) on both sides.
func checkBlocks(t *testing.T, where, text string, blocks []block, norm func(string) string) {
	t.Helper()
	if norm == nil {
		norm = func(s string) string { return s }
	}
	sq := squeezed(text)
	flat := norm(strings.Join(strings.Fields(text), " "))
	pos, after := 0, "the start"
	for _, b := range blocks {
		if b.merged {
			// A cell merged across rows sits between them: its rows' words
			// are there, not in the HTML's order.
			for _, c := range b.cells {
				if !strings.Contains(sq, squeezed(c)) {
					t.Errorf("%s: cell %q missing\n%s", where, c, text)
				}
			}
			continue
		}
		i := strings.Index(sq[pos:], squeezed(b.text))
		if i < 0 {
			t.Errorf("%s: %q is not after %q\n%s", where, b.text, after, text)
			continue
		}
		pos, after = pos+i+len(squeezed(b.text)), b.text
		if !b.whole {
			continue
		}
		whole := b.text
		if b.cells != nil {
			whole = strings.Join(b.cells, cellSep)
		}
		if !strings.Contains(flat, norm(whole)) {
			t.Errorf("%s: %q is not whole\n%s", where, whole, text)
		}
	}
}
