// What waits for the person's decision (a plan, a tool call) and the decision.

package api

import "time"

// SubTask is one step of a plan.
type SubTask struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// PlanApproval is a proposed plan waiting for the person.
type PlanApproval struct {
	// Version names this question: every new plan, re-plan, plan asked
	// again and plan offered again after a failure gets a new one. A
	// decision carries it back, so it can only answer the plan the person
	// saw (the graph interrupt's id and the question's number in it).
	Version  string    `json:"version"`
	Round    int       `json:"round"` // 1 for the first plan, 2 after one revision, ...
	Task     string    `json:"task"`
	SubTasks []SubTask `json:"sub_tasks"`
	// Again is set when an approved plan is offered again because the work
	// after the approval did not finish: AgainInterrupted (the app was
	// closed or stopped) or AgainFailed (an error). SubTasks are the plan
	// as approved, edits included.
	Again AgainReason `json:"again,omitempty"`
	// Decided is what the person decided once they did (approve, revise,
	// cancel); SubTasks are then the plan as approved, edits included, so
	// the conversation shows what was carried out after a reload too.
	Decided ApprovalAction `json:"decided,omitempty"`
}

// AgainReason says why an approval is asked for again.
type AgainReason string

const (
	AgainInterrupted AgainReason = "interrupted"
	AgainFailed      AgainReason = "failed"
	// AgainStopped: the person stopped the work (Stop, Ctrl+C), a tool
	// call that hung, say; it may have done part of it.
	AgainStopped AgainReason = "stopped"
)

// ToolApproval is a tool call waiting for the person's approval: shown in
// full, arguments and all, before it runs.
type ToolApproval struct {
	// ID names this call; a decision carries it back as its Version.
	ID   string `json:"id"`
	Tool string `json:"tool"`
	// Server is the MCP server that provides the tool; "" for Wayfinder's
	// own tools.
	Server      string `json:"server,omitempty"`
	Description string `json:"description"`
	// Arguments are the call's arguments as the model sent them: a JSON
	// object, complete.
	Arguments string `json:"arguments"`
	// Reason says why the person is asked: ReasonUntrusted (text from
	// documents, tool results or the web is in the context the model
	// decided from, and the tool reads files or the network) or
	// ReasonAlwaysAsk (the tool asks before every call).
	Reason   ToolAskReason `json:"reason"`
	ReadOnly bool          `json:"read_only,omitempty"`
	// Again is set when the call is asked about again after the app was
	// closed while the call's decision was being carried out.
	Again AgainReason `json:"again,omitempty"`
}

// ToolAskReason says why a tool call needs the person's approval.
type ToolAskReason string

const (
	ReasonUntrusted ToolAskReason = "untrusted_context"
	ReasonAlwaysAsk ToolAskReason = "always_ask"
)

// ToolGrant is a tool the person allowed to run without asking ("always
// for this tool"), listed and revocable in Settings.
type ToolGrant struct {
	Tool      string    `json:"tool"`
	Server    string    `json:"server,omitempty"`
	GrantedAt time.Time `json:"granted_at"`
}

// ApprovalAction is what the person decided about a plan or a tool call.
type ApprovalAction string

const (
	ActionApprove ApprovalAction = "approve"
	ActionRevise  ApprovalAction = "revise"
	ActionCancel  ApprovalAction = "cancel"
	// Tool calls: run this call, run it and every later call of this tool
	// without asking, or refuse it (the model reads the refusal).
	ActionRunOnce ApprovalAction = "run_once"
	ActionAlways  ApprovalAction = "always"
	ActionDeny    ApprovalAction = "deny"
)

// ApprovalDecision answers a PlanApproval or a ToolApproval. Version is the
// PlanApproval's Version or the ToolApproval's ID: a decision for anything
// but what waits now is refused (ErrPlanChanged, ErrToolCallChanged). With
// approve, SubTasks may carry the person's edited list (renamed,
// reordered, added, removed); empty means the plan as proposed. With
// revise, Feedback says what to change.
type ApprovalDecision struct {
	Action   ApprovalAction `json:"action"`
	Version  string         `json:"version"`
	SubTasks []SubTask      `json:"sub_tasks,omitempty"`
	Feedback string         `json:"feedback,omitempty"`
}

// Awaiting is what a conversation waits for: a plan or a tool call.
type Awaiting struct {
	MessageID string        `json:"message_id"`
	Plan      *PlanApproval `json:"plan,omitempty"`
	ToolCall  *ToolApproval `json:"tool_call,omitempty"`
}
