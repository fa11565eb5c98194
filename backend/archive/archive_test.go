package archive

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var t0 = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

// sample is a conversation with everything an export must keep: a task
// whose plan was approved with edits (the decision with the plan's
// version), recommendations with sources, a cited answer, a stopped reply,
// a failed one regenerated twice (the earlier answers kept as variants,
// the middle one shown), the conversation's own settings, in Korean and
// English.
func sample() []Conversation {
	prompt, temp, ctxTokens := "짧게 답해 주세요.\nAnswer briefly.", 0.3, 8192
	src := api.Source{ID: "doc1:0", Title: "휴가 정책", Source: "/home/me/docs/leave.md", Page: 2, Heading: "연차", Snippet: "연차는 15일입니다.\n병가는 10일입니다.", Score: 0.42}
	deck := api.Source{ID: "doc2:3", Title: "메뉴 소개", Source: "/home/me/docs/menu.pptx", Page: 4, Unit: "slide", Snippet: "여름 음료", Score: 0.3} // cited by its slide
	return []Conversation{{
		ID: "0199a000-0000-7000-8000-000000000001", Title: "카페 쇼츠 만들기", CreatedAt: t0, UpdatedAt: t0.Add(time.Hour), Model: "qwen3:4b",
		Settings: &api.ConversationSettings{SystemPrompt: &prompt, Temperature: &temp, ContextTokens: &ctxTokens},
		Messages: []Message{
			{ID: "0199a000-0000-7000-8000-000000000010", Role: api.RoleUser, Content: "카페 홍보용 유튜브 쇼츠를 만들고 싶어", Status: api.StatusComplete, CreatedAt: t0},
			{ID: "0199a000-0000-7000-8000-000000000011", Role: api.RoleAssistant, Content: "Here is a plan.", Status: api.StatusComplete, CreatedAt: t0.Add(time.Second),
				Result: &api.TurnResult{SessionID: "0199a000-0000-7000-8000-000000000001", Plan: &api.PlanApproval{Version: "int-1:1", Round: 1, Task: "쇼츠", SubTasks: []api.SubTask{{ID: "s1", Title: "대본 쓰기", Detail: "30초"}, {ID: "s2", Title: "영상 편집"}}}}},
			{ID: "0199a000-0000-7000-8000-000000000012", Role: api.RoleUser, Content: "Approve", Status: api.StatusComplete, CreatedAt: t0.Add(2 * time.Second),
				Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: "int-1:1", SubTasks: []api.SubTask{{ID: "s1", Title: "대본 쓰기 | 초안", Detail: "30초"}, {ID: "s2", Title: "영상 편집"}}}},
			{ID: "0199a000-0000-7000-8000-000000000013", Role: api.RoleAssistant, Content: "# 가이드\n\n1. 대본을 씁니다 [1].\n2. CapCut으로 편집합니다.", Status: api.StatusComplete, CreatedAt: t0.Add(3 * time.Second),
				Result: &api.TurnResult{SessionID: "0199a000-0000-7000-8000-000000000001", ToolsUsed: []string{"search_catalog"}, Sources: []api.Source{src, deck}, LLMCalls: 7, PromptTokens: 4000, CompletionTokens: 900, ExecutionMS: 12000, Model: "qwen3:4b",
					Steps: []api.SubTask{{ID: "s1", Title: "대본 쓰기 | 초안", Detail: "30초"}, {ID: "s2", Title: "영상 편집"}},
					Recommendations: []api.Recommendation{{SubTaskID: "s2", Tool: "CapCut", Why: "무료이고 쇼츠 템플릿이 있음", URL: "https://www.capcut.com/", Pricing: "Free", Alternatives: []string{"VLLO"},
						Sources: []api.Source{{ID: "catalog:capcut", Title: "CapCut", Source: "Wayfinder catalog", URL: "https://www.capcut.com/", Snippet: "Video editor"}}}}}},
			{ID: "0199a000-0000-7000-8000-000000000014", Role: api.RoleUser, Content: "What about music?", Status: api.StatusComplete, CreatedAt: t0.Add(4 * time.Second)},
			{ID: "0199a000-0000-7000-8000-000000000015", Role: api.RoleAssistant, Content: "You could use", Status: api.StatusInterrupted, CreatedAt: t0.Add(5 * time.Second)},
			{ID: "0199a000-0000-7000-8000-000000000016", Role: api.RoleUser, Content: "again", Status: api.StatusComplete, CreatedAt: t0.Add(6 * time.Second)},
			{ID: "0199a000-0000-7000-8000-000000000017", Role: api.RoleAssistant, Content: "음악은 **YouTube 오디오 보관함**에서 [1].", Status: api.StatusComplete, CreatedAt: t0.Add(9 * time.Second),
				Result: &api.TurnResult{SessionID: "0199a000-0000-7000-8000-000000000001", Sources: []api.Source{{ID: "catalog:yt-audio", Title: "YouTube Audio Library", Source: "Wayfinder catalog", URL: "https://studio.youtube.com/", Snippet: "Free music"}}, Model: "qwen3:4b"},
				Variants: []Message{
					{ID: "0199a000-0000-7000-8000-000000000018", Role: api.RoleAssistant, Status: api.StatusError, CreatedAt: t0.Add(7 * time.Second),
						Error: &api.ErrorInfo{Code: api.ErrOllamaUnreachable, Message: "Wayfinder cannot reach Ollama at http://127.0.0.1:11434.", Hint: "ollama serve"}},
					{ID: "0199a000-0000-7000-8000-000000000019", Role: api.RoleAssistant, Content: "# 음악\n\nEpidemic Sound를 쓰세요.", Status: api.StatusComplete, CreatedAt: t0.Add(11 * time.Second)},
				}},
		},
	}, {
		ID: "0199a000-0000-7000-8000-000000000002", Title: "", CreatedAt: t0, UpdatedAt: t0, PendingApproval: true,
		Messages: []Message{
			{ID: "0199a000-0000-7000-8000-000000000020", Role: api.RoleUser, Content: "Plan a trip", Status: api.StatusComplete, CreatedAt: t0},
			{ID: "0199a000-0000-7000-8000-000000000021", Role: api.RoleAssistant, Content: "Here is a plan.", Status: api.StatusAwaitingApproval, CreatedAt: t0,
				Result: &api.TurnResult{Plan: &api.PlanApproval{Round: 2, SubTasks: []api.SubTask{{ID: "a", Title: "Book flights"}}}}},
		},
	}}
}

func write(t *testing.T, convs []Conversation) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, c := range convs {
		if err := w.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readAll(r io.Reader, lim Limits) ([]Conversation, error) {
	var out []Conversation
	_, err := Read(r, lim, func(c Conversation) error { out = append(out, c); return nil })
	return out, err
}

// Written, read and written again: the same bytes, and the same values.
func TestRoundTrip(t *testing.T) {
	for _, convs := range [][]Conversation{sample(), nil, sample()[:1]} {
		first := write(t, convs)
		got, err := readAll(bytes.NewReader(first), DefaultLimits)
		if err != nil {
			t.Fatalf("read: %v\n%s", err, first)
		}
		if diff := cmp.Diff(convs, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); len(convs) > 0 && diff != "" {
			t.Fatalf("read back (-want +got):\n%s", diff)
		}
		if second := write(t, got); !bytes.Equal(first, second) {
			t.Fatalf("written again differs:\n%s\n---\n%s", first, second)
		}
	}
}

// The JSON is golden: a change to the format shows in review, and must
// come with a new version when an older reader could not take it.
func TestGoldenJSON(t *testing.T) {
	golden(t, "sample.json", write(t, sample()))
}

func TestGoldenMarkdown(t *testing.T) {
	for _, lang := range []string{"en", "ko"} {
		var b bytes.Buffer
		mw := NewMarkdownWriter(&b, lang, time.UTC, t0)
		for _, c := range sample() {
			if err := mw.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := mw.Close(); err != nil {
			t.Fatal(err)
		}
		golden(t, "sample."+lang+".md", b.Bytes())
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// Files that are not exports, and exports that cannot be taken as they
// are, are refused with what is wrong and where.
func TestHostileArchives(t *testing.T) {
	good := string(write(t, sample()))
	conv := func(body string) string {
		return `{"format":"wayfinder.conversations","version":1,"conversations":[` + body + `]}`
	}
	msg := func(m string) string {
		return conv(`{"id":"c1","title":"t","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[` + m + `]}`)
	}
	const okMsg = `{"id":"m1","role":"user","content":"hi","status":"complete","created_at":"2026-01-01T00:00:00Z"}`
	tests := []struct {
		name, in string
		is       error
		want     string
	}{
		{"empty", "", ErrNotArchive, "the file is empty"},
		{"not JSON", "# My chat\n\nhello", ErrNotArchive, "it is not JSON"},
		{"a list", "[]", ErrNotArchive, "it is not a JSON object"},
		{"another format", `{"format":"chatgpt","version":1,"conversations":[]}`, ErrNotArchive, `"format" is "chatgpt"`},
		{"no format", `{"version":1,"conversations":[]}`, ErrNotArchive, `"format" is ""`},
		{"no version", `{"format":"wayfinder.conversations","conversations":[]}`, ErrNotArchive, `no valid "version"`},
		{"newer version", `{"format":"wayfinder.conversations","version":3,"conversations":[]}`, ErrInvalid, "made by a newer Wayfinder (format version 3; this one reads up to 2)"},
		{"version text", `{"format":"wayfinder.conversations","version":"1"}`, ErrNotArchive, `"version" is not a whole number`},
		{"conversations not a list", `{"format":"wayfinder.conversations","version":1,"conversations":{}}`, ErrInvalid, `"conversations" is not a list`},
		{"cut short", good[:len(good)/2], ErrInvalid, "unexpected EOF"},
		{"trailing data", good + `{"more":1}`, ErrInvalid, "more after the end"},
		{"wrong type", conv(`{"id":"c1","messages":"hello"}`), ErrInvalid, `conversation 1: "messages" should be a JSON array, not a string`},
		{"no id", conv(`{"title":"t","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[]}`), ErrInvalid, "its id"},
		{"id with a path", conv(`{"id":"../../etc","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[]}`), ErrInvalid, "may hold only letters"},
		{"no times", conv(`{"id":"c1","messages":[]}`), ErrInvalid, "created_at and updated_at are required"},
		{"bad role", msg(strings.Replace(okMsg, `"user"`, `"system"`, 1)), ErrInvalid, `message 1: role "system" is not user or assistant`},
		{"bad status", msg(strings.Replace(okMsg, `"complete"`, `"done"`, 1)), ErrInvalid, `status "done"`},
		{"same message twice", msg(okMsg + "," + okMsg), ErrInvalid, "message 2: its id m1 is also a message of conversation c1"},
		{"out of order", msg(strings.Replace(okMsg, "m1", "m2", 1) + "," + okMsg), ErrInvalid, "not in the order of their ids"},
		{"variant of a question", msg(strings.Replace(okMsg, `"created_at"`, `"variants":[`+strings.Replace(okMsg, "m1", "m2", 1)+`],"created_at"`, 1)), ErrInvalid, "message 1: only an answer has other answers"},
		{"variant not an answer", msg(`{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[` + strings.Replace(okMsg, "m1", "m2", 1) + `]}`), ErrInvalid, `message 1, other answer 1: role "user" is not assistant`},
		{"variant with variants", msg(`{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m2","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m3","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z"}]}]}`), ErrInvalid, "an other answer has no other answers of its own"},
		{"variant id taken", msg(`{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m1","role":"assistant","status":"done","created_at":"2026-01-01T00:00:00Z"}]}`), ErrInvalid, "message 1, other answer 1: its id m1 is also a message of conversation c1"},
		{"variant bad status", msg(`{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m2","role":"assistant","status":"done","created_at":"2026-01-01T00:00:00Z"}]}`), ErrInvalid, `message 1, other answer 1: status "done"`},
		{"variants out of order", msg(`{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m2","role":"assistant","status":"complete","created_at":"2026-01-02T00:00:00Z"},{"id":"m3","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z"}]}`), ErrInvalid, "other answer 2: the other answers are not oldest first"},
		{"bad time", msg(strings.Replace(okMsg, "2026-01-01T00:00:00Z", "yesterday", 1)), ErrInvalid, "conversation 1"},
		{"bad settings", conv(`{"id":"c1","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","settings":{"temperature":9,"context_tokens":10},"messages":[]}`), ErrInvalid, "its settings: temperature must be between 0 and 2; context size must be between 2048 and 262144 tokens"},
		{"deep nesting", msg(`{"id":"m1","role":"user","status":"complete","created_at":"2026-01-01T00:00:00Z","result":{"plan":` + strings.Repeat(`{"x":`, 20000) + `1` + strings.Repeat(`}`, 20000) + `}}`), ErrInvalid, "exceeded max depth"},
	}
	cases := map[string]string{"empty": "empty", "not JSON": "not_json", "a list": "not_object", "another format": "format", "no format": "no_format",
		"no version": "no_version", "newer version": "newer", "version text": "version_not_number", "conversations not a list": "not_list",
		"cut short": "cut_short", "trailing data": "trailing", "wrong type": "field_type", "bad time": "conversation_unreadable",
		"bad settings": "settings", "deep nesting": "json_broken"}
	checks := map[string]string{"no id": "id_length", "id with a path": "id_letters", "no times": "no_times", "bad role": "role",
		"bad status": "status", "same message twice": "id_taken", "out of order": "order", "variant of a question": "variants_of_question",
		"variant not an answer": "variant_role", "variant with variants": "variant_variants", "variant id taken": "id_taken",
		"variant bad status": "status", "variants out of order": "variant_order", "bad settings": "temperature",
		"deep nesting": "depth", "bad time": "time"}
	for _, tt := range tests {
		if _, ok := cases[tt.name]; !ok {
			cases[tt.name] = "conversation_check"
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Read(strings.NewReader(tt.in), DefaultLimits, func(Conversation) error { return nil })
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Read = %d, %v; want %v with %q", n, err, tt.is, tt.want)
			}
			// Each refusal is a case the app words in the person's language.
			var p *Problem
			if !errors.As(err, &p) || p.Case != cases[tt.name] || p.Kind != tt.is {
				t.Fatalf("Read = %#v; want the case %q", err, cases[tt.name])
			}
			// What Check refused is a check of its own, worded whole: its
			// English words are no reason shown beside it.
			if want, ok := checks[tt.name]; ok || p.Case == "conversation_check" {
				if p.Args["check"] != want || p.Args["reason"] != "" {
					t.Fatalf("Args = %v; want the check %q and no reason", p.Args, want)
				}
			}
		})
	}
}

// The limits hold, and a conversation far over the budget costs the
// budget, not its size: 200 MB in one message is refused after reading
// about 1 MB of it.
func TestLimitsBoundMemory(t *testing.T) {
	lim := Limits{ConversationBytes: 1 << 20, Messages: 3, MessageRunes: 10, TitleRunes: 5}
	for _, tt := range []struct{ name, in, want string }{
		{"long title", `{"id":"c","title":"일곱 글자 제목","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[]}`, "the title is 8 characters long; the limit is 5"},
		{"long message", `{"id":"c","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[{"id":"m","role":"user","status":"complete","created_at":"2026-01-01T00:00:00Z","content":"열한 글자의 메시지입니다"}]}`, "message 1 is 13 characters long; the limit is 10"},
		{"many messages", `{"id":"c","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[` + strings.Repeat(`{"id":"m","role":"user","status":"complete","created_at":"2026-01-01T00:00:00Z"},`, 3) + `{}]}`, "it has 4 messages; the limit is 3"},
		{"many answers", `{"id":"c","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[` + strings.Repeat(`{"id":"m2","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z"},`, 2) + `{}]}]}`, "it has 4 messages with the other answers; the limit is 3"},
		{"long answer kept", `{"id":"c","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m2","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","content":"열한 글자의 메시지입니다"}]}]}`, "message 1, other answer 1 is 13 characters long; the limit is 10"},
	} {
		in := `{"format":"wayfinder.conversations","version":1,"conversations":[` + tt.in + `]}`
		if _, err := Read(strings.NewReader(in), lim, func(Conversation) error { return nil }); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}

	const size = 200 << 20
	head := `{"format":"wayfinder.conversations","version":1,"conversations":[{"id":"c","messages":[{"id":"m","content":"`
	huge := io.MultiReader(strings.NewReader(head), &repeat{b: 'a', n: size}, strings.NewReader(`"}]}]}`))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Read(huge, lim, func(Conversation) error { return nil })
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "conversation 1 is larger than 1 MB") {
		t.Fatalf("huge conversation: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Fatalf("reading a %d MB conversation allocated %d MB; the budget is 1 MB", size>>20, alloc>>20)
	}
}

// repeat reads n copies of b.
type repeat struct {
	b byte
	n int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// fn's error stops the reading and comes back as it is.
func TestReadStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	n, err := Read(bytes.NewReader(write(t, sample())), DefaultLimits, func(Conversation) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 || n != 1 {
		t.Fatalf("Read = %d, %v after %d calls", n, err, calls)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(string(write(&testing.T{}, sample())))
	f.Add(`{"format":"wayfinder.conversations","version":1,"conversations":[]}`)
	f.Add(`{"conversations":[{"id":"c","messages":[{"id":"m"}]}],"version":1,"format":"wayfinder.conversations"}`)
	f.Fuzz(func(t *testing.T, in string) {
		lim := Limits{ConversationBytes: 1 << 16, Messages: 50, MessageRunes: 1000, TitleRunes: 100}
		got, err := readAll(strings.NewReader(in), lim)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNotArchive) {
				t.Fatalf("an error that is neither ErrInvalid nor ErrNotArchive: %v", err)
			}
			return
		}
		// What was read is an export that reads back the same.
		first := write(t, got)
		again, err := readAll(bytes.NewReader(first), lim)
		if err != nil || !bytes.Equal(write(t, again), first) {
			t.Fatalf("read back: %v\n%s", err, first)
		}
	})
}

func TestDemoteHeadings(t *testing.T) {
	in := "# Guide\n\n## Step\n\n```sh\n# a comment, not a heading\n```\n\n###### deep\n#hashtag"
	want := "### Guide\n\n#### Step\n\n```sh\n# a comment, not a heading\n```\n\n###### deep\n#hashtag"
	if got := demote(in); got != want {
		t.Fatalf("demote:\n%s\nwant:\n%s", got, want)
	}
}

// A plan the person approved is exported as approved, with its steps as
// they approved them.
func TestMarkdownApprovedPlan(t *testing.T) {
	for _, tc := range []struct{ lang, head string }{{"en", "Approved plan"}, {"ko", "승인한 계획"}} {
		var b bytes.Buffer
		mw := NewMarkdownWriter(&b, tc.lang, time.UTC, t0)
		c := sample()[0]
		c.PendingApproval = false
		c.Messages = []Message{{ID: "m1", Role: api.RoleAssistant, Content: "x", Status: api.StatusComplete, CreatedAt: t0,
			Result: &api.TurnResult{Plan: &api.PlanApproval{Round: 1, Decided: api.ActionApprove, SubTasks: []api.SubTask{{ID: "a", Title: "Cut the clips"}}}}}}
		if err := mw.Add(c); err != nil {
			t.Fatal(err)
		}
		if err := mw.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.head) || !strings.Contains(b.String(), "Cut the clips") {
			t.Fatalf("%s export:\n%s", tc.lang, b.String())
		}
	}
}

// A conversation made only of attached files (no message titled it) is
// headed with their names, as the window names it, in the export's
// language; one with neither a title nor files is still untitled.
func TestMarkdownTitledByFiles(t *testing.T) {
	for _, tc := range []struct {
		lang  string
		files []string
		want  string
	}{
		{"en", []string{"leave.md"}, "# leave.md\n"},
		{"en", []string{"leave.md", "minutes.txt"}, "# leave.md and minutes.txt\n"},
		{"en", []string{"leave.md", "minutes.txt", "a.pdf"}, "# leave.md and 2 more\n"},
		{"ko", []string{"휴가 규정.md"}, "# 휴가 규정.md\n"},
		{"ko", []string{"휴가 규정.md", "회의록.txt"}, "# 휴가 규정.md, 회의록.txt\n"},
		{"ko", []string{"휴가 규정.md", "회의록.txt", "a.pdf"}, "# 휴가 규정.md 외 2개\n"},
		{"en", nil, "# Untitled conversation\n"},
		{"ko", nil, "# 제목 없는 대화\n"},
	} {
		t.Run(tc.lang+" "+strings.Join(tc.files, ","), func(t *testing.T) {
			var b bytes.Buffer
			mw := NewMarkdownWriter(&b, tc.lang, time.UTC, t0)
			c := Conversation{ID: "s1", CreatedAt: t0, UpdatedAt: t0, Files: tc.files}
			if err := mw.Add(c); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), tc.want) {
				t.Fatalf("%s export starts:\n%s\nwant %q", tc.lang, b.String(), tc.want)
			}
			if got := FilesTitle(tc.files, tc.lang); got != strings.TrimSuffix(strings.TrimPrefix(tc.want, "# "), "\n") && tc.files != nil {
				t.Fatalf("FilesTitle = %q", got)
			}
		})
	}
}

// The JSON export does not carry the files' names: they live in the
// uploads folder, and the format stays what importing reads.
func TestFilesNotInJSON(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if err := w.Add(Conversation{ID: "s1", CreatedAt: t0, UpdatedAt: t0, Messages: []Message{}, Files: []string{"leave.md"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "leave.md") {
		t.Fatalf("the JSON holds the files:\n%s", b.String())
	}
}

// A refusal of Check names what and where in Args, for the app's words:
// the message and the other answer, the value found, the limit.
func TestCheckSaysWhatAndWhere(t *testing.T) {
	lim := Limits{ConversationBytes: 1 << 20, Messages: 3, MessageRunes: 10, TitleRunes: 5}
	const when = `"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"`
	conv := func(body string) string {
		return `{"format":"wayfinder.conversations","version":2,"conversations":[{"id":"c1",` + when + `,` + body + `}]}`
	}
	for _, tt := range []struct {
		name, in string
		want     map[string]string
	}{
		{"role", conv(`"messages":[{"id":"m1","role":"system","status":"complete","created_at":"2026-01-01T00:00:00Z"}]`),
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "role", "msg": "1", "role": `"system"`}},
		{"no role", conv(`"messages":[{"id":"m1","status":"complete","created_at":"2026-01-01T00:00:00Z"}]`),
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "role", "msg": "1", "role": `""`}},
		{"other answer's status", conv(`"messages":[{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m2","role":"assistant","status":"done","created_at":"2026-01-01T00:00:00Z"}]}]`),
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "status", "msg": "1", "variant": "1", "status": `"done"`}},
		{"long title", conv(`"title":"일곱 글자 제목","messages":[]`),
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "title_long", "length": "8", "limit": "5"}},
		{"long message", conv(`"messages":[{"id":"m1","role":"user","status":"complete","created_at":"2026-01-01T00:00:00Z","content":"열한 글자의 메시지입니다"}]`),
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "message_long", "msg": "1", "length": "13", "limit": "10"}},
		{"temperature", conv(`"settings":{"temperature":9},"messages":[]`),
			map[string]string{"case": "settings", "n": "1", "id": "c1", "check": "temperature", "max": "2"}},
		{"context", conv(`"settings":{"context_tokens":10},"messages":[]`),
			map[string]string{"case": "settings", "n": "1", "id": "c1", "check": "context", "min": "2048", "max": "262144"}},
		{"prompt", conv(`"settings":{"system_prompt":"` + strings.Repeat("가", 4001) + `"},"messages":[]`),
			map[string]string{"case": "settings", "n": "1", "id": "c1", "check": "prompt_too_long", "length": "4001", "max": "4000"}},
		{"a character out of place", `{"format":"wayfinder.conversations","version":2,"conversations":[{"id":'c1'}]}`,
			map[string]string{"case": "json_broken", "byte": "65", "check": "char", "char": `'\''`}},
		{"a time in other words", conv(`"messages":[{"id":"m1","role":"user","status":"complete","created_at":"yesterday"}]`),
			map[string]string{"case": "conversation_unreadable", "n": "1", "check": "time", "value": `"yesterday"`}},
		{"a long id is cut", `{"format":"wayfinder.conversations","version":2,"conversations":[{"id":"` + strings.Repeat("x", 100) + `",` + when + `,"messages":[]}]}`,
			map[string]string{"case": "conversation_check", "n": "1", "id": strings.Repeat("x", 64) + "…", "check": "id_length"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), lim, func(Conversation) error { return nil })
			var p *Problem
			if !errors.As(err, &p) {
				t.Fatalf("Read = %v; want a Problem", err)
			}
			got := map[string]string{"case": p.Case}
			for k, v := range p.Args {
				got[k] = v
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Args = %v\nwant %v", got, tt.want)
			}
		})
	}
}
