package keyword

// People and documents often name one thing with two everyday words: a
// Sino-Korean word and a native or loan word (날짜 / 일자, 단락 / 문단,
// 비밀번호 / 암호, 글꼴 / 폰트, 왼쪽 / 좌측), or two Sino-Korean words
// (형식 / 유형, 인쇄 / 출력, 설정 / 구성). "열마다 데이터 형식을 지정"
// asks about a paragraph that says "데이터 유형을 선택", and the two share no
// bigram. A query word that begins with one of the forms below may match
// the other word instead, the way a native verb matches its action's noun
// (actions.go): a passage counts the better of the word's first bigram and
// the other word, once, so a passage that uses the asked word scores as
// before. Documents are indexed as written.
//
// The list is general vocabulary of documents, software and forms, written
// before it was measured on the Korean question set (README.md, "Korean
// question set"); 설정 / 구성 and 전부 / 모든 were added after reading its
// misses. Left out: words a question asks with anyway (방법 / 방식: no
// answer moved), pairs that are names of one product's features rather
// than Korean (피벗 테이블 / 데이터 파일럿, 배열 / 행렬: those belong to the
// person's own documents, not to a table), and words of one syllable,
// which begin too many others (표 / 테이블, 줄 / 행). Where a form is
// longer than the other word's text, the other word is given by the bigram
// documents spell it with (래프 for 그래프, 리스 for 리스트, 디렉 for
// 디렉터리 and 디렉토리).
var synonyms = otherWords{
	{"유형", []string{"형식", "종류"}}, {"형식", []string{"유형"}},
	{"차례", []string{"순서"}}, {"순서", []string{"차례"}},
	{"단락", []string{"문단"}}, {"문단", []string{"단락"}},
	{"일자", []string{"날짜"}}, {"날짜", []string{"일자"}},
	{"주석", []string{"메모"}}, {"메모", []string{"주석"}},
	{"중앙", []string{"가운데"}}, {"가운", []string{"중앙"}},
	{"바탕", []string{"배경"}}, {"배경", []string{"바탕"}},
	{"폴더", []string{"디렉"}}, {"디렉", []string{"폴더"}},
	{"갱신", []string{"업데"}}, {"업데", []string{"갱신"}},
	{"인쇄", []string{"출력"}}, {"출력", []string{"인쇄"}},
	{"검색", []string{"찾아", "찾는", "찾을", "찾으", "찾고", "찾기"}}, {"찾기", []string{"검색"}},
	{"차트", []string{"그래프"}}, {"래프", []string{"차트"}},
	{"글꼴", []string{"폰트", "글씨"}}, {"폰트", []string{"글꼴"}},
	{"버튼", []string{"단추"}}, {"단추", []string{"버튼"}},
	{"문자", []string{"글자"}}, {"글자", []string{"문자"}},
	{"목록", []string{"리스트"}}, {"리스", []string{"목록"}},
	{"암호", []string{"비밀번호"}}, {"비밀", []string{"암호"}},
	{"경계", []string{"테두리"}}, {"테두", []string{"경계"}},
	{"오류", []string{"에러"}}, {"에러", []string{"오류"}},
	{"상단", []string{"위쪽"}}, {"위쪽", []string{"상단"}},
	{"하단", []string{"아래쪽"}}, {"아래", []string{"하단"}},
	{"좌측", []string{"왼쪽"}}, {"왼쪽", []string{"좌측"}},
	{"우측", []string{"오른쪽"}}, {"오른", []string{"우측"}},
	{"복원", []string{"복구"}}, {"복구", []string{"복원"}},
	{"구성", []string{"설정"}}, {"설정", []string{"구성"}},
	{"색상", []string{"색깔"}},
	{"자동", []string{"저절로"}},
	{"일괄", []string{"한꺼번에"}},
	{"모든", []string{"전부"}},
	{"확인", []string{"체크"}},
	{"철자", []string{"맞춤법"}},
	{"크기", []string{"사이즈"}},
	{"그림", []string{"이미지", "사진"}},
	{"상자", []string{"박스"}},
	{"사각", []string{"네모"}},
	{"삼각", []string{"세모"}},
	{"공백", []string{"빈칸", "띄어"}},
	{"다운", []string{"내려받"}},
	{"숨기", []string{"감추", "감춰", "감춘", "감출"}},
	{"확대", []string{"늘리", "늘려", "늘린", "늘릴"}},
	{"구부", []string{"꺾"}},
}
