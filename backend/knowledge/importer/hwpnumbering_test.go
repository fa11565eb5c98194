package importer

import (
	"context"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// hwpOutline is Hancom's outline numbering of a new document, in HWP's
// number shape codes.
var hwpOutline = []hwptest.Level{{Shape: 0, Text: "^1.", Start: 1}, {Shape: 8, Text: "^2.", Start: 1}, {Shape: 0, Text: "^3)", Start: 1},
	{Shape: 8, Text: "^4)", Start: 1}, {Shape: 0, Text: "(^5)", Start: 1}, {Shape: 8, Text: "(^6)", Start: 1}, {Shape: 1, Text: "^7", Start: 1}}

// An HWP paragraph numbered by its shape (PARA_SHAPE's head: an outline
// number with the numbering its section's definition names, or a
// paragraph number with the shape's own) comes after its number as
// Hancom counts it, as an HWPX one: NUMBERING's levels in their shapes,
// texts and starts (10 levels of 한글 2010 included), an item restarting
// the levels under it, a paragraph without text counted; bullets, unknown
// numberings, and numberings cut short (a start of 1, digits) as the
// file allows. The section's definition comes after its paragraph's text
// and still numbers it.
func TestHWPNumbering(t *testing.T) {
	ten := []hwptest.Level{{Shape: 0, Text: "제^1조", Start: 1}, {Shape: 1, Text: "^2", Start: 1}, {Shape: 0, Text: "^N", Start: 1},
		{}, {}, {}, {}, {Shape: 8, Text: "(^8)", Start: 3}, {}, {}}
	cut := hwptest.NumberingData(hwptest.Level{Shape: 2, Text: "^1.", Start: 4}, hwptest.Level{Shape: 8, Text: "^2)", Start: 2})
	docInfo := join(
		hwptest.Numbering(hwpOutline...), hwptest.Numbering(ten...),
		hwptest.Numbering(hwptest.Level{Shape: 2, Text: "^1.", Start: 4}), // Ⅳ
		hwptest.Record(hwptest.TagNumbering, 1, cut[:len(cut)-28]),        // no starts: from 1
		hwptest.Record(hwptest.TagNumbering, 1, cut[:17]),                 // cut in its first level's text
		hwptest.ParaShape(0),                             // 0
		hwptest.ParaShapeHead(hwptest.HeadOutline, 0, 0), // 1
		hwptest.ParaShapeHead(hwptest.HeadOutline, 0, 1), // 2
		hwptest.ParaShapeHead(hwptest.HeadNumber, 2, 0),  // 3
		hwptest.ParaShapeHead(hwptest.HeadNumber, 2, 1),  // 4
		hwptest.ParaShapeHead(hwptest.HeadBullet, 1, 0),  // 5
		hwptest.ParaShapeHead(hwptest.HeadNumber, 2, 2),  // 6
		hwptest.ParaShapeHead(hwptest.HeadNumber, 2, 7),  // 7
		hwptest.ParaShapeHead(hwptest.HeadNumber, 3, 0),  // 8
		hwptest.ParaShapeHead(hwptest.HeadNumber, 99, 0), // 9
		hwptest.ParaShapeHead(hwptest.HeadNumber, 4, 1),  // 10
		hwptest.ParaShapeHead(hwptest.HeadNumber, 5, 0),  // 11
		hwptest.ParaShapeHead(hwptest.HeadOutline, 0, 6), // 12
	)
	first := join(
		hwptest.Para(0, 0, 1, hwptest.Control(2, "dces"), u16("총칙")),
		hwptest.SectionDef(0, 1, hwptest.NoteShape{}, hwptest.NoteShape{}),
		hwptest.Para(0, 0, 2, u16("목적")), hwptest.Para(0, 0, 2, u16("정의")), hwptest.Para(0, 0, 1, u16("운영")), hwptest.Para(0, 0, 2, u16("위원회")),
		hwptest.Para(0, 0, 12, u16("일곱째 수준")),
		hwptest.Para(0, 0, 3, u16("조문")), hwptest.Para(0, 0, 4, u16("항")), hwptest.Para(0, 0, 4, u16("항2")), hwptest.Para(0, 0, 6, u16("목")),
		hwptest.Para(0, 0, 5, u16("글머리")), hwptest.Para(0, 0, 7, u16("여덟째 수준")), hwptest.Para(0, 0, 7, u16("여덟째 다시")),
		hwptest.Record(hwptest.TagParaHeader, 0, []byte{1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), // a numbered paragraph without text counts
		hwptest.Para(0, 0, 3, u16("조문3")), hwptest.Para(0, 0, 4, u16("항3")),
		hwptest.Para(0, 0, 8, u16("넷")), hwptest.Para(0, 0, 8, u16("다섯")), hwptest.Para(0, 0, 9, u16("없는 번호")),
		hwptest.Para(0, 0, 10, u16("시작 없음")), hwptest.Para(0, 0, 11, u16("잘린 번호")), hwptest.Para(0, 0, 0, u16("본문")),
	)
	second := join(hwptest.Para(0, 0, 1, hwptest.Control(2, "dces"), u16("둘째 구역")), hwptest.SectionDef(0, 1, hwptest.NoteShape{}, hwptest.NoteShape{}),
		hwptest.Table(0, "표", [][][]string{{{"칸"}}}), hwptest.Para(0, 0, 3, u16("조문4")))
	docs, err := Importer{}.Import(context.Background(), "규정.hwp", hwptest.File(hwptest.Compressed, docInfo, first, second))
	if err != nil {
		t.Fatal(err)
	}
	want := "# 1. 총칙\n\n## 가. 목적\n\n## 나. 정의\n\n# 2. 운영\n\n## 가. 위원회\n\n###### ① 일곱째 수준\n\n" +
		"제1조 조문\n\n① 항\n\n② 항2\n\n1.2.1. 목\n\n글머리\n\n(다) 여덟째 수준\n\n(라) 여덟째 다시\n\n" +
		"제3조 조문3\n\n① 항3\n\nIV. 넷\n\nV. 다섯\n\n없는 번호\n\n가) 시작 없음\n\n잘린 번호\n\n본문\n\n" +
		"# 3. 둘째 구역\n\n표\n\n칸\n\n제4조 조문4\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("text\n%s\nwant\n%s", got, want)
	}
	if docs[0].Title != "1. 총칙" {
		t.Errorf("title %q", docs[0].Title)
	}
}

// A hostile file's numbers stay bounded: counts stop at a million (a
// start of 4 billion), numberings past 10,000 number nothing, a note
// inside a note joins it, and a level past the ten is no level.
func TestHancomNumberingBounds(t *testing.T) {
	var docInfo [][]byte
	docInfo = append(docInfo, hwptest.Numbering(hwptest.Level{Shape: 0, Text: "^1.", Start: 0xFFFFFFF0}))
	for range maxHancomNumberings {
		docInfo = append(docInfo, hwptest.Numbering(hwptest.Level{Shape: 0, Text: "^1)", Start: 1}))
	}
	docInfo = append(docInfo, hwptest.ParaShapeHead(hwptest.HeadNumber, 1, 0), hwptest.ParaShapeHead(hwptest.HeadNumber, maxHancomNumberings, 0),
		hwptest.ParaShapeHead(hwptest.HeadNumber, maxHancomNumberings+1, 0))
	body := join(hwptest.Para(0, 0, 0, u16("백만"), hwpMark(false)),
		hwptest.Note(0, false, "바깥"), hwptest.Note(2, false, "안쪽"), // the note's paragraph (level 2) holds another note
		hwptest.Para(0, 0, 0, u16("다음")), hwptest.Para(0, 0, 1, u16("마지막 번호")), hwptest.Para(0, 0, 2, u16("넘친 번호")))
	docs, err := Importer{}.Import(context.Background(), "큰.hwp", hwptest.File(hwptest.Compressed, join(docInfo...), body))
	if err != nil {
		t.Fatal(err)
	}
	want := "1000000. 백만[^1]\n\n[^1] 바깥 안쪽\n\n1000000. 다음\n\n1) 마지막 번호\n\n넘친 번호\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("text\n%q\nwant\n%q", got, want)
	}
}
