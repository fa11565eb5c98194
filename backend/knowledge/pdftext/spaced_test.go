package pdftext

import "testing"

// spacedLine lays syllables of 10 pt on one baseline, each a full em wide
// and gaps[i] points after syllable i, and draws n space glyphs of spaceW
// points each at the start of every gap when n > 0 (PDFium's generated
// space otherwise, as for a gap it reads as a word's).
func spacedLine(text string, gaps []float64, n int, spaceW float64) []glyph {
	var out []glyph
	x := 72.0
	for i, r := range []rune(text) {
		if i > 0 {
			g := gaps[i-1]
			if n == 0 {
				out = append(out, glyph{r: ' ', gen: true})
			}
			for k := range n {
				s := x + float64(k)*spaceW
				out = append(out, glyph{r: ' ', x0: s, x1: s + spaceW, lo: 698, hi: 708, h: 10})
			}
			x += g
		}
		out = append(out, glyph{r: r, x0: x, x1: x + 10, lo: 698, hi: 708, h: 10})
		x += 10
	}
	return out
}

func even(n int, g float64) []float64 {
	gaps := make([]float64, n)
	for i := range gaps {
		gaps[i] = g
	}
	return gaps
}

func TestPageTextLetterSpacedTitle(t *testing.T) {
	tests := []struct {
		name string
		in   []glyph
		want string
	}{
		{"three syllables a letter-spacing of one em apart", spacedLine("신청서", even(2, 10), 0, 0), "신청서"},
		{"two syllables far apart", spacedLine("목차", even(1, 25), 0, 0), "목차"},
		{"four syllables, two space glyphs in each gap", spacedLine("제출서류", even(3, 6), 2, 3), "제출서류"},
		{"one space glyph widened by character spacing", spacedLine("위임장", even(2, 8), 1, 3), "위임장"},
		{"five syllables spaced out", spacedLine("점검한다", even(3, 7), 0, 0), "점검한다"},
		// The gaps a word space wide are words of one syllable.
		{"one-syllable words, space glyphs", spacedLine("그집앞", even(2, 3), 1, 3), "그 집 앞"},
		{"one-syllable words, gaps of a half-em space and no space glyphs", spacedLine("그집앞", even(2, 5), 0, 0), "그 집 앞"},
		{"unequal gaps keep their spaces", spacedLine("신청서", []float64{10, 16}, 0, 0), "신 청 서"},
		{"a table row's cells keep their spaces", spacedLine("상중하", even(2, 60), 0, 0), "상 중 하"},
		{"a word of two syllables among single ones", append(spacedLine("신청", even(1, 10), 0, 0), append([]glyph{{r: ' ', gen: true}}, glyphLine("서류", 102, 700, nil)...)...), "신 청 서류"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
