package app

import (
	"strings"
	"unicode"
)

// particles are the Korean particles a sentence writes in both forms
// after a blank ("{name}을(를)"), with the form after a final consonant
// first and the one after a vowel second. (으)로 has a third case: after
// ㄹ it is 로, like after a vowel.
var particles = map[string][2]string{
	"을(를)":  {"을", "를"},
	"이(가)":  {"이", "가"},
	"은(는)":  {"은", "는"},
	"와(과)":  {"과", "와"},
	"과(와)":  {"과", "와"},
	"(으)로":  {"으로", "로"},
	"으로(로)": {"으로", "로"},
	"(이)":   {"이", ""}, // the copula: "(이)라는"
}

// particle is the Korean particle to write after word in place of form
// (one of particles' keys): the form that fits how word ends when read
// aloud, or form itself when that is not known, which reads right either
// way. Sentences name files, models and tools in Latin letters and
// digits, so those count too: digits as read in Korean (1 일, 2 이; a
// final 0 is 십, 백, 천 or 영, all with a final consonant) and the Latin
// letters whose reading at the end of a word hardly varies (l, m and n
// end in one; a, d, s, x … do not; "web" and "b", "file" and "e", "chat"
// and "t" disagree, so b, c, e, k, p, r and t are not known).
func particle(word, form string) string {
	pair, ok := particles[form]
	if !ok {
		return form
	}
	final, rieul, known := lastSound(word)
	switch {
	case !known:
		return form
	case strings.HasSuffix(pair[1], "로") && rieul:
		return pair[1]
	case final:
		return pair[0]
	}
	return pair[1]
}

// lastSound tells whether word, read aloud, ends in a final consonant and
// whether that is ㄹ; known is false when it cannot tell. Closing quotes,
// brackets and other marks at the end are passed over ("report (1)").
func lastSound(word string) (final, rieul, known bool) {
	w := []rune(strings.TrimRightFunc(word, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}))
	if len(w) == 0 {
		return false, false, false
	}
	r := unicode.ToLower(w[len(w)-1])
	switch {
	case r >= '가' && r <= '힣':
		jong := (r - '가') % 28
		return jong != 0, jong == 8, true
	case r >= '0' && r <= '9': // 영 일 이 삼 사 오 육 칠 팔 구; a final 0 is 십, 백, 천 or 만
		return strings.ContainsRune("013678", r), strings.ContainsRune("178", r), true
	case r == 'l':
		return true, true, true
	case r == 'm' || r == 'n':
		return true, false, true
	case r == 'g' && len(w) > 1 && unicode.ToLower(w[len(w)-2]) == 'n': // "ping" 핑, "png" 피엔지
		return false, false, false
	case strings.ContainsRune("adfghijoqsuvwxyz", r):
		return false, false, true
	}
	return false, false, false
}
