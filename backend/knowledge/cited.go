package knowledge

import (
	"context"
	"fmt"
	"math"
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

// similarShare is the share of the cited passage's words, weighted by
// how rare each is in the document (likeness), a chunk must hold to be
// taken as the passage with some words changed; below it the passage is
// gone from the document.
const similarShare = 0.5

// maxCandidates is how many chunks holding the most of the cited words
// are kept, during the one pass, to be weighed once the document's word
// counts are known.
const maxCandidates = 32

// locate finds in doc (a document imported again since a chunk numbered
// seq of an earlier import was cited) the chunk that now holds the cited
// text: the chunk whose text is the cited text (spacing and Unicode
// composition aside; a snippet cut with "…" is compared as a prefix), else
// the chunk most like it (likeness), if it holds at least similarShare of
// its weighed words — FoundText when the text is whole in it and its
// neighbours (across), FoundSimilar when not — else the chunk numbered seq
// (FoundGone). Ties go to the chunk nearest seq.
//
// The citation carries its text already (the source's snippet), so a
// conversation saved before this existed finds its passages too and no
// hash is stored anywhere. A person clicks a citation and waits, so the
// answer is looked for the cheap ways first: remembered from an earlier
// click (foundCache), then, for the text word for word, among only the
// chunks holding its rarest word (exactByIndex, through the keyword
// index). Only when those cannot say is the whole document read (scan).
func (b *Base) locate(ctx context.Context, doc Document, seq int, cited string) (int, Found, error) {
	place := min(max(seq, 0), doc.Chunks-1)
	want, prefix := normCited(cited)
	if want == "" {
		return place, FoundGone, nil
	}
	key := newFoundKey(doc.ID, seq, want, prefix)
	if at, found, ok := b.found.get(key); ok {
		return at, found, nil
	}
	at, sure, err := b.exactByIndex(ctx, doc.ID, seq, want, prefix)
	if err != nil {
		return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
	}
	found, done := FoundText, at >= 0
	if !done && sure {
		if at, found, done, err = b.likeByIndex(ctx, doc, seq, want, prefix, maxLikeHolders); err != nil {
			return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
		}
	}
	if !done {
		if at, found, err = b.scan(ctx, doc, seq, want, prefix); err != nil {
			return 0, "", err
		}
	}
	b.found.put(key, at, found)
	return at, found, nil
}

// scan is locate reading the document: one pass over its chunks, streamed
// from the database, comparing each with the cited text (want, as
// normCited has it) in place and weighing its words (likeness). Time grows
// with the document's length (a 50,000-chunk document is read once),
// memory with one chunk and the cited text.
func (b *Base) scan(ctx context.Context, doc Document, seq int, want string, prefix bool) (int, Found, error) {
	b.scans.Add(1)
	like := newLikeness(want, seq)
	rows, err := b.db.WithContext(ctx).Model(&Chunk{}).Select("seq, text").Where("doc_id = ?", doc.ID).Rows()
	if err != nil {
		return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
	}
	defer rows.Close()
	exact := -1
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
			if nearer(seq, s, exact) {
				exact = s
			}
			continue
		}
		if exact < 0 { // the text itself is there: no likeness needed
			like.add(s, text)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
	}
	if exact >= 0 {
		return exact, FoundText, nil
	}
	similar, share := like.best()
	at, found, err := b.settle(ctx, doc, seq, want, similar, share)
	if err != nil {
		return 0, "", fmt.Errorf("find the cited passage in %q: %w", doc.ID, err)
	}
	return at, found, nil
}

// settle is the answer for the chunk most like the cited text (similar,
// -1 for none) holding share of its weighed words: FoundText when the
// text runs whole over it and its neighbours (across), FoundSimilar when
// the share is at least similarShare, else FoundGone at the cited place.
func (b *Base) settle(ctx context.Context, doc Document, seq int, want string, similar int, share float64) (int, Found, error) {
	if similar < 0 || share < similarShare {
		return min(max(seq, 0), doc.Chunks-1), FoundGone, nil
	}
	at, whole, err := b.across(ctx, doc.ID, similar, want)
	if err != nil {
		return 0, "", err
	}
	if whole {
		return at, FoundText, nil
	}
	return similar, FoundSimilar, nil
}

// termWeight is how much a word held by n of a document's chunks says
// about where a passage is: its smoothed inverse document frequency, so
// that in a document of one chunk a word it holds still counts.
func termWeight(chunks, n int) float64 {
	return math.Log(1 + float64(chunks+1)/float64(n+1))
}

// nearer says whether chunk s is nearer the cited number seq than chunk
// than (-1: none yet).
func nearer(seq, s, than int) bool { return than < 0 || abs(s-seq) < abs(than-seq) }

// likeness weighs how much of the cited text's words each chunk holds,
// each word by how rare it is in the document (its inverse document
// frequency): a word every section repeats ("rule", "the") says little
// about where a passage went, a word of its own says much, so a passage
// deleted from a document of like sections is gone, not "like" the next
// section. The chunks holding the most words, unweighted, are kept as
// candidates while the document is read, and weighed at the end, when it
// is known how many chunks hold each word.
type likeness struct {
	seq    int            // the cited chunk's number, for ties
	need   map[string]int // the cited text's distinct terms, numbered
	df     []int          // how many chunks hold each term
	chunks int            // chunks read
	stamp  []int          // the chunk (by count) that last held each term
	cur    []int          // the terms the chunk being read holds
	top    []candidate
	buf    []byte
}

type candidate struct {
	seq   int
	terms []int
}

func newLikeness(want string, seq int) *likeness {
	l := &likeness{seq: seq, need: map[string]int{}}
	l.buf = eachTerm(want, l.buf, func(term []byte) {
		if _, ok := l.need[string(term)]; !ok {
			l.need[string(term)] = len(l.need)
		}
	})
	l.df, l.stamp = make([]int, len(l.need)), make([]int, len(l.need))
	return l
}

// add reads chunk seq's text.
func (l *likeness) add(seq int, text string) {
	l.chunks++
	l.cur = l.cur[:0]
	l.buf = eachTerm(text, l.buf, func(term []byte) {
		if i, ok := l.need[string(term)]; ok && l.stamp[i] != l.chunks {
			l.stamp[i] = l.chunks
			l.cur = append(l.cur, i)
			l.df[i]++
		}
	})
	if len(l.cur) == 0 {
		return
	}
	if len(l.top) < maxCandidates {
		l.top = append(l.top, candidate{seq, slices.Clone(l.cur)})
		return
	}
	worst := 0
	for i, c := range l.top {
		if len(c.terms) < len(l.top[worst].terms) || (len(c.terms) == len(l.top[worst].terms) && !nearer(l.seq, c.seq, l.top[worst].seq)) {
			worst = i
		}
	}
	if w := l.top[worst]; len(l.cur) > len(w.terms) || (len(l.cur) == len(w.terms) && nearer(l.seq, seq, w.seq)) {
		l.top[worst] = candidate{seq, append(w.terms[:0], l.cur...)}
	}
}

// best is the candidate holding the largest weighed share of the cited
// words, and that share (-1, 0 when no chunk holds any).
func (l *likeness) best() (seq int, share float64) {
	weight := make([]float64, len(l.df))
	total := 0.0
	for i, n := range l.df {
		weight[i] = termWeight(l.chunks, n)
		total += weight[i]
	}
	seq = -1
	for _, c := range l.top {
		held := 0.0
		for _, i := range c.terms {
			held += weight[i]
		}
		if f := held / total; f > share || (f == share && nearer(l.seq, c.seq, seq)) {
			seq, share = c.seq, f
		}
	}
	return seq, share
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
			if text = b.WithoutOverlap(got[i-1], c); text == c.Text {
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
