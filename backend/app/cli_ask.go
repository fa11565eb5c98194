package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
)

// askText holds what `wayfinder ask` says around the reply — where its
// sources and attachments are, the session to continue, a plan or a tool
// call to decide — in English and Korean (say finds it beside cliText).
// The answers to its questions stay the letters shown ([a], [r]…).
var askText = map[string][2]string{
	"ask.waitingPlan": {"A plan in this conversation is waiting for your decision.", "이 대화에서 계획이 결정을 기다리고 있습니다."},
	"ask.waitingTool": {"A tool call in this conversation is waiting for your decision.", "이 대화에서 도구 호출이 결정을 기다리고 있습니다."},
	"ask.sentAfter":   {"Your message is sent once it is decided.", "결정하고 나면 메시지를 보냅니다."},
	"ask.stillWaitingPlan": {"the plan is still waiting; decide later with: wayfinder ask --session {id}",
		"계획이 아직 기다리고 있습니다. 나중에 결정하려면: wayfinder ask --session {id}"},
	"ask.stillWaitingTool": {"the tool call is still waiting; decide later with: wayfinder ask --session {id}",
		"도구 호출이 아직 기다리고 있습니다. 나중에 결정하려면: wayfinder ask --session {id}"},
	"ask.interrupted": {"stopped before the reply was complete; the partial reply is saved in the session (continue it with: wayfinder ask --session {id} \"…\")",
		"답이 끝나기 전에 멈췄습니다. 여기까지의 답은 대화에 저장되어 있습니다(이어서 하려면: wayfinder ask --session {id} \"…\")"},
	"ask.session":     {"Session {id} (continue it with: wayfinder ask --session {id} \"…\")", "대화 {id} (이어서 하려면: wayfinder ask --session {id} \"…\")"},
	"ask.sources":     {"Sources:", "출처:"},
	"ask.attachments": {"Attachments:", "첨부 파일:"},
	"ask.attachment":  {"{path} ({kind} {mime}, {size}, from {tool})", "{path} ({kind} {mime}, {size}, {tool}에서)"},
	"ask.plan":        {"Proposed plan (round {round}):", "제안된 계획({round}번째):"},
	"ask.planAgain": {"The work on this plan stopped before it finished; it is offered again as you approved it. Approved again, it keeps the tools its unchanged steps found and runs only the rest.",
		"이 계획의 작업이 끝나기 전에 멈췄습니다. 승인하신 그대로 다시 제안합니다. 다시 승인하면 바뀌지 않은 단계가 찾은 도구는 그대로 두고 나머지만 진행합니다."},
	"ask.approved": {"Approved (--approve).", "승인했습니다(--approve)."},
	"ask.recoveredAsk": {"This plan was recovered from the model's broken reply and may miss steps, so --approve does not approve it: decide it yourself.",
		"모델이 보낸 깨진 답에서 살린 계획이라 빠진 단계가 있을 수 있어 --approve로 승인하지 않습니다. 직접 결정해 주세요."},
	"ask.recoveredRefused": {"not approved: this plan was recovered from the model's broken reply and may miss steps, so --approve does not run it unseen; decide it with: wayfinder ask --session {id}",
		"승인하지 않았습니다. 모델이 보낸 깨진 답에서 살린 계획이라 빠진 단계가 있을 수 있어 --approve로 보지 않고 실행하지 않습니다. 결정하려면: wayfinder ask --session {id}"},
	"ask.planPrompt": {"[a]pprove, [r]evise with feedback, or [c]ancel?", "[a] 승인, [r] 의견을 주고 고치기, [c] 취소?"},
	"ask.whatChange": {"What should change?", "무엇을 바꿀까요?"},
	// An answer that is none of the choices says which they are, where
	// the question came again without a word.
	"ask.answerPlan": {"Type a, r or c.", "a, r, c 중 하나를 입력하세요."},
	"ask.answerTool": {"Type r, a or d.", "r, a, d 중 하나를 입력하세요."},
	"ask.noAnswerPlan": {"no answer on standard input; the plan stays waiting in the session (use --approve in scripts)",
		"표준 입력에 답이 없습니다. 계획은 대화에서 계속 기다립니다(스크립트에서는 --approve를 쓰세요)"},
	"ask.noFeedback": {"no feedback on standard input; the plan stays waiting in the session", "표준 입력에 의견이 없습니다. 계획은 대화에서 계속 기다립니다"},
	"ask.toolWants":  {"The assistant wants to run the tool {name}.", "어시스턴트가 도구 {name}을(를) 실행하려고 합니다."},
	"ask.untrusted": {"Asked because text from documents, tool results or the web may have steered this call.",
		"문서, 도구 결과 또는 웹의 글이 이 호출을 이끌었을 수 있어 묻습니다."},
	"ask.alwaysAsk": {"This tool asks before every call.", "이 도구는 호출할 때마다 묻습니다."},
	"ask.againStopped": {"You stopped this call before it finished (its server had not answered); it may have done part of its work.",
		"이 호출이 끝나기 전에 멈추셨습니다(서버가 응답하지 않았음). 작업의 일부를 했을 수 있습니다."},
	"ask.againClosed": {"Wayfinder closed after this call was decided and before the work finished; it may have run already.",
		"이 호출을 결정한 뒤 작업이 끝나기 전에 Wayfinder가 닫혔습니다. 이미 실행되었을 수 있습니다."},
	"ask.arguments":  {"Arguments:", "인수:"},
	"ask.ranOnce":    {"Ran once (--approve-tools).", "한 번 실행했습니다(--approve-tools)."},
	"ask.toolPrompt": {"[r]un once, [a]lways for this tool, or [d]eny?", "[r] 한 번 실행, [a] 이 도구는 항상 허용, [d] 거부?"},
	"ask.noAnswerTool": {"no answer on standard input; the call stays waiting in the session (use --approve-tools in scripts)",
		"표준 입력에 답이 없습니다. 호출은 대화에서 계속 기다립니다(스크립트에서는 --approve-tools를 쓰세요)"},
}

// printSources lists what the reply's [n] markers point at, as the window
// lists them under the reply.
func printSources(s stdio, srcs []api.Source, lang int) {
	if len(srcs) == 0 {
		return
	}
	fmt.Fprintln(s.out)
	sayLine(s.out, "", "  ", say("ask.sources", lang))
	for i, src := range srcs {
		parts := []string{src.Title}
		if src.Source != "" && src.Source != src.Title {
			parts = append(parts, src.Source)
		}
		if src.Page > 0 {
			parts = append(parts, say("kb."+unitWord(src.Unit), lang, "page", strconv.Itoa(src.Page)))
		}
		if src.URL != "" {
			parts = append(parts, src.URL)
		}
		// Wrapped at spaces on a terminal, a long address on a line of
		// its own, where the terminal cut it ("https://invideo" / ".io").
		sayLine(s.out, fmt.Sprintf("[%d] ", i+1), "    ", strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " — "))
	}
}

// printAttachments lists the files tools returned (an MCP tool's
// images), where the window shows them under the reply: the terminal
// cannot show a picture, so it says where the file is.
func printAttachments(s stdio, calls []api.ToolCallRecord, lang int) {
	var lines []string
	for _, c := range calls {
		for _, a := range c.Attachments {
			lines = append(lines, say("ask.attachment", lang, "path", a.Path, "kind", a.Kind, "mime", a.MIME, "size", sizeText(a.Size), "tool", c.Tool))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(s.out)
	sayLine(s.out, "", "  ", say("ask.attachments", lang))
	for _, l := range lines {
		fmt.Fprintln(s.out, l)
	}
}

// sizeText is a file's size in words a person reads.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// approvesAtOnce reports whether --approve (approve) answers the plan res
// waits on without asking. A plan recovered from the model's broken
// replies (agent.TextKeyPlanRecovered) is its words read back, some steps
// possibly missing: it never runs unseen. On a terminal it is asked about
// instead, saying why; without one (a script) it is refused, shown and
// left waiting in the session, and the command fails.
func approvesAtOnce(res *api.TurnResult, approve, terminal bool, sessionID string, s stdio, lang int) (bool, error) {
	if !approve || res == nil || res.TextKey != agent.TextKeyPlanRecovered {
		return approve, nil
	}
	if !terminal {
		showPlan(res.Plan, s, lang)
		return false, errors.New(say("ask.recoveredRefused", lang, "id", sessionID))
	}
	fmt.Fprintln(s.err)
	sayLine(s.err, "", "  ", say("ask.recoveredAsk", lang))
	return false, nil
}

// showPlan prints a proposed plan, its steps numbered.
func showPlan(plan *api.PlanApproval, s stdio, lang int) {
	fmt.Fprintln(s.err)
	sayLine(s.err, "", "  ", say("ask.plan", lang, "round", strconv.Itoa(plan.Round)))
	for i, st := range plan.SubTasks {
		fmt.Fprintf(s.err, "  %d. %s", i+1, st.Title)
		if st.Detail != "" {
			fmt.Fprintf(s.err, " — %s", st.Detail)
		}
		fmt.Fprintln(s.err)
	}
	if plan.Again != "" {
		sayLine(s.err, "", "  ", say("ask.planAgain", lang))
	}
}

// decide shows a proposed plan and asks what to do with it. With
// autoApprove it approves at once, for scripts.
func decide(ctx context.Context, plan *api.PlanApproval, autoApprove bool, in *lineReader, s stdio, lang int) (api.ApprovalDecision, error) {
	showPlan(plan, s, lang)
	// The decision names the plan it answers: if the plan changed
	// meanwhile (another window decided), it is refused, not misapplied.
	v := plan.Version
	if autoApprove {
		sayLine(s.err, "", "  ", say("ask.approved", lang))
		return api.ApprovalDecision{Action: api.ActionApprove, Version: v}, nil
	}
	for {
		fmt.Fprint(s.err, say("ask.planPrompt", lang)+" ")
		line, err := in.readLine(ctx)
		if ctx.Err() != nil {
			return api.ApprovalDecision{}, ctx.Err()
		}
		if err != nil && strings.TrimSpace(line) == "" {
			return api.ApprovalDecision{}, fmt.Errorf("%w: %s", errUsage, say("ask.noAnswerPlan", lang))
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "approve", "y", "yes":
			return api.ApprovalDecision{Action: api.ActionApprove, Version: v}, nil
		case "c", "cancel":
			return api.ApprovalDecision{Action: api.ActionCancel, Version: v}, nil
		case "r", "revise":
			fmt.Fprint(s.err, say("ask.whatChange", lang)+" ")
			fb, err := in.readLine(ctx)
			if ctx.Err() != nil {
				return api.ApprovalDecision{}, ctx.Err()
			}
			if strings.TrimSpace(fb) != "" {
				return api.ApprovalDecision{Action: api.ActionRevise, Feedback: strings.TrimSpace(fb), Version: v}, nil
			}
			if err != nil {
				return api.ApprovalDecision{}, fmt.Errorf("%w: %s", errUsage, say("ask.noFeedback", lang))
			}
		case "":
		default:
			fmt.Fprintln(s.err, say("ask.answerPlan", lang))
		}
	}
}

// decideTool shows a tool call that waits for approval, arguments in
// full, and asks whether it may run. With autoApprove (--approve-tools)
// it runs once at once, for scripts.
func decideTool(ctx context.Context, tc api.ToolApproval, autoApprove bool, in *lineReader, s stdio, lang int) (api.ApprovalDecision, error) {
	name := toolName(tc.Tool, lang)
	if tc.Server != "" {
		name = tc.Server + " / " + tc.Tool
	}
	fmt.Fprintln(s.err)
	sayLine(s.err, "", "  ", say("ask.toolWants", lang, "name", name))
	if about := toolAboutLine(tc.Tool, tc.Server, tc.Description, lang); about != "" {
		fmt.Fprintf(s.err, "  %s\n", about)
	}
	switch tc.Reason {
	case api.ReasonUntrusted:
		fmt.Fprintln(s.err, " ", say("ask.untrusted", lang))
	case api.ReasonAlwaysAsk:
		fmt.Fprintln(s.err, " ", say("ask.alwaysAsk", lang))
	}
	switch tc.Again {
	case "":
	case api.AgainStopped:
		fmt.Fprintln(s.err, " ", say("ask.againStopped", lang))
	default:
		fmt.Fprintln(s.err, " ", say("ask.againClosed", lang))
	}
	fmt.Fprintf(s.err, "%s\n%s\n", say("ask.arguments", lang), prettyJSON(tc.Arguments))
	v := tc.ID
	if autoApprove {
		sayLine(s.err, "", "  ", say("ask.ranOnce", lang))
		return api.ApprovalDecision{Action: api.ActionRunOnce, Version: v}, nil
	}
	for {
		fmt.Fprint(s.err, say("ask.toolPrompt", lang)+" ")
		line, err := in.readLine(ctx)
		if ctx.Err() != nil {
			return api.ApprovalDecision{}, ctx.Err()
		}
		if err != nil && strings.TrimSpace(line) == "" {
			return api.ApprovalDecision{}, fmt.Errorf("%w: %s", errUsage, say("ask.noAnswerTool", lang))
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "r", "run", "once", "y", "yes":
			return api.ApprovalDecision{Action: api.ActionRunOnce, Version: v}, nil
		case "a", "always":
			return api.ApprovalDecision{Action: api.ActionAlways, Version: v}, nil
		case "d", "deny", "n", "no":
			return api.ApprovalDecision{Action: api.ActionDeny, Version: v}, nil
		case "":
		default:
			fmt.Fprintln(s.err, say("ask.answerTool", lang))
		}
	}
}

// prettyJSON indents a JSON object for reading; anything else is shown as
// it is.
func prettyJSON(raw string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(raw), "  ", "  "); err != nil {
		return "  " + raw
	}
	return "  " + b.String()
}
