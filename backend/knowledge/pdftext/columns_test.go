package pdftext

import (
	"fmt"
	"strings"
	"testing"
)

// evenLine lays syllables of 10 pt from x on one baseline, gap points
// after each, a space glyph drawn in every gap when spaces, PDFium's
// generated space otherwise (none where gap is 0: a word).
func evenLine(text string, x, base, gap float64, spaces bool) []glyph {
	var out []glyph
	for i, r := range []rune(text) {
		if i > 0 {
			if spaces {
				out = append(out, glyph{r: ' ', x0: x - gap, x1: x, lo: base - 2, hi: base + 8, h: 10})
			} else if gap > 0 {
				out = append(out, glyph{r: ' ', gen: true})
			}
		}
		out = append(out, glyph{r: r, x0: x, x1: x + 10, lo: base - 2, hi: base + 8, h: 10})
		x += 10 + gap
	}
	return out
}

// spacedWords lays text out from x as CSS letter-spacing does: gap points
// after every syllable of 10 pt and after every space of 3 pt (drawn), so
// two words are a letter gap, a space and a letter gap apart.
func spacedWords(text string, x, base, gap float64) []glyph {
	var out []glyph
	for i, r := range []rune(text) {
		w := 10.0
		if r == ' ' {
			w = 3
		} else if i > 0 && []rune(text)[i-1] != ' ' {
			out = append(out, glyph{r: ' ', gen: true})
		}
		out = append(out, glyph{r: r, x0: x, x1: x + w, lo: base - 2, hi: base + 8, h: 10})
		x += w + gap
	}
	return out
}

// TestPageTextEvenlySpacedLines: lines whose every gap is as wide as a
// narrow gutter (0.6 to 0.9 font sizes) and whose gaps line up down the
// page are read whole, not as two columns: letters spaced out, set
// left-aligned one under another, sit at the same places on every line;
// loosely justified lines whose word gaps meet by chance, the words after
// them flush; a notice's lines spaced out, their words a space and two
// letter gaps apart, are read as lines and not as a table's rows either.
// Two columns set that close with word spaces narrower than
// the gutter are still read apart (TestPageTextNarrowGutter).
func TestPageTextEvenlySpacedLines(t *testing.T) {
	src := []rune("가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허고노도로모보소오조초코토포호구누두루무부수우주추쿠투푸후")
	type tc struct {
		name string
		gs   []glyph
		want []string
	}
	var tests []tc
	for _, n := range []int{3, 4, 6} {
		for _, gap := range []float64{6, 7.5, 8.5} {
			for _, syl := range []int{10, 12, 20} {
				for _, spaces := range []bool{false, true} {
					var gs []glyph
					var want []string
					for i := range n {
						s := string(src[i*5 : i*5+syl])
						gs = append(gs, brk())
						gs = append(gs, evenLine(s, 72, 700-14*float64(i), gap, spaces)...)
						want = append(want, s)
					}
					tests = append(tests, tc{fmt.Sprintf("%d lines of %d syllables %.1f pt apart, spaces drawn %v", n, syl, gap, spaces), gs[1:], want})
				}
			}
		}
	}
	// Justified lines of words 7 pt apart: the gap after the second word
	// is at 169 to 176 on every line, the words after it start at 176.
	words := [][]int{{4, 5, 3, 6, 4}, {2, 7, 5, 5, 3}, {6, 3, 4, 4, 4}, {3, 6, 7, 2, 3}, {5, 4, 2, 8, 3}}
	var gs []glyph
	var want []string
	k := 0
	for i, ws := range words {
		x := 72.0
		var line []string
		for j, w := range ws {
			word := string(src[k%40 : k%40+w])
			k += w
			if j > 0 {
				gs = append(gs, glyph{r: ' ', x0: x - 7, x1: x, lo: 698 - 14*float64(i), hi: 708 - 14*float64(i), h: 10})
			} else if i > 0 {
				gs = append(gs, brk())
			}
			gs = append(gs, evenLine(word, x, 700-14*float64(i), 0, false)...)
			x += 10*float64(w) + 7
			line = append(line, word)
		}
		want = append(want, strings.Join(line, " "))
	}
	tests = append(tests, tc{"justified lines whose word gaps meet by chance", gs, want})
	// A notice spaced out by CSS or Writer: 7 pt after every letter and
	// after the 3 pt space between words, so a word's gap is 17 pt, wider
	// than a gutter. The strip at 199 to 206 crosses a letter gap on the
	// first line and word gaps below; the second and third lines' words
	// are as long, and their gaps meet.
	notice := []string{"공고일부터 신청서를 접수하여 심사한다", "제출된 서류는 반환하지 아니한다", "자세한 사항은 학생처에 문의한다", "접수기간이 지난 신청은 받지 않는다"}
	gs = nil
	for i, l := range notice {
		if i > 0 {
			gs = append(gs, brk())
		}
		gs = append(gs, spacedWords(l, 72, 700-14*float64(i), 7)...)
	}
	tests = append(tests, tc{"a notice spaced out, words a space apart", gs, notice})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Split(nonEmptyLines(pageText(tt.gs)), "\n")
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				// A letter-spaced line keeps or loses its spaces as the
				// tracking rule says: its letters, in order, are the test;
				// words keep their spaces.
				ok = got[i] == tt.want[i] || !strings.Contains(tt.want[i], " ") && strings.ReplaceAll(got[i], " ", "") == tt.want[i]
			}
			if !ok {
				t.Errorf("pageText =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestFreeSpansOpeningBracket: an opening bracket takes up its whole box
// in the search for white strips, where a closing mark hung past a
// column's edge takes up only its start.
func TestFreeSpansOpeningBracket(t *testing.T) {
	at := func(r rune, x0, x1 float64) item { return item{r: r, x0: x0, x1: x1, h: 10} }
	tests := []struct {
		name  string
		items []item
		want  int
	}{
		{"a full-width bracket before a name", []item{at('법', 0, 10), at('「', 10, 20), at('개', 20, 30)}, 0},
		{"a full-width quote before a name", []item{at('법', 0, 10), at('“', 10, 20), at('개', 20, 30)}, 0},
		{"a full stop hung into the gap", []item{at('다', 0, 10), at('.', 10, 20), at('개', 20, 30)}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := freeSpans(band{items: tt.items}, 0, 30, 9); len(got) != tt.want {
				t.Errorf("freeSpans = %v, want %d spans", got, tt.want)
			}
		})
	}
}

// TestPageTextNumberBroken: a number wrapped after one of its hyphens is
// written whole, the hyphen kept; a page's number between dashes and a
// hyphen before a word are not.
func TestPageTextNumberBroken(t *testing.T) {
	tests := []struct {
		name string
		gs   []glyph
		want string
	}{
		{"a telephone number", stacked("예산담당관실(044-205-", "1234)로 문의하십시오."), "예산담당관실(044-205-1234)로 문의하십시오."},
		{"a page's number over a year", stacked("- 1 -", "2024년 계획"), "- 1 -\n2024년 계획"},
		{"a hyphen before a word", stacked("2024-", "하반기 계획"), "2024-\n하반기 계획"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nonEmptyLines(pageText(tt.gs)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
