package importer

import (
	"strconv"
	"strings"
)

// Hancom numbers paragraphs (문단 번호, 개요 번호) and notes (각주, 미주)
// itself, as Word does: the numbers are not in the text but counted as
// the document is shown, each in one of Hancom's number shapes. HWPX
// names a shape (numFormat="HANGUL_SYLLABLE"); HWP 5.0 stores its place
// in the same list (8). A regulation's "1.", "가.", "1)", "가)" are what
// people search for and cite, so they are counted here as Hancom counts
// them and put before their paragraphs (hancomnumbering.go); the notes'
// marks go where Word's do (notes.go).

// hancomShapes are Hancom's number shapes in the order HWP 5.0 numbers
// them (표 43 of the HWP 5.0 spec: 0 is 1, 2, 3; 8 is 가, 나, 다), by the
// names HWPX gives them. 0x80 and 0x81 are for notes only.
var hancomShapes = []string{
	"DIGIT", "CIRCLED_DIGIT", "ROMAN_CAPITAL", "ROMAN_SMALL", "LATIN_CAPITAL", "LATIN_SMALL",
	"CIRCLED_LATIN_CAPITAL", "CIRCLED_LATIN_SMALL", "HANGUL_SYLLABLE", "CIRCLED_HANGUL_SYLLABLE",
	"HANGUL_JAMO", "CIRCLED_HANGUL_JAMO", "HANGUL_PHONETIC", "IDEOGRAPH", "CIRCLED_IDEOGRAPH",
	"DECAGON_CIRCLE", "DECAGON_CIRCLE_HANJA",
}

// hwpShape is the name of HWP 5.0's number shape code; digits for a code
// it does not know.
func hwpShape(code int) string {
	switch {
	case code >= 0 && code < len(hancomShapes):
		return hancomShapes[code]
	case code == 0x80:
		return "SYMBOL"
	case code == 0x81:
		return "USER_CHAR"
	}
	return "DIGIT"
}

// Hangul syllables Hancom counts with: 가 to 하, then 거 to 허, 고 to
// 호, 구 to 후, 그 to 흐, 기 to 히, and round again.
var (
	hangulInitials = []rune("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ")
	// the choseong index (0–18) in a syllable of each initial above
	hangulChoseong = []int{0, 2, 3, 5, 6, 7, 9, 11, 12, 14, 15, 16, 17, 18}
	hangulVowels   = []int{0, 4, 8, 13, 18, 20} // ㅏ ㅓ ㅗ ㅜ ㅡ ㅣ
)

func hangulSyllable(n int) string {
	i := (n - 1) % (len(hangulChoseong) * len(hangulVowels))
	c, v := hangulChoseong[i%len(hangulChoseong)], hangulVowels[i/len(hangulChoseong)]
	return string(rune(0xAC00 + (c*21+v)*28))
}

// hancomNumber writes n in the number shape named (HWPX's names, above):
// the shapes that cycle as Hancom's do (A–Z, 가–히, ㄱ–ㅎ, ①–⑳, 갑–계),
// the others as digits past their range. user is the character of the
// notes' USER_CHAR shape.
func hancomNumber(n int, shape, user string) string {
	if n < 1 {
		return strconv.Itoa(n)
	}
	circled := func(first rune, count int) string { return string(first + rune((n-1)%count)) }
	switch shape {
	case "CIRCLED_DIGIT":
		if n <= 20 {
			return string(rune('①' + n - 1))
		}
	case "ROMAN_CAPITAL", "ROMAN_SMALL":
		if r := roman(n); r != "" {
			if shape == "ROMAN_SMALL" {
				return strings.ToLower(r)
			}
			return r
		}
	case "LATIN_CAPITAL":
		return circled('A', 26)
	case "LATIN_SMALL":
		return circled('a', 26)
	case "CIRCLED_LATIN_CAPITAL":
		return circled('Ⓐ', 26)
	case "CIRCLED_LATIN_SMALL":
		return circled('ⓐ', 26)
	case "HANGUL_SYLLABLE":
		return hangulSyllable(n)
	case "CIRCLED_HANGUL_SYLLABLE":
		return circled('㉮', 14)
	case "HANGUL_JAMO":
		return string(hangulInitials[(n-1)%len(hangulInitials)])
	case "CIRCLED_HANGUL_JAMO":
		return circled('㉠', 14)
	case "HANGUL_PHONETIC":
		if s := sinoKorean(n); s != "" {
			return s
		}
	case "IDEOGRAPH":
		if s := hanjaNumber(n); s != "" {
			return s
		}
	case "CIRCLED_IDEOGRAPH":
		if n <= 10 {
			return string(rune('㊀' + n - 1))
		}
	case "DECAGON_CIRCLE":
		return cycle(n, []rune("갑을병정무기경신임계"))
	case "DECAGON_CIRCLE_HANJA":
		return cycle(n, []rune("甲乙丙丁戊己庚辛壬癸"))
	case "SYMBOL": // four symbols in turn, doubled on each round, as Word's
		sym := []string{"*", "†", "‡", "§"}[(n-1)%4]
		return strings.Repeat(sym, min((n-1)/4+1, 8))
	case "USER_CHAR":
		if user != "" {
			return user
		}
	}
	return strconv.Itoa(n)
}

// hanjaNumber writes 1–99 in Chinese numerals (一, 二, … 十一, 九十九).
func hanjaNumber(n int) string {
	s := sinoKorean(n)
	if s == "" {
		return ""
	}
	return strings.NewReplacer("일", "一", "이", "二", "삼", "三", "사", "四", "오", "五", "육", "六", "칠", "七", "팔", "八", "구", "九", "십", "十").Replace(s)
}
