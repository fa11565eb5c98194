package pdftext

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
// and a numbered heading. And a Korean report set as pandoc's Markdown
// through XeLaTeX sets one (testdata/latex/report.tex, Noto Serif CJK
// throughout): a title above a table of contents whose leader dots stand
// at the same places on every line. And a regulation in two columns set
// by pdfLaTeX with ko.TeX (testdata/latex/pdflatex.tex), the older way:
// its Hangul in Type 1 fonts of 256 glyphs each, switched glyph by glyph,
// each footnote's number set against its text.

// TestLaTeXLayouts sets each fixture and checks every block of its
// .blocks file in order (the abstract apart from the table beside it, the
// left column whole before the right one, the footnotes after both; the
// report's contents lines each with its page number), tables' rows whole,
// the page number last, and word recall against pdftotext of at least
// 0.97.
func TestLaTeXLayouts(t *testing.T) {
	bin := progtest.Command(t, "WAYFINDER_XELATEX", "xelatex", "texlive-xetex, texlive-lang-korean, fonts-noto-cjk and poppler-utils", "pdftotext")
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files
	}
	for _, fx := range []struct {
		name  string
		pages int
		runs  int // a table of contents needs a second run
		// fold, if set, is applied to the text and the blocks before they
		// are compared; the prose fixtures keep every Korean space.
		fold func(string) string
		// whole are table rows that must come out as written, unfolded.
		whole []string
		// recall compares the text with pdftotext's.
		recall func(ref, cand string) float64
		// engine is the TeX engine beside xelatex that sets it, if not
		// XeLaTeX: pdfLaTeX comes with it in every TeX Live.
		engine string
	}{
		{"ko", 1, 1, nil, nil, wordRecall, ""},
		{"report", 2, 2, nil, nil, wordRecall, ""},
		// ko.TeX breaks the table's Korean inside words, and pdftotext
		// leaves them cut; the first body row's broken words ("누전
		// 차|단기", "점|등") come out whole.
		{"booktabs", 1, 1, joinHangul, []string{"전기 설비 절연 저항, 누전 차단기 작동 여부, 비상 조명 점등 상태 | 본관 | 적합 | –"}, joinedWordRecall, ""},
		{"pdflatex", 1, 1, nil, nil, wordRecall, "pdflatex"},
		// Groups headed without a list's mark, set apart by
		// \addlinespace or \arraystretch.
		{"groups", 2, 1, joinHangul, nil, joinedWordRecall, ""},
	} {
		t.Run(fx.name, func(t *testing.T) {
			src, err := filepath.Abs(filepath.Join("testdata", "latex", fx.name+".tex"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			engine := bin
			if fx.engine != "" {
				engine = filepath.Join(filepath.Dir(bin), fx.engine)
			}
			for range fx.runs {
				cmd := exec.CommandContext(ctx, engine, "-interaction=nonstopmode", "-halt-on-error", "-output-directory", dir, src)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", filepath.Base(engine), err, out)
				}
			}
			pdf := filepath.Join(dir, fx.name+".pdf")
			pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != fx.pages {
				t.Fatalf("%d pages, want %d", len(pages), fx.pages)
			}
			var all strings.Builder
			for n, p := range pages {
				lines := strings.Split(nonEmptyLines(p.Text), "\n")
				if last, want := lines[len(lines)-1], strconv.Itoa(n+1); last != want {
					t.Errorf("page %d: last line %q, want the page number", n+1, last)
				}
				all.WriteString(p.Text + "\n")
			}
			text := all.String()
			blocks, contents := texBlocks(t, filepath.Join("testdata", "latex", fx.name+".blocks"))
			checkBlocks(t, fx.name+".tex", text, blocks, fx.fold)
			checkContents(t, text, contents)
			flat := strings.Join(strings.Fields(text), " ")
			for _, w := range fx.whole {
				if !strings.Contains(flat, w) {
					t.Errorf("row %q not read as written:\n%s", w, text)
				}
			}
			ref, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			r := fx.recall(string(ref), text)
			t.Logf("word recall against pdftotext %.4f", r)
			if r < 0.97 {
				t.Errorf("word recall against pdftotext %.4f < 0.97", r)
			}
		})
	}
}

// texBlocks reads a list of blocks, one a line: a table row's cells apart
// by " | " (it must come out whole), a contents line's title and page
// number apart by " … " (they must come out on one line, and the title is
// a block), any other line a block looked for in order only (LaTeX breaks
// Korean lines inside words).
func texBlocks(t *testing.T, file string) ([]block, [][2]string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []block
	var contents [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if title, page, ok := strings.Cut(line, " … "); ok {
			contents = append(contents, [2]string{title, page})
			blocks = append(blocks, block{text: title})
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
	return blocks, contents
}

// joinHangul drops the spaces between two Hangul syllables: LaTeX breaks
// Korean lines inside words, so a table's wrapped cell, its lines joined
// by a space, may have one inside a word ("누전 차 단기"), as a cell of
// pdftotext's lines would.
func joinHangul(s string) string {
	rs := []rune(s)
	var sb strings.Builder
	for i, r := range rs {
		if r == ' ' && i > 0 && i+1 < len(rs) && hangul(rs[i-1]) && hangul(rs[i+1]) {
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func hangul(r rune) bool { return r >= 0xac00 && r <= 0xd7a3 }
