package pdftext

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// The LaTeX tier: a Korean paper set by XeLaTeX with ko.TeX
// (testdata/latex/ko.tex), as Korean theses and journal papers are. Its
// Latin letters and digits are in Latin Modern, whose boxes are 1.4 font
// sizes tall where the Hangul's are one, so a line's tallest glyph is no
// measure of its text; its columns are one font size apart; a table
// floats to the top of the right column, beside the abstract; and the
// left column runs on below the right one, through a display equation
// and a numbered heading.

// TestLaTeXLayouts checks every block of testdata/latex/ko.blocks in its
// order (the abstract apart from the table beside it, the left column
// whole before the right one, the footnotes after both), the table's
// rows whole, and word recall against pdftotext of at least 0.97.
func TestLaTeXLayouts(t *testing.T) {
	bin := progtest.Command(t, "WAYFINDER_XELATEX", "xelatex", "texlive-xetex, texlive-lang-korean, fonts-noto-cjk and poppler-utils", "pdftotext")
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files
	}
	src, err := filepath.Abs(filepath.Join("testdata", "latex", "ko.tex"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-interaction=nonstopmode", "-halt-on-error", "-output-directory", dir, src)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xelatex: %v\n%s", err, out)
	}
	pdf := filepath.Join(dir, "ko.pdf")
	pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 {
		t.Fatalf("%d pages, want the paper on one", len(pages))
	}
	text := pages[0].Text
	lines := strings.Split(nonEmptyLines(text), "\n")
	if last := lines[len(lines)-1]; last != "1" {
		t.Errorf("last line %q, want the page number", last)
	}
	checkBlocks(t, "ko.tex", text, texBlocks(t, filepath.Join("testdata", "latex", "ko.blocks")), nil)
	ref, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	r := wordRecall(string(ref), text)
	t.Logf("word recall against pdftotext %.4f", r)
	if r < 0.97 {
		t.Errorf("word recall against pdftotext %.4f < 0.97", r)
	}
}

// texBlocks reads a list of blocks, one a line: a table row's cells apart
// by " | " (it must come out whole), any other line a block looked for in
// order only (LaTeX breaks Korean lines inside words).
func texBlocks(t *testing.T, file string) []block {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []block
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b := block{text: strings.ReplaceAll(line, cellSep, " ")}
		if strings.Contains(line, cellSep) {
			b.cells, b.whole = strings.Split(line, cellSep), true
		}
		blocks = append(blocks, b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}
