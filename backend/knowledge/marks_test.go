package knowledge

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
	"golang.org/x/text/unicode/norm"
)

// markCase is a case of testdata/marks/cases.json, which highlight.test.ts
// runs against the window's marking too: both must mark the same words.
type markCase struct {
	Name, Query, Text string
	Marks             []string
}

// allMarks returns every place marks.next finds in text, left to right, as
// the window marks them.
func allMarks(text string, m marks) []string {
	out := []string{}
	for from := 0; ; {
		start, end := m.next(text, from)
		if start < 0 {
			return out
		}
		out = append(out, text[start:end])
		from = end
	}
}

func TestMarks(t *testing.T) {
	raw, err := os.ReadFile("testdata/marks/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []markCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("%d cases read", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if got := allMarks(c.Text, newMarks(c.Query)); !slices.Equal(got, c.Marks) {
				t.Errorf("%q in %q: marks %q, want %q", c.Query, c.Text, got, c.Marks)
			}
		})
	}
}

func TestMarkTerms(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"leave policy", []string{"policy", "leave"}},
		{"  Leave, POLICY! ", []string{"policy", "leave"}},
		{"a b cd", []string{"cd"}},
		{"휴가를 며칠", []string{"휴가를며칠", "휴가를", "휴가", "며칠"}},
		{"차를", []string{"차를", "차"}},
		{"도구 모음을", []string{"도구모음을", "도구모음", "모음을", "도구", "모음"}},
		{"시트 탭", []string{"시트탭", "시트"}},
		{"이 책", nil},
		{"mp3 파일", []string{"mp3", "파일"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := markTerms(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("markTerms(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

// TestMarksBounded: finding the marks costs the text's length times the
// query's, also where nearly every place almost matches (a letter-spaced
// text, a long Korean query): 2 MB in about a second or less (0.1–0.8 s on
// the shared machine).
func TestMarksBounded(t *testing.T) {
	limit := 5 * time.Second
	if raceDetector {
		limit *= 10
	}
	m := newMarks("가나다라마바사아자차카타파하 가나다라 가나 위임장 도구 모음")
	for _, text := range []string{
		strings.Repeat("가 나 다 라 마 바 사 ", 2<<20/len("가 나 다 라 마 바 사 ")),
		strings.Repeat("가나다라마바사아자차카타파", 2<<20/len("가나다라마바사아자차카타파")),
		strings.Repeat("가\n나\r\n", 2<<20/len("가\n나\r\n")),
	} {
		began := time.Now()
		n := 0
		for from := 0; ; n++ {
			start, end := m.next(text, from)
			if start < 0 {
				break
			}
			from = end
		}
		took := time.Since(began)
		t.Logf("%d bytes, %d marks, %v", len(text), n, took)
		if n == 0 || took > limit {
			t.Errorf("%d bytes: %d marks in %v", len(text), n, took)
		}
	}
}

// TestCollapseSpace: a snippet's gaps collapse, but never into the one
// break a mark may span (breakLen), so the window marks in a snippet only
// what it would mark in the text.
func TestCollapseSpace(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  가 \n", "가"},
		{"위 임\n장\r\n을", "위 임 장 을"},
		{"위\n\n임  장\t을\r이\u3000다", "위  임  장  을  이  다"},
	}
	for _, tt := range tests {
		got := collapseSpace(tt.in)
		if got != tt.want {
			t.Errorf("collapseSpace(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if want, gotMarks := allMarks(norm.NFC.String(tt.in), newMarks("위임장을이다")), allMarks(got, newMarks("위임장을이다")); len(want) != len(gotMarks) {
			t.Errorf("%q marks %q, collapsed %q", tt.in, want, gotMarks)
		}
	}
}

// TestSnippetShowsSpacedWord: a search for "위임장" finds a form whose
// title is letter-spaced (as PDF text keeps it), and the hit's snippet is
// the window around that title, not around an earlier "위임" of the text.
func TestSnippetShowsSpacedWord(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	dir := t.TempDir()
	text := strings.Repeat("위임 사항은 아래와 같이 정리하여 보관합니다. ", 12) + "위 임 장(갑)\n성명: 홍길동"
	if err := os.WriteFile(filepath.Join(dir, "form.txt"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Import(context.Background(), []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(context.Background(), "위임장", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || !strings.Contains(hits[0].Snippet, "위 임 장(갑)") {
		t.Fatalf("hits %+v, want form.txt's title in the snippet", hits)
	}
}

// BenchmarkSnippetLongQuery: a hit's snippet for the longest query a search
// takes (boundQuery: 2,000 characters, a pasted Korean page), over a chunk
// of 1,000 characters that holds none of its words until its end: 0.2–0.3
// ms, of which finding the marks 0.04 ms; the marks of such a query, made
// once a search, 0.7 ms.
func BenchmarkSnippetLongQuery(b *testing.B) {
	words := []string{"위임장을", "제출하는", "방법은", "아래와", "같습니다", "도구 모음", "표시", "문서를"}
	var q strings.Builder
	for i := 0; q.Len() < 5000; i++ {
		q.WriteString(words[i%len(words)])
		q.WriteString(" ")
	}
	query := boundQuery(q.String())
	text := strings.Repeat("가나다라마바사 ", 120) + "위 임 장(갑)"
	terms, m := keyword.DefaultAnalyzer().Tokens(query), newMarks(query) // once a search
	for b.Loop() {
		if s := snippet(text, m, terms); !strings.Contains(s, "위 임 장") {
			b.Fatal(s)
		}
	}
}
