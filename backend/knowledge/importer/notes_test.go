package importer

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// footnotesXML is word/footnotes.xml (endnotesXML word/endnotes.xml)
// holding notes, after the two separators Word writes.
func footnotesXML(notes string) part {
	return part{"word/footnotes.xml", `<?xml version="1.0"?><w:footnotes ` + wordNS + `>` +
		`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
		`<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/><w:t>구분선</w:t></w:r></w:p></w:footnote>` +
		notes + `</w:footnotes>`}
}

func endnotesXML(notes string) part {
	return part{"word/endnotes.xml", `<?xml version="1.0"?><w:endnotes ` + wordNS + `>` +
		`<w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote>` + notes + `</w:endnotes>`}
}

// footnote is a note of one paragraph as Word writes it: its mark
// (w:footnoteRef), a space, the text.
func footnote(id, text string) string {
	return `<w:footnote w:id="` + id + `"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>` +
		`<w:r><w:t xml:space="preserve"> ` + text + `</w:t></w:r></w:p></w:footnote>`
}

// noted is a Word paragraph of text with a reference to footnote id at
// its end (ref "endnote": an endnote).
func noted(text, ref, id string) string {
	return `<w:p><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:` + ref + `Reference w:id="` + id + `"/></w:r></w:p>`
}

// Word's footnotes and endnotes are kept apart from the body; each comes
// after the paragraph (or table row) that refers to it, as its own block
// marked with its number as Word shows it, and the paragraph keeps the
// mark where the note is referred to.
func TestWordNotes(t *testing.T) {
	rels := func(fn, en string) part {
		return part{"word/_rels/document.xml.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="` + fn + `"/>` +
			`<Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes" Target="` + en + `"/></Relationships>`}
	}
	tests := []struct {
		name  string
		body  string
		parts []part
		want  string
		title string // "": the file's name
	}{
		{"footnotes in reference order", noted("가계부채는 1,886조 원이다.", "footnote", "7") + p("", "다음 단락.") + noted("취약차주란 다중채무자를 말한다.", "footnote", "3"),
			[]part{footnotesXML(footnote("3", "정의는 시행령 제2조.") + footnote("7", "한국은행, 「금융안정보고서」, 2024."))},
			"가계부채는 1,886조 원이다.[^1]\n\n[^1] 한국은행, 「금융안정보고서」, 2024.\n\n다음 단락.\n\n취약차주란 다중채무자를 말한다.[^2]\n\n[^2] 정의는 시행령 제2조.\n\n", ""},
		{"a note's paragraphs on one line, deleted text left out", noted("본문", "footnote", "1"),
			[]part{footnotesXML(`<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t>첫 문단.</w:t></w:r><w:del><w:r><w:delText>지운 말</w:delText></w:r></w:del></w:p>` +
				`<w:p><w:r><w:t>둘째</w:t><w:tab/><w:t>문단.</w:t></w:r></w:p></w:footnote>`)},
			"본문[^1]\n\n[^1] 첫 문단. 둘째\t문단.\n\n", ""},
		{"endnotes after their paragraph, numbered apart", noted("Scope", "endnote", "2") + noted("Terms", "footnote", "2") + noted("Dates", "endnote", "5"),
			[]part{footnotesXML(footnote("2", "a footnote")), endnotesXML(footnote("2", "first endnote") + footnote("5", "second endnote"))},
			"Scope[^i]\n\n[^i] first endnote\n\nTerms[^1]\n\n[^1] a footnote\n\nDates[^ii]\n\n[^ii] second endnote\n\n", ""},
		{"several notes in a paragraph, one referred to twice", `<w:p><w:r><w:t>A</w:t><w:footnoteReference w:id="1"/><w:t> B</w:t><w:footnoteReference w:id="2"/><w:t> C</w:t><w:footnoteReference w:id="1"/></w:r></w:p>` + noted("D", "footnote", "1"),
			[]part{footnotesXML(footnote("1", "one") + footnote("2", "two"))},
			"A[^1] B[^2] C[^1]\n\n[^1] one\n\n[^2] two\n\nD[^1]\n\n", ""},
		{"notes of a table's cells after its row", `<w:tbl><w:tr><w:tc>` + noted("구분", "footnote", "1") + `</w:tc><w:tc>` + noted("비율", "footnote", "2") + `</w:tc></w:tr>` +
			`<w:tr><w:tc>` + p("", "취약") + `</w:tc><w:tc>` + p("", "6.5%") + `</w:tc></w:tr></w:tbl>` + p("", "끝"),
			[]part{footnotesXML(footnote("1", "2023년 기준.") + footnote("2", "전체 차주 대비."))},
			"구분[^1] | 비율[^2]\n\n[^1] 2023년 기준.\n\n[^2] 전체 차주 대비.\n\n취약 | 6.5%\n\n끝\n\n", ""},
		{"a mark of the note's own, missing, in a cell", `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>항목</w:t><w:footnoteReference w:customMarkFollows="1" w:id="1"/></w:r></w:p></w:tc><w:tc>` + p("", "값") + `</w:tc></w:tr></w:tbl>`,
			[]part{footnotesXML(footnote("1", "셀의 각주"))},
			"항목 | 값\n\n[^*] 셀의 각주\n\n", ""},
		{"numbered as settings.xml says", noted("가", "footnote", "1") + noted("나", "footnote", "2") + noted("다", "endnote", "1"),
			[]part{footnotesXML(footnote("1", "하나") + footnote("2", "둘")), endnotesXML(footnote("1", "미주")),
				{"word/settings.xml", `<?xml version="1.0"?><w:settings ` + wordNS + `><w:footnotePr><w:pos w:val="pageBottom"/><w:numFmt w:val="decimalEnclosedCircle"/><w:numStart w:val="3"/>` +
					`<w:footnote w:id="-1"/></w:footnotePr><w:endnotePr><w:numFmt w:val="chicago"/></w:endnotePr><w:compat><w:numFmt w:val="upperRoman"/></w:compat></w:settings>`}},
			"가[^③]\n\n[^③] 하나\n\n나[^④]\n\n[^④] 둘\n\n다[^*]\n\n[^*] 미주\n\n", ""},
		{"parts named in the relationships", noted("본문", "footnote", "1") + noted("끝", "endnote", "1"),
			[]part{rels("notes/fn.xml", "/word/notes/en.xml"),
				{"word/notes/fn.xml", footnotesXML(footnote("1", "각주")).body}, {"word/notes/en.xml", endnotesXML(footnote("1", "미주")).body},
				footnotesXML(footnote("1", "쓰이지 않는 파일"))},
			"본문[^1]\n\n[^1] 각주\n\n끝[^i]\n\n[^i] 미주\n\n", ""},
		{"separators are no notes", noted("본문", "footnote", "0") + noted("다음", "footnote", "-1"),
			[]part{footnotesXML("")},
			"본문\n\n다음\n\n", ""},
		{"a reference to a missing note", noted("본문", "footnote", "99") + noted("다음", "endnote", "1") + noted("끝", "footnote", "1"),
			[]part{footnotesXML(footnote("1", "있는 각주"))},
			"본문\n\n다음\n\n끝[^1]\n\n[^1] 있는 각주\n\n", ""},
		{"no notes parts", noted("본문", "footnote", "1"), nil, "본문\n\n", ""},
		{"a heading's mark is no part of the title", `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>서론</w:t><w:footnoteReference w:id="1"/></w:r></w:p>`,
			[]part{footnotesXML(footnote("1", "이 장은 2023년 발표를 고친 것이다."))},
			"# 서론[^1]\n\n[^1] 이 장은 2023년 발표를 고친 것이다.\n\n", "서론"},
		{"a mark of the note's own is not counted", `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>가계부채 연구</w:t></w:r><w:r><w:footnoteReference w:customMarkFollows="1" w:id="5"/><w:t>*</w:t></w:r></w:p>` +
			`<w:p><w:r><w:footnoteReference w:customMarkFollows="on" w:id="6"/></w:r></w:p>` + p("", "다음 단락") + noted("본문", "footnote", "7"),
			[]part{footnotesXML(`<w:footnote w:id="5"><w:p><w:r><w:t>*</w:t></w:r><w:r><w:t xml:space="preserve"> 이 논문은 재단의 지원을 받았다.</w:t></w:r></w:p></w:footnote>` +
				footnote("6", "표시 없는 각주") + footnote("7", "첫 각주"))},
			"# 가계부채 연구*\n\n[^*] 이 논문은 재단의 지원을 받았다.\n\n[^*] 표시 없는 각주\n\n다음 단락\n\n본문[^1]\n\n[^1] 첫 각주\n\n", "가계부채 연구*"},
		// As a missing part's: a notes part that cannot be read to its end
		// gives none of its notes, and is named (TestUnreadablePartsAreWarned).
		{"damaged notes are left out whole", noted("본문", "footnote", "1") + noted("다음", "footnote", "2"),
			[]part{{"word/footnotes.xml", `<w:footnotes ` + wordNS + `>` + footnote("1", "읽힌 각주") + `<w:footnote w:id="2"><w:p><w:r><w:t>깨진`}},
			"본문\n\n다음\n\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Importer{}.Import(context.Background(), "보고서.docx", docxOf(t, tt.body, "", tt.parts...))
			if err != nil {
				t.Fatal(err)
			}
			if got := docs[0].Parts[0].Text; got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if title := cmp.Or(tt.title, "보고서"); docs[0].Title != title {
				t.Errorf("title %q, want %q", docs[0].Title, title)
			}
		})
	}
}

// Hostile notes are bounded: thousands of notes keep the first
// maxNotes, a 10 MB note is cut, a note past the XML budget fails the
// file on the limit as the body would.
func TestWordNotesLimits(t *testing.T) {
	t.Run("thousands of notes", func(t *testing.T) {
		var notes, body strings.Builder
		const n = maxNotes + 1_000
		for i := 1; i <= n; i++ {
			notes.WriteString(footnote(fmt.Sprint(i), fmt.Sprintf("주석 %d", i)))
			body.WriteString(`<w:r><w:t>x</w:t><w:footnoteReference w:id="` + fmt.Sprint(i) + `"/></w:r>`)
		}
		docs, err := Importer{}.Import(context.Background(), "a.docx", docxOf(t, `<w:p>`+body.String()+`</w:p>`, "", footnotesXML(notes.String())))
		if err != nil {
			t.Fatal(err)
		}
		text := docs[0].Parts[0].Text
		if got := strings.Count(text, "\n\n[^"); got != maxNotes {
			t.Errorf("%d notes written, want %d", got, maxNotes)
		}
		if !strings.Contains(text, fmt.Sprintf("[^%d] 주석 %d\n\n", maxNotes, maxNotes)) || strings.Contains(text, fmt.Sprintf("주석 %d\n", maxNotes+1)) {
			t.Errorf("the notes kept are not the first %d", maxNotes)
		}
	})
	t.Run("a 10 MB note", func(t *testing.T) {
		long := strings.Repeat("가", 10<<20/3)
		docs, err := Importer{}.Import(context.Background(), "a.docx", docxOf(t, noted("본문", "footnote", "1")+p("", "다음"), "",
			footnotesXML(footnote("1", long))))
		if err != nil {
			t.Fatal(err)
		}
		text := docs[0].Parts[0].Text
		note, _, _ := strings.Cut(strings.TrimPrefix(text, "본문[^1]\n\n"), "\n\n")
		if !strings.HasPrefix(note, "[^1] 가가") || !strings.HasSuffix(note, "가…") || len(note) > maxNoteText+16 || !strings.HasSuffix(text, "\n\n다음\n\n") {
			t.Errorf("note of %d bytes: %q…%q", len(note), note[:min(len(note), 20)], text[max(len(text)-40, 0):])
		}
	})
	t.Run("notes past the budget", func(t *testing.T) {
		// The notes are read within the file's budget, before the body:
		// a small one stands for the 64 MB.
		z, err := openArchive(bytes.NewReader(docxOf(t, noted("본문", "footnote", "1"), "", footnotesXML(footnote("1", strings.Repeat("가", 1000))))), nil)
		if err != nil {
			t.Fatal(err)
		}
		budget := &xmlBudget{left: 2000}
		_, err = readWordNotes(context.Background(), z, &docx, "word/document.xml", budget)
		var le *OfficeLimitError
		if !errors.As(err, &le) || budget.left > 0 {
			t.Fatalf("err %v, %d left, want the budget's limit", err, budget.left)
		}
	})
}

// pandoc's footnotes (ids from 20, a note of two paragraphs, one in a
// table cell) come after the paragraph or row that refers to them.
func TestWordNotesFromPandoc(t *testing.T) {
	docs := fixture(t, "footnotes.docx")
	want := "# 연구 보고서\n\n국내 가계부채는 2023년 말 1,886조 원에 이르렀다.[^1] 이는 국내총생산의 100%를 넘는 수준이다.\n\n" +
		"[^1] 한국은행, 「금융안정보고서」, 2024년 3월, 12쪽.\n\n## 용어의 정의\n\n" +
		"이 보고서에서 취약차주란 다중채무자이면서 저소득 또는 저신용인 차주를 말한다.[^2]\n\n" +
		"[^2] 다중채무자는 3개 이상의 금융기관에서 대출을 받은 차주를 말한다. 다만 대부업체의 대출은 제외한다.\n\n" +
		"구분 | 비율\n\n취약차주[^3] | 6.5%\n\n[^3] 2023년 4분기 기준.\n\n결론은 다음 장에서 다룬다.\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
