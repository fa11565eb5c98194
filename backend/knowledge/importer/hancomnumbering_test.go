package importer

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// hpr is an HWPX paragraph of style and paragraph shape holding inner in
// one run.
func hpr(style, paraPr int, inner string) string {
	return `<hp:p id="0" paraPrIDRef="` + strconv.Itoa(paraPr) + `" styleIDRef="` + strconv.Itoa(style) + `"><hp:run charPrIDRef="0">` + inner + `</hp:run></hp:p>`
}

// hhNumbering is an hh:numbering's levels, each "FORMAT:text" or
// "FORMAT:text:start".
func hhNumbering(id int, levels ...string) string {
	var b strings.Builder
	b.WriteString(`<hh:numbering id="` + strconv.Itoa(id) + `" start="0">`)
	for i, l := range levels {
		f := strings.SplitN(l, ":", 3)
		start := "1"
		if len(f) == 3 {
			start = f[2]
		}
		b.WriteString(`<hh:paraHead start="` + start + `" level="` + strconv.Itoa(i+1) + `" align="LEFT" useInstWidth="1" autoIndent="1" numFormat="` + f[0] + `" charPrIDRef="4294967295">` + f[1] + `</hh:paraHead>`)
	}
	return b.String() + `</hh:numbering>`
}

// hancomOutline is Hancom's outline numbering of a new document.
var hancomOutline = []string{"DIGIT:^1.", "HANGUL_SYLLABLE:^2.", "DIGIT:^3)", "HANGUL_SYLLABLE:^4)", "DIGIT:(^5)", "HANGUL_SYLLABLE:(^6)", "CIRCLED_DIGIT:^7", "CIRCLED_HANGUL_SYLLABLE:^8", "HANGUL_JAMO:", "ROMAN_SMALL:"}

// paraPrXML is a paragraph shape whose head is kind (NONE, OUTLINE,
// NUMBER, BULLET) of numbering idRef at level (from 0).
func paraPrXML(id int, kind string, idRef, level int) string {
	return `<hh:paraPr id="` + strconv.Itoa(id) + `" tabPrIDRef="0"><hh:align horizontal="JUSTIFY"/><hh:heading type="` + kind + `" idRef="` + strconv.Itoa(idRef) + `" level="` + strconv.Itoa(level) + `"/><hh:margin/></hh:paraPr>`
}

// An HWPX paragraph numbered by its shape (hh:heading NUMBER, or OUTLINE
// with its section's outline numbering) comes after its number as Hancom
// counts it: each level in its shape and text ("1.", "가.", "제1조", "①",
// "^N"'s path), from its start, an item restarting the levels under it,
// outline and paragraph numbers counted apart, numberings on through
// sections; bullets, levels with no text and unnumbered shapes without.
func TestHWPXNumbering(t *testing.T) {
	refs := hwpxStyles + `<hh:numberings itemCnt="3">` + hhNumbering(1, hancomOutline...) +
		hhNumbering(2, "DIGIT:제^1조", "CIRCLED_DIGIT:^2", "DIGIT:^N", "DIGIT:^n", "LATIN_CAPITAL:^5.", "ROMAN_CAPITAL:^6.", "IDEOGRAPH:^7", "DIGIT:", "DIGIT:^9", "DIGIT:") +
		hhNumbering(3, "DIGIT:^1):7", "LATIN_SMALL:^2.:25") + `</hh:numberings>` +
		`<hh:bullets itemCnt="1"><hh:bullet id="1" char="●"><hh:paraHead level="1" numFormat="ROMAN_SMALL">^1</hh:paraHead></hh:bullet></hh:bullets>` +
		`<hh:paraProperties>` + paraPrXML(0, "NONE", 0, 0) + paraPrXML(1, "OUTLINE", 0, 0) + paraPrXML(2, "OUTLINE", 0, 1) +
		paraPrXML(3, "NUMBER", 2, 0) + paraPrXML(4, "NUMBER", 2, 1) + paraPrXML(5, "BULLET", 1, 0) + paraPrXML(6, "NUMBER", 2, 2) +
		paraPrXML(7, "NUMBER", 2, 7) + paraPrXML(8, "NUMBER", 3, 0) + paraPrXML(9, "NUMBER", 3, 1) + paraPrXML(10, "OUTLINE", 0, 6) +
		paraPrXML(11, "NUMBER", 2, 3) + paraPrXML(12, "NUMBER", 99, 0) + paraPrXML(13, "NUMBER", 2, 12) + `</hh:paraProperties>`
	secPr := `<hp:secPr id="" textDirection="HORIZONTAL" outlineShapeIDRef="1"><hp:grid lineGrid="0"/></hp:secPr>`
	first := hpr(2, 1, secPr+`<hp:t>총칙</hp:t>`) + hpr(0, 2, `<hp:t>목적</hp:t>`) + hpr(0, 2, `<hp:t>정의</hp:t>`) +
		hpr(0, 1, `<hp:t>운영</hp:t>`) + hpr(0, 2, `<hp:t>위원회</hp:t>`) + hpr(0, 10, `<hp:t>일곱째 수준</hp:t>`) +
		hpr(0, 3, `<hp:t>조문</hp:t>`) + hpr(0, 4, `<hp:t>항</hp:t>`) + hpr(0, 4, `<hp:t>항2</hp:t>`) + hpr(0, 6, `<hp:t>목</hp:t>`) +
		hpr(0, 11, `<hp:t>세목</hp:t>`) + hpr(0, 5, `<hp:t>글머리</hp:t>`) + hpr(0, 7, `<hp:t>빈 수준</hp:t>`) +
		hpr(0, 3, `<hp:t>조문2</hp:t>`) + hpr(0, 4, `<hp:t>항3</hp:t>`) + hpr(0, 0, `<hp:t>본문</hp:t>`) +
		hpr(0, 8, `<hp:t>칠</hp:t>`) + hpr(0, 9, `<hp:t>와이</hp:t>`) + hpr(0, 9, `<hp:t>제트</hp:t>`) + hpr(0, 9, `<hp:t>에이</hp:t>`) +
		hpr(0, 8, `<hp:t>팔</hp:t>`) + hpr(0, 12, `<hp:t>없는 번호</hp:t>`) + hpr(0, 13, `<hp:t>없는 수준</hp:t>`) +
		hpr(0, 3, `<hp:t></hp:t>`) + // an empty paragraph counts, and is not written
		hpr(0, 2, `<hp:t>`+strings.Repeat("개요 문단이지만 긴 본문 ", 10)+`</hp:t>`) // an outline paragraph too long for a heading
	second := hpr(0, 1, secPr+`<hp:t>둘째 구역</hp:t>`) + hpr(0, 3, `<hp:t>조문4</hp:t>`) +
		hpr(0, 0, `<hp:t>표</hp:t><hp:tbl><hp:tr><hp:tc><hp:subList>`+hpr(0, 4, `<hp:t>칸의 항</hp:t>`)+`</hp:subList></hp:tc></hp:tr></hp:tbl>`)
	docs, err := Importer{}.Import(context.Background(), "규정.hwpx", hwpxWith(t, refs, first, second))
	if err != nil {
		t.Fatal(err)
	}
	// An outline paragraph is a heading of its level whatever its style,
	// as in HWP 5.0 (TestHWPNumbering), unless it is too long for one.
	want := "# 1. 총칙\n\n## 가. 목적\n\n## 나. 정의\n\n# 2. 운영\n\n## 가. 위원회\n\n###### ① 일곱째 수준\n\n제1조 조문\n\n① 항\n\n② 항2\n\n1.2.1. 목\n\n1.2.1.1 세목\n\n글머리\n\n빈 수준\n\n" +
		"제2조 조문2\n\n① 항3\n\n본문\n\n7) 칠\n\ny. 와이\n\nz. 제트\n\na. 에이\n\n8) 팔\n\n없는 번호\n\n없는 수준\n\n" +
		"나. " + strings.TrimSpace(strings.Repeat("개요 문단이지만 긴 본문 ", 10)) + "\n\n" +
		"# 3. 둘째 구역\n\n제4조 조문4\n\n표\n\n① 칸의 항\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("text\n%s\nwant\n%s", got, want)
	}
	if docs[0].Title != "1. 총칙" {
		t.Errorf("title %q", docs[0].Title)
	}
}

// Hancom's number shapes are written as Hancom writes them: the cycles
// of letters, syllables (가 to 하, then 거), jamo and circled forms, and
// digits past a shape's range.
func TestHancomNumber(t *testing.T) {
	for _, tt := range []struct {
		shape string
		n     int
		want  string
	}{
		{"DIGIT", 12, "12"}, {"CIRCLED_DIGIT", 3, "③"}, {"CIRCLED_DIGIT", 21, "21"}, {"ROMAN_CAPITAL", 14, "XIV"}, {"ROMAN_SMALL", 4, "iv"},
		{"LATIN_CAPITAL", 27, "A"}, {"LATIN_SMALL", 2, "b"}, {"CIRCLED_LATIN_CAPITAL", 1, "Ⓐ"}, {"CIRCLED_LATIN_SMALL", 3, "ⓒ"},
		{"HANGUL_SYLLABLE", 1, "가"}, {"HANGUL_SYLLABLE", 4, "라"}, {"HANGUL_SYLLABLE", 14, "하"}, {"HANGUL_SYLLABLE", 15, "거"}, {"HANGUL_SYLLABLE", 84, "히"}, {"HANGUL_SYLLABLE", 85, "가"},
		{"CIRCLED_HANGUL_SYLLABLE", 2, "㉯"}, {"HANGUL_JAMO", 3, "ㄷ"}, {"CIRCLED_HANGUL_JAMO", 1, "㉠"}, {"HANGUL_PHONETIC", 12, "십이"},
		{"IDEOGRAPH", 23, "二十三"}, {"CIRCLED_IDEOGRAPH", 10, "㊉"}, {"CIRCLED_IDEOGRAPH", 11, "11"}, {"DECAGON_CIRCLE", 11, "갑"}, {"DECAGON_CIRCLE_HANJA", 2, "乙"},
		{"SYMBOL", 2, "†"}, {"SYMBOL", 5, "**"}, {"USER_CHAR", 3, "※"}, {"UNKNOWN", 5, "5"}, {"DIGIT", 0, "0"}, {"HANGUL_SYLLABLE", -1, "-1"},
	} {
		if got := hancomNumber(tt.n, tt.shape, "※"); got != tt.want {
			t.Errorf("%s %d: %q, want %q", tt.shape, tt.n, got, tt.want)
		}
	}
	for code, want := range map[int]string{0: "DIGIT", 8: "HANGUL_SYLLABLE", 16: "DECAGON_CIRCLE_HANJA", 0x80: "SYMBOL", 0x81: "USER_CHAR", 17: "DIGIT", -1: "DIGIT"} {
		if got := hwpShape(code); got != want {
			t.Errorf("code %d: %s, want %s", code, got, want)
		}
	}
}

// TestLongNumberLabelsAreCut: a numbering's text (an HWPX level's, an
// OpenDocument list's prefix and suffix, a Word level's) is cut to
// maxNumberLabel characters, as it is written before every paragraph it
// numbers: an HWPX level of 9 MB before a hundred paragraphs made 900 MB
// of text and allocated 12 GB.
func TestLongNumberLabelsAreCut(t *testing.T) {
	long := strings.Repeat("가", 150_000)          // two in a tag stay under maxTag
	kept := strings.Repeat("가", maxNumberLabel-3) // of the level's text, after "제^1"
	refs := hwpxStyles + `<hh:numberings itemCnt="1">` + hhNumbering(2, "DIGIT:제^1"+long) + `</hh:numberings>` +
		`<hh:paraProperties>` + paraPrXML(0, "NONE", 0, 0) + paraPrXML(3, "NUMBER", 2, 0) + `</hh:paraProperties>`
	hwpx := hwpxWith(t, refs, hpr(0, 0, `<hp:t>본문</hp:t>`)+strings.Repeat(hpr(0, 3, `<hp:t>조문</hp:t>`), 3))
	content := `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odtNS + ` xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0">` +
		`<office:automatic-styles>` + listStyle("L1", `number style:num-format="1" style:num-prefix="제`+long+`" style:num-suffix="`+long+`"`) + `</office:automatic-styles><office:body><office:text>` +
		`<text:list text:style-name="L1">` + strings.Repeat(`<text:list-item><text:p>조문</text:p></text:list-item>`, 3) + `</text:list></office:text></office:body></office:document-content>`
	odt := zipOf(t, part{"mimetype", "application/vnd.oasis.opendocument.text"}, part{"content.xml", content})
	for _, tt := range []struct {
		file string
		data []byte
		want string
	}{
		{"규정.hwpx", hwpx, "본문\n\n제1" + kept + " 조문\n\n제2" + kept + " 조문\n\n제3" + kept + " 조문\n\n"},
		{"목록.odt", odt, "제" + strings.Repeat("가", maxNumberLabel-1) + "1" + strings.Repeat("가", maxNumberLabel) + " 조문\n\n"},
	} {
		docs, err := Importer{}.Import(context.Background(), tt.file, tt.data)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if got := docs[0].Parts[0].Text; len(got) > 4096 || !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: %d bytes of text (%.300q…), want %.300q…", tt.file, len(got), got, tt.want)
		}
	}
}
