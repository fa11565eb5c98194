package importer

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// u16 is text as HWP stores it (UTF-16LE).
var u16 = hwptest.UTF16

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// hwpDocInfo holds the styles 한글 gives a new document (바탕글,
// 본문, 개요 1, 개요 2 …; a paragraph names one by its place), the 제목 N
// of Hancom's templates, and three
// paragraph shapes: plain, and outline paragraphs of levels 3 and 1.
var hwpDocInfo = join(hwptest.Style("바탕글", "Normal"), hwptest.Style("본문", "Body"),
	hwptest.Style("개요 1", "Outline 1"), hwptest.Style("Custom", "Outline 2"), hwptest.Style("제목 2", ""), hwptest.Style("제목 2 Char", ""),
	hwptest.ParaShape(0), hwptest.ParaShape(3), hwptest.ParaShape(1))

// The body of an HWP file comes out in reading order as Markdown, as a
// Word or HWPX file's does: sections by their number, headings (a 개요
// style by its Korean or English name, an outline paragraph shape) as
// "#" lines naming the document, control characters as what they stand
// for (a tab, a line break, a hyphen, a space) or left out with their
// parameters (a field), a footnote's text after its paragraph, which
// keeps its mark, a table row on a line with its cells between " | " (a
// table in a cell joins that cell),
// compressed or not.
func TestHWPText(t *testing.T) {
	body := join(
		hwptest.Para(0, 2, 0, u16("제1장 총칙")),
		hwptest.Para(0, 0, 0, u16("본 규정은 "), hwptest.Control(3, "%clk"), u16("1980년 6월 16일"), hwptest.Control(4, "%clk"), u16("부터 시행한다.")),
		hwptest.Para(0, 3, 0, u16("제1조(목적)")),
		hwptest.Para(0, 0, 0, u16("첫째 줄"), []byte{10, 0}, u16("둘째 줄"), hwptest.Control(9, "\x00\x00\x00\x00"), u16("탭 뒤")),
		hwptest.Para(0, 0, 0, u16("각주가 붙은 문장"), hwptest.Control(17, "  nf"), u16("입니다.")),
		hwptest.Record(hwptest.TagCtrlHeader, 1, []byte("  nf\x00\x00\x00\x00")),
		hwptest.Record(hwptest.TagListHeader, 2, make([]byte, 8)),
		hwptest.Para(2, 0, 0, u16("각주의 내용")),
		hwptest.Para(0, 0, 1, u16("개요 문단")),
		hwptest.Para(0, 0, 1, u16(strings.Repeat("가", 101))), // an outline paragraph too long for a heading
		hwptest.Para(0, 0, 0, u16("하이픈"), []byte{24, 0}, u16("묶음"), []byte{30, 0}, u16("빈칸 𝄞 😀")),
		hwptest.Table(0, "표 1. 일정", [][][]string{{{"구분"}, {"날짜"}}, {{"접수", "(온라인)"}, {"3월 2일"}}}),
		hwptest.TableOf(0, "", [][][]byte{{hwptest.Para(2, 0, 0, u16("바깥 칸")), join(hwptest.Para(2, 0, 0, u16("안 표 앞")),
			hwptest.Table(2, "", [][][]string{{{"안1"}, {"안2"}}, {{"안3"}, {"안4"}}}))}}),
		hwptest.Para(0, 0, 0, u16("표 뒤 문단")),
		hwptest.Para(0, 4, 0, u16("제목 스타일")),
		hwptest.Para(0, 5, 0, u16("글자 스타일의 이름")),
	)
	second := hwptest.Para(0, 0, 2, u16("둘째 구역의 제목"))
	long := strings.Repeat("긴 문단 ", 700) // a record past 4,095 bytes has a 32-bit size
	want := "# 제1장 총칙\n\n본 규정은 1980년 6월 16일부터 시행한다.\n\n## 제1조(목적)\n\n첫째 줄\n둘째 줄\t탭 뒤\n\n" +
		"각주가 붙은 문장[^1]입니다.\n\n[^1] 각주의 내용\n\n### 개요 문단\n\n" + strings.Repeat("가", 101) + "\n\n하이픈-묶음 빈칸 𝄞 😀\n\n표 1. 일정\n\n구분 | 날짜\n\n접수 (온라인) | 3월 2일\n\n바깥 칸 | 안 표 앞 안1 | 안2 안3 | 안4\n\n표 뒤 문단\n\n## 제목 스타일\n\n글자 스타일의 이름\n\n" +
		"# 둘째 구역의 제목\n\n" + strings.TrimSpace(long) + "\n\n"
	for _, tt := range []struct {
		name  string
		flags uint32
	}{{"uncompressed", 0}, {"compressed", hwptest.Compressed}} {
		t.Run(tt.name, func(t *testing.T) {
			data := hwptest.File(tt.flags, hwpDocInfo, body, second, hwptest.Para(0, 0, 0, u16(long)))
			docs, err := Importer{}.Import(context.Background(), "규정.hwp", data)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 || docs[0].Kind != KindHWP || !docs[0].Markdown || docs[0].Title != "제1장 총칙" || len(docs[0].Parts) != 1 {
				t.Fatalf("docs %+v", docs)
			}
			if got := docs[0].Parts[0].Text; got != want {
				t.Errorf("text\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// Sections are read in their number's order (Section10 after Section9),
// whatever order the file lists them in; without DocInfo there are no
// headings, and the file's name names it.
func TestHWPSectionOrder(t *testing.T) {
	var secs [][]byte
	var want strings.Builder
	for i := range 12 {
		s := "구역 " + strconv.Itoa(i)
		secs = append(secs, hwptest.Para(0, 2, 0, u16(s)))
		want.WriteString(s + "\n\n")
	}
	streams := []hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(0)}}
	for i := len(secs) - 1; i >= 0; i-- {
		streams = append(streams, hwptest.Stream{Path: "BodyText/Section" + strconv.Itoa(i), Data: secs[i]})
	}
	docs, err := Importer{}.Import(context.Background(), "순서.hwp", hwptest.CFB(streams))
	if err != nil {
		t.Fatal(err)
	}
	if docs[0].Title != "순서" || docs[0].Parts[0].Text != want.String() {
		t.Errorf("title %q, text %q, want %q", docs[0].Title, docs[0].Parts[0].Text, want.String())
	}
}

// A file that cannot be read says why: saved with a password or DRM
// (a distribution document with a password too), HWP 3,
// not an HWP file at all, or one whose streams are cut short or do not
// inflate; records that make no sense do not panic.
func TestHWPFailures(t *testing.T) {
	para := hwptest.Para(0, 0, 0, u16("본문"))
	header := func(sig string, version, flags uint32) []byte {
		b := make([]byte, 256)
		copy(b, sig)
		binary.LittleEndian.PutUint32(b[32:], version)
		binary.LittleEndian.PutUint32(b[36:], flags)
		return b
	}
	withHeader := func(h []byte, streams ...hwptest.Stream) []byte {
		return hwptest.CFB(append([]hwptest.Stream{{Path: "FileHeader", Data: h}}, streams...))
	}
	section := hwptest.Stream{Path: "BodyText/Section0", Data: para}
	many := []hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(0)}}
	for i := range maxOfficeParts + 1 {
		many = append(many, hwptest.Stream{Path: "BodyText/Section" + strconv.Itoa(i)})
	}
	tests := []struct {
		name string
		data []byte
		want error
		says string
	}{
		{"password", hwptest.File(hwptest.Password|hwptest.Compressed, nil, para), ErrOfficeEncrypted, "password"},
		{"distribution document, password too", hwptest.File(hwptest.Password|hwptest.Distribution, nil, para), ErrOfficeEncrypted, "password"},
		// A distribution document's damaged ViewText: TestHWPDistributionDamaged.
		{"ViewText not encrypted", withHeader(hwptest.FileHeader(hwptest.Distribution), hwptest.Stream{Path: "ViewText/Section0", Data: para}), ErrOfficeDamaged, "does not open with its key record"},
		{"DRM", hwptest.File(hwptest.DRM, nil, para), ErrOfficeEncrypted, "DRM"},
		{"HWP 3", []byte("HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05" + strings.Repeat("\x00", 200)), ErrUnsupported, "HWP 3 files"},
		{"text", []byte("just some text, not an HWP file"), ErrOfficeDamaged, ""},
		{"empty", nil, ErrOfficeDamaged, ""},
		{"OLE header only", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...), ErrOfficeDamaged, ""},
		{"no FileHeader", hwptest.CFB([]hwptest.Stream{section}), ErrOfficeDamaged, "FileHeader"},
		{"no body", withHeader(hwptest.FileHeader(0)), ErrOfficeDamaged, "no body"},
		{"another signature", withHeader(header("Not a Document File", 0x05000300, 0), section), ErrOfficeDamaged, ""},
		{"short FileHeader", withHeader([]byte("HWP Document File"), section), ErrOfficeDamaged, ""},
		{"version 4", withHeader(header(hwpSignature, 0x04000000, 0), section), ErrOfficeDamaged, "version 4"},
		// Cut short after a paragraph, the file keeps it (TestHWPBreaksOff).
		{"record cut short", hwptest.File(0, nil, para[:len(para)-15]), ErrOfficeDamaged, "cut short"},
		{"header cut short", hwptest.File(0, nil, []byte{1, 2}), ErrOfficeDamaged, "cut short"},
		{"not deflate", withHeader(hwptest.FileHeader(hwptest.Compressed), hwptest.Stream{Path: "BodyText/Section0", Data: []byte("\xff\xff\xff not deflate data at all")}), ErrOfficeDamaged, ""},
		{"a record claiming 4 GB", hwptest.File(0, nil, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, hwptest.TagParaText|0xFFF<<20), 0xFFFFFFF0)), ErrOfficeDamaged, "claims 4294967280 bytes"},
		{"too many sections", hwptest.CFB(many), nil, "number of sections"},
		{"no text", hwptest.File(hwptest.Compressed, hwpDocInfo, hwptest.Para(0, 0, 0, u16("  "), hwptest.Control(11, " lbt"))), ErrEmpty, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Importer{}.Import(context.Background(), "문서.hwp", tt.data)
			var le *OfficeLimitError
			if tt.want == nil && !errors.As(err, &le) || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("err %q does not say %q", err, tt.says)
			}
		})
	}
}

// Records that contradict each other (a table without rows, cells at
// levels no table has, controls shorter than their id, a paragraph header
// of two bytes, text of an odd length or a control cut off at the end)
// are read as far as they make sense, without a panic or garbage.
func TestHWPOddRecords(t *testing.T) {
	sec := join(
		hwptest.Record(hwptest.TagListHeader, 1, make([]byte, 12)), // a cell of no table
		hwptest.Record(hwptest.TagTable, 1, nil),                   // a table of no control
		hwptest.Record(hwptest.TagCtrlHeader, 0, []byte("tb")),     // a control id cut short
		hwptest.Record(hwptest.TagParaHeader, 0, []byte{1, 2}),
		hwptest.Record(hwptest.TagParaText, 1, append(u16("홀수"), 0x41)), // odd length
		hwptest.Record(hwptest.TagCtrlHeader, 0, []byte(" lbt")),        // a table…
		hwptest.Record(hwptest.TagTable, 1, nil),
		hwptest.Record(hwptest.TagListHeader, 1, make([]byte, 4)), // …whose cell header is short
		hwptest.Para(1, 0, 0, u16("셀")),
		hwptest.Para(0, 0, 0, u16("끝"), []byte{11, 0, 'x', 0}), // a control cut off
		hwptest.Record(0x3FF, 0x3FF, []byte("any tag, any level")),
	)
	docs, err := Importer{}.Import(context.Background(), "이상.hwp", hwptest.File(0, []byte{1, 2, 3}, sec))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := docs[0].Parts[0].Text, "홀수\n\n셀\n\n끝\n\n"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// A section that inflates far past MaxOfficeXML (a deflate bomb: 80 MB
// of records in a few hundred KB) fails on the limit, encrypted in a
// distribution document too; so do the styles.
func TestHWPBomb(t *testing.T) {
	filler := bytes.Repeat(hwptest.Record(hwptest.TagCharShape, 1, make([]byte, 4000)), 256) // 1 MB
	var b bytes.Buffer
	zw, _ := flate.NewWriter(&b, flate.BestSpeed)
	for range 80 {
		zw.Write(filler)
	}
	zw.Close()
	packed := b.Bytes()
	for _, tt := range []struct {
		name    string
		flags   uint32
		streams []hwptest.Stream
	}{
		{"section", 0, []hwptest.Stream{{Path: "DocInfo", Data: hwptest.Deflate(hwpDocInfo)}, {Path: "BodyText/Section0", Data: packed}}},
		{"DocInfo", 0, []hwptest.Stream{{Path: "DocInfo", Data: packed}, {Path: "BodyText/Section0", Data: hwptest.Deflate(hwptest.Para(0, 0, 0, u16("본문")))}}},
		{"a distribution document's section", hwptest.Distribution, []hwptest.Stream{{Path: "ViewText/Section0", Data: hwptest.Distribute(0xB0B, packed)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := hwptest.CFB(append([]hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(hwptest.Compressed | tt.flags)}}, tt.streams...))
			_, err := Importer{}.Import(context.Background(), "폭탄.hwp", data)
			var le *OfficeLimitError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), "unpacked size") {
				t.Fatalf("err %v, want the unpacked size's limit", err)
			}
			t.Logf("%d bytes: %v", len(data), err)
		})
	}
}

func FuzzHWP(f *testing.F) {
	f.Add(hwptest.File(0, hwpDocInfo, join(hwptest.Para(0, 2, 0, u16("제목")), hwptest.Para(0, 0, 0, u16("본문"), hwptest.Control(9, "")),
		hwptest.Table(0, "표", [][][]string{{{"가"}, {"나"}}}))))
	f.Add(hwptest.File(hwptest.Compressed, hwpDocInfo, hwptest.Para(0, 0, 1, u16("압축된 본문"))))
	f.Add(hwptest.File(0, join(hwptest.Numbering(hwpOutline...), hwptest.ParaShapeHead(hwptest.HeadOutline, 0, 1), hwptest.ParaShapeHead(hwptest.HeadNumber, 1, 0)),
		join(hwptest.Para(0, 0, 0, hwptest.Control(2, "dces"), u16("개요"), hwptest.Control(17, "  nf"), hwptest.Control(17, "  ne")),
			hwptest.SectionDef(0, 1, hwptest.NoteShape{Shape: 1, Start: 2, Restart: true}, hwptest.NoteShape{Shape: 0x81, User: '*'}),
			hwptest.Note(0, false, "각주", "둘째"), hwptest.Note(0, true, "미주"), hwptest.Para(0, 0, 1, u16("번호")))))
	// distribution documents (배포용 문서): ViewText encrypted, deflated or not
	f.Add(hwptest.File(hwptest.Distribution|hwptest.Compressed, hwpDocInfo, hwptest.Para(0, 2, 0, u16("배포용 제목")), hwptest.Para(0, 0, 0, u16("본문"))))
	f.Add(hwptest.File(hwptest.Distribution, nil, hwptest.Table(0, "표", [][][]string{{{"가"}, {"나"}}})))
	// compound files whose sector chains loop or run past the end
	f.Add(hostile.HWPLoop(false))
	f.Add(hostile.HWPLoop(true))
	f.Add(hostile.HWPPastEnd())
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Importer{}.Import(context.Background(), "f.hwp", data)
		if err == nil && (len(docs) != 1 || strings.TrimSpace(docs[0].Parts[0].Text) == "") {
			t.Fatalf("no error and no text: %+v", docs)
		}
		if err != nil && !worded(err) { // the person would read a Go error
			t.Fatalf("err %v: not one the app words", err)
		}
	})
}

// An import that is cancelled stops reading the file, with the context's
// error rather than a damaged file's.
func TestHWPCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := hwptest.File(hwptest.Compressed, hwpDocInfo, hwptest.Para(0, 0, 0, u16("본문")))
	if _, err := (Importer{}).Import(ctx, "취소.hwp", data); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}
