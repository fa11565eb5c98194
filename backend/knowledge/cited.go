package knowledge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Found says how PassageNow found a cited passage.
type Found string

const (
	// FoundCited: the cited chunk itself; its document is as it was.
	FoundCited Found = ""
	// FoundText: the document was imported again and holds the cited
	// text word for word, maybe at another place (paragraphs added before
	// it), in a chunk holding more, or over two chunks (the document cut
	// at other places): the chunk it starts in opens.
	FoundText Found = "text"
	// FoundSimilar: the document was imported again and does not hold the
	// cited text as it was; the chunk sharing most of its words opens.
	FoundSimilar Found = "similar"
	// FoundGone: the document was imported again and nothing in it is
	// like the cited text any more; the chunk at the cited place (its
	// number, else the last) opens, for the document as it is now.
	FoundGone Found = "gone"
)

// maxCited bounds the cited text compared with each chunk: a citation's
// snippet is a chunk's text cut at 1,200 characters, and the text comes
// from the frontend, so a longer one is cut rather than compared whole
// 50,000 times.
const maxCited = 4000

// similarShare is the share of the cited passage's distinct words a chunk
// must hold to be taken as the passage with some words changed; below it
// the passage is gone from the document.
const similarShare = 0.5

// locate finds in doc (a document imported again since a chunk numbered
// seq of an earlier import was cited) the chunk that now holds the cited
// text: the chunk whose text is the cited text (spacing and Unicode
// composition aside; a snippet cut with "…" is compared as a prefix), else
// the chunk holding the largest share of the cited text's words, at least
// similarShare of them — FoundText when the text is whole in it and its
// neighbours (across), FoundSimilar when not — else the chunk numbered seq
// (FoundGone). Ties go to the chunk nearest seq.
//
// The citation carries its text already (the source's snippet), so a
// conversation saved before this existed finds its passages too and no
// hash is stored anywhere. One pass over the document's chunks, streamed
// from the database: time grows with the document's length (a 50,000-chunk
// document is read once), memory with one chunk.
func (b *Base) locate(ctx context.Context, doc Document, seq int, cited string) (int, Found, error) {
	place := min(max(seq, 0), doc.Chunks-1)
	want, prefix := normCited(cited)
	if want == "" {
		return place, FoundGone, nil
	}
	// The cited text's distinct terms, each with the number of the last
	// chunk that held it, so a chunk counts a term once.
	need := map[string]int{}
	var buf []byte
	buf = eachTerm(want, buf, func(term []byte) {
		if _, ok := need[string(term)]; !ok {
			need[string(term)] = len(need)
		}
	})
	heldIn := make([]int, len(need))
	rows, err := b.db.WithContext(ctx).Model(&Chunk{}).Select("seq, text").Where("doc_id = ?", doc.ID).Rows()
	if err != nil {
		return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
	}
	defer rows.Close()
	exact, similar, share, read := -1, -1, 0.0, 0
	nearer := func(s, than int) bool { return than < 0 || abs(s-seq) < abs(than-seq) }
	for rows.Next() {
		var s int
		var text string
		if err := rows.Scan(&s, &text); err != nil {
			return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
		}
		if !norm.NFC.IsNormalString(text) {
			text = norm.NFC.String(text)
		}
		if sameText(text, want, prefix) {
			if nearer(s, exact) {
				exact = s
			}
			continue
		}
		if exact >= 0 || len(need) == 0 {
			continue // the text itself is there: no likeness needed
		}
		read++
		held := 0
		buf = eachTerm(text, buf, func(term []byte) {
			if i, ok := need[string(term)]; ok && heldIn[i] != read {
				heldIn[i] = read
				held++
			}
		})
		if f := float64(held) / float64(len(need)); f > share || (f == share && nearer(s, similar)) {
			similar, share = s, f
		}
	}
	if err := rows.Err(); err != nil {
		return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
	}
	switch {
	case exact >= 0:
		return exact, FoundText, nil
	case similar >= 0 && share >= similarShare:
		at, whole, err := b.across(ctx, doc.ID, similar, want)
		if err != nil {
			return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
		}
		if whole {
			return at, FoundText, nil
		}
		return similar, FoundSimilar, nil
	}
	return place, FoundGone, nil
}

// across looks for the cited text (want, a normText, or the start of it)
// whole in the text of chunk seq and the chunks just before and after it:
// the import after the citation may have cut the document at other places
// (paragraphs added earlier in the same section), so that the passage,
// unchanged, now runs over two chunks and is like no chunk whole. It
// returns the chunk the passage starts in.
func (b *Base) across(ctx context.Context, docID string, seq int, want string) (int, bool, error) {
	got, err := b.chunksAt(ctx, docID, seq-1, seq, seq+1)
	if err != nil {
		return 0, false, err
	}
	slices.SortFunc(got, func(x, y Chunk) int { return x.Seq - y.Seq })
	var raw strings.Builder
	starts := make([]int, 0, len(got)) // where each chunk's own text starts in the joined text
	for i, c := range got {
		text := c.Text
		if i > 0 {
			if got[i-1].Seq != c.Seq-1 {
				break
			}
			if text = WithoutOverlap(got[i-1].Text, c.Text); text == c.Text {
				text = " " + text // no overlap: the space the cut dropped (chunks are trimmed)
			}
		}
		starts = append(starts, len(normText(raw.String())))
		raw.WriteString(norm.NFC.String(text))
	}
	// Whole, or for a snippet cut short its start: either way a substring.
	i := strings.Index(normText(raw.String()), want)
	if i < 0 {
		return 0, false, nil
	}
	at := got[0].Seq
	for k, start := range starts {
		if start <= i {
			at = got[k].Seq
		}
	}
	return at, true, nil
}

// sameText says whether text, with its runs of spaces as normText has
// them, is want (a normText), or starts with it (prefix). It compares in
// place: a chunk is not copied to be compared.
func sameText(text, want string, prefix bool) bool {
	text = strings.TrimSpace(text)
	i := 0 // how much of want matched
	for j := 0; j < len(text); {
		r, n := utf8.DecodeRuneInString(text[j:])
		if unicode.IsSpace(r) {
			for j < len(text) {
				if r, n = utf8.DecodeRuneInString(text[j:]); !unicode.IsSpace(r) {
					break
				}
				j += n
			}
			if i == len(want) {
				return prefix
			}
			if want[i] != ' ' {
				return false
			}
			i++
			continue
		}
		if i == len(want) {
			return prefix
		}
		if !strings.HasPrefix(want[i:], text[j:j+n]) {
			return false
		}
		i, j = i+n, j+n
	}
	return i == len(want)
}

// eachTerm calls f with the terms of s, in buf (reused and returned): its
// words of letters and digits lower-cased, and in Hangul, Chinese and
// Japanese, where particles join words or nothing parts them, each pair of
// syllables (one syllable alone is a term of its own), as the keyword
// index has Korean. It allocates nothing of its own past buf: it runs over
// every word of a document of 50,000 chunks.
func eachTerm(s string, buf []byte, f func(term []byte)) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		k := termKind(r)
		if k == 0 {
			i += n
			continue
		}
		start, end := i, i+n
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if termKind(r) != k {
				break
			}
			end += n
		}
		i = end
		if k == 1 {
			buf = buf[:0]
			for _, r := range s[start:end] {
				if r < utf8.RuneSelf {
					if 'A' <= r && r <= 'Z' {
						r += 'a' - 'A'
					}
					buf = append(buf, byte(r))
				} else {
					buf = utf8.AppendRune(buf, unicode.ToLower(r))
				}
			}
			f(buf)
			continue
		}
		_, first := utf8.DecodeRuneInString(s[start:end])
		if start+first == end {
			f(append(buf[:0], s[start:end]...))
			continue
		}
		for a := start; a+first < end; a += first {
			_, second := utf8.DecodeRuneInString(s[a+first : end])
			f(append(buf[:0], s[a:a+first+second]...))
			first = second
		}
	}
	return buf
}

// termKind is 1 for a letter or digit of a word, 2 for a syllable (Hangul,
// Han, kana), 0 for the rest.
func termKind(r rune) int {
	switch {
	case r < utf8.RuneSelf:
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return 1
		}
		return 0
	case r >= 0xAC00 && r <= 0xD7A3, unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
		return 2
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.Is(unicode.Mn, r):
		return 1
	}
	return 0
}

// normCited is the cited text as normText has it, without the "…" a
// snippet cut short ends with (prefix: compare it with a chunk's start).
func normCited(cited string) (text string, prefix bool) {
	if utf8.RuneCountInString(cited) > maxCited {
		cited, prefix = string([]rune(cited)[:maxCited]), true
	}
	text = normText(cited)
	if cut, ok := strings.CutSuffix(text, "…"); ok {
		text, prefix = strings.TrimSpace(cut), true
	}
	return text, prefix
}

// normText is text in NFC with every run of spaces one space, trimmed: a
// snippet is the chunk's text trimmed, and the same file imported again
// may differ in line ends or composition only.
func normText(s string) string {
	return strings.Join(strings.Fields(norm.NFC.String(s)), " ")
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
