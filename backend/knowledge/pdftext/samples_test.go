package pdftext

// Sample paragraphs for generated documents: the kinds of text people keep
// (regulations, contracts, notices), full of article numbers, dates,
// brackets and figures — exactly the glyphs a Hancom export draws apart.

var koRegulation = []string{
	"제1조(목적) 이 규정은 한국대학교 학칙 제12조에 따라 교직원의 복무에 관하여 필요한 사항을 정함을 목적으로 한다.",
	"제2조(적용 범위) 이 규정은 본교에 근무하는 전임교원 및 직원(계약직 포함)에게 적용한다. 다만, 다른 규정에 특별한 정함이 있는 경우에는 그 규정에 따른다.",
	"제3조(근무시간) ① 근무시간은 1일 8시간, 1주 40시간으로 하며 출근은 오전 9시, 퇴근은 오후 6시로 한다. ② 점심시간은 12:00부터 13:00까지로 한다.",
	"제4조(연가) 연가일수는 재직기간에 따라 연 15일부터 25일까지로 하고, 사용하지 아니한 연가는 다음 해로 이월할 수 없다(「근로기준법」 제60조 참조).",
	"제5조(출장) 출장비는 별표 2의 기준에 따라 지급하며, 1일 숙박비는 서울특별시 70,000원, 광역시 60,000원, 그 밖의 지역 50,000원을 한도로 한다.",
	"제6조(휴직) 휴직 기간은 3년 이내로 하되, 부득이한 경우 1년의 범위에서 연장할 수 있다. 휴직자의 보수는 70%를 지급한다.",
	"제7조(문의) 이 규정에 관한 문의는 총무처(전화 02-880-1234, 내선 5678)로 한다.",
	"부칙 이 규정은 1980. 6. 16.부터 시행한다.",
	"부칙(2023. 3. 1.) 이 규정은 2023년 3월 1일부터 시행한다. 다만, 제5조의 개정규정은 2023. 9. 1.부터 시행한다.",
}

var enContract = []string{
	"Section 1 (Purpose) This Agreement, dated June 16, 1980, sets out the terms on which the Company (the \"Employer\") engages the Employee.",
	"Section 2 (Term) The term begins on 2023-03-01 and ends on 2025-02-28, unless ended earlier under Section 9.2 or 9.3.",
	"Section 3 (Pay) The Employer pays USD 4,250.00 per month, on the 25th day of each month; overtime is paid at 150% of the hourly rate.",
	"Section 4 (Leave) The Employee has 15 days of paid leave per year (pro rata for part years), to be taken by December 31.",
	"Section 5 (Notices) Notices go to 221B Baker Street, London NW1 6XE, or to legal@example.com; phone +44 20 7946 0958.",
	"Section 6 (Law) This Agreement is governed by the laws of England and Wales; see clause 12(b)(iii) for disputes.",
}
