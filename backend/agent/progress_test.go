package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
)

// TestProgressEvents: the trace says what the window's progress line and
// `ask`'s progress lines need — the phase (routing, planning, each
// sub-task, the guide), each sub-task's id, number and the plan's length
// when it starts and ends, and the finished sub-task's card, in order and
// before the guide.
func TestProgressEvents(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	scriptComplex(e)
	plan, out := turn(t, a, chat.Turn{SessionID: "p", Text: shortsTask})
	if got := codes(out); !strings.HasPrefix(got, "routing routed plan_splitting") {
		t.Fatalf("before the plan: %s", got)
	}

	_, out = turn(t, a, chat.Turn{SessionID: "p", Text: "✓ Approved", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
	var lines []string
	for _, ev := range out.traces {
		switch ev.Code {
		case api.TraceToolFinding:
			lines = append(lines, fmt.Sprintf("start %s %s/%s %s", ev.Args["id"], ev.Args["number"], ev.Args["total"], ev.Args["step"]))
		case api.TraceStepRecommend:
			if ev.Recommendation == nil || ev.Recommendation.SubTaskID != ev.Args["id"] || ev.Recommendation.Tool != ev.Args["tool"] {
				t.Fatalf("a finished step without its card: %+v", ev)
			}
			lines = append(lines, fmt.Sprintf("done %s %s/%s %s", ev.Args["id"], ev.Args["number"], ev.Args["total"], ev.Recommendation.Tool))
		case api.TraceGuideWriting:
			lines = append(lines, "guide")
		}
	}
	want := []string{
		"start s1 1/3 대본 작성", "done s1 1/3 ChatGPT",
		"start s2 2/3 영상 편집", "done s2 2/3 Vrew",
		"start s3 3/3 썸네일 제작", "done s3 3/3 Canva",
		"guide",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("progress of the approved plan:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// codes lists the trace's coded sentences in order.
func codes(o *output) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for _, ev := range o.traces {
		if ev.Code != "" {
			out = append(out, string(ev.Code))
		}
	}
	return strings.Join(out, " ")
}
