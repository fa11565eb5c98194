package keyword

import (
	"math"
	"slices"
	"unicode/utf8"
)

// The other direction of loanword.go: people type a name or a term in
// Latin letters (INDEX, browser, macro, font) where a Korean document
// writes it in Hangul (인덱스, 브라우저, 매크로, 폰트), and the two share no
// term. A query's Latin word is therefore also looked for in the Hangul
// spellings its sound allows: its keys (latinKeys) are spelled out syllable
// by syllable in the ways loan words are written (hangulSpellings), each
// syllable kept only while the index holds the bigram it makes with the
// one before, and a spelling is kept only if its own keys (hangulKeys)
// are the Latin word's, with vowels it can write, as the Hangul-to-Latin
// direction requires. A passage holding every bigram of a spelling found
// holds it, and counts the better of the Latin word and the spelling, once.
// Documents are indexed as written.
//
// The index holds no Hangul words, only their bigrams, so the spellings are
// made from the Latin word and checked against the bigrams, not looked up
// in a table of words. An earlier attempt walked the index's bigrams from
// each syllable instead (keyword/README.md): 1–43 ms for a Latin word; the
// syllables here come from a few ways of writing each sound, not from every
// bigram, and a word costs tens of microseconds.

// spellInitials returns the first consonants (jamo numbers) that write a
// consonant of a key, by its class and the letter it came from
// (latinKey.cons), as the loan-word rules write it: c, k and q are ㅋ and g
// is ㄱ (클린 for clean, not 그린), t ㅌ and d ㄷ, p and f ㅍ, b and v ㅂ, s
// ㅅ (or ㅈ before a vowel: 브라우저, 버전), z, j and a soft g ㅈ, ch ㅊ. The class
// alone let native words through (인접 for insserv, 든지 for dns, 그런 for
// clean).
func spellInitials(class, letter byte) []int {
	switch class {
	case cK:
		if letter == 'g' {
			return jamo[0:1] // ㄱ
		}
		return jamo[15:16] // ㅋ
	case cT:
		if letter == 't' {
			return jamo[16:17] // ㅌ
		}
		return jamo[3:4] // ㄷ
	case cP:
		if letter == 'p' || letter == 'f' {
			return jamo[17:18] // ㅍ
		}
		return jamo[7:8] // ㅂ
	case cS:
		switch letter {
		case 'Z':
			return jamoSJ // ㅅ ㅈ
		case 'z', 'j', 'g':
			return jamo[12:13] // ㅈ
		case 'C':
			return jamo[14:15] // ㅊ
		}
		return jamo[9:10] // ㅅ
	case cL:
		return jamo[5:6] // ㄹ
	case cM:
		return jamo[6:7] // ㅁ
	case cN:
		return jamo[2:3] // ㄴ
	}
	return nil
}

// jamo are the numbers 0–27, to slice one-jamo lists from without
// allocating; jamoSJ is ㅅ ㅈ, jamoNNG ㄴ ㅇ as last consonants.
var (
	jamo    = [28]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}
	jamoSJ  = []int{9, 12}
	jamoNNG = []int{4, 21}
	jamoEUI = []int{18, 20}
)

// spellFinals returns the last consonants that write a consonant of a key,
// of those loan words end a syllable with (loanFinal): a final t is ㅅ
// (인터넷), p and b ㅂ (웹); a d, f or s is written with a syllable of its
// own (드, 프, 스).
func spellFinals(class, letter byte) []int {
	switch class {
	case cK:
		return jamo[1:2] // ㄱ
	case cT:
		if letter == 't' {
			return jamo[19:20] // ㅅ
		}
	case cP:
		if letter == 'p' || letter == 'b' {
			return jamo[17:18] // ㅂ
		}
	case cL:
		return jamo[8:9] // ㄹ
	case cM:
		return jamo[16:17] // ㅁ
	case cN:
		return jamoNNG
	}
	return nil
}

// spellVowels are the Hangul vowels (jamo numbers) a spelling tries for an
// English vowel's first letter: the common ways loan words write it (a: 매크로
// ㅐ, 태스크 ㅐ, 포맷 ㅐ, 페이지 ㅔ, 어바웃 ㅓ; o: 폰트 ㅗ, 브라우저 ㅏ, 버튼 ㅡ),
// fewer than medialLetters allows, so that the syllables tried stay few. w
// and h are silent in a key, so the vowels they begin are tried too (웹 ㅞ,
// 윈도 ㅟ, 워드 ㅝ).
var spellVowels = [26][]int{
	'a' - 'a': {0, 1, 5, 4, 9},
	'e' - 'a': {5, 1, 20, 4, 18, 15},
	'i' - 'a': {20, 0, 4, 16},
	'o' - 'a': {8, 0, 4, 18, 14},
	'u' - 'a': {4, 13, 17, 18},
	'y' - 'a': {20, 0},
}

// spellGlides are, by an English vowel's first letter, the vowels a
// syllable of its own may add to the one it is written with (a 에이, i
// 아이, 이어, 이아, o 아우, 오우: 베이직, 라이선스, 미디어, 데비안, 브라우저),
// with or without a last consonant (체인지); the key joins them into one
// place (hangulKeys).
var spellGlides = [26][]int{
	'a' - 'a': {20},
	'i' - 'a': {20, 4, 0},
	'y' - 'a': {20},
	'o' - 'a': {13},
}

// maxSpellSteps bounds the syllables tried for one key: a long Latin word
// whose every prefix the index holds cannot make a search slow.
const maxSpellSteps = 4000

// syllable composes a Hangul syllable from jamo numbers.
func syllable(ini, med, fin int) rune { return rune(0xAC00 + ini*588 + med*28 + fin) }

// hangulSpellings returns the Hangul spellings of a Latin key whose every
// bigram is a term of postings: the key's consonants written as first or last
// consonants (the same class twice at a syllable's edge, as ㄹ in 갤러리, is
// one), each vowel place by spellVowels (and a glide after it), a
// consonant without a vowel with ㅡ (데스크), and a last ㅈ or ㅊ with ㅣ
// (페이지). Every spelling returned has the key, with vowels that can write
// the Latin word's (hangulKey.writes).
func hangulSpellings(k latinKey, postings map[string]*plist) []string {
	var out []string
	word := make([]rune, 0, maxLoanSyllables)
	steps := 0
	var walk func(pos, vi int, prevFinal byte, glided bool)
	try := func(r rune, pos, vi int, prevFinal byte, glided bool) {
		if steps++; steps > maxSpellSteps || len(word) == maxLoanSyllables {
			return
		}
		if n := len(word); n > 0 {
			prev := word[n-1]
			if (r-0xAC00)/588 == 11 && (prev-0xAC00)%28 != 0 {
				// A silent ㅇ after a last consonant: loan words carry
				// the consonant over (로그인 aside), particles do not
				// (테이블에서 is no spelling of freeze).
				return
			}
			var buf [2 * utf8.UTFMax]byte
			b := utf8.AppendRune(utf8.AppendRune(buf[:0], prev), r)
			if pl := postings[string(b)]; pl == nil || pl.n == 0 { // string(b) is not allocated
				return
			}
		}
		word = append(word, r)
		walk(pos, vi, prevFinal, glided)
		word = word[:len(word)-1]
	}
	walk = func(pos, vi int, prevFinal byte, glided bool) {
		key := k.key
		if pos == len(key) {
			if len(word) >= 2 {
				w := string(word)
				for _, hk := range hangulKeys(w) {
					if hk.key == key && hk.writes(k.vowels) && !slices.Contains(out, w) {
						out = append(out, w)
					}
				}
			}
			if len(word) == 0 || glided {
				return
			}
		}
		// A glide: a vowel of its own after a syllable that ended in one.
		if len(word) > 0 && prevFinal == 0 && !glided && pos > 0 && key[pos-1] == vowel && vi > 0 {
			l := k.vowels[vi-1]
			if l < 'a' || l > 'z' {
				l = 'e' // none
			}
			for _, m := range spellGlides[l-'a'] {
				try(syllable(11, m, 0), pos, vi, 0, true)
				if pos < len(key) && key[pos] != vowel {
					for _, f := range spellFinals(key[pos], k.cons[pos-vi]) {
						try(syllable(11, m, f), pos+1, vi, key[pos], true)
					}
				}
			}
		}
		if pos == len(key) {
			return
		}
		type start struct {
			ini, at int // first consonant, and the key's place after it
		}
		var startsBuf [4]start
		starts := startsBuf[:0]
		if c := key[pos]; c == vowel {
			starts = append(starts, start{11, pos}) // ㅇ: silent
		} else {
			for _, ini := range spellInitials(c, k.cons[pos-vi]) {
				starts = append(starts, start{ini, pos + 1})
			}
		}
		if prevFinal == cL && key[pos] == vowel {
			starts = append(starts, start{5, pos}) // 갤러리: ㄹ at both edges
		}
		for _, s := range starts {
			at, v := s.at, vi
			var meds []int
			if at < len(key) && key[at] == vowel {
				if l := k.vowels[v]; l >= 'a' && l <= 'z' {
					meds = spellVowels[l-'a']
				}
				at, v = at+1, v+1
			} else if s.ini != 11 {
				meds = jamo[18:19] // ㅡ: a consonant English says without a vowel
				if at == len(key) && (s.ini == 12 || s.ini == 14) {
					meds = jamoEUI // ㅡ or ㅣ: 페이지, 벤치
				}
			}
			for _, m := range meds {
				try(syllable(s.ini, m, 0), at, v, 0, false)
				if at < len(key) && key[at] != vowel {
					for _, f := range spellFinals(key[at], k.cons[at-v]) {
						try(syllable(s.ini, m, f), at+1, v, key[at], false)
					}
				}
			}
		}
	}
	walk(0, 0, 0, false)
	return out
}

// spelled is a Hangul spelling of a query's Latin word and the live
// documents holding all of its bigrams, with the fewest times any of them
// occurs there as the spelling's frequency.
type spelled struct {
	word string
	docs []uint32
	tfs  []uint32
	// df is the document count of the word's most written spelling, which
	// every spelling is weighed by: a rare wrong spelling (배정 for
	// version, beside 버전) would otherwise weigh most of all.
	df int
}

// hangulForms returns the Hangul spellings of a query's Latin word that the
// index holds at least as often as the Latin word (a name the text writes
// in Latin letters needs no help; the mirror of loanForms), or nil. A word
// with fewer than minLoanKey consonants in every key is not looked up
// (font, macro, index have three), nor a spelling the query itself writes
// (asked, its terms: "데비안 … Debian" would count 데비안 twice). Must be
// called with ix.mu held.
func (ix *Index) hangulForms(t queryTerm, asked []queryTerm) []spelled {
	if t.sounds == "" || ix.hangul == 0 {
		return nil
	}
	var keys []latinKey
	for _, w := range []string{t.sounds, t.term} {
		for _, k := range latinKeys(w) {
			if consonants(k.key) >= minLoanKey && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	var words []string
	for _, k := range keys {
		for _, s := range hangulSpellings(k, ix.postings) {
			if !slices.Contains(words, s) && !writes(asked, s) {
				words = append(words, s)
			}
		}
	}
	var out []spelled
	most := 0
	for _, w := range words {
		s := ix.spelledDocs(w)
		if len(s.docs) > 0 {
			out = append(out, s)
			most = max(most, len(s.docs))
		}
	}
	if float64(most) < ix.liveDF(t.term) {
		return nil
	}
	for i := range out {
		out[i].df = most
	}
	return out
}

// spelledDocs is the live documents holding every bigram of a Hangul word:
// the rarest bigram's list, intersected with each other one's in step.
// Must be called with ix.mu held.
func (ix *Index) spelledDocs(word string) spelled {
	s := spelled{word: word}
	var bigramsBuf [maxLoanSyllables]queryTerm
	bigrams := appendBigrams(bigramsBuf[:0], word)
	slices.SortFunc(bigrams, func(a, b queryTerm) int { return int(ix.count(a.term)) - int(ix.count(b.term)) })
	for i, b := range bigrams {
		pl := ix.postings[b.term]
		if pl == nil {
			return spelled{word: word}
		}
		c := pl.cursor()
		if i == 0 {
			for {
				doc, f, ok := c.next()
				if !ok {
					break
				}
				if ix.lens[doc] != deletedLen {
					s.docs = append(s.docs, doc)
					s.tfs = append(s.tfs, f)
				}
			}
			continue
		}
		kept := 0
		doc, f, ok := c.next()
		for j, d := range s.docs {
			for ok && doc < d {
				doc, f, ok = c.next()
			}
			if !ok {
				break
			}
			if doc == d {
				s.docs[kept], s.tfs[kept] = d, min(s.tfs[j], f)
				kept++
			}
		}
		s.docs, s.tfs = s.docs[:kept], s.tfs[:kept]
		if kept == 0 {
			return s
		}
	}
	return s
}

// spelledIDF is the idf of a Latin word's Hangul spellings, as if its most
// written one were a term of its own.
func spelledIDF(n float64, s spelled) float64 {
	df := float64(s.df)
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// hangulTerm is 1 for a term that begins with a Hangul syllable, else 0.
func hangulTerm(t string) int {
	if r, _ := utf8.DecodeRuneInString(t); r >= 0xAC00 && r <= 0xD7A3 {
		return 1
	}
	return 0
}

// writes says whether terms hold every bigram of a Hangul word.
func writes(terms []queryTerm, word string) bool {
	var bigramsBuf [maxLoanSyllables]queryTerm
	for _, b := range appendBigrams(bigramsBuf[:0], word) {
		if !slices.ContainsFunc(terms, func(t queryTerm) bool { return t.term == b.term && !t.space }) {
			return false
		}
	}
	return true
}
