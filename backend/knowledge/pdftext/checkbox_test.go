package pdftext

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestPageTextCheckBoxOptions: the options of one check box question in
// one cell, an em or two apart, are no cells of their own; a checklist's
// column of boxes is, and so are two paragraphs headed by "□" side by side.
func TestPageTextCheckBoxOptions(t *testing.T) {
	tests := []struct {
		name string
		in   []glyph
		want string
	}{
		{"Korean options, boxes first", column([][]string{
			{"수집에 동의합니까?", "□ 예", "□ 아니오"},
			{"제공에 동의합니까?", "■ 예", "□ 아니오"}}, []float64{72, 200, 240}),
			"수집에 동의합니까? | □ 예 □ 아니오\n제공에 동의합니까? | ■ 예 □ 아니오"},
		{"English options, boxes first", column([][]string{
			{"Do you agree?", "☐ yes", "☐ no"},
			{"May we write?", "☑ yes", "☐ no"}}, []float64{72, 200, 245}),
			"Do you agree? | ☐ yes ☐ no\nMay we write? | ☑ yes ☐ no"},
		{"three options, boxes after their labels", column([][]string{
			{"수집에 동의합니까?", "예 □", "아니오 □", "모름 □"},
			{"제공에 동의합니까?", "예 □", "아니오 ■", "모름 □"}}, []float64{72, 200, 240, 290}),
			"수집에 동의합니까? | 예 □ 아니오 □ 모름 □\n제공에 동의합니까? | 예 □ 아니오 ■ 모름 □"},
		{"radio buttons", column([][]string{
			{"Delivery", "○ post", "● e-mail"},
			{"Language", "● Korean", "○ English"}}, []float64{72, 200, 260}),
			"Delivery | ○ post ● e-mail\nLanguage | ● Korean ○ English"},
		{"brackets as boxes", column([][]string{
			{"수집에 동의합니까?", "( ) 예", "( ) 아니오"},
			{"Do you agree?", "[ ] yes", "[ ] no"}}, []float64{72, 200, 245}),
			"수집에 동의합니까? | ( ) 예 ( ) 아니오\nDo you agree? | [ ] yes [ ] no"},
		{"a question in a paragraph under a form's table", slices.Concat(column([][]string{
			{"수집에 동의합니까?", "□ 예", "□ 아니오"},
			{"제공에 동의합니까?", "■ 예", "□ 아니오"}}, []float64{72, 200, 240}),
			[]glyph{brk()}, glyphLine("동의합니까? □ 예", 72, 672, nil), glyphLine("□ 아니오", 175, 672, nil)),
			"수집에 동의합니까? | □ 예 □ 아니오\n제공에 동의합니까? | ■ 예 □ 아니오\n동의합니까? □ 예 □ 아니오"},
		{"a table of calls is no options", column([][]string{
			{"파일", "open()", "close()"},
			{"소켓", "listen()", "accept()"}}, []float64{72, 200, 260}),
			"파일 | open() | close()\n소켓 | listen() | accept()"},
		{"a checklist's columns of boxes are cells", column([][]string{
			{"점검 항목", "적합", "부적합"},
			{"전기 설비", "□", "■"},
			{"소방 설비", "■", "□"}}, []float64{72, 200, 240}),
			"점검 항목 | 적합 | 부적합\n전기 설비 | □ | ■\n소방 설비 | ■ | □"},
		{"two paragraphs headed by a box side by side are cells", column([][]string{
			{"□ 사업 추진 배경 및 필요성에 관한 검토 결과", "□ 사업 추진 경과 및 향후 추진 계획 보고 사항"},
			{"□ 예산 편성 현황 및 집행 실적에 관한 분석", "□ 관계 기관 협의 결과 및 조치 계획 보고 사항"}}, []float64{72, 320}),
			"□ 사업 추진 배경 및 필요성에 관한 검토 결과 | □ 사업 추진 경과 및 향후 추진 계획 보고 사항\n" +
				"□ 예산 편성 현황 및 집행 실적에 관한 분석 | □ 관계 기관 협의 결과 및 조치 계획 보고 사항"},
		{"questions beside their options are rows, not two columns", column([][]string{
			{"개인정보 수집·이용에 동의합니까?", "□ 동의함   □ 동의하지 않음"},
			{"제3자 제공에 동의합니까?", "□ 동의함   □ 동의하지 않음"},
			{"마케팅 정보 수신에 동의합니까?", "■ 동의함   □ 동의하지 않음"}}, []float64{72, 330}),
			"개인정보 수집·이용에 동의합니까? | □ 동의함 □ 동의하지 않음\n제3자 제공에 동의합니까? | □ 동의함 □ 동의하지 않음\n마케팅 정보 수신에 동의합니까? | ■ 동의함 □ 동의하지 않음"},
		{"a column of bullets beside prose is a column, in Korean", sideBySide(bulletProseKo, bulletsKo),
			strings.Join(bulletProseKo, "\n") + "\n\n" + strings.Join(bulletsKo, "\n")},
		{"a column of bullets beside prose is a column, in English", sideBySide(bulletProseEn, bulletsEn),
			strings.Join(bulletProseEn, "\n") + "\n\n" + strings.Join(bulletsEn, "\n")},
		{"a comparison table's options under its header are cells", column([][]string{
			{"구분", "현행", "개선안"},
			{"지원 대상", "○ 저소득층 가구", "○ 전체 가구"},
			{"지원 금액", "○ 월 10만 원", "○ 월 20만 원"},
			{"신청 방법", "○ 방문 신청", "○ 온라인 신청"}}, []float64{72, 200, 330}),
			"구분 | 현행 | 개선안\n지원 대상 | ○ 저소득층 가구 | ○ 전체 가구\n지원 금액 | ○ 월 10만 원 | ○ 월 20만 원\n신청 방법 | ○ 방문 신청 | ○ 온라인 신청"},
		{"a comparison table with no header keeps its columns", column([][]string{
			{"지원 대상", "○ 저소득층 가구", "○ 전체 가구"},
			{"지원 금액", "○ 월 10만 원", "○ 월 20만 원"}}, []float64{72, 200, 330}),
			"지원 대상 | ○ 저소득층 가구 | ○ 전체 가구\n지원 금액 | ○ 월 10만 원 | ○ 월 20만 원"},
		{"a comparison table in English keeps its columns", column([][]string{
			{"Item", "Now", "Proposed"},
			{"Who", "● low incomes", "● every home"},
			{"How much", "● 100 a month", "● 200 a month"}}, []float64{72, 200, 330}),
			"Item | Now | Proposed\nWho | ● low incomes | ● every home\nHow much | ● 100 a month | ● 200 a month"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.in); got != tt.want {
				t.Errorf("pageText =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// A column of prose beside a column of lines headed by a bullet that
// checkBox also draws ("○", "●"): two columns, not a form's questions
// beside their answers.
var (
	bulletProseKo = []string{
		"지방자치단체는 지역의 여건과 주민의 요구를",
		"반영하여 사업 계획을 수립하고 그 결과를",
		"매년 공개하여야 하며 필요한 경우 관계",
		"기관과 협의하여 추진 일정을 조정할 수",
		"있다. 이 경우 예산의 범위 안에서 지원한다",
	}
	bulletsKo = []string{
		"○ 추진 배경 및 필요성에 관한 검토 결과 보고",
		"○ 사업 추진 경과 및 향후 일정에 관한 사항",
		"○ 예산 편성 현황 및 집행 실적에 관한 분석",
		"○ 관계 기관 협의 결과 및 조치 계획 보고서",
		"○ 주민 의견 수렴 결과 및 반영 계획 정리함",
	}
	bulletProseEn = []string{
		"The council shall publish its annual plan",
		"after hearing the residents and shall set",
		"out the budget for each programme so that",
		"every resident can follow how the funds are",
		"spent over the year and report on progress",
	}
	bulletsEn = []string{
		"● Background and need for the programme",
		"● Progress so far and the next milestones",
		"● Budget allocated and spending to date",
		"● Consultation with partner agencies held",
		"● Residents' views and how they were used",
	}
)

// sideBySide sets two columns of lines side by side, line by line.
func sideBySide(left, right []string) []glyph {
	var rows [][]string
	for i := range left {
		rows = append(rows, []string{left[i], right[i]})
	}
	return column(rows, []float64{72, 330})
}

// checkBoxRows are the rows of the check box form the tier prints: a
// question and its options, which must read "question | options" with no
// bar between the options.
var checkBoxRows = []struct {
	q    string
	opts []string
}{
	{"개인정보 수집·이용에 동의합니까?", []string{"□ 예", "□ 아니오"}},
	{"제3자 제공에 동의합니까?", []string{"■ 예", "□ 아니오"}},
	{"마케팅 정보 수신에 동의합니까?", []string{"□ 예", "□ 아니오", "□ 모름"}},
	{"홍보 문자 수신에 동의합니까?", []string{"( ) 예", "( ) 아니오"}},
	{"Do you agree to the collection of personal data?", []string{"☐ yes", "☐ no"}},
	{"Do you agree to share it with third parties?", []string{"☑ yes", "☐ no"}},
	{"Do you want to receive newsletters?", []string{"☐ yes", "☐ no", "☐ later"}},
	{"May we call you?", []string{"yes [ ]", "no [ ]"}},
}

// TestCheckBoxForms prints a consent form, a question and its options in
// two cells of a table without borders, the options apart by a 2em
// spacer, six no-break spaces or two em spaces, in Korean and English,
// with wkhtmltopdf and Chromium: each row reads "question | options",
// where each option after the first read as a cell of its own ("□ 예 | □
// 아니오").
func TestCheckBoxForms(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="ko"><head><meta charset="utf-8"><style>
body { font-family: 'Noto Sans CJK KR', sans-serif; font-size: 11pt }
table { border-collapse: collapse; width: 100%; margin: 1em 0 }
td { padding: 4px 6px }
.g { display: inline-block; width: 2em }
</style></head><body><p>개인정보 수집·이용 동의서 (Consent form)</p>`)
	for _, sp := range []string{`<span class="g"></span>`, strings.Repeat("&nbsp;", 6), "&emsp;&emsp;"} {
		for k, rows := range [][]struct {
			q    string
			opts []string
		}{checkBoxRows[:4], checkBoxRows[4:]} {
			b.WriteString([]string{"<p>아래의 각 항목을 읽고 동의 여부를 표시하여 주십시오. 동의하지 않아도 서비스를 이용할 수 있습니다.</p>",
				"<p>Please read each item below and mark whether you agree. You may use the service without agreeing.</p>"}[k])
			b.WriteString("<table>")
			for _, r := range rows {
				fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>", r.q, strings.Join(r.opts, sp))
			}
			b.WriteString("</table>")
		}
	}
	b.WriteString("</body></html>")
	withEachPrinter(t, "checkbox", b.String(), func(t *testing.T, _ string, lines []string) {
		for _, r := range checkBoxRows {
			row := r.q + cellSep + strings.Join(r.opts, " ")
			if n := strings.Count(strings.Join(lines, "\n"), r.q); n != 3 {
				t.Errorf("%q found %d times, want 3", r.q, n)
			}
			for _, l := range lines {
				if strings.HasPrefix(l, r.q) && l != row {
					t.Errorf("row %q, want %q", l, row)
				}
			}
			if !slices.Contains(lines, row) {
				t.Errorf("no row %q:\n%s", row, strings.Join(lines, "\n"))
			}
		}
	})
}
