package app

import "testing"

func TestParticle(t *testing.T) {
	tests := []struct {
		word, form, want string
	}{
		{"회의록", "을(를)", "을"},
		{"보고서", "을(를)", "를"},
		{"웹 검색", "을(를)", "을"},
		{"회의록", "이(가)", "이"},
		{"보고서", "이(가)", "가"},
		{"회의록", "은(는)", "은"},
		{"보고서", "은(는)", "는"},
		{"회의록", "와(과)", "과"},
		{"보고서", "와(과)", "와"},
		{"회의록", "과(와)", "과"},
		{"회의록", "(으)로", "으로"},
		{"보고서", "(으)로", "로"},
		{"파일", "(으)로", "로"}, // ㄹ takes 로
		{"파일", "으로(로)", "로"},
		{"파일", "을(를)", "을"},
		{"회의록", "(이)", "이"},
		{"보고서", "(이)", ""},
		// digits as read in Korean
		{"report 1", "을(를)", "을"}, // 일
		{"report 2", "을(를)", "를"}, // 이
		{"3", "이(가)", "이"},        // 삼
		{"4", "이(가)", "가"},        // 사
		{"http://gpu1:11434", "이(가)", "가"},
		{"10", "은(는)", "은"}, // 십
		{"7", "(으)로", "로"},  // 칠: ㄹ
		{"6", "(으)로", "으로"}, // 육
		{"127.0.0.1:8080", "은(는)", "은"},
		// Latin letters whose ending is known
		{"html", "을(를)", "을"},
		{"tool", "(으)로", "로"},
		{"llm", "(으)로", "으로"},
		{"json", "이(가)", "이"},
		{"files / read", "을(를)", "를"},
		{"/home/you/notes/a.md", "을(를)", "를"},
		{"web_search.PDF", "이(가)", "가"},
		{"qwen3:4b", "이(가)", "이(가)"}, // "b" 비 or "web" 웹
		{"translate", "을(를)", "을(를)"},
		{"chat", "을(를)", "을(를)"},
		{"ping", "을(를)", "을(를)"},
		// what closes the word is passed over
		{"report (1)", "을(를)", "을"},
		{`"0190aaaa"`, "(으)로", "로"},
		{"“회의록”", "을(를)", "을"},
		// not known
		{"漢字", "을(를)", "을(를)"},
		{"", "을(를)", "을(를)"},
		{"...", "이(가)", "이(가)"},
		{"ㄱ", "이(가)", "이(가)"},
		// not a particle
		{"보고서", "", ""},
		{"보고서", "의", "의"},
	}
	for _, tt := range tests {
		if got := particle(tt.word, tt.form); got != tt.want {
			t.Errorf("particle(%q, %q) = %q, want %q", tt.word, tt.form, got, tt.want)
		}
	}
}

func TestFillChoosesParticles(t *testing.T) {
	tests := []struct {
		text string
		args map[string]string
		want string
	}{
		{"파일 {name}을(를) 읽습니다", map[string]string{"name": "보고서"}, "파일 보고서를 읽습니다"},
		{"“{title}”을(를) 삭제했습니다.", map[string]string{"title": "회의록"}, "“회의록”을 삭제했습니다."},
		{`"{field}"은(는) 목록`, map[string]string{"field": "args"}, `"args"는 목록`},
		{"{name}(이)라는 서버", map[string]string{"name": "web"}, "web(이)라는 서버"},
		{"{name}(이)라는 서버", map[string]string{"name": "files"}, "files라는 서버"},
		{"{name}을(를) {other}", map[string]string{"name": "모델"}, "모델을 {other}"},
		{"{missing}을(를)", nil, "{missing}을(를)"},
		// After a command in backquotes, as the blank's value ends it.
		{"`wayfinder mcp remove {name}`(으)로 지우세요", map[string]string{"name": "fs"}, "`wayfinder mcp remove fs`로 지우세요"},
		{"`wayfinder mcp remove {name}`(으)로 지우세요", map[string]string{"name": "드라이브"}, "`wayfinder mcp remove 드라이브`로 지우세요"},
		{"`wayfinder mcp remove {name}`(으)로 지우세요", map[string]string{"name": "github"}, "`wayfinder mcp remove github`(으)로 지우세요"},
		{"`wayfinder mcp remove {name}`(으)로 지우세요", map[string]string{"name": "mcp2"}, "`wayfinder mcp remove mcp2`로 지우세요"},
		{"{name} 을(를)", map[string]string{"name": "모델"}, "모델 을(를)"},      // not right after the blank
		{"{a}{b}이(가)", map[string]string{"a": "{b}", "b": "4"}, "{b}4가"}, // one pass
	}
	for _, tt := range tests {
		if got := fill(tt.text, tt.args); got != tt.want {
			t.Errorf("fill(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
