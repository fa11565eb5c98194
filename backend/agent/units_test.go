package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"
	"github.com/wayfinder-app/wayfinder/backend/memory"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		text       string
		history    bool
		ok         bool
		route      string
		needsDocs  bool
		refersBack bool
	}{
		{"", false, true, RouteEnd, false, false},
		{"   ", true, true, RouteEnd, false, false},
		{"안녕하세요", false, true, RouteSimple, false, false},
		{"안녕!", false, true, RouteSimple, false, false},
		{"Hello there!", false, true, RouteSimple, false, false},
		{"good morning", false, true, RouteSimple, false, false},
		{"고마워요~", true, true, RouteSimple, false, false},
		{"Thanks a lot!", true, true, RouteSimple, false, false},
		{"123 * 456 계산해줘", false, true, RouteSimple, false, false},
		{"what is 15% of 200?", false, true, RouteSimple, false, false},
		{"sqrt(2) 구해줘", false, true, RouteSimple, false, false},
		{"회사 휴가 정책이 뭐야?", false, true, RouteSimple, true, false},
		{"What is our leave policy?", false, true, RouteSimple, true, false},
		{"아까 말한 프로젝트 마감일이 언제라고 했지?", true, true, RouteSimple, false, true},
		// A follow-up that asks something new is looked up in the documents
		// (with the question it follows); one that asks what was said is not.
		{"그럼 가격은?", true, true, RouteSimple, true, true},
		{"what about the second one", true, true, RouteSimple, true, true},
		{"병가는 며칠이에요?", true, true, RouteSimple, true, true},
		{"더 자세히", true, true, RouteSimple, false, true},
		{"내 이름이 뭐라고 했지?", true, true, RouteSimple, false, true},
		{"What did I say my budget was?", true, true, RouteSimple, false, true},
		// Tasks and unclear messages go to the model.
		{"카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어", false, false, "", false, false},
		{"Make a YouTube Shorts video about my café", false, false, "", false, false},
		{"How do I build a podcast workflow?", false, false, "", false, false},
		// A task's word inside an English word is none ("plan" in
		// "explanation", "build" in "building"); a Korean task noun still
		// leaves a question to the model.
		{"What does the explanation in chapter 3 say?", false, true, RouteSimple, true, false},
		{"What are the building permit rules?", false, true, RouteSimple, true, false},
		{"사업계획서 마감이 언제야?", false, false, "", false, false},
		{"내 이름은 철수야", false, false, "", false, false},
		{"더 자세히", false, false, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := classify(tt.text, tt.history)
			if got.ok != tt.ok || got.route != tt.route || got.needsDocs != tt.needsDocs || got.refersBack != tt.refersBack {
				t.Fatalf("classify(%q, history=%v) = %+v", tt.text, tt.history, got)
			}
		})
	}
}

// When the router's model gives no usable reply, a task is planned and
// anything else answered directly: a question, even one with a task's
// words, is answered as before.
func TestLeanRoute(t *testing.T) {
	tests := []struct {
		text   string
		route  string
		reason string
	}{
		{"카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어", RouteComplex, reasonLeanTask},
		{"Make a YouTube Shorts video about my café", RouteComplex, reasonLeanTask},
		{"  help me build a podcast workflow  ", RouteComplex, reasonLeanTask},
		{"다음 달 가족 여행 계획 좀 세워줘", RouteComplex, reasonLeanTask},
		{"How do I build a podcast workflow?", RouteSimple, reasonLeanAnswer},
		{"What is a good way to plan my week?", RouteSimple, reasonLeanAnswer},
		{"유튜브 영상 만들 때 뭐가 좋아?", RouteSimple, reasonLeanAnswer},
		{"My name is Minji and I run a small cafe.", RouteSimple, reasonLeanAnswer},
		{"내 이름은 철수야", RouteSimple, reasonLeanAnswer},
		{"", RouteSimple, reasonLeanAnswer},
		// Real tasks, in the forms a verb asks them.
		{"부산 여행 계획 좀 세워줘", RouteComplex, reasonLeanTask},
		{"help me build a budget spreadsheet", RouteComplex, reasonLeanTask},
		{"이사 준비를 도와줘", RouteComplex, reasonLeanTask},
		{"이사 준비 좀 도와줘", RouteComplex, reasonLeanTask},
		{"주간 식단 짜줘", RouteComplex, reasonLeanTask},
		{"블로그를 시작하고 싶어", RouteComplex, reasonLeanTask},
		{"팟캐스트 제작하고 싶어", RouteComplex, reasonLeanTask},
		{"Plan a three-day trip to Jeju", RouteComplex, reasonLeanTask},
		{"Create a landing page for my bakery", RouteComplex, reasonLeanTask},
		{"Set up a newsletter for my shop", RouteComplex, reasonLeanTask},
		// The main verb decides: the last in Korean, the first in English.
		{"회의록 정리해서 보고서 만들어줘", RouteComplex, reasonLeanTask},
		{"내 문서로 발표 자료 만들어줘", RouteComplex, reasonLeanTask},
		{"Design a logo, then list what it costs", RouteComplex, reasonLeanTask},
		// A task's word inside a noun, or a task named by a message that asks
		// to summarise, list, find, explain or translate: answered, with the
		// documents.
		{"사업계획서 내용 요약해줘", RouteSimple, reasonLeanAnswer},
		{"Summarize the explanation in chapter 3", RouteSimple, reasonLeanAnswer},
		{"Summarize the building permit rules in my documents", RouteSimple, reasonLeanAnswer},
		{"Translate this paragraph into Korean: the planet is warming", RouteSimple, reasonLeanAnswer},
		{"The planet is warming faster than the models said", RouteSimple, reasonLeanAnswer},
		{"List the deadlines in the project plan", RouteSimple, reasonLeanAnswer},
		{"Find the design guidelines in my files", RouteSimple, reasonLeanAnswer},
		{"Explain the launch checklist in my notes", RouteSimple, reasonLeanAnswer},
		{"Make a list of the action items from the meeting notes", RouteSimple, reasonLeanAnswer},
		{"출시 계획 문서 정리해줘", RouteSimple, reasonLeanAnswer},
		{"기획안 파일에서 예산 항목 찾아줘", RouteSimple, reasonLeanAnswer},
		{"제작 일정표를 영어로 번역해줘", RouteSimple, reasonLeanAnswer},
		{"건축 계획서 파일 요약 부탁해", RouteSimple, reasonLeanAnswer},
		{"만들어진 보고서 요약해줘", RouteSimple, reasonLeanAnswer},
		{"준비물 목록 정리해줘", RouteSimple, reasonLeanAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := leanRoute(tt.text)
			wantDocs := tt.route == RouteSimple // answered with the documents at hand
			if !got.ok || got.route != tt.route || got.reason != tt.reason || got.needsDocs != wantDocs {
				t.Fatalf("leanRoute(%q) = %+v, want route %s (%s)", tt.text, got, tt.route, tt.reason)
			}
		})
	}
}

// The window words leanRoute's reasons (argText: trace.reason.<words>),
// so the person reads why the route was taken in their language.
func TestLeanReasonsAreWorded(t *testing.T) {
	for _, lang := range []string{"en", "ko"} {
		catalog := i18ntest.Catalog(t, lang)
		for _, reason := range []string{reasonLeanTask, reasonLeanAnswer, reasonBrokenReply, reasonUnexplainedTask, reasonUnexplainedAnswer} {
			if key := "trace.reason." + strings.ReplaceAll(reason, " ", "_"); catalog[key] == "" {
				t.Errorf("%s.json has no %s", lang, key)
			}
		}
	}
}

func TestDetectLang(t *testing.T) {
	for in, want := range map[string]string{"안녕": "ko", "hello": "en", "Vrew로 편집": "ko", "": "en", "123": "en"} {
		if got := detectLang(in); got != want {
			t.Errorf("detectLang(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnfoldedAndFoldPlan(t *testing.T) {
	hist := func(n int) []Msg {
		var out []Msg
		for i := range n {
			out = append(out, Msg{ID: string(rune('a' + i)), Role: "user", Content: "x"})
		}
		return out
	}
	ids := func(ms []Msg) string {
		var b strings.Builder
		for _, m := range ms {
			b.WriteString(m.ID)
		}
		return b.String()
	}
	tests := []struct {
		name   string
		s      State
		want   string
		offset int
	}{
		{"nothing folded", State{History: hist(4)}, "abcd", 0},
		{"by id", State{History: hist(8), FoldedThrough: "c", Folded: 99}, "defgh", 3},
		{"by count when the id is gone", State{History: hist(8), FoldedThrough: "zz", Folded: 5}, "fgh", 5},
		{"count relative to a capped history", State{History: hist(8), HistoryStart: 10, Folded: 12}, "cdefgh", 2},
		{"summary far behind: none is cut", State{History: hist(25)}, "abcdefghijklmnopqrstuvwxy", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, off := unfolded(tt.s)
			if ids(got) != tt.want || off != tt.offset {
				t.Fatalf("unfolded = %q at %d, want %q at %d", ids(got), off, tt.want, tt.offset)
			}
		})
	}
	const roomy = 1 << 20
	if len(foldPlan(hist(memory.MaxMessages), roomy)) != 0 {
		t.Fatal("folded at exactly MaxMessages")
	}
	if got := foldPlan(hist(memory.MaxMessages+2), roomy); ids(got) != "abcdefg" {
		t.Fatalf("fold = %q", ids(got))
	}
	// Each message costs 5 tokens here (1 + the template's 4): a budget of
	// 12 keeps the two newest, whatever seed 001's count says.
	if got := foldPlan(hist(4), 12); ids(got) != "ab" {
		t.Fatalf("fold within the budget = %q", ids(got))
	}
	if got := foldPlan(hist(memory.MaxMessages+2), 12); ids(got) != "abcdefghij" {
		t.Fatalf("fold by count and budget = %q", ids(got))
	}
	if got := foldPlan(hist(3), 0); ids(got) != "abc" {
		t.Fatalf("nothing fits: fold = %q", ids(got))
	}
}

func TestHistoryInput(t *testing.T) {
	in := []api.Message{
		{ID: "1", Role: api.RoleUser, Content: "hi"},
		{ID: "2", Role: api.RoleAssistant, Content: "", Status: api.StatusError},
		{ID: "3", Role: api.RoleAssistant, Content: "partial", Status: api.StatusError},
		{ID: "4", Role: api.RoleAssistant, Content: "hello"},
	}
	got, start := historyInput(in)
	want := []Msg{{ID: "1", Role: "user", Content: "hi"}, {ID: "4", Role: "assistant", Content: "hello"}}
	if diff := cmp.Diff(want, got); diff != "" || start != 0 {
		t.Fatalf("history (-want +got):\n%s start %d", diff, start)
	}
	var long []api.Message
	for range maxInputHistory + 7 {
		long = append(long, api.Message{Role: api.RoleUser, Content: "x"})
	}
	if got, start := historyInput(long); len(got) != maxInputHistory || start != 7 {
		t.Fatalf("capped to %d from %d", len(got), start)
	}
}

func TestValidateEdited(t *testing.T) {
	tests := []struct {
		name    string
		in      []api.SubTask
		want    []api.SubTask
		problem string
	}{
		{"kept", []api.SubTask{{ID: "s1", Title: " 대본 "}, {ID: "s2", Title: "편집", Detail: " d "}},
			[]api.SubTask{{ID: "s1", Title: "대본"}, {ID: "s2", Title: "편집", Detail: "d"}}, ""},
		{"added and reordered get ids", []api.SubTask{{ID: "s2", Title: "b"}, {Title: "new"}, {ID: "s1", Title: "a"}, {Title: "new2"}},
			[]api.SubTask{{ID: "s2", Title: "b"}, {ID: "s3", Title: "new"}, {ID: "s1", Title: "a"}, {ID: "s4", Title: "new2"}}, ""},
		{"empty", nil, nil, "1 to 10 steps"},
		{"too many", make([]api.SubTask, 11), nil, "1 to 10 steps"},
		{"blank title", []api.SubTask{{ID: "s1", Title: "a"}, {ID: "s2", Title: "  "}}, nil, "step 2 has no title"},
		{"duplicate id", []api.SubTask{{ID: "x", Title: "a"}, {ID: "x", Title: "b"}}, nil, `two steps have the id "x"`},
		{"long title", []api.SubTask{{Title: strings.Repeat("가", maxTitleRunes+1)}}, nil, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := validateEdited(tt.in)
			if tt.problem != "" {
				if !errors.Is(err, ErrInvalidPlan) || !strings.Contains(err.Error(), tt.problem) {
					t.Fatalf("err = %v, want %q", err, tt.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanOutValidate(t *testing.T) {
	steps := func(n int) planOut {
		var p planOut
		for range n {
			p.SubTasks = append(p.SubTasks, planStep{Title: "t"})
		}
		return p
	}
	for n, ok := range map[int]bool{0: false, 1: false, 2: true, 7: true, 8: false} {
		p := steps(n)
		if err := p.Validate(); (err == nil) != ok {
			t.Errorf("%d steps: err = %v", n, err)
		}
	}
	blank := planOut{SubTasks: []planStep{{Title: "a"}, {Title: " "}}}
	if blank.Validate() == nil {
		t.Error("a blank title counted as a step")
	}
}

func TestCostTotal(t *testing.T) {
	tests := []struct {
		prices []string
		want   string
		used   bool
	}{
		{[]string{"free, Plus $20/month", "Pro $9.99/month", "free"}, "$29.99 (20 + 9.99", true},
		{[]string{"free", "unknown"}, "", false},
		{[]string{"$ 5 per seat"}, "$5 (5", true},
	}
	for _, tt := range tests {
		var recs []api.Recommendation
		for _, p := range tt.prices {
			recs = append(recs, api.Recommendation{Pricing: p})
		}
		got, used := costTotal(recs)
		if used != tt.used || !strings.HasPrefix(got, tt.want) {
			t.Errorf("costTotal(%v) = %q, %v", tt.prices, got, used)
		}
	}
}

func TestParseConfig(t *testing.T) {
	tests := []struct {
		raw  string
		want loopConfig
		err  string
	}{
		{"", loopConfig{}, ""},
		{"null", loopConfig{}, ""},
		{`{"toolset":"answer","max_iterations":3}`, loopConfig{Toolset: "answer", MaxIterations: 3}, ""},
		{`{"max_iteration":3}`, loopConfig{}, "unknown field"},
		{`{"max_iterations":-1}`, loopConfig{}, "between 0"},
		{`{"max_rounds":99}`, loopConfig{}, "between 0"},
	}
	for _, tt := range tests {
		got, err := parseConfig([]byte(tt.raw))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseConfig(%s) err = %v, want %q", tt.raw, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseConfig(%s) = %+v, %v", tt.raw, got, err)
		}
	}
}

func TestNonBlank(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{nil, []string{}},
		{[]string{"", "  "}, []string{}},
		{[]string{" CapCut ", "", "Vrew"}, []string{"CapCut", "Vrew"}},
	} {
		if got := nonBlank(tc.in); got == nil || !slices.Equal(got, tc.want) {
			t.Errorf("nonBlank(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// toolTokens counts a schema about as its JSON would (within a quarter),
// without encoding it.
func TestToolTokens(t *testing.T) {
	e := newEnv(t)
	schemas := e.agent(Options{}).toolset(context.Background(), nil, "answer", State{}).Schemas()
	got, json := toolTokens(schemas), tokens(compactJSON(schemas))
	if got < json*3/4 || got > json*5/4 {
		t.Fatalf("toolTokens = %d, the JSON takes %d", got, json)
	}
}

// A route the router's model gives with no reason yields to the rules only
// where they are sure: an answer is made a plan when the message asks for
// a plan, steps or a schedule or sets out several tasks, never for a
// request one reply fulfils or after earlier turns; a plan is made an
// answer when the message is a question. Either way the model's
// refers-back and needs-documents stand, in English and Korean.
func TestModelRoute(t *testing.T) {
	for _, tt := range []struct {
		text               string
		history            bool
		d                  routeDecision
		route, reason      string
		needsDocs, refBack bool
	}{
		// A direct answer that stands: one reply makes it.
		{"Create a short bio for my LinkedIn", false, routeDecision{Route: RouteSimple}, RouteSimple, "model", false, false},
		{"Make a shopping list for tacos", false, routeDecision{Route: RouteSimple}, RouteSimple, "model", false, false},
		{"Build a packing list for a weekend trip", false, routeDecision{Route: RouteSimple}, RouteSimple, "model", false, false},
		{"Design a logo for my bakery", false, routeDecision{Route: RouteSimple, NeedsDocuments: true}, RouteSimple, "model", true, false},
		{"자기소개 만들어줘", false, routeDecision{Route: RouteSimple}, RouteSimple, "model", false, false},
		{"사업계획서 만들어줘", false, routeDecision{Route: RouteSimple}, RouteSimple, "model", false, false},
		{"카페 홍보 문구 만들고 싶어", false, routeDecision{Route: RouteSimple}, RouteSimple, "model", false, false},
		// A direct answer made a plan: the message asks for one.
		{"Plan a birthday party for 20 people next Saturday", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"Make a weekly workout schedule", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"Create the steps to launch my online store", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"Create a logo and build a landing page for my bakery", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"Make a logo, then build the landing page", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"다음 주 토요일 20명 생일 파티 계획 세워줘", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"제주도 3박 4일 일정 짜줘", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"온라인 쇼핑몰 창업 단계별로 준비해줘", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"대본 쓰고 영상 찍고 유튜브에 올리는 것까지 만들어줘", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		{"로고 만든 다음 홈페이지 만들어줘", false, routeDecision{Route: RouteSimple}, RouteComplex, reasonUnexplainedTask, false, false},
		// Never after earlier turns.
		{"Make a plan for it", true, routeDecision{Route: RouteSimple, RefersToPrevious: true}, RouteSimple, "model", false, true},
		{"그걸로 일정 짜줘", true, routeDecision{Route: RouteSimple, RefersToPrevious: true}, RouteSimple, "model", false, true},
		// A plan made an answer, what the model said of the message kept.
		{"What is a good way to plan my week?", false, routeDecision{Route: RouteComplex}, RouteSimple, reasonUnexplainedAnswer, false, false},
		{"유튜브 영상 만들 때 뭐가 좋아?", false, routeDecision{Route: RouteComplex, NeedsDocuments: true}, RouteSimple, reasonUnexplainedAnswer, true, false},
		{"And how long would the second step take?", true, routeDecision{Route: RouteComplex, RefersToPrevious: true, NeedsDocuments: true}, RouteSimple, reasonUnexplainedAnswer, true, true},
		{"그럼 두 번째 단계는 얼마나 걸려?", true, routeDecision{Route: RouteComplex, RefersToPrevious: true}, RouteSimple, reasonUnexplainedAnswer, false, true},
		// A reason given, or the lean agreeing: the model's route.
		{"Plan a birthday party for 20 people next Saturday", false, routeDecision{Route: RouteSimple, Reason: "One reply lists it."}, RouteSimple, "model", false, false},
		{"유튜브 영상 만들 때 뭐가 좋아?", false, routeDecision{Route: RouteComplex, Reason: "전 과정을 계획해야 함"}, RouteComplex, "model", false, false},
		{"제주도 3박 4일 일정 짜줘", false, routeDecision{Route: RouteComplex, NeedsDocuments: true}, RouteComplex, "model", true, false},
	} {
		t.Run(tt.text, func(t *testing.T) {
			got := modelRoute(tt.d, tt.text, tt.history)
			if got.route != tt.route || got.reason != tt.reason || got.needsDocs != tt.needsDocs || got.refersBack != tt.refBack {
				t.Fatalf("modelRoute(%+v, %q, history=%v) = %+v, want %s (%s), needsDocs %v, refersBack %v",
					tt.d, tt.text, tt.history, got, tt.route, tt.reason, tt.needsDocs, tt.refBack)
			}
		})
	}
}
