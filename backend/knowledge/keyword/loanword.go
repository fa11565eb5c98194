package keyword

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Korean text keeps many names in Latin letters ("LibreOffice Calc",
// "Emacs", "tasksel", "Basic") while people type them as they sound, in
// Hangul (칼크, 이맥스, 태스크, 베이직). The two spellings share no term, so
// a question about 칼크 never found a paragraph about Calc. A loan word's
// Hangul spelling follows its sound closely enough that both spellings
// reduce to the same key: the classes of its consonants and the places of
// its vowels. 칼크 and calc are K-V-L-K, 임프레스 and impress V-M-P-L-V-S,
// 데비안 and debian T-V-P-V-N. Which vowel stands at a place is checked
// loosely (medialLetters): Hangul writes English vowels by sound and
// English spells them many ways. A search looks each Hangul word's keys up
// among the Latin words the index holds (Index.loanTerms) and counts the
// best match as one more term of the query.
//
// Native words are kept out by the rules loan words are written by
// (loanFinal: no 았, 넣, 깔) and by the vowels' places and letters
// (깔고 is K-V-L-K-V, not calc; 뭔가요 M-V-N-K-V, not manage M-V-N-V-S;
// 시프트 is shift and not soft). A key of consonants alone (the first
// version) needed a syllable only loan words have (스 크 트 프 브 즈 츠) to
// keep native words out, which left out 베이직 / Basic, 엑셀 / Excel,
// 그놈 / GNOME, 포맷 / format.

// notLoanEnds are particles no English word's Hangul spelling ends with: a
// beginning of a word that ends with one is not looked up (its shorter
// beginnings are: 베이직을 → 베이직), as the particle would make a native
// word's key look like an English one (탭은 T-V-P-V-N, debian).
const notLoanEnds = "은는을를"

// maxLoanSyllables bounds the words looked up: a loan word with its
// particle is rarely longer (애플리케이션에서는 is 9), and each beginning of a
// word is a lookup, so a pasted run of Hangul without spaces must not cost
// the square of its length.
const maxLoanSyllables = 12

// minLoanKey is the fewest consonants a key a search looks up has. Two
// (매쓰 / math: M-V-S) collide with too many native words and English words
// (mass, miss) to be a signal.
const minLoanKey = 3

// Consonant classes of the key. Sounds Hangul writes with one letter
// share a class: b, p, f and v are all ㅂ or ㅍ; l and r are both ㄹ. A
// class written twice in a row is written once (갤러리 K-V-L-V-L-V, like
// gallery).
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

// loanFinal are the final consonants loan words are written with: the
// rules of the National Institute of Korean Language allow ㄱ ㄴ ㄹ ㅁ ㅂ ㅅ
// ㅇ only, and people follow them; a syllable with any other (았, 넣, 없)
// is a native word's. So are the tense ㄲ ㄸ ㅃ ㅉ as first consonants,
// which the rules do not use for English stops either (깔고, 빠졌으면);
// ㅆ is left in, as people type 매쓰 and 싸이트.
var loanFinal = [28]bool{0: true, 1: true, 4: true, 8: true, 16: true, 17: true, 19: true, 21: true}

// Jamo numbers (Unicode's order) the key gives a meaning of their own.
const (
	jamoKK = 1  // ㄲ
	jamoTT = 4  // ㄸ
	jamoPP = 8  // ㅃ
	jamoJJ = 13 // ㅉ
	jamoEU = 18 // ㅡ, the vowel Hangul adds after an English consonant with none (desk 데스크)
	jamoI  = 20 // ㅣ, which 지 and 치 add after an English final j or ch (image 이미지)
	jamoJ  = 12 // ㅈ
	jamoCH = 14 // ㅊ
)

// vowel is a vowel's place in a key: any vowel or vowel letters (a diphthong,
// "ea") are one V. Hangul and English agree on where vowels are far better
// than on which: 칼크 (K-V-L-K) is calc, 깔고 (K-V-L-K-V) is not.
const vowel = 'V'

// maxOptional bounds the vowels a Hangul word may have or not (ㅡ): each
// doubles the keys of the word; past the bound they are left out, as
// most are.
const maxOptional = 3

// medialLetters are, for each Hangul vowel in Unicode's jamo order, the
// first letters of the English vowels it writes: ㅐ is a or e (task 태스크,
// debug 디버그 aside), ㅣ i, e or y, ㅓ any (the reduced vowel of server,
// about, button). A Hangul vowel written after another one (the ㅣ of
// 베이직, 라이터) joins it. A loan word and an English word match only if
// each vowel the key places is one the other can write: 시프트 is shift,
// not soft, and 태스크 task, not disk.
var medialLetters = [21]string{
	"aou",    // ㅏ
	"ae",     // ㅐ
	"yiea",   // ㅑ
	"yiea",   // ㅒ
	"aeiouy", // ㅓ
	"ae",     // ㅔ
	"yie",    // ㅕ
	"yie",    // ㅖ
	"oa",     // ㅗ
	"oua",    // ㅘ
	"ae",     // ㅙ
	"eoa",    // ㅚ
	"yio",    // ㅛ
	"uo",     // ㅜ
	"oua",    // ㅝ
	"eao",    // ㅞ
	"ieu",    // ㅟ
	"uiey",   // ㅠ
	"aeiouy", // ㅡ
	"aeiouy", // ㅢ
	"iey",    // ㅣ
}

// hangulKey is a key of a Hangul word and, for each vowel it places, the
// letters English may write that vowel with.
type hangulKey struct {
	key    string
	vowels []string
}

// hangulKeys returns the keys of a run of Hangul syllables, or nil when it
// holds anything else: its consonants' classes and its vowels' places, once
// with each ㅡ (and the ㅣ of a last 지 or 치) and once without, as Hangul
// writes those for a consonant English pronounces without a vowel
// (데스크, 칼크, 이미지) and sometimes for a vowel it does pronounce (버튼,
// button). A word that ends in 스 after a consonant also has the key
// without that s: the index stores English words stemmed, and the stemmer
// cut the s of a name (emacs is stored as "emac", 이맥스).
func hangulKeys(word string) []hangulKey {
	type part struct {
		cls      string // consonant classes (none for a silent ㅇ or ㅎ)
		vowel    bool   // a vowel: medial
		medial   int
		optional bool
	}
	var partsBuf [3 * maxLoanSyllables]part // a search's words fit; longer ones spill
	parts := partsBuf[:0]
	n := utf8.RuneCountInString(word)
	i := 0
	last := rune(0)
	for _, r := range word {
		if r < 0xAC00 || r > 0xD7A3 {
			return nil
		}
		i++
		s := int(r - 0xAC00)
		ini, med, fin := s/588, s%588/28, s%28
		if !loanFinal[fin] || ini == jamoKK || ini == jamoTT || ini == jamoPP || ini == jamoJJ {
			return nil
		}
		opt := med == jamoEU || med == jamoI && i == n && fin == 0 && (ini == jamoJ || ini == jamoCH)
		parts = append(parts, part{cls: hangulInitial[ini]}, part{vowel: true, medial: med, optional: opt}, part{cls: hangulFinal[fin]})
		last = r
	}
	var optsBuf [maxOptional]int
	opts := optsBuf[:0]
	for j, p := range parts {
		if p.optional && len(opts) < maxOptional {
			opts = append(opts, j)
		}
	}
	keys := make([]hangulKey, 0, 2<<len(opts)) // the variants, and as many without a last s
	var bBuf [6 * maxLoanSyllables]byte
	for v := range 1 << len(opts) {
		b := bBuf[:0]
		var vowels []string
		for j, p := range parts {
			if p.optional {
				keep := false
				for o, at := range opts {
					if at == j && v&(1<<o) != 0 {
						keep = true
					}
				}
				if !keep {
					continue
				}
			}
			if p.vowel {
				if len(b) > 0 && b[len(b)-1] == vowel {
					vowels[len(vowels)-1] += medialLetters[p.medial]
				} else {
					b = append(b, vowel)
					vowels = append(vowels, medialLetters[p.medial])
				}
				continue
			}
			for c := range len(p.cls) {
				if len(b) == 0 || b[len(b)-1] != p.cls[c] {
					b = append(b, p.cls[c])
				}
			}
		}
		keys = appendHangulKey(keys, hangulKey{string(b), vowels})
	}
	if last == '스' || last == '즈' {
		for _, k := range keys {
			if t, ok := strings.CutSuffix(k.key, "S"); ok && t != "" && t[len(t)-1] != 'S' && t[len(t)-1] != vowel {
				keys = appendHangulKey(keys, hangulKey{t, k.vowels})
			}
		}
	}
	return keys
}

func appendHangulKey(keys []hangulKey, k hangulKey) []hangulKey {
	if k.key == "" || slices.ContainsFunc(keys, func(o hangulKey) bool { return o.key == k.key }) {
		return keys
	}
	return append(keys, k)
}

// writes says whether a Hangul key's vowels can write the English vowels
// (their first letters, in order) of a Latin key that is the same.
func (h hangulKey) writes(vowels string) bool {
	if len(vowels) != len(h.vowels) {
		return false
	}
	for i := range len(vowels) {
		if strings.IndexByte(h.vowels[i], vowels[i]) < 0 {
			return false
		}
	}
	return true
}

// consonants counts the consonants of a key.
func consonants(key string) int {
	return len(key) - strings.Count(key, string(vowel))
}

// maxLatinLetters is the longest Latin word that has keys: longer ones are
// no loan word's spelling.
const maxLatinLetters = 64

// latinKey is a key of a Latin word, the first letter of each vowel (or
// run of vowels) it places, and the letter each of its consonants came
// from (C for ch, H for th, Z for an s before a vowel), which the other
// direction spells Hangul with (hangulspell.go, spellInitials).
type latinKey struct{ key, vowels, cons string }

// latinKeys returns the keys of a lower-case Latin word, with the first
// letter of each vowel (or run of vowels: "ea", "ou") it places, one for each
// reading of its ambiguous letters (c at the end of a stemmed word, ch, th,
// soft g): "calc" is K-V-L-K or K-V-L-S, because Porter stemming took the e
// that told them apart. Only the first two ambiguous letters get both
// readings; a final e after a consonant may be silent (manage, table) or
// not, and gets both too. Words with anything but a–z have none.
//
// A search builds the table of every Latin word's keys once, so this runs
// for each word of the index: it allocates only the keys.
func latinKeys(w string) []latinKey {
	if len(w) > maxLatinLetters {
		return nil
	}
	// sounds[i] is one sound: a class, or two classes for an ambiguous
	// letter, or "KS" as two sounds (x); a silent-or-not final e is
	// {vowel, '-'}. letters[i] is a vowel's letter.
	var sounds [2 * maxLatinLetters][2]byte // x is two sounds
	var letters [2 * maxLatinLetters]byte
	n := 0
	var src byte // the letter of the sound being added
	add := func(a, b byte) {
		if a != vowel {
			letters[n] = src
		}
		sounds[n] = [2]byte{a, b}
		n++
	}
	at := func(i int) byte {
		if i < len(w) {
			return w[i]
		}
		return 0
	}
	for i := 0; i < len(w); i++ {
		c, next := w[i], at(i+1)
		switch src = c; {
		case c == 'c' && next == 'h':
			src = 'C'
		case c == 't' && next == 'h':
			src = 'H'
		case c == 's' && isVowel(next):
			src = 'Z'
		}
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
		case 'e':
			letters[n] = c
			if next == 0 && i >= 2 && !isVowel(w[i-1]) {
				add(vowel, '-')
			} else {
				add(vowel, 0)
			}
		case 'a', 'i', 'o', 'u', 'y':
			letters[n] = c
			add(vowel, 0)
		case 'w', 'h':
		default:
			return nil
		}
	}
	if n == 0 {
		return nil
	}
	var at3 [3]int
	ambiguous := at3[:0]
	for i := range n {
		if sounds[i][1] != 0 && (len(ambiguous) < 2 || i == n-1 && sounds[i][1] == '-') {
			ambiguous = append(ambiguous, i)
		}
	}
	keys := make([]latinKey, 0, 1<<len(ambiguous))
	for v := range 1 << len(ambiguous) {
		var buf, vowels, cons [2 * maxLatinLetters]byte
		k, nv, nc := 0, 0, 0
		for i := range n {
			c := sounds[i][0]
			for j, a := range ambiguous {
				if a == i && v&(1<<j) != 0 {
					c = sounds[i][1]
				}
			}
			if c != '-' && (k == 0 || buf[k-1] != c) {
				buf[k] = c
				k++
				if c == vowel {
					vowels[nv] = letters[i]
					nv++
				} else {
					cons[nc] = letters[i]
					nc++
				}
			}
		}
		seen := false
		for _, o := range keys {
			seen = seen || o.key == string(buf[:k])
		}
		if k > 0 && !seen {
			var all [6 * maxLatinLetters]byte // one allocation for the three
			copy(all[k+nv:], cons[:nc])
			copy(all[copy(all[:], buf[:k]):], vowels[:nv])
			kv := string(all[:k+nv+nc])
			keys = append(keys, latinKey{kv[:k], kv[k : k+nv], kv[k+nv:]})
		}
	}
	return keys
}

func isVowel(c byte) bool {
	return strings.IndexByte("aeiouy", c) >= 0 && c != 0
}

// loanCandidate is a beginning of a Hangul word and its keys.
type loanCandidate struct {
	word string
	keys []hangulKey
}

// loanCandidates returns the beginnings of a Hangul word a search looks up,
// longest first: the whole word and its beginnings of two syllables or
// more, so that the particle or ending a person adds (칼크에서, 태스크라는)
// does not hide the name. Each has at least minLoanKey consonants.
func loanCandidates(word string) []loanCandidate {
	var out []loanCandidate
	var endsBuf [maxLoanSyllables + 1]int
	ends, n := endsBuf[:0], 0
	for i := range word {
		if n == maxLoanSyllables {
			return nil // a pasted run of Hangul: not walked to its end
		}
		if n >= 2 {
			ends = append(ends, i)
		}
		n++
	}
	if n < 2 {
		return nil
	}
	ends = append(ends, len(word))
	for i := len(ends) - 1; i >= 0; i-- {
		w := word[:ends[i]]
		if last, _ := utf8.DecodeLastRuneInString(w); strings.ContainsRune(notLoanEnds, last) {
			continue
		}
		keys := hangulKeys(w)
		if len(keys) == 0 || consonants(keys[0].key) < minLoanKey {
			continue
		}
		out = append(out, loanCandidate{w, keys})
	}
	return out
}
