package importer

import (
	"context"
	"strings"
	"testing"
)

// numbered is a Word paragraph in list num at level lvl.
func numbered(num, lvl, text string) string {
	return `<w:p><w:pPr><w:numPr><w:ilvl w:val="` + lvl + `"/><w:numId w:val="` + num + `"/></w:numPr></w:pPr><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

func numberingXML(body string) part {
	return part{"word/numbering.xml", `<?xml version="1.0"?><w:numbering ` + wordNS + `>` + body + `</w:numbering>`}
}

// lvl is one level of an abstract list.
func lvl(i, format, text, extra string) string {
	return `<w:lvl w:ilvl="` + i + `"><w:start w:val="1"/><w:numFmt w:val="` + format + `"/><w:lvlText w:val="` + text + `"/>` + extra + `</w:lvl>`
}

// Word writes the numbers of numbered paragraphs ("제1조", "①", "가.")
// itself, from numbering.xml, so they are not in the text: they are
// counted as Word counts them and put before the paragraph, so that a
// regulation's articles can be found and cited by number.
func TestWordNumbering(t *testing.T) {
	styles := `<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="4"/></w:numPr></w:pPr></w:style>`
	lists := numberingXML(
		`<w:abstractNum w:abstractNumId="10">` + lvl("0", "decimal", "제%1조", "") + lvl("1", "decimalEnclosedCircle", "%2", "") + lvl("2", "decimal", "%3.", "") + `</w:abstractNum>` +
			`<w:abstractNum w:abstractNumId="20">` + lvl("0", "ganada", "%1.", "") + lvl("1", "chosung", "%2)", "") + `</w:abstractNum>` +
			`<w:abstractNum w:abstractNumId="30">` + lvl("0", "bullet", "", "") + `</w:abstractNum>` +
			`<w:abstractNum w:abstractNumId="40">` + lvl("0", "decimal", "제%1장", `<w:pStyle w:val="1"/>`) + `</w:abstractNum>` +
			`<w:abstractNum w:abstractNumId="50">` + lvl("0", "upperRoman", "%1.", "") + lvl("1", "upperLetter", "%1.%2", `<w:isLgl/>`) + `</w:abstractNum>` +
			`<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num>` +
			`<w:num w:numId="3"><w:abstractNumId w:val="30"/></w:num><w:num w:numId="4"><w:abstractNumId w:val="40"/></w:num>` +
			`<w:num w:numId="5"><w:abstractNumId w:val="20"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="4"/></w:lvlOverride></w:num>` +
			`<w:num w:numId="6"><w:abstractNumId w:val="50"/></w:num>`)
	body := p("1", "총칙") +
		numbered("1", "0", "(목적) 이 규정은 휴가를 정한다.") + numbered("1", "1", "첫째 항") + numbered("1", "1", "둘째 항") + numbered("1", "2", "세부") +
		numbered("1", "0", "(정의)") + numbered("1", "1", "다시 첫째 항") +
		numbered("1", "0", "") + // an empty article still takes its number
		numbered("1", "0", "(시행일)") +
		p("1", "보칙") +
		numbered("2", "0", "가 항목") + numbered("2", "1", "안쪽") + numbered("2", "0", "나 항목") + numbered("5", "0", "넷째부터") +
		numbered("3", "0", "글머리 기호") +
		`<w:p><w:pPr><w:pStyle w:val="1"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>부칙</w:t></w:r></w:p>` +
		// The properties before a tracked change are not the paragraph's.
		`<w:p><w:pPr><w:pPrChange><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr></w:pPr></w:pPrChange></w:pPr><w:r><w:t>바뀐 단락</w:t></w:r></w:p>` +
		numbered("6", "0", "Scope") + numbered("6", "1", "Terms") +
		`<w:tbl><w:tr><w:tc>` + numbered("2", "0", "표 안") + `</w:tc><w:tc>` + p("", "값") + `</w:tc></w:tr></w:tbl>`
	docs, err := Importer{}.Import(context.Background(), "규정.docx", docxOf(t, body, styles, lists))
	if err != nil {
		t.Fatal(err)
	}
	want := "# 제1장 총칙\n\n제1조 (목적) 이 규정은 휴가를 정한다.\n\n① 첫째 항\n\n② 둘째 항\n\n1. 세부\n\n제2조 (정의)\n\n① 다시 첫째 항\n\n제4조 (시행일)\n\n" +
		"# 제2장 보칙\n\n가. 가 항목\n\nㄱ) 안쪽\n\n나. 나 항목\n\n라. 넷째부터\n\n글머리 기호\n\n# 부칙\n\n바뀐 단락\n\nI. Scope\n\n1.1 Terms\n\n다. 표 안 | 값\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Numbering that is damaged or points nowhere numbers what it can and
// never costs the text.
func TestWordNumberingDamaged(t *testing.T) {
	for _, tt := range []struct {
		name, numbering, body, want string
	}{
		{"not XML", `<w:abstractNum w:abstractNumId="1">` + lvl("0", "decimal", "%1.", "") + `</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><<<`,
			numbered("1", "0", "첫째"), "1. 첫째\n\n"},
		{"unknown list and level", `<w:abstractNum w:abstractNumId="1">` + lvl("0", "decimal", "%1.", "") + `</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>`,
			numbered("9", "0", "없는 목록") + numbered("1", "99", "없는 수준") + numbered("1", "-1", "음수"), "없는 목록\n\n1. 없는 수준\n\n2. 음수\n\n"},
		{"levels never started, a list of no abstract", `<w:abstractNum w:abstractNumId="1">` + lvl("3", "lowerLetter", "%1%2%3%4%9%", "") + `</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="7"/></w:num>`,
			numbered("1", "3", "깊은 수준") + numbered("2", "0", "빈 목록"), "000a0% 깊은 수준\n\n빈 목록\n\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Importer{}.Import(context.Background(), "a.docx", docxOf(t, tt.body, "", numberingXML(tt.numbering)))
			if err != nil {
				t.Fatal(err)
			}
			if docs[0].Parts[0].Text != tt.want {
				t.Errorf("got %q, want %q", docs[0].Parts[0].Text, tt.want)
			}
		})
	}
}

// Lists made by another program (pandoc's Word and OpenDocument files):
// numbers, a nested list that starts again at 1, bullets, and a list that
// starts at 5.
func TestWordNumberingFromPandoc(t *testing.T) {
	want := "# 규정\n\n1. 첫째 항목\n\n2. 둘째 항목\n\n1. 안쪽 가\n\n2. 안쪽 나\n\n3. 셋째 항목\n\n글머리 하나\n\n글머리 둘\n\n5. 다섯부터\n\n6. 여섯\n\n"
	for _, name := range []string{"lists.docx", "lists.odt"} {
		if got := fixture(t, name)[0].Parts[0].Text; !strings.Contains(got, want) {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for _, tt := range []struct {
		n      int
		format string
		want   string
	}{
		{3, "decimal", "3"}, {7, "decimalZero", "07"}, {12, "decimalZero", "12"},
		{14, "upperRoman", "XIV"}, {4, "lowerRoman", "iv"}, {4000, "upperRoman", "4000"},
		{1, "upperLetter", "A"}, {28, "lowerLetter", "bb"},
		{1, "ganada", "가"}, {14, "ganada", "하"}, {15, "ganada", "가"},
		{3, "chosung", "ㄷ"}, {1, "decimalEnclosedCircle", "①"}, {20, "decimalEnclosedCircle", "⑳"}, {21, "decimalEnclosedCircle", "21"},
		{1, "koreanDigital", "일"}, {10, "koreanDigital", "십"}, {21, "koreanDigital", "이십일"}, {100, "koreanDigital", "100"},
		{0, "ganada", "0"}, {5, "someFutureFormat", "5"},
	} {
		if got := formatNumber(tt.n, tt.format); got != tt.want {
			t.Errorf("formatNumber(%d, %s) = %q, want %q", tt.n, tt.format, got, tt.want)
		}
	}
}

// listStyle is an OpenDocument list style of levels of one number
// format each, with a suffix; display shows that many levels ("1.2.").
func listStyle(name string, levels ...string) string {
	s := `<text:list-style style:name="` + name + `">`
	for i, l := range levels {
		s += `<text:list-level-style-` + l + ` text:level="` + string(rune('1'+i)) + `"/>`
	}
	return s + `</text:list-style>`
}

// OpenDocument numbers list items from the list styles before the body:
// nested lists count under their parent and number as it says unless
// they name a style, a list may continue the one before or an item start
// anew, a header and a bullet have no number, formats include 가나다 and
// ①, and display-levels shows the levels above.
func TestODTNumbering(t *testing.T) {
	styles := listStyle("L1", `number style:num-format="1" style:num-suffix="."`, `number style:num-format="가" style:num-suffix=")"`, `number style:num-format="1" style:num-suffix="." text:display-levels="3"`) +
		listStyle("L2", `number style:num-format="①"`) +
		listStyle("L3", `bullet text:bullet-char="•"`) +
		listStyle("L4", `number style:num-format="I" style:num-prefix="제" style:num-suffix="장" text:start-value="3"`)
	item := func(text string) string { return `<text:list-item><text:p>` + text + `</text:p></text:list-item>` }
	body := `<text:list text:style-name="L1">` + item("첫째") +
		`<text:list-item><text:p>둘째</text:p><text:list>` + item("안쪽 하나") + `<text:list-item><text:p>안쪽 둘</text:p><text:list>` + item("깊은") + `</text:list></text:list-item></text:list></text:list-item>` +
		`<text:list-header><text:p>머리말</text:p></text:list-header>` + item("셋째") + `</text:list>` +
		`<text:p>사이 문단</text:p>` +
		`<text:list text:style-name="L1" text:continue-numbering="true">` + item("넷째") + `</text:list>` +
		`<text:list text:style-name="L1">` + item("새 목록") + `<text:list-item text:start-value="7"><text:p>일곱째부터</text:p></text:list-item>` + `</text:list>` +
		`<text:list text:style-name="L2">` + item("원 하나") + item("원 둘") + `</text:list>` +
		`<text:list text:style-name="L3">` + item("글머리") + `</text:list>` +
		`<text:list text:style-name="L4">` + item("총칙") + `</text:list>` +
		`<text:list text:style-name="없는 스타일">` + item("모르는 목록") + `</text:list>`
	content := `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odtNS + ` xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0">` +
		`<office:automatic-styles>` + styles + `</office:automatic-styles><office:body><office:text>` + body + `</office:text></office:body></office:document-content>`
	data := zipOf(t, part{"mimetype", "application/vnd.oasis.opendocument.text"}, part{"content.xml", content})
	docs, err := Importer{}.Import(context.Background(), "목록.odt", data)
	if err != nil {
		t.Fatal(err)
	}
	want := "1. 첫째\n\n2. 둘째\n\n가) 안쪽 하나\n\n나) 안쪽 둘\n\n2.나.1. 깊은\n\n머리말\n\n3. 셋째\n\n사이 문단\n\n4. 넷째\n\n1. 새 목록\n\n7. 일곱째부터\n\n① 원 하나\n\n② 원 둘\n\n글머리\n\n제III장 총칙\n\n모르는 목록\n\n"
	if got := docs[0].Parts[0].Text; got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
