package archive_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/archive"
)

// Wayfinder's own lines are worded in the export's language from their
// key, whatever language they were stored in; the model's words and a key
// the agent does not know are written as stored. (An external test: the
// archive package itself does not import the agent.)
func TestMarkdownLinesInExportLanguage(t *testing.T) {
	const (
		introKo = "계획을 세웠어요 — 승인하거나, 단계를 고치거나, 다시 세우도록 의견을 주세요."
		introEn = "Here is a plan — approve, edit or revise it."
	)
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, lang, stored, key string
		args                    map[string]string
		lines                   archive.LineFunc
		want, notWant           string
	}{
		{"korean intro in english", "en", introKo, "plan_intro", nil, agent.Line, introEn, introKo},
		{"english intro in korean", "ko", introEn, "plan_intro", nil, agent.Line, introKo, introEn},
		{"tool ask keeps its tool", "en", "web_search 도구를 사용하려고 해요. 실행할지 정해 주세요.", "tool_ask",
			map[string]string{"tool": "web_search"}, agent.Line, "I would like to use web_search. Please decide whether it may run.", "도구"},
		{"remembered keeps what", "ko", "Got it, I'll remember: “tea”\n\nYou can change or delete it any time in Memory.", "remembered",
			map[string]string{"what": "tea"}, agent.Line, "기억해 둘게요: “tea”", "Got it"},
		{"tool ask without its tool stays", "en", "x 도구를 사용하려고 해요.", "tool_ask", nil, agent.Line, "x 도구를 사용하려고 해요.", "I would like"},
		{"unknown key stays", "en", "저장된 그대로", "no_such_key", nil, agent.Line, "저장된 그대로", ""},
		{"model words stay", "en", "모델이 쓴 답", "", nil, agent.Line, "모델이 쓴 답", ""},
		{"no line func stays", "en", introKo, "plan_intro", nil, nil, introKo, introEn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			mw := archive.NewMarkdownWriter(&b, tc.lang, time.UTC, t0)
			if tc.lines != nil {
				mw = mw.WithLines(tc.lines)
			}
			c := archive.Conversation{ID: "c1", Title: "t", CreatedAt: t0, Messages: []archive.Message{{ID: "m1", Role: api.RoleAssistant,
				Content: tc.stored, Status: api.StatusComplete, CreatedAt: t0, Result: &api.TurnResult{TextKey: tc.key, TextArgs: tc.args}}}}
			if err := mw.Add(c); err != nil {
				t.Fatal(err)
			}
			if err := mw.Close(); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			if !strings.Contains(got, tc.want) || (tc.notWant != "" && strings.Contains(got, tc.notWant)) {
				t.Fatalf("want %q and not %q in:\n%s", tc.want, tc.notWant, got)
			}
		})
	}
}

// A plan or tool call that no longer waits is said as what became of it,
// as the window shows it; the one the conversation still waits on keeps
// its question, and words the model wrote before the line stay.
func TestMarkdownSaysWhatBecameOfAQuestion(t *testing.T) {
	const intro = "Here is a plan — approve, edit or revise it."
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	plan := func(d api.ApprovalAction) *api.TurnResult {
		return &api.TurnResult{Response: intro, TextKey: "plan_intro", Plan: &api.PlanApproval{Decided: d, SubTasks: []api.SubTask{{ID: "s1", Title: "대본"}}}}
	}
	for _, tc := range []struct {
		name, lang, content string
		result              *api.TurnResult
		waiting             bool
		want, notWant       string
	}{
		{"approved", "en", intro, plan(api.ActionApprove), false, "\nYou approved this plan.\n", intro},
		{"cancelled, in korean", "ko", intro, plan(api.ActionCancel), false, "\n이 계획을 취소했습니다.\n", intro},
		{"never decided", "en", intro, plan(""), false, "\nA plan was proposed here.\n", intro},
		{"still waiting", "en", intro, plan(""), true, "\n" + intro + "\n", "proposed"},
		{"words before the line stay", "en", "I looked at it.\n\n" + intro, plan(api.ActionApprove), false, "I looked at it.\n\nYou approved this plan.", intro},
		{"tool call decided", "en", "I would like to use web_search. Please decide whether it may run.",
			&api.TurnResult{TextKey: "tool_ask", TextArgs: map[string]string{"tool": "web_search"}, ToolCall: &api.ToolApproval{Tool: "web_search"}}, false,
			"You decided on this web_search call.", "Please decide"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			mw := archive.NewMarkdownWriter(&b, tc.lang, time.UTC, t0).WithLines(agent.Line)
			c := archive.Conversation{ID: "c1", Title: "t", CreatedAt: t0, PendingApproval: tc.waiting, Messages: []archive.Message{{ID: "m1", Role: api.RoleAssistant,
				Content: tc.content, Status: api.StatusComplete, CreatedAt: t0, Result: tc.result}}}
			if err := mw.Add(c); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
				t.Fatalf("want %q and not %q in:\n%s", tc.want, tc.notWant, got)
			}
		})
	}
}

// What became of a plan or a tool call reads in the export as in the
// window, word for word in both languages: the export keeps its own copy
// of the window's line.plan_* and line.tool_decided (the archive does not
// read the frontend's catalogs), and this holds the two together.
func TestMarkdownDecidedLinesAreTheWindows(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, lang := range []string{"en", "ko"} {
		catalog := i18ntest.Catalog(t, lang)
		for key, result := range map[string]*api.TurnResult{
			"line.plan_approved":  {Plan: &api.PlanApproval{Decided: api.ActionApprove}},
			"line.plan_revised":   {Plan: &api.PlanApproval{Decided: api.ActionRevise}},
			"line.plan_cancelled": {Plan: &api.PlanApproval{Decided: api.ActionCancel}},
			"line.plan_closed":    {Plan: &api.PlanApproval{}},
			"line.tool_decided":   {ToolCall: &api.ToolApproval{Tool: "web_search"}},
		} {
			var out bytes.Buffer
			c := archive.Conversation{ID: "c1", Title: "t", CreatedAt: t0, Messages: []archive.Message{{ID: "m1", Role: api.RoleAssistant,
				Content: "?", Status: api.StatusComplete, CreatedAt: t0, Result: result}}}
			if err := archive.NewMarkdownWriter(&out, lang, time.UTC, t0).Add(c); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(catalog[key], "{tool}", "web_search")
			if want == "" || !strings.Contains(out.String(), "\n"+want+"\n") {
				t.Errorf("%s %s: the window says %q; the export:\n%s", lang, key, want, out.String())
			}
		}
	}
}
