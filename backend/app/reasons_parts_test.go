package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// TestPartsWarningsAreWorded: the importer's warnings about what a file
// lacks (a container's missing parts, of every kind it names; an RTF file
// cut short or going on after its end) reach the window and `kb import`
// as codes both languages word, every particular filled, not as the
// backend's English sentence.
func TestPartsWarningsAreWorded(t *testing.T) {
	var cases []error
	for _, unit := range []string{"chapter", "section", "part", "notes part", "sheet", "text cell", "slide", "speaker's notes"} {
		cases = append(cases,
			&importer.MissingParts{Unit: unit, Names: []string{"b.xhtml"}, Count: 1, Total: 3},
			&importer.MissingParts{Unit: unit, Names: []string{"2", "4"}, Count: 2, Total: 9},
			&importer.MissingParts{Unit: unit, Names: []string{"1", "2", "3", "4", "5"}, Count: 7, Total: 9})
	}
	cases = append(cases, &importer.CutShort{At: 900, Open: 2}, &importer.CutShort{At: 900, Binary: 40, BinaryAt: 800}, &importer.Trailing{At: 700},
		&importer.BrokenOff{Unit: "paragraph", Count: 57, Last: "본 규정은 1980년"}, &importer.BrokenOff{Unit: "sheet", Count: 2, Last: "지출"},
		&importer.BrokenOff{Unit: "slide", Count: 3}, &importer.BrokenOff{Unit: "slide", Count: 1},
		&importer.BrokenOff{Unit: "row", Count: 40, Last: "홍길동 | 90"}, &importer.BrokenOff{Unit: "row", Count: 1, Last: "이름 | 점수"},
		&importer.IndexLost{Unit: "sheet", Index: "xl/_rels/workbook.xml.rels", Count: 3}, &importer.IndexLost{Unit: "sheet", Index: "xl/workbook.xml", Count: 1},
		&importer.IndexLost{Unit: "chapter", Index: "OEBPS/content.opf", Count: 9}, &importer.IndexLost{Unit: "chapter", Index: "OEBPS/content.opf", Count: 1},
		&importer.RecordsTooLarge{Lines: []int64{2}, Count: 1}, &importer.RecordsTooLarge{Lines: []int64{2, 9}, Count: 2},
		&importer.RecordsTooLarge{Lines: []int64{1, 2, 3, 4, 5}, Count: 8},
		&importer.RecordsTooManyValues{Lines: []int64{2}, Count: 1}, &importer.RecordsTooManyValues{Lines: []int64{2, 9}, Count: 2},
		&importer.RecordsTooManyValues{Lines: []int64{1, 2, 3, 4, 5}, Count: 8},
		&importer.RecordsTextTooLarge{Lines: []int64{2}, Count: 1}, &importer.RecordsTextTooLarge{Lines: []int64{2, 9}, Count: 2},
		&importer.RecordsTextTooLarge{Lines: []int64{1, 2, 3, 4, 5}, Count: 8},
		&importer.ArchiveSalvaged{Parts: 5, Cut: "word/document.xml"}, &importer.ArchiveSalvaged{Parts: 1})
	cases = append(cases, &importer.CutInPart{Unit: "chapter", Part: "OEBPS/c1.xhtml", Count: 57, Last: "본 규정은"}, &importer.CutInPart{Unit: "chapter", Part: "c1.xhtml", Count: 1})
	for _, unit := range []string{"chapter", "slide", "section", "sheet", "part"} {
		cases = append(cases, &importer.RepeatedParts{Unit: unit, Names: []string{"c1.xhtml"}, Parts: 1, Count: 1},
			&importer.RepeatedParts{Unit: unit, Names: []string{"slide 1", "slide 2"}, Parts: 2, Count: 199_999},
			&importer.RepeatedParts{Unit: unit, Names: []string{"1", "2", "3", "4", "5"}, Parts: 7, Count: 9})
	}
	for _, unit := range []string{"slide", "sheet"} {
		cases = append(cases, &importer.RepeatedParts{Unit: unit, Names: []string{"slide 1"}, Parts: 1, Count: 10_000, Stopped: true},
			&importer.RepeatedParts{Unit: unit, Names: []string{"1", "2", "3", "4", "5"}, Parts: 7, Count: 10_000, Stopped: true})
	}
	for _, err := range cases {
		r := reasonOf(errors.Join(errors.New("wrapped"), err))
		if r == nil {
			t.Errorf("%v: no reason", err)
			continue
		}
		for lang, words := range []string{"en", "ko"} {
			line := reasonLine(err.Error(), r, lang)
			if line == importWrap.ReplaceAllString(err.Error(), "") || strings.ContainsAny(line, "{}") {
				t.Errorf("%s, %s: %q, want the %s words of %+v", err, words, line, words, r)
			}
			if lang == 1 && strings.Contains(line, "imported") {
				t.Errorf("%s: Korean line %q is English", err, line)
			}
		}
	}
	// A ZIP's directory is the list of the files inside it, as a Korean
	// person knows it: not 부분 목록, word for word "list of parts".
	as := &importer.ArchiveSalvaged{Parts: 5, Cut: "word/document.xml"}
	if got, want := reasonLine(as.Error(), reasonOf(as), 1), "파일이 잘렸거나 내부 파일 목록이 손상되었습니다. 남아 있는 내부 파일 5개를 읽었고, 잘린 부분 뒤의 내용은 빠졌습니다."; got != want {
		t.Errorf("salvaged archive in Korean: %q, want %q", got, want)
	}
	mp := &importer.MissingParts{Unit: "slide", Names: []string{"1", "2", "3", "4", "5"}, Count: 7, Total: 9}
	if got, want := reasonLine(mp.Error(), reasonOf(mp), 1), "슬라이드 9개 중 7개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다(1, 2, 3, 4, 5 외)."; got != want {
		t.Errorf("Korean: %q, want %q", got, want)
	}
	bo := &importer.BrokenOff{Unit: "sheet", Count: 2, Last: "지출"}
	if got, want := reasonLine(bo.Error(), reasonOf(bo), 1), "파일이 2번째 시트(“지출”) 뒤에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 그 시트까지는 가져왔고 나머지는 가져오지 못했습니다."; got != want {
		t.Errorf("Korean: %q, want %q", got, want)
	}
	rtl := &importer.RecordsTooLarge{Lines: []int64{2, 9}, Count: 2}
	if got, want := reasonLine(rtl.Error(), reasonOf(rtl), 0), "2 JSON records larger than 32 MB were left out (lines 2, 9); the others were imported. Split those records to import them."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	rtm := &importer.RecordsTooManyValues{Lines: []int64{2}, Count: 1}
	if got, want := reasonLine(rtm.Error(), reasonOf(rtm), 1), "값이 너무 많아 읽으려면 메모리가 300 MB 넘게 드는 JSON 레코드 1개는 빼고 나머지를 가져왔습니다(2번째 줄). 그 레코드를 가져오려면 나누세요."; got != want {
		t.Errorf("Korean: %q, want %q", got, want)
	}
	stopped := &importer.RepeatedParts{Unit: "slide", Names: []string{"slide 1"}, Parts: 1, Count: 10_000, Stopped: true}
	if got, want := reasonLine(stopped.Error(), reasonOf(stopped), 0), "The file writes the same slide again 10,000 times (slide 1): each slide was imported once, where it first comes; past that many repeats the file was read no further, so anything after them was not imported."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	rtt := &importer.RecordsTextTooLarge{Lines: []int64{2}, Count: 1}
	if got, want := reasonLine(rtt.Error(), reasonOf(rtt), 0), `1 JSON record whose text written out as "key: value" lines would pass 32 MB was left out (line 2); the others were imported. Split it to import it.`; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	if got, want := reasonLine(rtt.Error(), reasonOf(rtt), 1), `"키: 값" 줄로 풀어 쓰면 글이 32 MB를 넘는 JSON 레코드 1개는 빼고 나머지를 가져왔습니다(2번째 줄). 그 레코드를 가져오려면 나누세요.`; got != want {
		t.Errorf("Korean: %q, want %q", got, want)
	}
	rp := &importer.RepeatedParts{Unit: "chapter", Names: []string{"c1.xhtml"}, Parts: 1, Count: 199_999}
	if got, want := reasonLine(rp.Error(), reasonOf(rp), 1), "책의 장 목록에 같은 장이 여러 번 나옵니다(c1.xhtml). 각 장은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 199,999번은 뺐습니다."; got != want {
		t.Errorf("Korean: %q, want %q", got, want)
	}
	if got, want := reasonLine(rp.Error(), reasonOf(rp), 0), "The book's list of its chapters names the same chapter more than once (c1.xhtml): each chapter was imported once, where it first comes, and the 199,999 repeats were left out."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	one := &importer.MissingParts{Unit: "chapter", Names: []string{"b.xhtml"}, Count: 1, Total: 3}
	if got, want := reasonLine(one.Error(), reasonOf(one), 0), "1 of 3 chapters was not imported: missing from the file or unreadable (b.xhtml)."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
}
