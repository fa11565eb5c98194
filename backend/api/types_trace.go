// The live trace: the agent's workflow graph and the steps of a running turn.

package api

// TraceKind names a step of the agent shown in the live trace (seed 002's
// events, plus node boundaries for the workflow drawing).
type TraceKind string

const (
	TraceNodeStarted  TraceKind = "node_started"
	TraceNodeFinished TraceKind = "node_finished"
	TracePlanning     TraceKind = "planning"
	TraceToolSelected TraceKind = "tool_selected"
	TraceToolResult   TraceKind = "tool_result"
	TraceEvaluation   TraceKind = "evaluation_result"
	TraceGenerating   TraceKind = "generating"
	TraceSources      TraceKind = "sources"
	TraceRetry        TraceKind = "retry"
)

// TraceCode names a sentence of the live trace, so the UI can say it in
// the person's language ("trace.say.<code>" in frontend/src/i18n, with
// TraceEvent.Args filling its {placeholders}).
type TraceCode string

const (
	TraceRouting        TraceCode = "routing"
	TraceRouted         TraceCode = "routed"
	TraceMemories       TraceCode = "memories_recalled"
	TraceRepeatedCall   TraceCode = "repeated_call"
	TraceEmptyReply     TraceCode = "empty_reply"
	TraceModelRetry     TraceCode = "model_retry"
	TraceJSONRepair     TraceCode = "json_repair"
	TraceJSONDefault    TraceCode = "json_default"
	TracePlanRecovered  TraceCode = "plan_recovered"
	TracePlanSplitting  TraceCode = "plan_splitting"
	TracePlanRevising   TraceCode = "plan_revising"
	TracePlanApproved   TraceCode = "plan_approved"
	TraceToolFinding    TraceCode = "tool_finding"
	TraceStepMissing    TraceCode = "step_missing"
	TraceStepRecommend  TraceCode = "step_recommend"
	TraceIterationLimit TraceCode = "iteration_limit"
	TraceGuideWriting   TraceCode = "guide_writing"
	TraceSummarizing    TraceCode = "summarizing"
	TraceSummaryFailed  TraceCode = "summary_failed"
	TraceModelFallback  TraceCode = "model_fallback"
	TraceQueryScrubbed  TraceCode = "query_scrubbed"
	TraceMemorySaved    TraceCode = "memory_saved"
	TraceToolAsk        TraceCode = "tool_ask"     // {tool}: waiting for the person
	TraceToolOnce       TraceCode = "tool_once"    // {tool}: the person allowed this call
	TraceToolAlways     TraceCode = "tool_always"  // {tool}: the person allowed the tool from now on
	TraceToolGranted    TraceCode = "tool_granted" // {tool}: allowed earlier for good
	TraceToolDenied     TraceCode = "tool_denied"  // {tool}: the person refused the call
	TraceMCPStarting    TraceCode = "mcp_starting" // {server}: an MCP server starts for this turn (up to 30 s)
	TraceMCPStarted     TraceCode = "mcp_started"  // {server}: it started and listed its tools
	TraceMCPFailed      TraceCode = "mcp_failed"   // {server, error}: it did not start; the turn goes on without it
	TraceMCPInvalid     TraceCode = "mcp_invalid"  // {server, error}: its entry in mcp.json has mistakes (error: them, in English), so it is not started
	TraceNoMatches      TraceCode = "no_matches"   // {query}: a search (documents, catalog, memories, the web, Wikipedia) found nothing (Text: what the model reads, in English)
	// The results of the built-in tools, said in the person's language
	// where the model reads English (or the person's own text) in Text.
	TraceToolFailed    TraceCode = "tool_failed"    // {error}: the call failed; error: in English, for the model, shown apart
	TraceFoundIn       TraceCode = "found_in"       // {titles}: passages found: the first few of their documents, pages or catalog tools
	TraceFileRead      TraceCode = "file_read"      // {path}: read_file read this file
	TraceMemoriesFound TraceCode = "memories_found" // {count}: read_memory found these memories
	TraceTimeTold      TraceCode = "time_told"      // {time, zone}: get_time's answer (time: RFC 3339)
	TraceWeatherTold   TraceCode = "weather_told"   // {place}: get_weather's answer for this place
	// TraceMCPUnreadable {case, line, column, servers, error}: mcp.json
	// cannot be read at all (case: mcp_syntax with its line and column,
	// mcp_not_object, mcp_servers, mcp_too_big; error: in English); servers:
	// those of the configuration read before the edit, still in use ("" none).
	TraceMCPUnreadable TraceCode = "mcp_unreadable"
)

// TraceEvent is one step of a running turn.
type TraceEvent struct {
	SessionID string    `json:"session_id"`
	TurnID    string    `json:"turn_id"`
	Kind      TraceKind `json:"kind"`
	Node      string    `json:"node"`
	// Text is a short detail: the English sentence of Code, or free text
	// (a tool's arguments or result, a search query) when Code is empty.
	Text    string            `json:"text,omitempty"`
	Code    TraceCode         `json:"code,omitempty"`
	Args    map[string]string `json:"args,omitempty"`
	Tool    string            `json:"tool,omitempty"`
	Sources []Source          `json:"sources,omitempty"`
	// Recommendation comes with TraceStepRecommend: the card of the
	// sub-task just finished, so the window shows it before the turn ends.
	Recommendation *Recommendation `json:"recommendation,omitempty"`
}

// WorkflowNode is a node of the agent's workflow, for the drawing.
type WorkflowNode struct {
	ID   string `json:"id"`
	Type string `json:"type"` // start, end, or the node type (router, planner, ...)
}

// WorkflowEdge connects two nodes; Port names the branch of a conditional
// node ("simple", "complex", "approve", ...).
type WorkflowEdge struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Port   string `json:"port,omitempty"`
}

// Workflow is the agent graph in effect, so the UI can draw it and light up
// the node a trace event names.
type Workflow struct {
	Nodes []WorkflowNode `json:"nodes"`
	Edges []WorkflowEdge `json:"edges"`
}
