package keyword

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Analyzer turns text into index terms. The same Analyzer must be used for
// documents and queries; it is stored with a snapshot for that reason.
type Analyzer struct {
	// Stem applies the Porter stemmer to Latin-script words, so "running"
	// matches "runs". Korean is handled by bigrams and never stemmed.
	Stem bool
	// Stopwords drops very common English words (Lucene's English list).
	Stopwords bool
}

// DefaultAnalyzer is what Wayfinder indexes with. Stemming lifted SciFact
// nDCG@10 from 0.662 to 0.680; removing stop words changed it by less than
// 0.005 either way, so every word is kept (see TestSciFactVariants).
func DefaultAnalyzer() Analyzer { return Analyzer{Stem: true} }

type script int

const (
	scriptNone   script = iota
	scriptWord          // Latin, digits and other alphabets: whole words
	scriptHangul        // Korean: whole word plus syllable bigrams
	scriptCJK           // Chinese and Japanese: bigrams
)

func scriptOf(r rune) script {
	if r < utf8.RuneSelf {
		// ASCII, most of a document's characters even in Korean text:
		// the tables below are searched for nothing (one in eight of the
		// CPU seconds of indexing English).
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return scriptWord
		}
		return scriptNone
	}
	switch {
	case r >= 0xAC00 && r <= 0xD7A3, r >= 0x1100 && r <= 0x11FF, r >= 0x3130 && r <= 0x318F:
		return scriptHangul
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
		return scriptCJK
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.Is(unicode.Mn, r):
		return scriptWord
	}
	return scriptNone
}

// Tokens returns the index terms of s.
//
// Korean attaches particles and endings to words ("문서를" = "문서" + "를"),
// so a Hangul word gives its overlapping syllable bigrams ("문서를" →
// "문서", "서를"): a query for "문서" then matches "문서를", and "문서를"
// matches "문서". The whole word is not a term of its own: on the Korean
// question set (testdata/ko) it made exact inflections outrank the answer
// (recall@5 0.864 with it, 0.905 without), as a plain bigram BM25 is known
// to do better on Korean. Words of one or two syllables are kept whole.
// Words in other alphabets are lower-cased runs of letters and digits.
// These are each word's terms; a document is indexed with the bigrams
// across its spaces as well (spacing.go, Index.Add).
func (a Analyzer) Tokens(s string) []string {
	return a.AppendTokens(nil, s)
}

// AppendTokens appends the terms of s to dst.
func (a Analyzer) AppendTokens(dst []string, s string) []string {
	return a.appendTokens(dst, s, false)
}

// indexTerms returns what a document is indexed as: its words' terms and
// the bigrams across its spaces (spacing.go).
func (a Analyzer) indexTerms(s string) []string {
	return a.appendTokens(nil, s, true)
}

func (a Analyzer) appendTokens(dst []string, s string, spacing bool) []string {
	doc := docBufs.Get().(*docAnalysis)
	terms := a.wordTerms(doc.terms[:0], s, doc)
	for _, t := range terms {
		if t.term == "" || t.space && !spacing { // a loan word's lookup: query side only
			continue
		}
		dst = append(dst, t.term)
		if t.alt != "" {
			dst = append(dst, t.alt)
		}
	}
	clear(terms) // holds no text while pooled
	doc.terms = terms[:0]
	docBufs.Put(doc)
	return dst
}

// docAnalysis is what analysing one document after another reuses: a
// large import analyses a chunk after another, and a term list of its
// own for each grew and was dropped each time (a quarter of a 60 MB
// Korean text's import was spent allocating and clearing them), and the
// same English words were stemmed again in every chunk (a quarter of a
// 60 MB English text's).
type docAnalysis struct {
	terms []queryTerm
	// stems holds the Porter stems of words seen, the words copied (they
	// are cut from a chunk's text, which they would otherwise keep);
	// emptied when it reaches maxStems, so it stays under about 3 MB.
	stems map[string]string
}

// maxStems bounds docAnalysis.stems: English prose uses a few thousand
// words most of the time, so 32k words keep nearly every one seen twice.
const maxStems = 1 << 15

// stem is porterStem(w), remembered.
func (d *docAnalysis) stem(w string) string {
	if st, ok := d.stems[w]; ok {
		return st
	}
	st := porterStem(w)
	if len(d.stems) >= maxStems {
		clear(d.stems)
	}
	d.stems[strings.Clone(w)] = st
	return st
}

var docBufs = sync.Pool{New: func() any { return &docAnalysis{stems: map[string]string{}} }}

// queryTerm is a term of a query and, for a one-syllable word with a
// particle, the word without it (alt: "책을" → "책을" or "책"). A document
// holding "책을" holds both terms; a search counts the better of the two
// once, so the exact form scores as in a plain bigram index and the stem
// only adds evidence where the exact form is missing ("책은", "책"). Both
// counted in full, the stem doubled the weight of every verb form that
// looks like a particle ending (좋은, 넣을, 하는) and a plain bigram BM25
// beat us on questions full of them.
//
// A Hangul word of a query also gives a term with no form of its own:
// loan holds the word's beginnings and the keys of their sounds, looked
// up among the index's Latin words (loanword.go); the search fills in the
// forms it finds. The first bigram of a word may also have another word
// documents use for it (other): the noun of a native verb's action
// (actions.go) or another everyday word for the same thing (synonyms.go);
// a passage counts the better of the two, once. Documents are indexed as
// written.
//
// A Latin word of a query keeps its letters before stemming (sounds), so
// that a search may look for the Hangul spellings of its sound
// (hangulspell.go).
//
// A bigram across a space between two Hangul words (space, spacing.go)
// is a term of a document, not of its words (Tokens leaves it out), and a
// query's terms may weigh less than one (weight; 0 means 1).
type queryTerm struct {
	term, alt string
	loan      []loanCandidate
	sounds    string
	other     string
	space     bool
	weight    float64
}

// scale is the share of a term's score a query counts.
func (t queryTerm) scale() float64 {
	if t.weight == 0 {
		return 1
	}
	return t.weight
}

// appendTerms appends the terms of s to dst, each with its alternative.
//
// Text is first brought to Unicode's compatibility composition (NFKC), so
// that the same words written with other code points are the same terms:
// Hangul as decomposed jamo (macOS file systems and some PDF and HWP
// exports store 한 as ᄒ+ᅡ+ᆫ), full-width letters and digits (Ｃａｌｃ, １２),
// ligatures PDF text is full of (ﬁle), circled and parenthesised numbers.
// Without it a document in decomposed Hangul matched no query at all.
func (a Analyzer) appendTerms(dst []queryTerm, s string) []queryTerm {
	return a.wordTerms(dst, s, nil)
}

// wordTerms is appendTerms; for a document (doc not nil) it leaves out
// what only a query looks up (a Latin word's letters before stemming, a
// Hangul word's loan-word keys and its other words), which a document's
// terms drop anyway (appendTokens): they were most of the time of
// indexing Korean text, about 11 of 26 CPU seconds for 60 MB
// (BenchmarkImportLargeText in package knowledge), and stems each word
// once (docAnalysis.stem).
func (a Analyzer) wordTerms(dst []queryTerm, s string, doc *docAnalysis) []queryTerm {
	s = nfkc(s)
	start, cur := 0, scriptNone
	prevEnd, prevHangul := -1, "" // the Hangul word before, for a bigram across a space
	emit := func(end int) {
		if cur == scriptNone || start >= end {
			return
		}
		run := s[start:end]
		if cur != scriptHangul {
			prevEnd = -1
			dst = a.appendRun(dst, run, cur, doc)
			return
		}
		run = respell(run)
		if prevEnd >= 0 && oneBreak(s[prevEnd:start]) {
			if letterSpaced(prevHangul, run) {
				dst = append(dst, queryTerm{term: prevHangul + run})
			} else {
				dst = append(dst, queryTerm{term: spacingTerm(prevHangul, run), space: true})
			}
		}
		prevEnd, prevHangul = end, run
		dst = a.appendRun(dst, run, cur, doc)
	}
	for i, r := range s {
		sc := scriptOf(r)
		if sc != cur {
			emit(i)
			start, cur = i, sc
		}
	}
	emit(len(s))
	return dst
}

func (a Analyzer) appendRun(dst []queryTerm, run string, sc script, doc *docAnalysis) []queryTerm {
	switch sc {
	case scriptWord:
		w := strings.ToLower(run)
		if a.Stopwords && stopwords[w] {
			return dst
		}
		sounds := ""
		if doc == nil && len(w) >= minLoanKey && len(w) <= maxLatinLetters && isLetters(w) {
			sounds = w
		}
		switch {
		case !a.Stem || !isASCII(w):
		case doc != nil && len(w) > 2:
			w = doc.stem(w)
		default:
			w = porterStem(w)
		}
		return append(dst, queryTerm{term: w, sounds: sounds})
	case scriptHangul: // spellings already mapped (appendTerms)
		first := len(dst)
		dst = appendBigrams(dst, run)
		// The stem is the alternative of the word's first bigram, the one
		// that holds it ("집에서": "집에" or "집").
		dst[first].alt = oneSyllableStem(run)
		if doc != nil {
			return dst
		}
		if w := actionVerbs.of(run); w != "" {
			dst[first].other = w
		} else if w := synonyms.of(run); w != "" {
			dst[first].other = w
		}
		if c := loanCandidates(run); c != nil {
			dst = append(dst, queryTerm{loan: c})
		}
		return dst
	case scriptCJK:
		return appendBigrams(dst, run)
	}
	return dst
}

// particles are Korean particles that rarely end a noun. Bigrams already
// find a stem of two syllables or more inside a word ("문서를" holds "문서");
// a stem of one syllable ("책을", "집에서") would be lost without cutting
// the particle off. 이, 가, 도, 로, 의, 와, 과 are left out: they end too
// many nouns (나이, 휴가, 정도, 도로, 회의, 사과) to be cut safely.
var particles = [...]string{
	"에서", "에게", "으로", "까지", "부터", "처럼", "보다", "한테", "이랑", "하고", "에는", "에도",
	"을", "를", "은", "는", "에",
}

// oneSyllableStem returns the one-syllable word before a particle ("책을" →
// "책"), or "".
func oneSyllableStem(word string) string {
	if n := utf8.RuneCountInString(word); n < 2 || n > 3 {
		return "" // a particle is one or two syllables
	}
	for _, p := range particles {
		stem, ok := strings.CutSuffix(word, p)
		if ok && utf8.RuneCountInString(stem) == 1 {
			return stem
		}
	}
	return ""
}

// nfkc is norm.NFKC.String(s), without its per-character table lookups
// for text of nothing but ASCII and precomposed Hangul syllables (English
// and nearly every Korean paragraph), which NFKC leaves as it is: neither
// has a compatibility form, and a syllable composes only with a conjoining
// jamo (U+11A8–U+11C2) after it, which such text does not hold. The lookups
// were an eighth of the time of indexing Korean text.
func nfkc(s string) string {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0xAC00 || r > 0xD7A3 {
			return norm.NFKC.String(s)
		}
		i += n
	}
	return s
}

// appendBigrams emits overlapping two-character terms; a run of one or two
// characters is emitted as is.
func appendBigrams(dst []queryTerm, run string) []queryTerm {
	if utf8.RuneCountInString(run) <= 2 {
		return append(dst, queryTerm{term: run})
	}
	// a and b are where the two characters of the next bigram begin.
	_, b := utf8.DecodeRuneInString(run)
	for a := 0; b < len(run); {
		_, w := utf8.DecodeRuneInString(run[b:])
		dst = append(dst, queryTerm{term: run[a : b+w]})
		a, b = b, b+w
	}
	return dst
}

// isLetters says whether s is lower-case a–z only: a word that may sound
// like a loan word.
func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// stopwords is Lucene's English stop word set, as used by Anserini.
var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"but": true, "by": true, "for": true, "if": true, "in": true, "into": true, "is": true,
	"it": true, "no": true, "not": true, "of": true, "on": true, "or": true, "such": true,
	"that": true, "the": true, "their": true, "then": true, "there": true, "these": true,
	"they": true, "this": true, "to": true, "was": true, "will": true, "with": true,
}
