package pdftext

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// spacedWant is what every producer's titles page must read: the titles
// spaced out letter by letter written as the page shows them and pdftotext
// writes them, a letter a word with one space between however wide the
// gap, each on a line of its own (a form's labels apart from their values
// by a cell's separator), and the lines of one-syllable words with their
// spaces. Where pdftotext breaks such a title into lines ("1 ." over
// "신 고 서") or loses its spaces ("제1장총 칙", "그집앞"), the line is
// what its words read on the page.
var spacedWant = map[string][]string{
	"html": {"신 청 서", "목 차", "제 출 서 류", "위 임 장", "사 업 계 획 서", "확 인 서", "동 의 서", "1 . 신 고 서", "제 1 장 총 칙", "제 2 장 학 적", "가. 목 록", "申 請 書", "개 인 정 보 동 의 서", "수 집 · 이 용 동 의 서", "위 임 장 ( 갑 )", "성 명 | 홍길동", "주 소 | 서울시 종로구", "ANNUAL REPORT 2026", "Table of Contents", "그 집 앞", "이 책 좀 봐", "신 청 서(갑)", "공고일부터 신청서를 접수하여 심사한다", "제출된 서류는 반환하지 아니한다", "자세한 사항은 학생처에 문의한다", "접수기간이 지난 신청은 받지 않는다"},
	"fodt": {"신 청 서", "위 임 장", "제 출 서 류", "사 업 계 획 서", "확 인 서", "동 의 서", "1 . 신 고 서", "제 1 장 총 칙", "申 請 書", "개 인 정 보 동 의 서", "Annual Report 2026", "그 집 앞", "이 책 좀 봐", "신 청 서(갑)", "공고일부터 신청서를 접수하여 심사한다", "제출된 서류는 반환하지 아니한다", "자세한 사항은 학생처에 문의한다", "접수기간이 지난 신청은 받지 않는다"},
	"tex":  {"이 력 서", "제 출 서 류", "목 차", "사 업 계 획 서", "확 인 서", "동 의 서", "1. 신 고 서", "제 1 장 총 칙", "申 請 書", "개 인 정 보 동 의 서", "그 집 앞", "이 책 좀 봐"},
}

// TestSpacedTitles prints testdata/spaced's titles with Chromium (CSS
// letter-spacing and spaces kept with white-space: pre), LibreOffice
// (character spacing and typed spaces) and XeLaTeX (glue between
// syllables, a box spread to a width), and reads every title back on a
// line of its own, spaced as drawn, and every line of one-syllable words
// as written.
func TestSpacedTitles(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files
	}
	for _, kind := range []string{"html", "fodt", "tex"} {
		t.Run(kind, func(t *testing.T) {
			src := filepath.Join("testdata", "spaced", "titles."+kind)
			pdf := filepath.Join(dir, "titles-"+kind+".pdf")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			switch kind {
			case "html":
				if err := printPDF(ctx, chromium(t), src, pdf); err != nil {
					t.Fatal(err)
				}
			case "fodt":
				out := filepath.Join(dir, "fodt")
				if err := progtest.Convert(ctx, progtest.Soffice(t), out, "pdf", src); err != nil {
					t.Fatal(err)
				}
				pdf = filepath.Join(out, "titles.pdf")
			case "tex":
				bin := progtest.Command(t, "WAYFINDER_XELATEX", "xelatex", "texlive-xetex, texlive-lang-korean and fonts-noto-cjk")
				abs, err := filepath.Abs(src)
				if err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, "tex")
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
				cmd := exec.CommandContext(ctx, bin, "-interaction=nonstopmode", "-halt-on-error", "-output-directory", out, abs)
				cmd.Dir = out
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("xelatex: %v\n%s", err, b)
				}
				pdf = filepath.Join(out, "titles.pdf")
			}
			pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != 1 {
				t.Fatalf("%d pages, want 1", len(pages))
			}
			lines := strings.Split(nonEmptyLines(pages[0].Text), "\n")
			for _, w := range spacedWant[kind] {
				if !slices.Contains(lines, w) {
					t.Errorf("no line %q:\n%s", w, pages[0].Text)
				}
			}
		})
	}
}
