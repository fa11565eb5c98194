package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// hwpxNote is an HWPX footnote (or endnote) holding paragraphs, each
// opening with the note's number as Hancom writes it (hp:autoNum).
func hwpxNote(end bool, paras ...string) string {
	tag, typ := "hp:footNote", "FOOTNOTE"
	if end {
		tag, typ = "hp:endNote", "ENDNOTE"
	}
	var b strings.Builder
	b.WriteString(`<hp:ctrl><` + tag + ` number="1" instId="7"><hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="TOP">`)
	for i, p := range paras {
		num := ""
		if i == 0 {
			num = `<hp:ctrl><hp:autoNum num="1" numType="` + typ + `"><hp:autoNumFormat type="DIGIT" userChar="" prefixChar="" suffixChar=")" supscript="0"/></hp:autoNum></hp:ctrl>`
		}
		b.WriteString(hpr(0, 0, num+`<hp:t>`+p+`</hp:t>`))
	}
	b.WriteString(`</hp:subList></` + tag + `></hp:ctrl>`)
	return b.String()
}

// hwpxNotePr is a section's properties numbering footnotes and endnotes
// in shape from start, restarting in the section (ON_SECTION) or not.
func hwpxNotePr(foot, footType, footStart, end, endType, endStart string) string {
	pr := func(tag, shape, typ, start string) string {
		return `<hp:` + tag + `><hp:autoNumFormat type="` + shape + `" userChar="" prefixChar="" suffixChar=")" supscript="0"/><hp:noteLine length="-1" type="SOLID" width="0.12 mm" color="#000000"/>` +
			`<hp:noteSpacing betweenNotes="283" belowLine="567" aboveLine="850"/><hp:numbering type="` + typ + `" newNum="` + start + `"/><hp:placement place="EACH_COLUMN" beneathText="0"/></hp:` + tag + `>`
	}
	return `<hp:secPr id="" textDirection="HORIZONTAL" outlineShapeIDRef="1"><hp:grid lineGrid="0"/>` + pr("footNotePr", foot, footType, footStart) + pr("endNotePr", end, endType, endStart) +
		`<hp:pageBorderFill type="BOTH"/></hp:secPr>`
}

// An HWPX note is read where it stands: the paragraph keeps its mark
// ("[^1]") and the note comes after it, "[^1] text", its paragraphs on
// one line, as Word's do; a note in a table's cell comes after the row.
// Footnotes and endnotes count apart, in the shapes, from the starts and
// with the restarts each section's hp:footNotePr and hp:endNotePr say;
// the title loses its note's mark; a new number (hp:newNum) numbers the
// next note anew; a page number's format and new number change nothing.
func TestHWPXNotes(t *testing.T) {
	first := hp("2", hwpxNotePr("CIRCLED_DIGIT", "CONTINUOUS", "3", "HANGUL_SYLLABLE", "CONTINUOUS", "1")+`<hp:t>연구 보고서</hp:t>`+hwpxNote(false, "이 연구는 재단의 지원을 받았다.")) +
		hp("0", `<hp:t>본문의 문장</hp:t>`+hwpxNote(false, "첫째 문단", "둘째 문단")+`<hp:t>이 이어진다.</hp:t>`+hwpxNote(true, "미주의 출처")+
			`<hp:ctrl><hp:autoNum num="1" numType="PAGE"><hp:autoNumFormat type="ROMAN_SMALL"/></hp:autoNum></hp:ctrl>`) +
		hp("0", `<hp:t>표 1</hp:t><hp:tbl><hp:tr><hp:tc><hp:subList>`+hp("0", `<hp:t>칸</hp:t>`+hwpxNote(false, "칸의 각주"))+`</hp:subList></hp:tc>`+
			`<hp:tc><hp:subList>`+hp("0", `<hp:t>둘째 칸</hp:t>`)+`</hp:subList></hp:tc></hp:tr></hp:tbl>`) +
		hp("0", `<hp:t>끝</hp:t><hp:ctrl><hp:newNum num="9" numType="FOOTNOTE"/></hp:ctrl><hp:ctrl><hp:newNum num="40" numType="PAGE"/></hp:ctrl>`+hwpxNote(false, ""))
	second := hp("0", hwpxNotePr("DIGIT", "ON_SECTION", "1", "HANGUL_SYLLABLE", "CONTINUOUS", "1")+`<hp:t>둘째 구역</hp:t>`+hwpxNote(false, "새로 센다")+hwpxNote(true, "이어 센다"))
	docs, err := Importer{}.Import(context.Background(), "보고서.hwpx", hwpxOf(t, first, second))
	if err != nil {
		t.Fatal(err)
	}
	want := "# 연구 보고서[^③]\n\n[^③] 이 연구는 재단의 지원을 받았다.\n\n" +
		"본문의 문장[^④]이 이어진다.[^가]\n\n[^④] 첫째 문단 둘째 문단\n\n[^가] 미주의 출처\n\n" +
		"표 1\n\n칸[^⑤] | 둘째 칸\n\n[^⑤] 칸의 각주\n\n끝[^⑨]\n\n" +
		"둘째 구역[^1][^나]\n\n[^1] 새로 센다\n\n[^나] 이어 센다\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("text\n%s\nwant\n%s", got, want)
	}
	if docs[0].Title != "연구 보고서" {
		t.Errorf("title %q, want the heading without its mark", docs[0].Title)
	}
}

// hwpMark is a note's mark in an HWP paragraph's text.
func hwpMark(end bool) []byte {
	if end {
		return hwptest.Control(17, "  ne")
	}
	return hwptest.Control(17, "  nf")
}

// An HWP note is read where it stands, as an HWPX one: its control
// follows its paragraph's text, which keeps the mark, and the note comes
// after the paragraph (after the row of a table's cell), numbered in the
// shape, from the start and with the restart of its section's definition
// (read before the first paragraph's notes: its control comes first) or
// a new number ("nwno": a page's changes nothing); a mark whose note
// never comes is left out, a note without a mark still
// follows its paragraph, and the title loses its mark.
func TestHWPNotes(t *testing.T) {
	secd := hwptest.Control(2, "dces")
	first := join(
		hwptest.Para(0, 2, 0, secd, u16("논문 제목"), hwpMark(false)),
		hwptest.SectionDef(0, 0, hwptest.NoteShape{Shape: 1, Start: 3}, hwptest.NoteShape{Shape: 8, Start: 1}),
		hwptest.Note(0, false, "재단의 지원을 받았다."),
		hwptest.Para(0, 0, 0, u16("본문"), hwpMark(false), u16("이 이어진다."), hwpMark(true)),
		hwptest.Note(0, false, "첫째 문단", "둘째 문단"),
		hwptest.Note(0, true, "미주의 출처"),
		hwptest.TableOf(0, "표 1", [][][]byte{{join(hwptest.Para(2, 0, 0, u16("칸"), hwpMark(false)), hwptest.Note(2, false, "칸의 각주")), hwptest.Para(2, 0, 0, u16("둘째 칸"))}}),
		hwptest.Para(0, 0, 0, u16("표시만"), hwpMark(false)),
		hwptest.Para(0, 0, 0, u16("표시 없음"), hwptest.Control(21, "onwn"), hwptest.Control(21, "onwn")),
		hwptest.NewNumber(0, 1, 9), hwptest.NewNumber(0, 0, 40),
		hwptest.Note(0, false, "따로 온 각주"),
		hwptest.Para(0, 0, 0, u16("끝")),
	)
	second := join(
		hwptest.Para(0, 0, 0, secd, u16("둘째 구역"), hwpMark(false), hwpMark(true)),
		hwptest.SectionDef(0, 0, hwptest.NoteShape{Shape: 0, Start: 1, Restart: true}, hwptest.NoteShape{Shape: 8, Start: 1}),
		hwptest.Note(0, false, "새로 센다"),
		hwptest.Note(0, true, "이어 센다"),
		hwptest.Para(0, 0, 0, u16("사용자 문자"), hwpMark(false)),
	)
	third := join(
		hwptest.Para(0, 0, 0, secd, u16("셋째 구역"), hwpMark(false)),
		hwptest.SectionDef(0, 0, hwptest.NoteShape{Shape: 0x81, User: '※', Start: 1, Restart: true}, hwptest.NoteShape{Shape: 0x80, Page: true}),
		hwptest.Note(0, false, "사용자 문자의 각주"),
		hwptest.Para(0, 0, 0, u16("끝"), hwptest.Control(21, "onwn"), hwpMark(true)),
		hwptest.NewNumber(0, 2, 2),
		hwptest.Note(0, true, "기호"),
	)
	want := "# 논문 제목[^③]\n\n[^③] 재단의 지원을 받았다.\n\n본문[^④]이 이어진다.[^가]\n\n[^④] 첫째 문단 둘째 문단\n\n[^가] 미주의 출처\n\n" +
		"표 1\n\n칸[^⑤] | 둘째 칸\n\n[^⑤] 칸의 각주\n\n표시만\n\n표시 없음\n\n[^⑨] 따로 온 각주\n\n끝\n\n" +
		"둘째 구역[^1][^나]\n\n[^1] 새로 센다\n\n[^나] 이어 센다\n\n사용자 문자\n\n" +
		"셋째 구역[^※]\n\n[^※] 사용자 문자의 각주\n\n끝[^†]\n\n[^†] 기호\n\n"
	for _, flags := range []uint32{0, hwptest.Compressed} {
		docs, err := Importer{}.Import(context.Background(), "논문.hwp", hwptest.File(flags, hwpDocInfo, first, second, third))
		if err != nil {
			t.Fatal(err)
		}
		if got := docs[0].Parts[0].Text; got != want {
			t.Errorf("text\n%s\nwant\n%s", got, want)
		}
		if docs[0].Title != "논문 제목" {
			t.Errorf("title %q, want the heading without its mark", docs[0].Title)
		}
	}
}

// Hancom notes are bounded as Word's: a note past maxNoteText is cut,
// with "…"; past maxNotes notes keep their marks and lose their text;
// a start past a million, a damaged file's, counts from 1.
func TestHancomNoteBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(hp("0", hwpxNotePr("DIGIT", "CONTINUOUS", "1", "DIGIT", "CONTINUOUS", "99999999")+`<hp:t>긴 각주</hp:t>`+hwpxNote(false, strings.Repeat("가", maxNoteText))+hwpxNote(true, "큰 번호")))
	for range maxNotes - 1 {
		b.WriteString(hp("0", `<hp:t>문장</hp:t>`+hwpxNote(false, "각주")))
	}
	b.WriteString(hp("0", `<hp:t>끝</hp:t>`+hwpxNote(false, "넘친 각주")))
	docs, err := Importer{}.Import(context.Background(), "많은.hwpx", hwpxOf(t, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	text := docs[0].Parts[0].Text
	long := "[^1] " + strings.Repeat("가", maxNoteText/3) + "…\n\n"
	if !strings.Contains(text, long) {
		t.Errorf("the long note is not cut at %d bytes", maxNoteText)
	}
	if !strings.Contains(text, "[^1] 큰 번호\n\n") {
		t.Errorf("the endnote's start is not bounded")
	}
	if !strings.HasSuffix(text, "문장[^10000]\n\n[^10000] 각주\n\n끝[^10001]\n\n") {
		t.Errorf("end of the text %q, want the last note's mark without its text", text[len(text)-100:])
	}
}
