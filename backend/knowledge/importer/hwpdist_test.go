package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// The generator is MSVC's rand() (srand(1) gives 41, 18467, 6334, 26500,
// 19169, as every Visual C program's does), pinned here apart from the
// test builder, which draws its keys the same way.
func TestMSVCRand(t *testing.T) {
	r := msvcRand(1)
	for _, want := range []uint32{41, 18467, 6334, 26500, 19169, 15724, 11478} {
		if got := r.next(); got != want {
			t.Fatalf("rand() %d, want %d", got, want)
		}
	}
}

// hwpDistBody is a section using what the body reader reads: headings by
// style and by shape, outline numbers from the section's definition, a
// footnote and an endnote, a table, a line break and a tab.
func hwpDistBody(title string) []byte {
	return join(
		hwptest.Para(0, 0, 0, hwptest.Control(2, "dces"), u16(title), hwptest.Control(17, "  nf")),
		hwptest.SectionDef(0, 1, hwptest.NoteShape{Shape: 0, Start: 1}, hwptest.NoteShape{Shape: 2}),
		hwptest.Note(0, false, "관보 제2026-1호"),
		hwptest.Para(0, 2, 0, u16("제1조(목적)")),
		hwptest.Para(0, 0, 1, u16("신청 자격")),
		hwptest.Para(0, 0, 0, u16("첫째 줄"), []byte{10, 0}, u16("둘째 줄"), hwptest.Control(9, "\x00\x00\x00\x00"), u16("탭 뒤"), hwptest.Control(17, "  ne")),
		hwptest.Note(0, true, "미주의 내용"),
		hwptest.Table(0, "표 1. 일정", [][][]string{{{"구분"}, {"날짜"}}, {{"접수"}, {"3월 2일"}}}),
		hwptest.Para(0, 0, 0, u16("Deadline: 𝄞 😀 "+strings.Repeat("긴 문단 ", 300))),
	)
}

var hwpDistDocInfo = join(hwptest.Numbering(hwpOutline...), hwptest.Style("바탕글", "Normal"), hwptest.Style("본문", "Body"),
	hwptest.Style("개요 1", "Outline 1"), hwptest.ParaShape(0), hwptest.ParaShapeHead(hwptest.HeadOutline, 0, 1))

// A distribution document (배포용 문서) reads as the same document saved
// plainly does: its ViewText sections decrypted with the key each hides
// in its DISTRIBUTE_DOC_DATA record (any seed: the key sits at one of 16
// places), inflated when the file is compressed, then read as BodyText's
// are, headings, numbers, notes and tables included. A dummy BodyText
// beside ViewText is not the text; ViewText without the flag is read, and
// BodyText with the flag but without ViewText.
func TestHWPDistribution(t *testing.T) {
	first, second := hwpDistBody("공고문"), hwptest.Para(0, 2, 0, u16("둘째 구역"))
	for _, flags := range []uint32{0, hwptest.Compressed} {
		plain, err := Importer{}.Import(context.Background(), "공고.hwp", hwptest.File(flags, hwpDistDocInfo, first, second))
		if err != nil {
			t.Fatal(err)
		}
		want := plain[0].Parts[0].Text
		for _, s := range []string{"공고문[^1]", "# 제1조(목적)", "## 가. 신청 자격", "[^1] 관보 제2026-1호", "둘째 줄\t탭 뒤[^I]", "[^I] 미주의 내용", "구분 | 날짜", "😀 긴 문단", "# 둘째 구역"} {
			if !strings.Contains(want, s) {
				t.Fatalf("the plain file's text lacks %q:\n%s", s, want)
			}
		}
		pack := func(b []byte) []byte {
			if flags&hwptest.Compressed != 0 {
				return hwptest.Deflate(b)
			}
			return b
		}
		files := map[string][]byte{"File": hwptest.File(flags|hwptest.Distribution, hwpDistDocInfo, first, second)}
		for range 24 {
			seed := rand.Uint32()
			files["seed "+strconv.FormatUint(uint64(seed), 16)] = hwptest.CFB([]hwptest.Stream{
				{Path: "FileHeader", Data: hwptest.FileHeader(flags | hwptest.Distribution)},
				{Path: "DocInfo", Data: pack(hwpDistDocInfo)},
				{Path: "BodyText/Section0", Data: pack(hwptest.Para(0, 0, 0, u16("이 문서는 배포용 문서입니다.")))},
				{Path: "ViewText/Section0", Data: hwptest.Distribute(seed, pack(first))},
				{Path: "ViewText/Section1", Data: hwptest.Distribute(seed^0xF, pack(second))},
			})
		}
		files["the flag without ViewText"] = hwptest.CFB([]hwptest.Stream{
			{Path: "FileHeader", Data: hwptest.FileHeader(flags | hwptest.Distribution)},
			{Path: "DocInfo", Data: pack(hwpDistDocInfo)},
			{Path: "BodyText/Section0", Data: pack(first)},
			{Path: "BodyText/Section1", Data: pack(second)},
		})
		files["ViewText without the flag"] = hwptest.CFB([]hwptest.Stream{
			{Path: "FileHeader", Data: hwptest.FileHeader(flags)},
			{Path: "DocInfo", Data: pack(hwpDistDocInfo)},
			{Path: "ViewText/Section1", Data: hwptest.Distribute(7, pack(second))},
			{Path: "ViewText/Section0", Data: hwptest.Distribute(0xFFFFFFFF, pack(first))},
		})
		for name, data := range files {
			docs, warns, err := importWarned("공고.hwp", data)
			if err != nil {
				t.Fatalf("%d %s: %v", flags, name, err)
			}
			if got := docs[0].Parts[0].Text; got != want || len(warns) != 0 || docs[0].Title != plain[0].Title {
				t.Fatalf("%d %s: title %q, warnings %v, text\n%q\nwant\n%q", flags, name, docs[0].Title, warns, got, want)
			}
		}
	}
}

// importWarned imports data, with its warnings.
func importWarned(name string, data []byte) ([]Document, []error, error) {
	var col collector
	warns, err := Importer{}.Read(context.Background(), name, bytes.NewReader(data), &col)
	return col.docs, warns, err
}

// A distribution document whose ViewText is damaged says so, as a
// damaged BodyText does: a key record missing, of another size, cut
// short or whose key is wrong makes the section unreadable (the file
// damaged when it is the only one, named beside the others); a stream
// cut off within its blocks keeps the paragraphs before the cut and says
// where it broke off. A password or DRM still refuses the file.
func TestHWPDistributionDamaged(t *testing.T) {
	var third strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&third, "셋째 문단 %d ", i*7919%10007)
	}
	paras := join(hwpSection("첫 문단"), hwpSection("둘째 문단"), hwpSection(third.String()))
	file := func(flags uint32, sections ...[]byte) []byte {
		streams := []hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(flags | hwptest.Distribution)}}
		for i, s := range sections {
			streams = append(streams, hwptest.Stream{Path: "ViewText/Section" + string(rune('0'+i)), Data: s})
		}
		return hwptest.CFB(streams)
	}
	enc := hwptest.Distribute(0x1234567B, paras)
	encZ := hwptest.Distribute(0x1234567B, hwptest.Deflate(paras))
	wrongKey := bytes.Clone(encZ)
	wrongKey[4+4+0xB] ^= 0x40 // the key's first byte (seed & 0xF = 0xB)
	wrongTag := bytes.Clone(enc)
	wrongTag[0]++
	short := append(hwptest.Record(hwptest.TagDistributeDocData, 0, make([]byte, 255)), enc[260:]...)
	for _, tt := range []struct {
		name  string
		flags uint32
		data  []byte
		says  string
	}{
		{"empty", 0, nil, "without its key record"},
		{"another record first", 0, wrongTag, "does not open with its key record (a record of tag 29 and 256 bytes)"},
		{"a key record of 255 bytes", 0, short, "does not open with its key record (a record of tag 28 and 255 bytes)"},
		{"key record cut short", 0, enc[:100], "cut short"},
		{"header of the key record cut short", 0, enc[:3], "cut short"},
		{"a wrong key", hwptest.Compressed, wrongKey, "flate"},
		{"cut within the first block", 0, enc[:260+7], "cut short"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Importer{}.Import(context.Background(), "배포.hwp", file(tt.flags, tt.data))
			if !errors.Is(err, ErrOfficeDamaged) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err %v, want damaged: %q", err, tt.says)
			}
			pack := func(b []byte) []byte {
				if tt.flags&hwptest.Compressed != 0 {
					return hwptest.Deflate(b)
				}
				return b
			}
			docs, warns, err := importWarned("배포.hwp", file(tt.flags, hwptest.Distribute(9, pack(hwpSection("첫 구역"))), tt.data, hwptest.Distribute(10, pack(hwpSection("셋째 구역")))))
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, docs[0], []string{"첫 구역", "셋째 구역"}, nil, nil)
			checkWarned(t, warns, MissingParts{Unit: "section", Names: []string{"ViewText/Section1"}, Count: 1, Total: 3})
		})
	}
	for _, tt := range []struct {
		name  string
		flags uint32
		data  []byte
	}{
		{"cut within a block", 0, enc[:len(enc)-5000-3]},
		{"cut at a block's end", 0, enc[:len(enc)-4096]},
		{"compressed, cut within a block", hwptest.Compressed, encZ[:len(encZ)-256-3]},
		{"compressed, cut at a block's end", hwptest.Compressed, encZ[:len(encZ)-256]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			docs, warns, err := importWarned("배포.hwp", file(tt.flags, tt.data))
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, docs[0], []string{"첫 문단", "둘째 문단"}, []string{"셋째 문단"}, nil)
			var bo *BrokenOff
			if len(warns) != 1 || !errors.As(warns[0], &bo) || bo.Count != 2 || bo.Last != "둘째 문단" || !strings.Contains(bo.Error(), "breaks off") {
				t.Fatalf("warnings %v, want one that the file broke off after paragraph 2", warns)
			}
		})
	}
	for _, tt := range []struct {
		name  string
		flags uint32
		says  string
	}{{"password", hwptest.Password, "password"}, {"DRM", hwptest.DRM, "DRM"}} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Importer{}.Import(context.Background(), "배포.hwp", hwptest.File(tt.flags|hwptest.Distribution|hwptest.Compressed, nil, hwpSection("본문")))
			if !errors.Is(err, ErrOfficeEncrypted) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err %v, want encrypted (%s)", err, tt.says)
			}
		})
	}
}

// A section not deflated is padded to whole AES blocks: whatever its
// length, the padding after its last record (empty records, then fewer
// bytes than a header) is no damage.
func TestHWPDistributionPadding(t *testing.T) {
	for n := 1; n <= 8; n++ { // sections of 48 to 62 bytes: 2 to 16 bytes of padding
		text := strings.Repeat("가", n)
		docs, warns, err := importWarned("배포.hwp", hwptest.File(hwptest.Distribution, nil, hwpSection(text)))
		if err != nil || len(warns) != 0 || docs[0].Parts[0].Text != text+"\n\n" {
			t.Fatalf("%d characters: err %v, warnings %v, docs %+v", n, err, warns, docs)
		}
	}
}
