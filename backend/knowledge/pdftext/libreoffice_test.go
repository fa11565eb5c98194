package pdftext

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

// The LibreOffice tier: a Korean regulation laid out in LibreOffice
// Writer (testdata/libreoffice/ko.fodt), printed by LibreOffice, the
// other producer people's PDFs come from. LibreOffice lays Korean out its
// own way: it justifies a line by widening its word spaces or, where its
// Asian language is not Korean, by spacing out every syllable; it hangs a
// full stop past the column's edge; it writes its CJK fonts without an
// ascent or a descent (so PDFium's boxes are three font sizes tall); and
// its columns may be 0.8 font sizes apart.

// TestLibreOfficeLayouts checks every page's running header and page
// number, every block of the fixture in its order (so the left column is
// read before the right one, a table after the columns above it), the
// paragraphs whole (no line mixes two columns, no word is spaced out into
// syllables) and word recall against pdftotext of at least 0.97.
func TestLibreOfficeLayouts(t *testing.T) {
	bin := progtest.Soffice(t, "pdftotext")
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files
	}
	src := filepath.Join("testdata", "libreoffice", "ko.fodt")
	if err := progtest.Convert(context.Background(), bin, dir, "pdf", src); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(dir, "ko.pdf")
	pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for n, p := range pages {
		lines := strings.Split(nonEmptyLines(p.Text), "\n")
		if lines[0] != "한국대학교 학사 규정집" {
			t.Errorf("page %d: first line %q, want the running header", n+1, lines[0])
		}
		if last, want := lines[len(lines)-1], fmt.Sprintf("- %d -", n+1); last != want {
			t.Errorf("page %d: last line %q, want the page number %q", n+1, last, want)
		}
		all.WriteString(p.Text + "\n")
	}
	checkBlocks(t, "ko.fodt", all.String(), fodtBlocks(t, src), unspaced)
	ref, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	r := wordRecall(string(ref), all.String())
	t.Logf("%d pages, word recall against pdftotext %.4f", len(pages), r)
	if r < 0.97 {
		t.Errorf("word recall against pdftotext %.4f < 0.97", r)
	}
}

// fodtBlocks reads the headings, paragraphs and table rows of a flat ODF
// text document's body, in order. A row's cells are only looked for in
// order: LibreOffice's tables are set tight, and their gaps are not always
// read as cells.
func fodtBlocks(t *testing.T, file string) []block {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const textNS, tableNS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0", "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	var blocks []block
	var row []string
	var text *strings.Builder
	inBody := false
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch {
			case tok.Name.Local == "text" && !inBody:
				inBody = tok.Name.Space == "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
			case !inBody:
			case tok.Name.Space == tableNS && tok.Name.Local == "table-row":
				row = []string{}
			case tok.Name.Space == textNS && (tok.Name.Local == "p" || tok.Name.Local == "h"):
				text = &strings.Builder{}
			}
		case xml.CharData:
			if text != nil {
				text.Write(tok)
			}
		case xml.EndElement:
			switch {
			case !inBody:
			case tok.Name.Space == textNS && (tok.Name.Local == "p" || tok.Name.Local == "h"):
				s := strings.Join(strings.Fields(text.String()), " ")
				if row != nil {
					row = append(row, s)
				} else {
					blocks = append(blocks, block{text: s, whole: true})
				}
				text = nil
			case tok.Name.Space == tableNS && tok.Name.Local == "table-row":
				blocks = append(blocks, block{text: strings.Join(row, " "), cells: row})
				row = nil
			}
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("%s: no blocks", file)
	}
	return blocks
}

// unspaced drops the spaces between a CJK letter and a Latin letter or a
// digit: LibreOffice sets such a space between them (its autospacing of
// Asian and Western text, "제 8 조" for "제8조"), which PDFium and
// pdftotext read as the space it looks like, and a search finds both.
func unspaced(s string) string {
	rs := []rune(s)
	var sb strings.Builder
	for i, r := range rs {
		if r == ' ' && i > 0 && i+1 < len(rs) && (cjk(rs[i-1]) && western(rs[i+1]) || western(rs[i-1]) && cjk(rs[i+1])) {
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func western(r rune) bool {
	return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
