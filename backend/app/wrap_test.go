package app

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func TestClipped(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		cols     int
		want     string
	}{
		{"short stays", "leave policy", 60, "leave policy"},
		{"exactly the width stays", "abcdef", 6, "abcdef"},
		{"long English is cut with a mark", "annual leave policy for contractors", 12, "annual leav…"},
		{"the space before the mark goes", "annual leave policy", 8, "annual…"},
		{"Hangul counts two columns", "연차 휴가 규정", 9, "연차 휴…"},
		{"newlines become spaces", "leave\npolicy", 60, "leave policy"},
		{"a pasted page", strings.Repeat("사과 ", 3000), 60, strings.TrimSpace(strings.Repeat("사과 ", 12)) + "…"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := clipped(tt.in, tt.cols)
			if got != tt.want || shownWidth(got) > tt.cols {
				t.Errorf("clipped(%.40q…, %d) = %q (%d columns), want %q", tt.in, tt.cols, got, shownWidth(got), tt.want)
			}
		})
	}
}

func TestWrapped(t *testing.T) {
	for _, tt := range []struct {
		name, text    string
		width         int
		first, indent string
		want          string
	}{
		{"not a terminal: one line", "a b c d e f", 0, "1. ", "   ", "1. a b c d e f"},
		{"fits", "a b c", 20, "   ", "   ", "   a b c"},
		{"breaks at spaces", "aaa bbb ccc ddd", 10, "   ", "   ", "   aaa bbb\n   ccc ddd"},
		{"Hangul by its width", "가나다 라마바 사아자", 12, "", "  ", "가나다\n  라마바\n  사아자"},
		{"a word wider than a line is whole", "see /a/very/long/path/name.pdf now", 12, "", "", "see\n/a/very/long/path/name.pdf\nnow"},
		{"a line break is kept, the next line indented", "first error\nsecond one here", 12, "w: ", "  ", "w: first\n  error\n  second one\n  here"},
		{"doubled spaces", "Table 1:  Current   models", 80, "", "", "Table 1: Current models"},
		{"a backquoted command is whole", "next step: run `wayfinder doctor` to check.", 26, "", "  ", "next step: run\n  `wayfinder doctor` to\n  check."},
		{"a backquoted command is whole, Korean", "다음 단계: `wayfinder doctor`로 확인할 수 있습니다.", 30, "", "  ", "다음 단계:\n  `wayfinder doctor`로 확인할\n  수 있습니다."},
		{"a backquoted command wider than a line", "run `ollama pull nomic-embed-text` then", 20, "", "", "run\n`ollama pull nomic-embed-text`\nthen"},
		{"spaces in backquotes are kept", "run `a  b` now", 80, "", "", "run `a  b` now"},
		{"two spans on a line", "`a b` or `c d`", 6, "", "", "`a b`\nor\n`c d`"},
		{"a lone backquote is a mark", "it's `a b c", 6, "", "", "it's\n`a b c"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := wrapped(tt.text, tt.width, tt.first, tt.indent); got != tt.want {
				t.Errorf("wrapped(%q, %d) =\n%s\nwant\n%s", tt.text, tt.width, got, tt.want)
			}
		})
	}
}

// kb search's results fit a terminal of 80 columns (and of 120) line by
// line, in English and Korean, every word whole; printed to a pipe each
// passage stays on one line.
func TestPrintHitsFitsTheTerminal(t *testing.T) {
	hits := []api.SearchHit{
		{Title: "unstructured_layout-parser-paper-with-table", Source: "/work/shared/eval/pdfs/en/unstructured_layout-parser-paper-with-table.pdf", Page: 1, Unit: "page", Score: 11.3955,
			Snippet: "LayoutParser: A Unified Toolkit for DL-Based DIA 5  Table 1: Current layout detection models in the LayoutParser model zoo Dataset | Base Model1 | Large Model | Notes  PubLayNet [38] | F / M M F F F / M | M - - F - | Layouts of modern scien…"},
		{Title: "KorQuAD_2.0_paper", Source: "/work/shared/eval/pdfs/ko/KorQuAD_2.0_paper.pdf", Page: 3, Unit: "page", Heading: "3.1 데이터 수집", Score: 4.886,
			Snippet: "KorQuAD 2.0은 위키백과 문서 전체를 대상으로 하며, 표와 목록을 포함한 HTML 구조의 문서에서 질문에 대한 답을 찾도록 만든 한국어 기계독해 데이터셋입니다. 답은 문단, 표, 목록 등 다양한 형태로 주어집니다."},
	}
	for _, lang := range []int{0, 1} {
		for _, width := range []int{80, 120} {
			var out bytes.Buffer
			printHits(&out, hits, lang, width)
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if shownWidth(line) > width && !strings.Contains(line, "/work/shared/eval/pdfs/en/unstructured_layout-parser-paper-with-table.pdf") {
					t.Errorf("lang %d, %d columns: a line of %d columns:\n%s", lang, width, shownWidth(line), line)
				}
			}
			if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), "Layouts of modern scien…") || !strings.Contains(out.String(), "\n   ") {
				t.Errorf("lang %d, %d columns: words cut or not indented:\n%s", lang, width, out.String())
			}
		}
		var pipe bytes.Buffer
		printHits(&pipe, hits, lang, 0)
		if lines := strings.Split(strings.TrimSuffix(pipe.String(), "\n"), "\n"); len(lines) != 4 || lines[1] != "   "+hits[0].Snippet {
			t.Errorf("lang %d, not a terminal: want two lines a hit, the passage as it is:\n%s", lang, pipe.String())
		}
	}
}

// Nothing found says back a long query's start, not the whole of it.
func TestNoHitsClipsTheQuery(t *testing.T) {
	query := strings.Repeat("apple ", 2000)
	for _, env := range []string{"en_US.UTF-8", "ko_KR.UTF-8"} {
		t.Run(env[:2], func(t *testing.T) {
			t.Setenv("LC_ALL", env)
			code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "kb", "search", query)
			if code != 0 || strings.Count(out, "\n") != 1 || shownWidth(out) > 200 || !strings.Contains(out, "apple apple…") {
				t.Errorf("exit %d, %d columns, stdout:\n%s\nstderr: %s", code, shownWidth(out), out, errOut)
			}
		})
	}
}

// sized is a writer that says it is a terminal cols columns wide.
type sized struct {
	io.Writer
	cols int
}

func (s sized) columns() int { return s.cols }

// On a terminal of 80 columns (and 120) what kb import says of each file
// and why it was not embedded, and an error's sentence and next step, are
// wrapped at spaces, each line within the width and its words whole (the
// same words as printed to a pipe), in English and Korean.
func TestTerminalLinesFitTheWidth(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "휴가 규정.md")
	if err := os.WriteFile(doc, []byte("# 휴가 규정\n\n연차 휴가는 1년에 15일입니다. Annual leave is fifteen days a year.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{"en_US.UTF-8", "ko_KR.UTF-8"} {
		for _, args := range [][]string{{"kb", "import", doc}, {"ask", "hello"}} {
			run := func(cols int) (code int, out, errOut string) {
				t.Helper()
				var o, e bytes.Buffer
				code = Main(context.Background(), append([]string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1"}, args...), strings.NewReader(""), sized{&o, cols}, sized{&e, cols}, testShells)
				return code, o.String(), e.String()
			}
			t.Run(env[:2]+" "+args[0], func(t *testing.T) {
				t.Setenv("LC_ALL", env)
				_, pipeOut, pipeErr := run(0)
				if !strings.Contains(pipeOut+pipeErr, "127.0.0.1:1") {
					t.Fatalf("Ollama away is not said:\n%s%s", pipeOut, pipeErr)
				}
				for _, cols := range []int{80, 120} {
					_, out, errOut := run(cols)
					for _, line := range strings.Split(strings.TrimSuffix(out+errOut, "\n"), "\n") {
						if shownWidth(line) > cols {
							t.Errorf("%d columns: a line of %d:\n%s", cols, shownWidth(line), line)
						}
					}
					if got, want := strings.Fields(out+errOut), strings.Fields(pipeOut+pipeErr); strings.Join(got, " ") != strings.Join(want, " ") {
						t.Errorf("%d columns: the words changed:\n%s%s\nwant, unwrapped:\n%s%s", cols, out, errOut, pipeOut, pipeErr)
					}
					if !strings.Contains(out+errOut, "\n    ") {
						t.Errorf("%d columns: no line indented under the one it continues:\n%s%s", cols, out, errOut)
					}
				}
			})
		}
	}
}

// What doctor, mcp list, folders list, ask's last line, export, kb
// search, sessions and memory say fits a terminal of 60 and of 80 columns, wrapped at spaces in English and
// Korean, where a 60-column terminal cut "wayfin" / "der folders add" and
// "(completion, too" / "ls)"; a word wider than a line (a path, a
// backquoted command) has a line of its own, whole. To a pipe the words
// are the same, each sentence on one line.
func TestNarrowTerminalLinesFitTheWidth(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	for _, env := range []string{"en_US.UTF-8", "ko_KR.UTF-8"} {
		for _, tc := range []struct {
			args   []string
			host   string
			same   bool     // the same words each run (ask's session id is new)
			before []string // run first, to a pipe
		}{
			{[]string{"doctor"}, "http://127.0.0.1:1", true, nil},
			{[]string{"doctor", "--model", "llama3.2:3b"}, fake.URL(), true, nil},
			{[]string{"mcp", "list"}, "http://127.0.0.1:1", true, nil},
			{[]string{"folders", "list"}, "http://127.0.0.1:1", true, nil},
			{[]string{"ask", "--model", "llama3.2:3b", "hello"}, fake.URL(), false, nil},
			{[]string{"export", "--all", "--force", "-o", filepath.Join(t.TempDir(), "conversations-of-the-whole-year.md")}, "http://127.0.0.1:1", true, nil},
			{[]string{"kb", "search", "annual leave carried over"}, "http://127.0.0.1:1", true, nil},
			{[]string{"sessions", "annual leave carried over"}, "http://127.0.0.1:1", true, nil},
			{[]string{"memory", "list"}, "http://127.0.0.1:1", true, nil},
			{[]string{"mcp", "list"}, "http://127.0.0.1:1", true, []string{"mcp", "add", "files", "--", "/nonexistent/wayfinder-mcp-server", "--root", "/tmp/a/folder/of/notes"}},
		} {
			dir := t.TempDir()
			if tc.before != nil {
				Main(context.Background(), append([]string{"--data-dir", dir, "--ollama-host", tc.host}, tc.before...), strings.NewReader(""), io.Discard, io.Discard, testShells)
			}
			run := func(cols int) (out string) {
				t.Helper()
				var o, e bytes.Buffer
				Main(context.Background(), append([]string{"--data-dir", dir, "--ollama-host", tc.host, "--embed-model", "bge-m3"}, tc.args...), strings.NewReader(""), sized{&o, cols}, sized{&e, cols}, testShells)
				return o.String() + e.String()
			}
			t.Run(env[:2]+" "+strings.Join(tc.args, " "), func(t *testing.T) {
				t.Setenv("LC_ALL", env)
				pipe := run(0)
				for _, cols := range []int{60, 80} {
					out := run(cols)
					for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
						if shownWidth(line) > cols && len(strings.Fields(line)) > 1 {
							t.Errorf("%d columns: a line of %d:\n%s\nin:\n%s", cols, shownWidth(line), line, out)
						}
					}
					if tc.same && strings.Join(strings.Fields(out), " ") != strings.Join(strings.Fields(pipe), " ") {
						t.Errorf("%d columns: the words changed:\n%s\nwant, unwrapped:\n%s", cols, out, pipe)
					}
				}
			})
		}
	}
}
