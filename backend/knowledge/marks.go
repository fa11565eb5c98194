package knowledge

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The words a search marks in a passage, and where. The window shows them
// (frontend/src/knowledge/highlight.ts) and the snippet's window is cut
// around the first of them, so both must find the same places: this file
// and highlight.ts implement one rule, and testdata/marks.json holds the
// cases both test against (TestMarks, highlight.test.ts).
//
// The rule: a query's words of two characters or more, case ignored, a
// Korean word also without the particle typed after it ("휴가를" marks
// "휴가"), and two Korean words typed side by side also joined ("도구 모음"
// marks "도구모음" as one word). A Korean word is found whatever the spacing
// between its syllables — one space or one line break — as the keyword
// index finds it (keyword/spacing.go): "위임장" in a form's letter-spaced
// title "위 임 장", "도구모음" written apart as "도구 모음", "적용한다"
// broken across a PDF's line as "적\n용한다". A match with a space in it
// must begin a word of the text, so that the end of one word and the start
// of the next ("가정 리스트") is not taken for "정리"; two spaces, a blank
// line or punctuation between syllables never match, as in the index.

// markParticles are the particles a Korean query word may end with, longest
// first (highlight.ts's PARTICLES, in the same order).
var markParticles = []string{"에서", "으로", "에게", "까지", "부터", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만"}

// markWord is a run of letters and numbers in a query, as highlight.ts's
// /[\p{L}\p{N}]+/gu.
var markWord = regexp.MustCompile(`[\p{L}\p{N}]+`)

func hangul(r rune) bool { return unicode.Is(unicode.Hangul, r) }

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// markTerms returns the words of query the window marks, longest first (in
// UTF-16 units, as highlight.ts sorts; ties in the order found).
func markTerms(query string) []string {
	q := strings.ToLower(query)
	at := markWord.FindAllStringIndex(q, -1)
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	word := func(w string) {
		if utf8.RuneCountInString(w) >= 2 {
			add(w)
		}
		if !strings.ContainsFunc(w, hangul) {
			return
		}
		for _, p := range markParticles {
			if strings.HasSuffix(w, p) && utf8.RuneCountInString(w)-utf8.RuneCountInString(p) >= 1 {
				add(strings.TrimSuffix(w, p))
				break
			}
		}
	}
	for i, a := range at {
		word(q[a[0]:a[1]])
		// A compound typed apart ("도구 모음"; "시트 탭"), but not two
		// one-syllable words ("이 책"), which are seldom one word.
		if i+1 < len(at) {
			b := at[i+1]
			first, second := q[a[0]:a[1]], q[b[0]:b[1]]
			last, _ := utf8.DecodeLastRuneInString(first)
			next, _ := utf8.DecodeRuneInString(second)
			if strings.TrimSpace(q[a[1]:b[0]]) == "" && hangul(last) && hangul(next) &&
				(utf8.RuneCountInString(first) >= 2 || utf8.RuneCountInString(second) >= 2) {
				word(first + second)
			}
		}
	}
	out = slices.DeleteFunc(out, func(w string) bool {
		return utf8.RuneCountInString(w) < 2 && !strings.ContainsFunc(w, hangul)
	})
	slices.SortStableFunc(out, func(a, b string) int { return utf16Len(b) - utf16Len(a) })
	return out
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf8.RuneLen(r)/4 + 1 // two units for a rune outside the BMP
	}
	return n
}

// marks are the words a search marks (markTerms), by their first rune:
// a query of up to 2,000 characters (boundQuery) may give thousands.
type marks map[rune][]string

// newMarks composes the query (NFC) as the text it is matched against is
// (snippet) and highlight.ts composes both: a query pasted from a macOS file
// name is decomposed, and its jamo never matched a syllable, so the snippet
// was cut around a bigram the window does not mark.
func newMarks(query string) marks {
	m := marks{}
	for _, t := range markTerms(norm.NFC.String(query)) {
		r, _ := utf8.DecodeRuneInString(t)
		m[r] = append(m[r], t) // longest first still
	}
	return m
}

// next returns the first place at or after byte from where text holds one
// of the words, trying the longest first at each place, as the window does
// (highlight.ts, the same scan): the byte offsets of the marked text, or -1, -1.
// Each place costs at most the length of the words beginning with its
// rune, so a whole text costs its length times the query's.
func (m marks) next(text string, from int) (start, end int) {
	if len(m) == 0 {
		return -1, -1
	}
	prev := rune(-1)
	if from > 0 {
		prev, _ = utf8.DecodeLastRuneInString(text[:from])
	}
	for i := from; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		for _, t := range m[unicode.ToLower(r)] {
			if n := markAt(text[i:], t, prev < 0 || !wordRune(prev)); n > 0 {
				return i, i + n
			}
		}
		prev = r
		i += size
	}
	return -1, -1
}

// markAt returns the length of term's match at the start of s, or 0: rune
// by rune, case ignored, with one space, "\n" or "\r\n" allowed between two
// Hangul characters where the match begins a word (wordStart).
func markAt(s, term string, wordStart bool) int {
	j := 0
	prev := rune(-1)
	for _, tr := range term {
		if j < len(s) && prev >= 0 && hangul(prev) && hangul(tr) && wordStart {
			if n := breakLen(s[j:]); n > 0 {
				if r, _ := utf8.DecodeRuneInString(s[j+n:]); unicode.ToLower(r) == tr {
					j += n
				}
			}
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if size == 0 || unicode.ToLower(r) != tr {
			return 0
		}
		j += size
		prev = tr
	}
	return j
}

// breakLen is the length of the one space or line break s begins with, or
// 0 (keyword's oneBreak).
func breakLen(s string) int {
	switch {
	case strings.HasPrefix(s, " "), strings.HasPrefix(s, "\n"):
		return 1
	case strings.HasPrefix(s, "\r\n"):
		return 2
	}
	return 0
}

// isHangulTerm says whether an index term is all Hangul: a Korean word's
// bigram or a word of its own.
func isHangulTerm(t string) bool {
	return t != "" && !strings.ContainsFunc(t, func(r rune) bool { return !hangul(r) })
}
