package agent

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// The approval gate: before the tools node runs a batch of calls, every
// call that needs the person's approval is asked about, one at a time, as
// a graph interrupt like the plan's (the turn ends waiting; the question
// survives quitting the app in the checkpoint; the decision resumes the
// run). A call needs approval when its tool says so for every call
// (Tool.AlwaysAsk: MCP tools, which can act), or when it was flagged
// (ToolCall.NeedsApproval) because text from outside was in the model's
// context when it chose a tool that reads files or the network
// (markApprovals, trust.go). "Always for this tool" is kept by Deps.Grants.
//
// How a tool plugs in (MCP, or any tool that acts): the gate needs no
// code of the tool's own, only what its *tools.Tool declares —
//
//	&tools.Tool{
//		Name:      "files__write_file", // unique in the registry; grants are kept by name and Origin
//		Server:    "files",             // who provides it; shown in the dialog and the grants
//		Origin:    "3f9a…",             // exactly what provides it: grants hold for it only
//		AlwaysAsk: true,                // ask before every call (until "always for this tool")
//		ReadOnly:  ann.ReadOnlyHint,    // runs unasked where Deps.ReadOnlyAllowed(Server) is true
//		Outside:   true,                // its results are data: later file/network calls get flagged
//		Reaches:   true,                // it reads files or the network itself
//		...
//	}
//
// Add it to the registry the agent gets (Deps.Tools): a tool with a
// Server is offered on the answer and the recommend loops beside the
// built-in ones (toolset), and the gate asks about each of its calls,
// whichever loop or sub-task makes it; the dialog, ask's prompt,
// --approve-tools, grants and their revocation in Settings, the trace and
// the message details then work for it unchanged. Deps.ReadOnlyAllowed
// (nil: never) is the person's per-server choice to let read-only tools
// run without asking.
// Grants are the tools the person allowed for good ("always for this
// tool"); the store keeps them, Settings lists and revokes them.
// A grant holds for the tool's Origin only: a server replaced by another
// program under the same name asks again.
type Grants interface {
	ToolGranted(ctx context.Context, tool, origin string) (bool, error)
	GrantTool(ctx context.Context, tool, server, origin string) error
}

// toolRequest is the payload of a tool call's approval interrupt.
type toolRequest struct {
	ToolCall api.ToolApproval `json:"tool_call"`
}

// approvalRequest reads the payload of any approval interrupt: a plan's
// (planRequest) or a tool call's (toolRequest).
type approvalRequest struct {
	Approval *api.PlanApproval `json:"approval,omitempty"`
	ToolCall *api.ToolApproval `json:"tool_call,omitempty"`
	Note     string            `json:"note,omitempty"`
	Problem  string            `json:"problem,omitempty"`
}

// version is what a decision must carry to answer the request; an
// interrupt saved before versions existed has none (and takes none).
func (r approvalRequest) version() string {
	switch {
	case r.Approval != nil:
		return r.Approval.Version
	case r.ToolCall != nil:
		return r.ToolCall.ID
	}
	return ""
}

// gateCall is a call of a batch as the gate sees it: its id, and whether
// it was flagged when the model made it.
type gateCall struct {
	tools.Call
	ID      string
	Flagged bool
}

// verdict is what the gate decided about one call.
type verdict struct {
	run bool
	how string // api.ToolDecided*
}

// gate decides, in order, whether each call of a batch may run. A call
// that needs the person and has no answer yet is asked about, which ends
// the node (the error must be returned as is); answers are matched to
// calls by the call's id, so a grant given or revoked while the run
// waits never lends one call's answer to another.
func (a *Agent) gate(ctx context.Context, s State, rt *graph.Runtime, reg *tools.Registry, calls []gateCall) ([]verdict, error) {
	answers, err := graph.Answers[api.ApprovalDecision](rt)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]api.ApprovalDecision, len(answers))
	for _, d := range answers {
		byID[d.Version] = d
	}
	out := make([]verdict, len(calls))
	for i, c := range calls {
		t, ok := reg.Lookup(c.Name)
		reason := api.ToolAskReason("")
		if ok {
			if _, err := t.Validate(c.Args); err == nil { // a call that can only fail needs nobody
				reason = a.askReason(t, c)
			}
		}
		if reason == "" {
			out[i] = verdict{run: true, how: api.ToolDecidedAuto}
			continue
		}
		if d, ok := byID[c.ID]; ok {
			out[i] = a.apply(ctx, rt, t, d)
			continue
		}
		if a.granted(ctx, t) {
			out[i] = verdict{run: true, how: api.ToolDecidedGranted}
			a.traceDecision(rt, t.Name, out[i])
			continue
		}
		args, _ := json.Marshal(c.Args)
		if len(c.Args) == 0 {
			args = []byte("{}")
		}
		req := toolRequest{ToolCall: api.ToolApproval{ID: c.ID, Tool: t.Name, Server: t.Server, Description: t.Description,
			Arguments: string(args), Reason: reason, ReadOnly: t.ReadOnly, Again: api.AgainReason(s.Again)}}
		ev := say(api.TraceToolAsk, "tool", t.Name).event(api.TraceToolSelected, rt.Node())
		ev.Tool = t.Name
		rt.Emit(eventTrace, ev)
		return nil, graph.AskNext(rt, req)
	}
	return out, nil
}

// askReason says why a call needs the person, or "" when it does not.
func (a *Agent) askReason(t *tools.Tool, c gateCall) api.ToolAskReason {
	switch {
	case t.AlwaysAsk:
		if t.ReadOnly && a.deps.ReadOnlyAllowed != nil && a.deps.ReadOnlyAllowed(t.Server) {
			return ""
		}
		return api.ReasonAlwaysAsk
	case c.Flagged:
		return api.ReasonUntrusted
	}
	return ""
}

// granted reports whether the person allowed the tool for good. A grant
// that cannot be read counts as none: the person is asked instead.
func (a *Agent) granted(ctx context.Context, t *tools.Tool) bool {
	if a.deps.Grants == nil {
		return false
	}
	ok, err := a.deps.Grants.ToolGranted(ctx, t.Name, t.Origin)
	if err != nil {
		a.log.Warn("read a tool grant", "tool", t.Name, "err", err)
	}
	return ok && err == nil
}

// apply turns the person's answer about a call into a verdict; "always"
// is remembered (again on every run of the node, which is harmless).
// Anything but an allowing answer denies: nothing runs on a misread.
func (a *Agent) apply(ctx context.Context, rt *graph.Runtime, t *tools.Tool, d api.ApprovalDecision) verdict {
	v := verdict{how: api.ToolDecidedDenied}
	switch d.Action {
	case api.ActionRunOnce:
		v = verdict{run: true, how: api.ToolDecidedOnce}
	case api.ActionAlways:
		v = verdict{run: true, how: api.ToolDecidedAlways}
		if a.deps.Grants != nil {
			if err := a.deps.Grants.GrantTool(ctx, t.Name, t.Server, t.Origin); err != nil {
				a.log.Warn("remember a tool grant", "tool", t.Name, "err", err)
			}
		}
	}
	a.traceDecision(rt, t.Name, v)
	return v
}

func (a *Agent) traceDecision(rt *graph.Runtime, tool string, v verdict) {
	code := map[string]api.TraceCode{api.ToolDecidedOnce: api.TraceToolOnce, api.ToolDecidedAlways: api.TraceToolAlways,
		api.ToolDecidedGranted: api.TraceToolGranted, api.ToolDecidedDenied: api.TraceToolDenied}[v.how]
	ev := say(code, "tool", tool).event(api.TraceToolSelected, rt.Node())
	ev.Tool = tool
	rt.Emit(eventTrace, ev)
}

// callID names the i-th call of the batch the task runs.
func callID(rt *graph.Runtime, i int) string { return rt.TaskID() + ".call" + strconv.Itoa(i) }

// denied is the observation of a call the person refused: the model
// reads it and goes on without it.
func denied(tool string) string {
	return "The person did not allow this call to " + tool + ", so it did not run. Do not ask for it again; go on without it, and say what you could not do."
}

// maxRecorded bounds a call's result in the message details.
const maxRecorded = 2000

// record is the call as the message details show it.
func record(id string, t *tools.Tool, c tools.Call, v verdict, result string, failed bool, files ...api.Attachment) api.ToolCallRecord {
	args, _ := json.Marshal(c.Args)
	if len(c.Args) == 0 {
		args = []byte("{}")
	}
	r := api.ToolCallRecord{ID: id, Tool: c.Name, Arguments: string(args), Result: cutRunes(result, maxRecorded), Decision: v.how, Error: failed, Attachments: files}
	if t != nil {
		r.Server = t.Server
	}
	return r
}
