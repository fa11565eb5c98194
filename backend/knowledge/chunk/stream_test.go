package chunk

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// wholeSplit is Split as it was before the Splitter: the whole input in
// memory, cut section by section. The Splitter must make the same chunks.
func wholeSplit(inputs []Input, opt Options) []Chunk {
	opt = opt.normalised()
	var out []Chunk
	for _, in := range inputs {
		type section struct{ heading, text string }
		var secs []section
		var trail []string
		base := strings.TrimSpace(in.Heading)
		heading := base
		var body strings.Builder
		flush := func() {
			if strings.TrimSpace(body.String()) != "" {
				secs = append(secs, section{heading, body.String()})
			}
			body.Reset()
		}
		inFence := false
		// Headings before any other text are the text when nothing else
		// comes, or once they pass a chunk's worth (bareText).
		var bare []string
		bareRunes, hasBody, bareText := 0, false, false
		for line := range strings.Lines(in.Text) {
			trimmed := strings.TrimSpace(line)
			if opt.Markdown && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
				inFence = !inFence
			}
			if opt.Markdown && !inFence {
				if level, title, ok := atxHeading(line); ok {
					if !hasBody && title != "" {
						if bareText {
							body.WriteString(title + "\n")
							continue
						}
						bare = append(bare, title)
						if bareRunes += utf8.RuneCountInString(title) + 1; bareRunes > opt.Size {
							flush()
							heading, bareText = base, true
							body.WriteString(strings.Join(bare, "\n") + "\n")
							continue
						}
					}
					flush()
					if level > len(trail) {
						trail = append(trail, make([]string, level-len(trail))...)
					}
					trail = append(trail[:level-1], title)
					heading = joinHeading(base, trail)
					continue
				}
			}
			if trimmed != "" {
				hasBody = true
			}
			body.WriteString(line)
		}
		flush()
		if !hasBody && len(bare) > 0 && !bareText {
			heading = base
			body.WriteString(strings.Join(bare, "\n") + "\n")
			flush()
		}
		for _, s := range secs {
			text := strings.TrimSpace(s.text)
			r := []rune(text)
			for start := 0; start < len(r); {
				end := min(start+opt.Size, len(r))
				cut := end
				if end < len(r) {
					cut = bestBreak(r, start+opt.Size/2, end)
				}
				if piece := strings.TrimSpace(string(r[start:cut])); piece != "" {
					out = append(out, Chunk{Index: len(out), Page: in.Page, Heading: s.heading, Text: piece})
				}
				if cut >= len(r) {
					break
				}
				start = overlapStart(r, start, cut, opt.Overlap)
			}
		}
	}
	return out
}

// streamSplit feeds each input to a Splitter in pieces cut at the given
// byte offsets (on rune boundaries), as a file read in blocks would be.
func streamSplit(t *testing.T, inputs []Input, opt Options, cuts func(n int) []int) []Chunk {
	t.Helper()
	var out []Chunk
	s := NewSplitter(opt, func(c Chunk) error {
		out = append(out, c)
		return nil
	})
	for _, in := range inputs {
		prev := 0
		for _, at := range append(cuts(len(in.Text)), len(in.Text)) {
			for at < len(in.Text) && !utf8.RuneStart(in.Text[at]) {
				at++
			}
			if at < prev {
				continue
			}
			if err := s.Write(Input{Page: in.Page, Heading: in.Heading, Text: in.Text[prev:at]}); err != nil {
				t.Fatal(err)
			}
			prev = at
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// randomText mixes words, Korean, sentence ends, blank lines, Markdown
// headings and fences, and long runs of spaces.
func randomText(rng *rand.Rand, n int) string {
	parts := []string{"alpha", "beta", "문서를", "읽습니다.", " ", " ", " ", "\n", "\n\n", "# Title\n", "\n## Sub heading\n", "\n```\n", "end. ", "\t", strings.Repeat(" ", 300), strings.Repeat("\n", 50), "averyveryverylongwordwithoutanyspaces"}
	var b strings.Builder
	for range n {
		b.WriteString(parts[rng.IntN(len(parts))])
	}
	return b.String()
}

func TestSplitterMatchesWholeText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		text := randomText(rng, rng.IntN(400))
		opt := Options{Size: 16 + rng.IntN(200), Overlap: rng.IntN(60) - 5, Markdown: rng.IntN(2) == 0}
		inputs := []Input{{Page: 1, Text: text}, {Page: 1, Heading: "Record", Text: randomText(rng, 30)}, {Page: 2, Text: text}}
		want := wholeSplit(inputs, opt)
		if diff := cmp.Diff(want, Split(inputs, opt)); diff != "" {
			t.Fatalf("case %d (%+v): Split differs from the whole-text algorithm (-want +got):\n%s", i, opt, diff)
		}
		got := streamSplit(t, inputs, opt, func(n int) []int {
			var cuts []int
			for at := rng.IntN(64); at < n; at += 1 + rng.IntN(97) {
				cuts = append(cuts, at)
			}
			return cuts
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d (%+v): streamed pieces differ (-want +got):\n%s", i, opt, diff)
		}
	}
}

// TestSplitterHoldsLittle feeds 20 MB in 64 KB writes and checks that the
// splitter never holds more than a chunk or two plus the write.
func TestSplitterHoldsLittle(t *testing.T) {
	block := strings.Repeat("문서를 읽습니다. Wayfinder reads long files.\n", 1500) // ≈ 64 KB
	for _, tc := range []struct {
		name string
		text string
	}{
		{"sentences", block},
		{"one line of spaces", strings.Repeat(" ", len(block))},
		{"one endless line", strings.Repeat("x", len(block))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			s := NewSplitter(Options{Markdown: true}, func(Chunk) error { n++; return nil })
			for range 20 << 20 / len(tc.text) {
				if err := s.Write(Input{Text: tc.text}); err != nil {
					t.Fatal(err)
				}
				if held := len(s.text.buf) + len(s.line); held > 2*DefaultSize+maxHeadingLine {
					t.Fatalf("holds %d runes/bytes after a write", held)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if tc.name != "one line of spaces" && n < 1000 {
				t.Fatalf("only %d chunks", n)
			}
		})
	}
}

func TestLongMarkdownLineIsBody(t *testing.T) {
	long := "# " + strings.Repeat("긴 제목 ", maxHeadingLine/4)
	chunks := Split([]Input{{Text: "# Short\n" + long + "\nbody"}}, Options{Markdown: true, Size: 100})
	if chunks[0].Heading != "Short" || !strings.HasPrefix(chunks[0].Text, "# 긴 제목") {
		t.Fatalf("a heading line longer than %d bytes should be body text: %+v", maxHeadingLine, chunks[0])
	}
}

// TestLongWriteMovesItsTextOnce: a write much longer than a chunk (a JSON
// record of one 30 MB string arrives whole) is cut with its text moved
// to the front of the buffer once, not once a chunk: moved once a chunk,
// the 30 MB record took more than 150 s and failed the file's budget.
func TestLongWriteMovesItsTextOnce(t *testing.T) {
	for _, text := range []string{strings.Repeat("a", 1<<20), strings.Repeat("낱말 ", 300_000)} {
		n := 0
		s := NewSplitter(Options{}, func(Chunk) error { n++; return nil })
		if err := s.Write(Input{Text: text}); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		runes := len([]rune(text))
		if s.text.moved > runes {
			t.Errorf("%d chunks of %d runes: %d runes moved, want at most %d", n, runes, s.text.moved, runes)
		}
	}
}
