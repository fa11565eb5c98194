package keyword

import "strings"

// Manuals, regulations and forms written in Korean name actions with
// Sino-Korean nouns (삭제, 변경, 선택, 표시) where people ask with native
// verbs (지우다, 바꾸다, 고르다, 보이다): "행을 지울 수가 없어요" asks about
// a paragraph that says "행을 삭제할 수 없습니다", and the two share no
// bigram. A query word that begins with one of the verb forms below may
// match the noun the documents use instead: a passage counts the better of
// the verb's first bigram and the noun, once, so a passage that uses the
// verb scores as before and one that uses the noun no longer scores
// nothing (as a term of its own the noun gave the same recall on the
// Korean set, a slightly lower nDCG@10, and more weight to passages that
// hold both). Documents are indexed as written. The list holds the common verbs of working with
// documents and programs, each in the forms its endings give (바꾸다:
// 바꾸, 바꿔, 바꾼, 바꿀, 바꿨; 바뀌다 as well), and leaves out verbs with
// many senses (쓰다, 받다, 만들다) and forms other words begin with (끄다:
// 꺼내다, 끌다).
var actionVerbs = otherWords{
	{"삭제", []string{"지우", "지워", "지운", "지울", "지웠"}},
	{"제거", []string{"없애", "없앤", "없앨", "없앴"}},
	{"변경", []string{"바꾸", "바꿔", "바꾼", "바꿀", "바꿨", "바뀌", "바뀐", "바뀔"}},
	{"수정", []string{"고치", "고쳐", "고친", "고칠", "고쳤"}},
	{"설치", []string{"깔고", "깔아", "깔면", "깔려", "깔았"}},
	{"표시", []string{"보이", "보여", "보인", "보일", "보였", "띄우", "띄워", "띄운"}},
	{"선택", []string{"고르", "골라", "고른", "고를", "골랐"}},
	{"삽입", []string{"넣"}},
	{"이동", []string{"옮기", "옮겨", "옮긴", "옮길", "옮겼"}},
	{"취소", []string{"되돌리", "되돌려", "되돌린", "되돌릴"}},
	{"활성", []string{"켜", "켠", "켤", "켰"}},
	{"분할", []string{"나누", "나눠", "나눈", "나눌", "나눴"}},
	{"병합", []string{"합치", "합쳐", "합친", "합칠", "합쳤"}},
	{"회전", []string{"돌리", "돌려", "돌린", "돌릴"}},
	{"중지", []string{"멈추", "멈춰", "멈춘", "멈출", "멈췄"}},
	{"종료", []string{"끝내", "끝낸", "끝낼", "끝냈"}},
	{"오류", []string{"틀린", "틀려", "틀리", "틀렸"}},
}

// otherWords is a table of words a query word may match instead of its
// own: each word with the beginnings of the query words that may.
type otherWords []struct {
	word  string
	forms []string
}

// of returns the word for what a Hangul word begins with, or "".
func (t otherWords) of(word string) string {
	for _, o := range t {
		for _, f := range o.forms {
			if strings.HasPrefix(word, f) {
				return o.word
			}
		}
	}
	return ""
}
