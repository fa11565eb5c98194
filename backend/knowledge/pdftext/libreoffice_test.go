package pdftext

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
// number, every block of each fixture in its order (so the left column is
// read before the right one, a table after the columns above it), the
// paragraphs whole (no line mixes two columns, no word is spaced out into
// syllables), each contents line with its page number, the footnotes
// whole, and word recall against pdftotext of at least 0.97.
func TestLibreOfficeLayouts(t *testing.T) {
	bin := progtest.Soffice(t, "pdftotext")
	dir := t.TempDir()
	if d := os.Getenv("WAYFINDER_PDF_OUT"); d != "" {
		dir = d // keep the files
	}
	names := []string{"ko", "contents", "gov", "forms", "notes"}
	var srcs []string
	for _, n := range names {
		srcs = append(srcs, filepath.Join("testdata", "libreoffice", n+".fodt"))
	}
	if err := progtest.Convert(context.Background(), bin, dir, "pdf", srcs...); err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		t.Run(n, func(t *testing.T) {
			pdf := filepath.Join(dir, n+".pdf")
			pages, err := newTestExtractor(t).ExtractFile(context.Background(), pdf)
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for n, p := range pages {
				lines := strings.Split(nonEmptyLines(p.Text), "\n")
				if !strings.HasPrefix(lines[0], "한국대학교 학사 규정집") { // gov.fodt's goes on after a tab
					t.Errorf("page %d: first line %q, want the running header", n+1, lines[0])
				}
				if last, want := lines[len(lines)-1], fmt.Sprintf("- %d -", n+1); last != want {
					t.Errorf("page %d: last line %q, want the page number %q", n+1, last, want)
				}
				all.WriteString(p.Text + "\n")
			}
			doc := readFodt(t, srcs[i])
			checkBlocks(t, n+".fodt", all.String(), doc.blocks, unspaced)
			checkContents(t, all.String(), doc.contents)
			for _, note := range doc.notes {
				if !strings.Contains(unspaced(strings.Join(strings.Fields(all.String()), " ")), unspaced(note)) {
					t.Errorf("note %q is not whole\n%s", note, all.String())
				}
			}
			for _, want := range wantLines[n] {
				if !slices.Contains(strings.Split(all.String(), "\n"), want) {
					t.Errorf("no line %q\n%s", want, all.String())
				}
			}
			ref, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
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

// wantLines are lines each fixture reads whole, as the page draws them:
// a number and its unit that LibreOffice autospaces in a cell are one
// word ("3년", "3년 6월", as pdftotext writes them; see unitJoins), a
// form's check boxes and blank stay in their cell and line, and a footnote's
// number a tab before a note that starts with a date is no table's cell,
// nor are a note's date and words a tab apart (footnote), where a table
// of the same numbers, dates and words in the text's size keeps its bars.
var wantLines = map[string][]string{
	"notes": {
		"1 | 2022. 6. 30. | 개정",
		"3 | 2024. 1. 1. | 일부개정",
		"1 2022. 6. 30. 개정",
		"2 2023. 3. 1. 신설",
		"3 2024. 1. 1. 이 단서는 2024 학년도 입학생부터 적용한다.",
		"4 2021. 9. 1. Amended",
		"5 2020. 3. 1. Added by the Senate",
	},
	"gov": {
		"민원 처리 기록 | 3년 | 민원처리법 시행령 제 23 조",
		"출입 기록 | 1년 | 보안업무규정",
		"2 2022. 6. 30. 이전에 수집한 정보에도 적용한다.",
	},
	"forms": {
		"질병 휴직 | 일반 질병 | 1년 6월",
		"공무상 질병 | 3년 6월",
		"유학 휴직 | 학위 취득 | 3년 6월",
		"휴직 종류 | ■ 질병 휴직 □ 육아 휴직 □ 유학 휴직",
		"신청인 ____________ (서명 또는 인)",
		"※ 처리 기간: 접수일부터 7 일 이내 · 수수료: 없음",
		// Justified cells wrapped at spaces keep the spaces at their
		// line ends (justifiedRoom).
		"제 3 조(근무시간) ① 공무원의 1 주간 근무시간은 점심시간을 제외하고 44 시간으로 하며, 근무시간은 오전 9 시부터 오후 6 시까지로 한다. ② 행정기관의 장은 업무의 성질상 필요한 경우에는 근무시간을 달리 정할 수 있다. | " +
			"제 3 조(근무시간) ① 공무원의 1 주간 근무시간은 점심시간을 제외하고 40 시간으로 하며, 토요일과 「 관공서의 공휴일에 관한 규정」에 따른 공휴일은 쉰다. ② (현행과 같음)",
	},
}

// checkContents looks for each contents line (a title and its page
// number, apart by a tab with a leader) on a line of its own: the title,
// the leader's dots and the number, nothing else.
func checkContents(t *testing.T, text string, entries [][2]string) {
	t.Helper()
	lines := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		lines[strings.TrimRight(squeezed(unspaced(l)), ".·")] = true
	}
	for _, e := range entries {
		l := squeezed(unspaced(e[0]))
		found := false
		for have := range lines {
			if rest, ok := strings.CutPrefix(have, l); ok && strings.TrimLeft(rest, ".·") == e[1] {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("contents line %q … %s is not on one line\n%s", e[0], e[1], text)
		}
	}
}

// fodt is what a flat ODF text document's body holds: its blocks in order,
// its contents lines, and its footnotes and frames' paragraphs.
type fodt struct {
	blocks   []block
	contents [][2]string // a title and its page number, apart by a tab
	notes    []string
}

// readFodt reads the headings, paragraphs and table rows of a flat ODF
// text document's body, in order. A row's cells are only looked for in
// order: LibreOffice's tables are set tight, and their gaps are not always
// read as cells. A note's citation stays in its paragraph; its body, and
// a text frame's paragraphs (a note beside the text, read as a column of
// its own, before or after the paragraph below it), are looked for whole
// anywhere; a paragraph with a tab is a contents line, its title looked
// for in order.
func readFodt(t *testing.T, file string) fodt {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const (
		textNS  = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
		tableNS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	)
	var doc fodt
	var row []string
	// Paragraphs being read, the innermost last (a frame's or a note's
	// paragraph inside a paragraph).
	type para struct {
		sb   strings.Builder
		tabs []int // where tabs fall in sb
	}
	var open []*para
	inBody, inNote := false, 0
	// Text styles with a letter-spacing, and the spans open: a span so
	// styled is read a letter a word, as the page shows it and pdftotext
	// writes it ("위 임 장(갑)" for <span Sp>위임</span>장(갑), the spacing
	// after its last letter too).
	spacedStyles := map[string]bool{}
	var style string // the style:style being read
	var spans []bool
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
			case tok.Name.Local == "style" && !inBody:
				style = attr(tok, "name")
			case tok.Name.Local == "text-properties" && !inBody:
				if ls := attr(tok, "letter-spacing"); ls != "" && ls != "normal" && style != "" {
					spacedStyles[style] = true
				}
			case tok.Name.Local == "text" && !inBody:
				inBody = tok.Name.Space == "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
			case !inBody:
			case tok.Name.Space == tableNS && tok.Name.Local == "table-row":
				row = []string{}
			case tok.Name.Space == textNS && tok.Name.Local == "note-body":
				inNote++
			case tok.Name.Space == textNS && (tok.Name.Local == "p" || tok.Name.Local == "h"):
				open = append(open, &para{})
			case tok.Name.Space == textNS && tok.Name.Local == "tab" && len(open) > 0:
				p := open[len(open)-1]
				p.tabs = append(p.tabs, p.sb.Len())
				if inNote > 0 {
					p.sb.WriteByte(' ') // a note's tab parts its words
				}
			case tok.Name.Space == textNS && tok.Name.Local == "span":
				spans = append(spans, spacedStyles[attr(tok, "style-name")])
			}
		case xml.CharData:
			switch {
			case len(open) == 0:
			case len(spans) > 0 && spans[len(spans)-1]:
				for _, r := range string(tok) {
					open[len(open)-1].sb.WriteString(string(r) + " ")
				}
			default:
				open[len(open)-1].sb.Write(tok)
			}
		case xml.EndElement:
			switch {
			case !inBody:
			case tok.Name.Space == textNS && tok.Name.Local == "span":
				spans = spans[:len(spans)-1]
			case tok.Name.Space == textNS && tok.Name.Local == "note-body":
				inNote--
			case tok.Name.Space == textNS && (tok.Name.Local == "p" || tok.Name.Local == "h"):
				p := open[len(open)-1]
				open = open[:len(open)-1]
				raw := p.sb.String()
				s := strings.Join(strings.Fields(raw), " ")
				switch {
				case inNote > 0:
					doc.notes = append(doc.notes, s)
				case len(p.tabs) == 1:
					title := strings.Join(strings.Fields(raw[:p.tabs[0]]), " ")
					doc.contents = append(doc.contents, [2]string{title, strings.TrimSpace(raw[p.tabs[0]:])})
					doc.blocks = append(doc.blocks, block{text: title})
				case len(open) > 0:
					doc.notes = append(doc.notes, s) // a frame's
				case row != nil:
					row = append(row, s)
				default:
					doc.blocks = append(doc.blocks, block{text: s, whole: true})
				}
			case tok.Name.Space == tableNS && tok.Name.Local == "table-row":
				doc.blocks = append(doc.blocks, block{text: strings.Join(row, " "), cells: row})
				row = nil
			}
		}
	}
	if len(doc.blocks) == 0 {
		t.Fatalf("%s: no blocks", file)
	}
	return doc
}

// attr is the value of an element's attribute by its local name, "" if
// it has none.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// unspaced drops the spaces between a CJK letter and a Latin letter, a
// digit or ASCII punctuation: LibreOffice sets such a space between them
// (its autospacing of Asian and Western text, "제 8 조" for "제8조", "참고 :"), which PDFium and
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
	return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsPunct(r))
}
