package keyword

import (
	"strings"
	"unicode/utf8"
)

// spellings maps other spellings of loan words to one form, in documents
// and queries alike, before bigrams are made: people type 디렉토리 and
// 메세지 where the National Institute of Korean Language's loan-word rules
// (and most manuals) write 디렉터리 and 메시지, and the two spellings share
// too few bigrams to find each other. Which form is kept does not matter,
// as both sides are mapped. Only whole loan words that no native word
// contains are listed, longer keys before the keys they contain; a word
// that is another word altogether (피벗 테이블 / 데이터 파일럿) is a synonym,
// not a spelling, and is not here.
var spellingPairs = []string{
	"디렉토리", "디렉터리",
	"메세지", "메시지",
	"윈도우즈", "윈도",
	"윈도즈", "윈도",
	"윈도우", "윈도",
	"컨트롤", "콘트롤",
	"컨텐츠", "콘텐츠",
	"컨텍스트", "콘텍스트",
	"어플리케이션", "애플리케이션",
	"데이타", "데이터",
	"컴퓨타", "컴퓨터",
	"화일", "파일",
	"쉘", "셸",
	"버젼", "버전",
	"스케쥴", "스케줄",
	"캡쳐", "캡처",
	"아키텍쳐", "아키텍처",
	"텍스쳐", "텍스처",
	"타겟", "타깃",
	"셋팅", "세팅",
	"싸이트", "사이트",
	"데스크탑", "데스크톱",
	"랩탑", "랩톱",
	"네트웍", "네트워크",
	"라이센스", "라이선스",
	"리포지토리", "리포지터리",
	"레파지토리", "리포지터리",
	"팩키지", "패키지",
	"캐쉬", "캐시",
	"플래쉬", "플래시",
	"대쉬보드", "대시보드",
	"비쥬얼", "비주얼",
	"쥬피터", "주피터",
	"레포트", "리포트",
	"스크린샷", "스크린숏",
	"엑세스", "액세스",
	"악세스", "액세스",
	"메뉴얼", "매뉴얼",
	"메니저", "매니저",
	"매니져", "매니저",
}

var spellings = strings.NewReplacer(spellingPairs...)

// spellingFirst marks the Hangul syllables a key of spellings begins with
// (every key begins with one, TestRespellAsReplace).
var spellingFirst = func() (set [(0xD7A3-0xAC00)/64 + 1]uint64) {
	for i := 0; i < len(spellingPairs); i += 2 {
		r, _ := utf8.DecodeRuneInString(spellingPairs[i])
		set[(r-0xAC00)/64] |= 1 << ((r - 0xAC00) % 64)
	}
	return set
}()

// respell is spellings.Replace(word), which it calls only for a word that
// holds a key: nearly no word does, and the replacer's walk of every word
// of a document was a tenth of the time of indexing Korean text.
func respell(word string) string {
	for i, r := range word {
		if r < 0xAC00 || r > 0xD7A3 || spellingFirst[(r-0xAC00)/64]&(1<<((r-0xAC00)%64)) == 0 {
			continue
		}
		for j := 0; j < len(spellingPairs); j += 2 {
			if strings.HasPrefix(word[i:], spellingPairs[j]) {
				return spellings.Replace(word)
			}
		}
	}
	return word
}
