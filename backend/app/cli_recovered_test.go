// How `ask --approve` treats a plan recovered from the model's broken
// replies (approvesAtOnce in cli_ask.go).

package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// --approve approves a plan at once, but not one recovered from a broken
// reply: on a terminal it is asked about, saying why; in a script it is
// refused in one line, in the command's language, and shown.
func TestApproveAsksAboutARecoveredPlan(t *testing.T) {
	plan := &api.PlanApproval{Version: "v1", Round: 1, SubTasks: []api.SubTask{{ID: "s1", Title: "대본 작성"}, {ID: "s2", Title: "영상 편집"}}}
	recovered := &api.TurnResult{Plan: plan, TextKey: agent.TextKeyPlanRecovered}
	planned := &api.TurnResult{Plan: plan, TextKey: "plan_intro"}
	for _, tt := range []struct {
		name              string
		res               *api.TurnResult
		approve, terminal bool
		lang              int
		auto              bool
		err, said         string // in the error; on standard error
	}{
		{"a plan, --approve", planned, true, false, 0, true, "", ""},
		{"recovered, no --approve", recovered, false, false, 0, false, "", ""},
		{"recovered, --approve, terminal", recovered, true, true, 0, false, "", "--approve does not approve it: decide it yourself."},
		{"recovered, --approve, terminal, Korean", recovered, true, true, 1, false, "", "--approve로 승인하지 않습니다. 직접 결정해 주세요."},
		{"recovered, --approve, script", recovered, true, false, 0, false,
			"not approved: this plan was recovered from the model's broken reply and may miss steps, so --approve does not run it unseen; decide it with: wayfinder ask --session abc", "1. 대본 작성"},
		{"recovered, --approve, script, Korean", recovered, true, false, 1, false,
			"승인하지 않았습니다. 모델이 보낸 깨진 답에서 살린 계획이라 빠진 단계가 있을 수 있어 --approve로 보지 않고 실행하지 않습니다. 결정하려면: wayfinder ask --session abc", "제안된 계획(1번째)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			auto, err := approvesAtOnce(tt.res, tt.approve, tt.terminal, "abc", stdio{err: &errOut}, tt.lang)
			if auto != tt.auto || (err != nil) != (tt.err != "") || (err != nil && err.Error() != tt.err) {
				t.Fatalf("approvesAtOnce = %v, %v; want %v, %q", auto, err, tt.auto, tt.err)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("the refusal is more than one line: %q", err)
			}
			if !strings.Contains(errOut.String(), tt.said) || (tt.said == "" && errOut.Len() > 0) {
				t.Fatalf("said %q, want %q", errOut.String(), tt.said)
			}
		})
	}
}

// End to end: the planner's two replies are cut, its two whole steps are
// recovered; `ask --approve` from a script fails (exit 1) and leaves the
// plan waiting with nothing run, and from a terminal puts it to the
// person, whose approval runs it.
func TestAskApproveRefusesARecoveredPlanUnseen(t *testing.T) {
	fake := ollamatest.New(t)
	cut := ollamatest.Reply{Text: `{"sub_tasks":[{"id":"s1","title":"대본 작성","detail":"30초 분량"},{"id":"s2","title":"영상 편집","detail":"세로 영상"},{"id":"s3","title":"썸`}
	fake.On(ollamatest.SystemContains(agent.RolePlanner), cut, cut, cut, cut)
	fake.On(ollamatest.SystemContains(agent.RoleScout), ollamatest.Reply{Text: "Found it."})
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--workflow", "testdata/plan-first.workflow.json"}
	scouted := func() (n int) {
		for _, req := range fake.ChatRequests() {
			if ollamatest.SystemContains(agent.RoleScout)(req) {
				n++
			}
		}
		return n
	}

	code, _, errOut := wayfinder(t, append(base, "ask", "--approve", "Make a video about my café")...)
	sess := onlySession(t, dir)
	if code != 1 || !strings.Contains(errOut, "wayfinder: not approved: this plan was recovered") ||
		!strings.Contains(errOut, "1. 대본 작성 — 30초 분량\n  2. 영상 편집 — 세로 영상\n") || strings.Contains(errOut, "Approved (--approve)") {
		t.Fatalf("ask --approve from a script: exit %d\n%s", code, errOut)
	}
	if !sess.PendingApproval || scouted() != 0 {
		t.Fatalf("the recovered plan ran: pending %v, %d scout calls", sess.PendingApproval, scouted())
	}

	code, _, errOut = inTerminal(t, "a\n", append(base, "ask", "--approve", "--session", sess.ID)...)
	if code != 0 || !strings.Contains(errOut, "--approve does not approve it: decide it yourself.") ||
		!strings.Contains(errOut, "[a]pprove") || strings.Contains(errOut, "Approved (--approve)") {
		t.Fatalf("ask --approve on a terminal: exit %d\n%s", code, errOut)
	}
	if onlySession(t, dir).PendingApproval || scouted() == 0 {
		t.Fatalf("approved at the terminal, yet not run: %d scout calls", scouted())
	}
}
