package keyword

import (
	"slices"
	"strings"
)

// Korean text keeps many names in Latin letters ("LibreOffice Calc",
// "Emacs", "tasksel") while people type them as they sound, in Hangul
// (칼크, 이맥스, 태스크). The two spellings share no term, so a question
// about 칼크 never found a paragraph about Calc. A loan word's Hangul
// spelling follows its sound closely enough that both spellings reduce to
// the same consonant skeleton: 칼크 and calc are K-L-K, 임프레스 and impress
// M-P-L-S, 데비안 and debian T-P-N. Vowels are left out: Hangul writes
// English vowels by sound and English spells them many ways. A search
// looks a Hangul word's skeleton up among the Latin words the index holds
// (Index.loanTerms) and counts the best match as one more term of the
// query.

// loanSyllables are the syllables Hangul writes for an English consonant
// that has no vowel after it (desk 데스크, shift 시프트, calc 칼크): a
// Hangul word is taken for a loan word only if it holds one. Native words
// rarely do, and without this test rare native forms matched English words
// that share their consonants (깔고 / calc, 뭔가요 / manage): on the Korean
// question set (README.md) every Hangul word looked up gave 0.9116 / 0.8868
// (dev / held-out recall@5), loan words only 0.9093 / 0.8962, with the
// held-out nDCG@10 back at what it was without loan words. 르, 드, 그 and
// 쓰 are left out: 고르다, 드리다, 그 and 쓰다 are native.
const loanSyllables = "스크트프브즈츠"

// maxLoanSyllables bounds the words looked up: a loan word with its
// particle is rarely longer (애플리케이션에서는 is 9), and each beginning of a
// word is a lookup, so a pasted run of Hangul without spaces must not cost
// the square of its length.
const maxLoanSyllables = 12

// minLoanKey is the shortest skeleton a search looks up. Two consonants
// (매쓰 / math: M-S) collide with too many native words and English words
// (mouse, mass, miss) to be a signal.
const minLoanKey = 3

// Consonant classes of the skeleton. Sounds Hangul writes with one letter
// share a class: b, p, f and v are all ㅂ or ㅍ; l and r are both ㄹ.
const (
	cK = 'K' // ㄱ ㄲ ㅋ · c k q g
	cT = 'T' // ㄷ ㄸ ㅌ · d t
	cP = 'P' // ㅂ ㅃ ㅍ · b p f v
	cS = 'S' // ㅅ ㅆ ㅈ ㅉ ㅊ · s z j, soft c and g, sh, ch, th
	cL = 'L' // ㄹ · l r
	cM = 'M'
	cN = 'N' // ㄴ, final ㅇ · n, ng
)

// hangulInitial and hangulFinal give the classes of a syllable's first and
// last consonant, in Unicode's jamo order. ㅇ and ㅎ as first consonants
// are silent here (ㅎ mostly writes an English h, which is dropped too);
// a final ㅅ writes an English t (로봇, 인터넷).
var (
	hangulInitial = [19]string{"K", "K", "N", "T", "T", "L", "M", "P", "P", "S", "S", "", "S", "S", "S", "K", "T", "P", ""}
	hangulFinal   = [28]string{"", "K", "K", "KS", "N", "NS", "N", "T", "L", "LK", "LM", "LP", "LS", "LT", "LP", "L", "M", "P", "PS", "T", "T", "N", "T", "T", "K", "T", "P", ""}
)

// hangulKey returns the consonant skeleton of a run of Hangul syllables,
// or "" when it holds anything else.
func hangulKey(word string) string {
	var b keyBuilder
	for _, r := range word {
		if r < 0xAC00 || r > 0xD7A3 {
			return ""
		}
		s := int(r - 0xAC00)
		b.add(hangulInitial[s/588])
		b.add(hangulFinal[s%28])
	}
	return b.String()
}

// latinKeys returns the consonant skeletons of a lower-case Latin word,
// one for each reading of its ambiguous letters (c at the end of a stemmed
// word, ch, th, soft g): "calc" is K-L-K or K-L-S, because Porter stemming
// took the e that told them apart. Only the first two ambiguous letters
// get both readings. Words with anything but a–z have none.
//
// A search builds the table of every Latin word's skeletons once, so this
// runs for each word of the index: it allocates only the keys.
func latinKeys(w string) []string {
	if len(w) > 64 {
		return nil
	}
	// sounds[i] is one sound: a class, or two classes for an ambiguous
	// letter, or "KS" as two sounds (x).
	var sounds [80][2]byte
	n := 0
	add := func(a, b byte) { sounds[n] = [2]byte{a, b}; n++ }
	at := func(i int) byte {
		if i < len(w) {
			return w[i]
		}
		return 0
	}
	for i := 0; i < len(w); i++ {
		c, next := w[i], at(i+1)
		switch c {
		case 'b', 'p', 'f', 'v':
			add(cP, 0)
		case 'd':
			add(cT, 0)
		case 't':
			switch {
			case next == 'h':
				add(cS, cT)
				i++
			case next == 'i' && isVowel(at(i+2)): // -tion, -tial
				add(cS, 0)
			default:
				add(cT, 0)
			}
		case 'c':
			switch {
			case next == 'k':
			case next == 'h':
				add(cS, cK)
				i++
			case next == 'e' || next == 'i' || next == 'y':
				add(cS, 0)
			case next == 0:
				add(cK, cS)
			default:
				add(cK, 0)
			}
		case 'g':
			switch {
			case i > 0 && w[i-1] == 'n' && !isVowel(next): // -ng is ㅇ
			case next == 'e' || next == 'i' || next == 'y':
				add(cS, cK)
			default:
				add(cK, 0)
			}
		case 'k', 'q':
			add(cK, 0)
		case 'x':
			add(cK, 0)
			add(cS, 0)
		case 's', 'z', 'j':
			add(cS, 0)
		case 'l':
			add(cL, 0)
		case 'r': // silent before a consonant or at the end (writer: 라이터)
			if isVowel(next) {
				add(cL, 0)
			}
		case 'm':
			add(cM, 0)
		case 'n':
			add(cN, 0)
		case 'a', 'e', 'i', 'o', 'u', 'y', 'w', 'h':
		default:
			return nil
		}
	}
	if n == 0 {
		return nil
	}
	var ambiguous []int
	for i := range n {
		if sounds[i][1] != 0 && len(ambiguous) < 2 {
			ambiguous = append(ambiguous, i)
		}
	}
	keys := make([]string, 0, 1<<len(ambiguous))
	for v := range 1 << len(ambiguous) {
		var buf [80]byte
		k := 0
		for i := range n {
			c := sounds[i][0]
			for j, a := range ambiguous {
				if a == i && v&(1<<j) != 0 {
					c = sounds[i][1]
				}
			}
			if k == 0 || buf[k-1] != c {
				buf[k] = c
				k++
			}
		}
		if key := string(buf[:k]); !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	return keys
}

func isVowel(c byte) bool {
	return strings.IndexByte("aeiouy", c) >= 0 && c != 0
}

// keyBuilder writes a skeleton, writing a class only once when it repeats
// (갤러리: K-L-L and gallery: K-L-L-L are both K-L).
type keyBuilder struct{ b []byte }

func (k *keyBuilder) add(cls string) {
	for i := 0; i < len(cls); i++ {
		if n := len(k.b); n == 0 || k.b[n-1] != cls[i] {
			k.b = append(k.b, cls[i])
		}
	}
}

func (k keyBuilder) String() string { return string(k.b) }

// loanCandidate is a beginning of a Hangul word and its skeleton.
type loanCandidate struct{ word, key string }

// loanCandidates returns the beginnings of a Hangul word a search looks up,
// longest first: the whole word and its beginnings of two syllables or
// more, so that the particle or ending a person adds (칼크에서, 태스크라는)
// does not hide the name. Each skeleton is at least minLoanKey long.
func loanCandidates(word string) []loanCandidate {
	var out []loanCandidate
	ends, n := []int{}, 0
	for i := range word {
		if n >= 2 {
			ends = append(ends, i)
		}
		n++
	}
	if n < 2 || n > maxLoanSyllables || !strings.ContainsAny(word, loanSyllables) {
		return nil
	}
	ends = append(ends, len(word))
	for i := len(ends) - 1; i >= 0; i-- {
		w := word[:ends[i]]
		if k := hangulKey(w); len(k) >= minLoanKey && (len(out) == 0 || out[len(out)-1].key != k) {
			out = append(out, loanCandidate{w, k})
		}
	}
	return out
}
