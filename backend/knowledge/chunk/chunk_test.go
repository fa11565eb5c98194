package chunk

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// render prints chunks in a form a reviewer can read, Korean included.
func render(chunks []Chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		fmt.Fprintf(&b, "--- chunk %d page=%d heading=%q runes=%d\n%s\n", c.Index, c.Page, c.Heading, utf8.RuneCountInString(c.Text), c.Text)
	}
	return b.String()
}

func readInput(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSplitGolden(t *testing.T) {
	tests := []struct {
		name   string
		inputs func(t *testing.T) []Input
		opt    Options
	}{
		{"guide_markdown", func(t *testing.T) []Input { return []Input{{Text: readInput(t, "guide.md")}} }, Options{Size: 200, Overlap: 40, Markdown: true}},
		{"korean_markdown", func(t *testing.T) []Input { return []Input{{Text: readInput(t, "korean.md")}} }, Options{Size: 120, Overlap: 30, Markdown: true}},
		{"guide_as_plain_text", func(t *testing.T) []Input { return []Input{{Text: readInput(t, "guide.md")}} }, Options{Size: 300, Overlap: 50}},
		{"plain_paragraphs", func(t *testing.T) []Input { return []Input{{Text: readInput(t, "plain.txt")}} }, Options{Size: 250, Overlap: 60}},
		{"plain_no_overlap", func(t *testing.T) []Input { return []Input{{Text: readInput(t, "plain.txt")}} }, Options{Size: 250, Overlap: -1}},
		{"pdf_pages", func(t *testing.T) []Input {
			return []Input{
				{Page: 1, Text: "Annual report 2024\nRevenue grew in every region.\n"},
				{Page: 2, Text: ""},
				{Page: 3, Text: "한국어 페이지입니다. 띄어쓰기가 유지되어야 합니다.\n표 1: 지역별 매출"},
			}
		}, Options{}},
		{"json_record_title", func(t *testing.T) []Input {
			return []Input{{Heading: "Leave policy", Text: "# Details\nFifteen days a year.\n"}}
		}, Options{Markdown: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(Split(tt.inputs(t), tt.opt))
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("chunks differ from %s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

func TestAtxHeading(t *testing.T) {
	tests := []struct {
		line  string
		level int
		title string
		ok    bool
	}{
		{"# Title\n", 1, "Title", true},
		{"### 신청 방법", 3, "신청 방법", true},
		{"## Usage ##", 2, "Usage", true},
		{"## C# tips", 2, "C# tips", true},
		{"#hashtag", 0, "", false},
		{"    # indented code", 0, "", false},
		{"####### seven", 0, "", false},
		{"#", 1, "", true},
		{"plain", 0, "", false},
	}
	for _, tt := range tests {
		level, title, ok := atxHeading(tt.line)
		if level != tt.level || title != tt.title || ok != tt.ok {
			t.Errorf("atxHeading(%q) = %d, %q, %v; want %d, %q, %v", tt.line, level, title, ok, tt.level, tt.title, tt.ok)
		}
	}
}

func TestSplitNeverCrossesHeadingsOrPages(t *testing.T) {
	in := []Input{
		{Page: 1, Text: strings.Repeat("alpha beta gamma. ", 100)},
		{Page: 2, Text: strings.Repeat("delta epsilon. ", 100)},
	}
	for _, c := range Split(in, Options{Size: 100, Overlap: 20}) {
		hasAlpha, hasDelta := strings.Contains(c.Text, "alpha"), strings.Contains(c.Text, "delta")
		if hasAlpha && hasDelta || hasAlpha && c.Page != 1 || hasDelta && c.Page != 2 {
			t.Fatalf("chunk %d mixes pages: %+v", c.Index, c)
		}
	}
}

func TestSplitOverlapRepeatsTail(t *testing.T) {
	text := strings.Repeat("한국어 문장을 길게 씁니다. ", 40)
	chunks := Split([]Input{{Text: text}}, Options{Size: 100, Overlap: 25})
	if len(chunks) < 3 {
		t.Fatalf("want several chunks, got %d", len(chunks))
	}
	for i := 1; i < len(chunks); i++ {
		prev := []rune(chunks[i-1].Text)
		head := string([]rune(chunks[i].Text)[:8])
		if !strings.Contains(string(prev[len(prev)-40:]), head) {
			t.Errorf("chunk %d starts %q, not found in the tail of chunk %d", i, head, i-1)
		}
	}
}

// checkInvariants holds for any input: chunks are non-empty, valid UTF-8,
// within the size limit, numbered in order, and every word shorter than half
// a chunk survives whole (as a word of some chunk, never cut).
func checkInvariants(t *testing.T, text string, opt Options) {
	chunks := Split([]Input{{Page: 1, Text: text}}, opt)
	n := opt.normalised()
	var all strings.Builder
	for i, c := range chunks {
		if c.Index != i {
			t.Fatalf("chunk %d has index %d", i, c.Index)
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("chunk %d is empty", i)
		}
		if !utf8.ValidString(c.Text) && utf8.ValidString(text) {
			t.Fatalf("chunk %d is not valid UTF-8", i)
		}
		if l := utf8.RuneCountInString(c.Text); l > n.Size {
			t.Fatalf("chunk %d has %d runes > %d", i, l, n.Size)
		}
		all.WriteString(c.Text)
		all.WriteString("\n")
	}
	if opt.Markdown || !utf8.ValidString(text) {
		return // heading lines are removed from bodies; invalid bytes become U+FFFD
	}
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(all.String(), unicode.IsSpace) {
		have[w] = true
	}
	for _, w := range strings.FieldsFunc(text, unicode.IsSpace) {
		if utf8.RuneCountInString(w) < n.Size/2 && !have[w] {
			t.Fatalf("word %q lost (size %d overlap %d)", w, n.Size, n.Overlap)
		}
	}
}

func TestSplitInvariants(t *testing.T) {
	for _, name := range []string{"guide.md", "korean.md", "plain.txt"} {
		text := readInput(t, name)
		for _, size := range []int{16, 50, 120, 1000} {
			for _, md := range []bool{false, true} {
				checkInvariants(t, text, Options{Size: size, Overlap: size / 3, Markdown: md})
			}
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("# 제목\n\n본문 문서를 읽습니다.\n\n## Sub\ntext", 40, 10, true)
	f.Add(strings.Repeat("word ", 300), 100, 20, false)
	f.Add("가나다라마바사아자차카타파하", 16, 4, false)
	f.Fuzz(func(t *testing.T, text string, size, overlap int, markdown bool) {
		if size > 5000 {
			size %= 5000
		}
		opt := Options{Size: size, Overlap: overlap, Markdown: markdown}
		checkInvariants(t, text, opt)
		// Read in blocks, the text must give the same chunks.
		step := 1 + (size&0xff+overlap&0xff)%97
		got := streamSplit(t, []Input{{Text: text}}, opt, func(n int) []int {
			var cuts []int
			for at := step; at < n; at += step {
				cuts = append(cuts, at)
			}
			return cuts
		})
		if diff := cmp.Diff(Split([]Input{{Text: text}}, opt), got); diff != "" {
			t.Fatalf("streamed in %d-byte blocks (%+v) (-whole +streamed):\n%s", step, opt, diff)
		}
	})
}

func BenchmarkSplit(b *testing.B) {
	text := strings.Repeat("Wayfinder splits long documents into passages. 문서를 나눕니다.\n\n", 2000)
	b.SetBytes(int64(len(text)))
	var n int
	for b.Loop() {
		n += len(Split([]Input{{Text: text}}, Options{Markdown: true}))
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "chunks/s")
}

// TestHeadingsAloneAreText: a Markdown input whose only text is headings
// (a short note "# 회의록 2026-11-27", a page of one <h1>, a Word file of
// one Heading paragraph) has its headings as its text; before, it had no
// chunk and its file failed as "no text". Headings followed by text stay
// headings.
func TestHeadingsAloneAreText(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		size       int
		want       []Chunk
	}{
		{"one heading", "# 회의록 2026-11-27\n", 0, []Chunk{{Text: "회의록 2026-11-27"}}},
		{"one heading, no newline", "# 회의록", 0, []Chunk{{Text: "회의록"}}},
		{"an outline", "# 개요\n\n## 1장\n## 2장\n", 0, []Chunk{{Text: "개요\n1장\n2장"}}},
		{"headings, then text", "# 개요\n## 1장\n본문\n", 0, []Chunk{{Heading: "개요 › 1장", Text: "본문"}}},
		{"text under the first heading", "# 개요\n본문\n## 1장\n", 0, []Chunk{{Heading: "개요", Text: "본문"}}},
		{"a fence is text", "# 코드\n```\n```\n", 0, []Chunk{{Heading: "코드", Text: "```\n```"}}},
		{"blank lines are not text", "# 개요\n\n   \n## 1장\n", 0, []Chunk{{Text: "개요\n1장"}}},
		{"empty headings", "#\n##\n", 0, nil},
		{"more headings than a chunk", strings.Repeat("# 제목\n", 10), 16, []Chunk{
			{Text: "제목\n제목\n제목\n제목\n제목"}, {Index: 1, Text: "제목\n제목\n제목\n제목\n제목"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Split([]Input{{Text: tt.text}}, Options{Markdown: true, Size: tt.size, Overlap: -1})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks (-want +got):\n%s", diff)
			}
		})
	}
}
