package pdftext

import (
	"strings"
	"unicode"
)

// A Korean official document as Hancom Office exports it: a regulation's
// articles (조, 항 ①②, 호 1. 2.) with 「」 quotes and middle dots, a 별표
// table whose first column has a cell merged down two rows, and a form
// (별지 서식) with check boxes □/■, a blank underlined for a signature and
// dates "2024. 3. 1." — every glyph but Hangul (digits, Latin, brackets,
// circled numbers, boxes, dots) in a text object of its own, drawn after
// the line's Hangul, as Hancom draws its Latin and symbol faces.

// notHangul sends every glyph but Hangul syllables to the second font:
// Hancom sets digits, punctuation and symbols (「」, ①, □, ·) in faces of
// their own.
func notHangul(r rune) bool { return r != ' ' && !unicode.Is(unicode.Hangul, r) }

var koOfficial = []string{
	"「공무원 복무 규정」 시행규칙",
	"제1조(목적) 이 규칙은 「공무원 복무 규정」 제3조·제5조에서 위임한 사항과 그 시행에 필요한 사항을 정함을 목적으로 한다.",
	"제2조(신청) ① 휴직을 하려는 사람은 별지 제1호 서식의 신청서를 소속 기관의 장에게 제출하여야 한다.",
	"② 제1항에 따른 신청서에는 다음 각 호의 서류를 첨부하여야 한다.",
	"1. 진단서(질병 휴직의 경우에만 해당한다)",
	"2. 가족관계증명서·주민등록표 등본",
	"제3조(기간) 휴직 기간은 별표 1과 같다. <개정 2023. 7. 1., 2024. 3. 1.>",
	"부칙 <제123호, 2024. 3. 1.> 이 규칙은 2024. 3. 1.부터 시행한다.",
}

// ruledCell is one cell of a ruled table: its text, the row and column it
// starts at and the rows and columns it spans.
type ruledCell struct {
	text             string
	row, col         int
	rowSpan, colSpan int
}

// ruledTable sets cells with their rules (one rectangle per cell, over
// all it spans), each cell's text at its left edge and, where it spans
// rows, halfway down them, as Hancom centres a merged cell's text.
func ruledTable(s setter, cells []ruledCell, cols []float64, top, pitch float64) ([][]placed, string) {
	var rules strings.Builder
	var lines [][]placed
	for _, c := range cells {
		rs, cs := max(c.rowSpan, 1), max(c.colSpan, 1)
		x0, x1 := cols[c.col], cols[c.col+cs]
		y1 := top - pitch*float64(c.row)
		y0 := y1 - pitch*float64(rs)
		rules.WriteString(strings.Join([]string{f2(x0), f2(y0), f2(x1 - x0), f2(y1 - y0), "re S\n"}, " "))
		base := (y0+y1)/2 - s.size*0.35
		lines = append(lines, s.line(c.text, x0+6, base, 0, 0))
	}
	return lines, rules.String()
}

// officialDoc is the regulation, its 별표 with a merged cell and its form
// on one page, and the lines they read as.
func officialDoc(s setter) genCase {
	lines, texts := s.column(koOfficial, 72, 790, a4w-144, s.size*1.6, 0)
	y := 790 - float64(len(texts)+len(koOfficial)/2+3)*s.size*1.6
	heading := s.line("[별표 1] 휴직의 종류와 기간(제3조 관련)", 72, y, 0, 0)
	lines = append(lines, heading)
	texts = append(texts, "[별표 1] 휴직의 종류와 기간(제3조 관련)")
	table := []ruledCell{
		{"구분", 0, 0, 1, 1}, {"사유", 0, 1, 1, 1}, {"기간", 0, 2, 1, 1},
		{"질병 휴직", 1, 0, 2, 1}, {"일반 질병", 1, 1, 1, 1}, {"1년 6월", 1, 2, 1, 1},
		{"공무상 질병", 2, 1, 1, 1}, {"3년 6월", 2, 2, 1, 1},
		{"육아 휴직", 3, 0, 1, 1}, {"자녀 양육", 3, 1, 1, 1}, {"3년", 3, 2, 1, 1},
	}
	cells, rules := ruledTable(s, table, []float64{72, 200, 380, 523}, y-10, 22)
	lines = append(lines, cells...)
	texts = append(texts,
		"구분 | 사유 | 기간",
		"질병 휴직 | 일반 질병 | 1년 6월",
		"공무상 질병 | 3년 6월",
		"육아 휴직 | 자녀 양육 | 3년")
	y -= 10 + 4*22 + 40
	lines = append(lines, s.line("[별지 제1호 서식] 휴직 신청서", 72, y, 0, 0))
	texts = append(texts, "[별지 제1호 서식] 휴직 신청서")
	form := []ruledCell{
		{"성명", 0, 0, 1, 1}, {"홍길동", 0, 1, 1, 1}, {"생년월일", 0, 2, 1, 1}, {"1985. 4. 12.", 0, 3, 1, 1},
		{"휴직 종류", 1, 0, 1, 1}, {"■ 질병 휴직 □ 육아 휴직 □ 유학 휴직", 1, 1, 1, 3},
		{"휴직 기간", 2, 0, 1, 1}, {"2024. 3. 1. ~ 2025. 8. 31.", 2, 1, 1, 3},
	}
	cells, rules2 := ruledTable(s, form, []float64{72, 160, 300, 390, 523}, y-10, 22)
	lines = append(lines, cells...)
	texts = append(texts,
		"성명 | 홍길동 | 생년월일 | 1985. 4. 12.",
		"휴직 종류 | ■ 질병 휴직 □ 육아 휴직 □ 유학 휴직",
		"휴직 기간 | 2024. 3. 1. ~ 2025. 8. 31.")
	y -= 10 + 3*22 + 30
	for _, l := range []string{
		"위와 같이 휴직을 신청합니다.",
		"2024. 2. 20.",
		"신청인 ____________ (서명 또는 인)",
		"※ 처리 기간: 접수일부터 7일 이내 · 수수료: 없음",
	} {
		lines = append(lines, s.line(l, 72, y, 0, 0))
		texts = append(texts, l)
		y -= s.size * 2.4
	}
	return genCase{
		name:  "ko Hancom: regulation, 별표 with a merged cell, form with check boxes",
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: rules + rules2 + content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: texts,
		exact: []string{"제1조(목적)", "「공무원 복무 규정」", "제3조·제5조에서", "① 휴직을", "2024. 3. 1.부터", "<개정 2023. 7. 1., 2024. 3. 1.>", "1년 6월", "■ 질병 휴직 □ 육아 휴직", "____________ (서명 또는 인)", "7일 이내 · 수수료"},
	}
}

// blankForm is a form whose check boxes are drawn as small squares (a
// path, not the glyph □), read as "☐", and whose blanks are underlines drawn as rules of
// one length, one under another, as Hancom and Word draw a form's fields.
func blankForm(s setter) genCase {
	var lines [][]placed
	var texts []string
	var paths strings.Builder
	y := 760.0
	add := func(text string, x float64) {
		lines = append(lines, s.line(text, x, y, 0, 0))
	}
	add("휴직 신청서", 250)
	texts = append(texts, "휴직 신청서")
	y -= 40
	// Check boxes: a square before each option.
	add("휴직 종류:", 72)
	opts := []string{"질병 휴직", "육아 휴직", "유학 휴직"}
	x := 140.0
	for _, o := range opts {
		paths.WriteString(strings.Join([]string{f2(x), f2(y - 1), "8 8 re S\n"}, " "))
		add(o, x+12)
		x += 12 + s.width(o) + 24
	}
	// The drawn boxes read as the glyph of a box (boxes.go).
	texts = append(texts, "휴직 종류: ☐ "+strings.Join(opts, " ☐ "))
	y -= 30
	// Blanks: a label, then an underline of one length on every line.
	for _, l := range []string{"성명", "소속", "연락처"} {
		add(l, 72)
		paths.WriteString(strings.Join([]string{f2(150), f2(y - 3), "m", f2(330), f2(y - 3), "l S\n"}, " "))
		texts = append(texts, l)
		y -= 26
	}
	add("위와 같이 휴직을 신청합니다.", 72)
	texts = append(texts, "위와 같이 휴직을 신청합니다.")
	y -= 26
	add("2024. 2. 20.", 400)
	texts = append(texts, "2024. 2. 20.")
	y -= 26
	add("신청인", 300)
	paths.WriteString(strings.Join([]string{f2(340), f2(y - 3), "m", f2(440), f2(y - 3), "l S\n"}, " "))
	add("(서명 또는 인)", 445)
	texts = append(texts, "신청인 (서명 또는 인)")
	return genCase{
		name:  "ko Hancom: form with drawn check boxes and underlined blanks",
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: paths.String() + content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: texts,
		exact: []string{"질병 휴직", "2024. 2. 20."},
	}
}

// comparisonTable is a 신구조문대비표, the table of an amendment's old and
// new text that Korean ministries publish: two ruled cells of articles,
// each justified as Hancom sets a cell by default and wrapped at spaces
// (어절 단위), so every line but a paragraph's last runs to the cell's
// edge, as a wrapper by syllable's lines do. Each cell reads as one line,
// its lines joined by a space, the row's two cells apart.
func comparisonTable(s setter) genCase {
	old := []string{
		"제3조(근무시간) ① 공무원의 1주간 근무시간은 점심시간을 제외하고 44시간으로 하며, 근무시간은 오전 9시부터 오후 6시까지로 한다.",
		"② 행정기관의 장은 업무의 성질상 필요한 경우에는 근무시간을 달리 정할 수 있다.",
	}
	nw := []string{
		"제3조(근무시간) ① 공무원의 1주간 근무시간은 점심시간을 제외하고 40시간으로 하며, 토요일과 「관공서의 공휴일에 관한 규정」에 따른 공휴일은 쉰다.",
		"② (현행과 같음)",
	}
	cols := []float64{72, 297.5, 523}
	top := 760.0
	lines := [][]placed{s.line("현행", 170, top-15, 0, 0), s.line("개정안", 390, top-15, 0, 0)}
	l1, _ := s.column(old, cols[0]+6, top-36, cols[1]-cols[0]-12, 16, 0)
	l2, _ := s.column(nw, cols[1]+6, top-36, cols[2]-cols[1]-12, 16, 0)
	lines = append(append(lines, l1...), l2...)
	var rules strings.Builder
	for _, r := range [][4]float64{{72, top - 22, 225.5, 22}, {297.5, top - 22, 225.5, 22}, {72, top - 172, 225.5, 150}, {297.5, top - 172, 225.5, 150}} {
		rules.WriteString(strings.Join([]string{f2(r[0]), f2(r[1]), f2(r[2]), f2(r[3]), "re S\n"}, " "))
	}
	return genCase{
		name: "ko Hancom: 신구조문대비표, justified cells wrapped at spaces",
		pdf:  genDoc([]genPage{{w: a4w, h: a4h, content: rules.String() + content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: []string{
			"현행" + cellSep + "개정안",
			strings.Join(old, " ") + cellSep + strings.Join(nw, " "),
		},
		exact: []string{"근무시간은 점심시간을", "「관공서의 공휴일에 관한 규정」"},
	}
}

// stackedLabels is a form whose row groups are labelled down a merged
// cell one syllable a line ("신" over "청" over "인"), as Hancom forms set
// "신청인" and "대리인". pdftotext writes such a label a syllable a word,
// as the page shows it, and so does pdftext ("신 청 인", which the keyword
// index reads as the word); joined, the form read 0.8 of pdftotext's words.
func stackedLabels(s setter) genCase {
	cells := []ruledCell{
		{"", 0, 0, 3, 1}, {"성명", 0, 1, 1, 1}, {"홍길동", 0, 2, 1, 1}, {"생년월일", 0, 3, 1, 1}, {"1985. 4. 12.", 0, 4, 1, 1},
		{"주소", 1, 1, 1, 1}, {"서울특별시 종로구 세종대로 209", 1, 2, 1, 3},
		{"전화번호", 2, 1, 1, 1}, {"010-1234-5678", 2, 2, 1, 3},
		{"", 3, 0, 2, 1}, {"성명", 3, 1, 1, 1}, {"김영희", 3, 2, 1, 1}, {"관계", 3, 3, 1, 1}, {"배우자", 3, 4, 1, 1},
		{"주소", 4, 1, 1, 1}, {"서울특별시 강남구 테헤란로 152", 4, 2, 1, 3},
	}
	const top, pitch = 760.0, 24.0
	lines, rules := ruledTable(s, cells, []float64{72, 100, 170, 300, 370, 523}, top, pitch)
	// Each label centred down the rows its cell spans, 14 pt a syllable.
	stack := func(label string, row, span int) {
		rs := []rune(label)
		mid := top - pitch*(float64(row)+float64(span)/2)
		for i, r := range rs {
			y := mid + 14*(float64(len(rs)-1)/2-float64(i)) - s.size*0.35
			lines = append(lines, s.line(string(r), 81, y, 0, 0))
		}
	}
	stack("신청인", 0, 3)
	stack("대리인", 3, 2)
	return genCase{
		name: "ko Hancom: form with labels written down their cells",
		pdf:  genDoc([]genPage{{w: a4w, h: a4h, content: rules + content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: []string{
			"신 청 인 | 성명 | 홍길동 | 생년월일 | 1985. 4. 12.",
			"주소 | 서울특별시 종로구 세종대로 209",
			"전화번호 | 010-1234-5678",
			"대 리 인 | 성명 | 김영희 | 관계 | 배우자",
			"주소 | 서울특별시 강남구 테헤란로 152",
		},
	}
}

// footnotes is a page of a regulation whose provisions carry notes'
// marks ("{^1)}", raised and smaller, in the second font as Hancom draws
// them) and, at its foot, the notes in a smaller size, each its number, a
// date and its words a tab apart, as a provision's history is noted
// ("1)⇥2022. 6. 30.⇥개정"). The notes' gaps line up as a table's columns
// do; they read as notes, "1) 2022. 6. 30. 개정", as pdftotext writes them.
func footnotes(name string, s setter, body []string, notes [][3]string) genCase {
	lines, texts := s.column(body, 72, 790, a4w-144, s.size*1.6, 0)
	ns := s
	ns.size = s.size * 0.9
	for i, n := range notes {
		y := 120 - ns.size*1.4*float64(i)
		lines = append(lines, ns.line(n[0], 72, y, 0, 0), ns.line(n[1], 92, y, 0, 0), ns.line(n[2], 170, y, 0, 0))
		texts = append(texts, strings.Join(n[:], " "))
	}
	return genCase{
		name:  name,
		pdf:   genDoc([]genPage{{w: a4w, h: a4h, content: content(lines, s.a, s.b, drawTJ, false)}}, s.a, s.b),
		lines: texts,
	}
}

var (
	koNoted = []string{
		"제1조(목적) 이 규정은 학칙{^1)}에서 위임된 사항을 규정함을 목적으로 한다.",
		"제2조(적용) 이 규정은 모든 학생에게 적용한다.{^2)} 다만, 다른 규정에 특별한 규정이 있는 경우에는 그에 따른다.{^3)}",
	}
	koNotes = [][3]string{{"1)", "2022. 6. 30.", "개정"}, {"2)", "2023. 3. 1.", "신설"}, {"3)", "2024. 1. 1.", "이 단서는 2024학년도 입학생부터 적용한다."}}
	enNoted = []string{
		"Article 1 (Purpose) These rules set out what the Statutes{^1)} leave to them.",
		"Article 2 (Scope) These rules apply to every student.{^2)} Other rules prevail where they say so.{^3)}",
	}
	enNotes = [][3]string{{"1)", "2021. 9. 1.", "Amended"}, {"2)", "2020. 3. 1.", "Added by the Senate"}, {"3)", "2019. 3. 1.", "In force for students admitted from 2019"}}
)
