// Package api holds every type that crosses between the Go backend and the
// frontend: results of bound methods, event payloads and settings. The
// TypeScript types in frontend/src/api/gotypes.gen.ts are generated from this
// file (make generate), and CI fails when the two drift apart, so the
// frontend can never read a field the backend stopped sending.
//
// JSON names are snake_case throughout because `wayfinder ask --json` prints
// TurnResult as it is, and a second naming scheme for the UI would only
// invite mistakes.
package api

import "time"

// Role says who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// MessageStatus tells the UI how to draw a message: a reply still streaming,
// one that ended normally, one the person stopped, or one that failed.
type MessageStatus string

const (
	StatusComplete    MessageStatus = "complete"
	StatusStreaming   MessageStatus = "streaming"
	StatusInterrupted MessageStatus = "interrupted"
	StatusError       MessageStatus = "error"
	// StatusAwaitingApproval marks a reply that waits for the person: a
	// proposed plan to approve, revise or cancel (Result.Plan), or a tool
	// call to run or deny (Result.ToolCall).
	StatusAwaitingApproval MessageStatus = "awaiting_approval"
)

// Session is one conversation in the sidebar.
type Session struct {
	ID              string    `json:"id"`
	Title           string    `json:"title"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
	MessageCount    int       `json:"message_count"`
	PendingApproval bool      `json:"pending_approval"`
	// Model is the chat model the person picked for this conversation; ""
	// follows the default chat model of the settings.
	Model string `json:"model"`
	// Settings override the global ones for this conversation; nil (or a
	// nil field) follows Settings.
	Settings *ConversationSettings `json:"settings,omitempty"`
}

// ConversationSettings are what a person tunes for one conversation; each
// nil field follows the global Settings of the same name.
type ConversationSettings struct {
	SystemPrompt  *string  `json:"system_prompt,omitempty"`
	Temperature   *float64 `json:"temperature,omitempty"`
	ContextTokens *int     `json:"context_tokens,omitempty"`
}

// Message is one chat message as stored and shown.
type Message struct {
	ID        string        `json:"id"`
	SessionID string        `json:"session_id"`
	Role      Role          `json:"role"`
	Content   string        `json:"content"`
	Status    MessageStatus `json:"status"`
	Error     *ErrorInfo    `json:"error,omitempty"`
	Result    *TurnResult   `json:"result,omitempty"`
	// Decision is set on the person's message that answered a plan or a
	// tool call: what they decided, edits included.
	Decision  *ApprovalDecision `json:"decision,omitempty"`
	CreatedAt time.Time         `json:"created_at"`
	// Variants are the other answers to the same message, kept when the
	// person asked for another one (Regenerate), oldest first by
	// CreatedAt; this message is the one shown, and the one later turns
	// continue from.
	Variants []Message `json:"variants,omitempty"`
}

// Source is a passage a reply relied on, for numbered citations.
type Source struct {
	ID      string  `json:"id"`
	Title   string  `json:"title"`
	Source  string  `json:"source"`
	Page    int     `json:"page,omitempty"`
	Heading string  `json:"heading,omitempty"`
	URL     string  `json:"url,omitempty"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// TurnResult is seed 000's response format plus accounting; it is what
// `wayfinder ask --json` prints and what the UI shows under "details".
type TurnResult struct {
	Response  string   `json:"response"`
	SessionID string   `json:"session_id"`
	ToolsUsed []string `json:"tools_used"`
	// Sources are the passages the reply cites, in the order of its [n]
	// markers ([1] is Sources[0]); a guide's also include the passages its
	// recommendation cards point at.
	Sources []Source `json:"sources"`
	// Retrieved are the passages the model was given but the reply did not
	// cite, shown under the message's details.
	Retrieved        []Source `json:"retrieved,omitempty"`
	LLMCalls         int      `json:"llm_calls"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	ExecutionMS      int64    `json:"execution_ms"`
	// Model is the chat model that answered; FallbackFrom, when set, is the
	// chosen model the turn left for it (missing, out of memory, failing).
	Model        string `json:"model,omitempty"`
	FallbackFrom string `json:"fallback_from,omitempty"`
	// Plan is set while the turn waits for the person's approval of a plan.
	Plan *PlanApproval `json:"plan,omitempty"`
	// ToolCall is set while the turn waits for the person's approval of a
	// tool call.
	ToolCall *ToolApproval `json:"tool_call,omitempty"`
	// ToolCalls are the tool calls of the turn that reach files or the
	// network, or needed the person: arguments, outcome and who allowed
	// them (the message details).
	ToolCalls []ToolCallRecord `json:"tool_calls,omitempty"`
	// Recommendations are the tools chosen per approved sub-task.
	Recommendations []Recommendation `json:"recommendations,omitempty"`
	// Steps are the sub-tasks as the person approved them (edited or not),
	// which the recommendations' subtask_id refer to.
	Steps []SubTask `json:"steps,omitempty"`
	// TextKey names the line Wayfinder wrote itself when Response is one
	// (a plan's introduction, a cancelled plan, ...), with TextArgs for its
	// blanks. The window shows the line from the key in the language chosen
	// now, not the one stored in the language of the moment it was written.
	TextKey  string            `json:"text_key,omitempty"`
	TextArgs map[string]string `json:"text_args,omitempty"`
}

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

// ToolCallRecord is a tool call of a turn as the message details show it.
type ToolCallRecord struct {
	ID        string `json:"id"`
	Tool      string `json:"tool"`
	Server    string `json:"server,omitempty"`
	Arguments string `json:"arguments"`        // JSON object
	Result    string `json:"result,omitempty"` // the observation, cut to 2,000 characters
	Decision  string `json:"decision"`         // ToolDecided*
	Error     bool   `json:"error,omitempty"`  // the call failed (Result says why)
	// Attachments are the binary results of the call (an MCP tool's
	// images, audio, blobs), saved in the data folder.
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Attachment is a binary result of a tool call, saved in the data folder
// (mcp-attachments/<conversation>/<Name>) until its conversation is
// purged. The window shows images (ChatService.Attachment); the rest, and
// ask, say where the file is.
type Attachment struct {
	// Name is the file's name: its content's hash and an extension.
	Name string `json:"name"`
	// Kind is what the tool said it is: "image", "audio" or "resource <uri>".
	Kind string `json:"kind"`
	// MIME is the type the tool gave, unchecked; the window sniffs the
	// file's own bytes before it shows one.
	MIME   string `json:"mime"`
	Size   int64  `json:"size"`
	Path   string `json:"path"`
	Server string `json:"server,omitempty"`
}

// AttachmentImage is an attachment's picture for the window: a data: URL
// of a PNG, JPEG, GIF or WebP image, sniffed from the file.
type AttachmentImage struct {
	MIME    string `json:"mime"`
	DataURL string `json:"data_url"`
}

// How a tool call came to run or not (ToolCallRecord.Decision).
const (
	ToolDecidedAuto    = "auto"     // needed no approval
	ToolDecidedOnce    = "run_once" // the person allowed this call
	ToolDecidedAlways  = "always"   // the person allowed the tool from now on
	ToolDecidedGranted = "granted"  // allowed earlier with "always"
	ToolDecidedDenied  = "deny"     // the person refused it
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

// Recommendation is the tool chosen for one sub-task.
type Recommendation struct {
	SubTaskID string `json:"subtask_id"`
	Tool      string `json:"tool"`
	Why       string `json:"why"`
	URL       string `json:"url"`
	// URLFromCatalog says URL is the link of Wayfinder's built-in catalog
	// entry of Tool (shipped data), not the model's words: the window opens
	// it without the unverified-link warning.
	URLFromCatalog bool     `json:"url_from_catalog,omitempty"`
	Pricing        string   `json:"pricing"`
	Alternatives   []string `json:"alternatives"`
	Sources        []Source `json:"sources"`
}

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

// ApprovalRequired asks the person to decide on a plan.
type ApprovalRequired struct {
	SessionID string       `json:"session_id"`
	TurnID    string       `json:"turn_id"`
	MessageID string       `json:"message_id"`
	Approval  PlanApproval `json:"approval"`
}

// ToolApprovalRequired asks the person to decide on a tool call.
type ToolApprovalRequired struct {
	SessionID string       `json:"session_id"`
	TurnID    string       `json:"turn_id"`
	MessageID string       `json:"message_id"`
	ToolCall  ToolApproval `json:"tool_call"`
}

// ErrorCode is a stable name for a failure the person can act on. The
// frontend translates codes (ko/en); Message is the English fallback and Hint
// the next step, e.g. the exact command to run.
type ErrorCode string

const (
	ErrOllamaUnreachable ErrorCode = "ollama_unreachable"
	ErrModelMissing      ErrorCode = "model_missing"
	ErrModelNoTools      ErrorCode = "model_no_tools"
	ErrModelOutOfMemory  ErrorCode = "model_out_of_memory"
	ErrTimeout           ErrorCode = "timeout"
	ErrStreamDropped     ErrorCode = "stream_dropped"
	ErrOllamaError       ErrorCode = "ollama_error"
	ErrPullFailed        ErrorCode = "pull_failed"
	ErrBadModelOutput    ErrorCode = "bad_model_output"
	ErrEmptyMessage      ErrorCode = "empty_message"
	ErrMessageTooLong    ErrorCode = "message_too_long"
	ErrBusy              ErrorCode = "busy"
	ErrNotFound          ErrorCode = "not_found"
	ErrInvalidInput      ErrorCode = "invalid_input"
	ErrInternal          ErrorCode = "internal"

	// Something the person asked for does not exist (HTTP 404).
	ErrSessionNotFound  ErrorCode = "session_not_found"
	ErrMemoryNotFound   ErrorCode = "memory_not_found"
	ErrDocumentNotFound ErrorCode = "document_not_found"
	ErrFolderNotFound   ErrorCode = "folder_not_found"
	ErrFolderNotGranted ErrorCode = "folder_not_granted"
	ErrNoSuchMethod     ErrorCode = "no_such_method"
	// What the person sent needs correcting (HTTP 400, 413 for the size).
	ErrTitleEmpty      ErrorCode = "title_empty"
	ErrTitleTooLong    ErrorCode = "title_too_long"
	ErrMemoryEmpty     ErrorCode = "memory_empty"
	ErrMemoryTooLong   ErrorCode = "memory_too_long"
	ErrMemoryKind      ErrorCode = "memory_kind_unknown"
	ErrSettingsInvalid ErrorCode = "settings_invalid"
	ErrNotAFolder      ErrorCode = "not_a_folder"
	ErrNothingToImport ErrorCode = "nothing_to_import"
	ErrUnknownCategory ErrorCode = "unknown_category"
	ErrUploadNoName    ErrorCode = "upload_no_name"
	ErrUploadTooLarge  ErrorCode = "upload_too_large"
	ErrUploadDamaged   ErrorCode = "upload_damaged"
	ErrModelNameEmpty  ErrorCode = "model_name_empty"
	ErrDesktopOnly     ErrorCode = "desktop_only"
	ErrFeedbackEmpty   ErrorCode = "feedback_empty"
	ErrUnknownDecision ErrorCode = "unknown_decision"
	ErrBadRequest      ErrorCode = "bad_request"
	// The conversation is not in the state the request expects (HTTP 409).
	ErrPlanWaiting ErrorCode = "plan_waiting"
	// ErrToolCallWaiting: a tool call waits for the person's approval;
	// ErrorInfo.Awaiting holds it.
	ErrToolCallWaiting ErrorCode = "tool_call_waiting"
	ErrNoPlanWaiting   ErrorCode = "no_plan_waiting"
	ErrNothingToRetry  ErrorCode = "nothing_to_retry"
	// Serve mode's guard (HTTP 401 and 403).
	ErrUnauthorized ErrorCode = "unauthorized"
	ErrForeignPage  ErrorCode = "foreign_page"
	// The data folder cannot be written (HTTP 507): the message names the
	// folder and what to do.
	ErrDiskFull     ErrorCode = "disk_full"
	ErrDataReadOnly ErrorCode = "data_folder_read_only"
	// ErrPlanChanged refuses a decision for a plan that no longer waits
	// (decided already, re-planned); ErrToolCallChanged one for a tool
	// call. ErrorInfo.Awaiting says what waits now.
	ErrPlanChanged     ErrorCode = "plan_changed"
	ErrToolCallChanged ErrorCode = "tool_call_changed"
	// A conversation import refused: the file is not an export
	// (ErrImportNotExport), or one that cannot be taken as it is
	// (ErrImportInvalid: the message says what and where). Nothing was
	// imported.
	ErrImportNotExport ErrorCode = "import_not_export"
	ErrImportInvalid   ErrorCode = "import_invalid"
	// The ZIM file chosen for search_wikipedia cannot be used: named
	// without its full path, not there, not a ZIM file, damaged (a cut
	// download), or unreadable (permissions, a format from before 2012).
	ErrZIMRelative   ErrorCode = "zim_relative"
	ErrZIMMissing    ErrorCode = "zim_missing"
	ErrZIMNotZIM     ErrorCode = "zim_not_zim"
	ErrZIMDamaged    ErrorCode = "zim_damaged"
	ErrZIMUnreadable ErrorCode = "zim_unreadable"
)

// ErrorInfo is an error as the person sees it.
type ErrorInfo struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
	Hint    string    `json:"hint,omitempty"`
	// Args are the particulars Message names (model, host, path, reason:
	// the raw cause from Ollama or the system), so that the window words
	// the error in the person's language ("error.<code>.detail" and
	// ".hint" in frontend/src/i18n fill their blanks from them) instead
	// of showing the English Message.
	Args map[string]string `json:"args,omitempty"`
	// Awaiting comes with ErrPlanChanged and ErrToolCallChanged: what the
	// conversation waits for now, nil when nothing does.
	Awaiting *Awaiting `json:"awaiting,omitempty"`
}

// SendOptions are how a message is sent, beside its text.
type SendOptions struct {
	// Model is the chat model for a new conversation, which keeps it; ""
	// is the default chat model. An existing conversation keeps the model
	// it has (ChatService.SetModel changes it).
	Model string `json:"model,omitempty"`
}

// SendAck answers ChatService.Send at once; the reply arrives as events.
type SendAck struct {
	SessionID          string  `json:"session_id"`
	TurnID             string  `json:"turn_id"`
	UserMessage        Message `json:"user_message"`
	AssistantMessageID string  `json:"assistant_message_id"`
}

// Theme is the colour scheme.
type Theme string

const (
	ThemeSystem Theme = "system"
	ThemeLight  Theme = "light"
	ThemeDark   Theme = "dark"
)

// Settings are what the person chooses in the settings screen. They persist
// in the database; command-line flags override them for one run.
type Settings struct {
	OllamaHost    string `json:"ollama_host"`
	ChatModel     string `json:"chat_model"`
	EmbedModel    string `json:"embed_model"`
	Language      string `json:"language"` // "" follows the OS locale; else "ko" or "en"
	Theme         Theme  `json:"theme"`
	MaxIterations int    `json:"max_iterations"`
	ContextTokens int    `json:"context_tokens"` // num_ctx sent to Ollama; 0: the model's own (up to 32768)
	// SystemPrompt is the person's own instructions for the replies they
	// read (a persona, a tone, a language): added to the system prompts of
	// the answer, the planner and the guide. "" adds nothing.
	SystemPrompt string `json:"system_prompt"`
	// Temperature of the calls that write text for the person (0 to 2);
	// nil: the model's own default. Calls that must return JSON keep 0.
	Temperature *float64 `json:"temperature"`
	// FallbackModel answers when the chat model is missing, does not fit
	// in memory or keeps failing; "" means none.
	FallbackModel string `json:"fallback_model"`
	// ParallelRequests is how many requests the Ollama server answers at
	// once (its OLLAMA_NUM_PARALLEL, which it does not tell): the sub-tasks
	// of a plan are recommended that many at a time. 0 means 1.
	ParallelRequests int    `json:"parallel_requests"`
	WebSearchEnabled bool   `json:"web_search_enabled"`
	WebSearchURL     string `json:"web_search_url"`
	// RunPythonEnabled offers the model run_python, a Starlark interpreter
	// with no file, network or clock access (off until the person opts in).
	RunPythonEnabled bool `json:"run_python_enabled"`
	// WeatherEnabled offers the model get_weather (Open-Meteo, over the
	// network; off until the person opts in).
	WeatherEnabled bool `json:"weather_enabled"`
	// WikipediaEnabled offers the model search_wikipedia, which reads
	// WikipediaZIM (a Kiwix ZIM file the person chose; "" for none) and,
	// with WikipediaOnline, asks Wikipedia's MediaWiki API over the
	// network for what the file lacks. Off until the person opts in.
	WikipediaEnabled bool   `json:"wikipedia_enabled"`
	WikipediaZIM     string `json:"wikipedia_zim"`
	WikipediaOnline  bool   `json:"wikipedia_online"`
	// Folders are the folders the person lets the read_file tool read.
	// Only SettingsService's folder methods and `wayfinder folders` change
	// them (Save keeps them as they are): importing a folder never does.
	Folders []FolderGrant `json:"folder_grants"`
	// RevokedImportFolders were readable by read_file only because they
	// had been imported, which no longer grants anything; Settings lists
	// them until the person grants them again or dismisses the notice.
	RevokedImportFolders []string `json:"revoked_import_folders,omitempty"`
}

// FolderGrant is a folder the person lets the read_file tool read, with
// what it allows there beyond ordinary files.
type FolderGrant struct {
	Path string `json:"path"` // absolute
	// AllowHidden lets read_file read hidden files and folders (names
	// starting with a dot) in this folder.
	AllowHidden bool `json:"allow_hidden"`
	// AllowSecrets lets it read files that usually hold secrets (.env*,
	// keys, .git/, .ssh/, credentials; the list is in README.md).
	AllowSecrets bool      `json:"allow_secrets"`
	GrantedAt    time.Time `json:"granted_at"`
}

// ModelInfo is a model Ollama has, with what it can do.
type ModelInfo struct {
	Name         string   `json:"name"`
	Size         int64    `json:"size"`
	Capabilities []string `json:"capabilities"` // "completion", "tools", "embedding", ...
}

// ModelState says whether a configured model is ready.
type ModelState struct {
	Name         string   `json:"name"`
	Installed    bool     `json:"installed"`
	Capabilities []string `json:"capabilities"`
}

// OllamaStatus drives onboarding: the UI shows the first problem in it and
// polls until it is gone.
type OllamaStatus struct {
	Host       string     `json:"host"`
	Reachable  bool       `json:"reachable"`
	Version    string     `json:"version"`
	ChatModel  ModelState `json:"chat_model"`
	EmbedModel ModelState `json:"embed_model"`
	Error      *ErrorInfo `json:"error,omitempty"`
	// Hosts is the state of each Ollama host when several are set
	// (ollama_host lists them separated by commas); empty with one.
	Hosts []HostStatus `json:"hosts"`
}

// HostStatus is one Ollama host of several: whether calls go to it, since
// when it is down and when it is tried again, and the models it has.
type HostStatus struct {
	URL       string    `json:"url"`
	Up        bool      `json:"up"`
	DownSince time.Time `json:"down_since,omitempty"`
	RetryAt   time.Time `json:"retry_at,omitempty"`
	Error     string    `json:"error,omitempty"`
	Models    []string  `json:"models"`
	InFlight  int       `json:"in_flight"`
}

// AppInfo describes the running app.
type AppInfo struct {
	Version string `json:"version"`
	DataDir string `json:"data_dir"`
	Mode    string `json:"mode"` // "desktop" or "serve"
	Locale  string `json:"locale"`
}

// Passage is a search hit opened in the Knowledge screen's reader: its
// chunk (Text) in its document, with the text just before and after it
// (without what the chunks repeat of each other; "" at the document's ends).
type Passage struct {
	ChunkID string `json:"chunk_id"`
	DocID   string `json:"doc_id"`
	Title   string `json:"title"`
	File    string `json:"file,omitempty"`
	Kind    string `json:"kind"`
	Page    int    `json:"page,omitempty"`
	Heading string `json:"heading,omitempty"`
	Before  string `json:"before"`
	Text    string `json:"text"`
	After   string `json:"after"`
	// Seq is the chunk's place in its document (from 0) and Chunks how many
	// the document has, for the reader to page through it (Span).
	Seq    int `json:"seq"`
	Chunks int `json:"chunks"`
}

// DocumentSpan is a run of a document's text for the reader paging
// through it: the chunks From, From+1, ... of Total.
type DocumentSpan struct {
	DocID string     `json:"doc_id"`
	From  int        `json:"from"`
	Total int        `json:"total"`
	Parts []SpanPart `json:"parts"`
}

// SpanPart is one chunk of a DocumentSpan. Text is without what the chunk
// repeats of the one before it, so parts in a row read as the document.
type SpanPart struct {
	Seq     int    `json:"seq"`
	Page    int    `json:"page,omitempty"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

// KBDocument is an imported document in the knowledge list.
type KBDocument struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Source    string    `json:"source"`
	Kind      string    `json:"kind"`
	Size      int64     `json:"size"`
	Pages     int       `json:"pages"`
	Chunks    int       `json:"chunks"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// SearchHit is one passage retrieval returned, as the knowledge search box
// and `wayfinder kb search --json` show it.
type SearchHit struct {
	ID    string `json:"id"`     // the chunk: "<doc_id>:<seq>"
	DocID string `json:"doc_id"` // the document (Documents lists it)
	// RecordID is the record's own id in its file (JSON `_id`/`id`), so a
	// script can map a hit back to its data; "" when the file has none.
	RecordID string `json:"record_id,omitempty"`
	// File is the file's name (Source is its full path); "" for the
	// built-in catalog.
	File    string  `json:"file,omitempty"`
	Title   string  `json:"title"`
	Source  string  `json:"source"`
	Kind    string  `json:"kind"`
	Page    int     `json:"page,omitempty"`
	Heading string  `json:"heading,omitempty"`
	URL     string  `json:"url,omitempty"`
	Score   float64 `json:"score"`
	Text    string  `json:"text"`
	Snippet string  `json:"snippet"`
	Words   bool    `json:"words"`   // found by shared words
	Meaning bool    `json:"meaning"` // found by a similar meaning (vectors)
}

// ImportProgress reports one file of an import.
type ImportProgress struct {
	ImportID string `json:"import_id"`
	File     string `json:"file"`
	Stage    string `json:"stage"` // reading, chunking, embedding, done, skipped, duplicate, failed
	Pages    int    `json:"pages"`
	Chunks   int    `json:"chunks"`
	Embedded int    `json:"embedded"`
	Error    string `json:"error,omitempty"`
	// Reason is Error in parts, when the window can word it.
	Reason     *FileReason `json:"reason,omitempty"`
	FileIndex  int         `json:"file_index"`
	FilesTotal int         `json:"files_total"`
	// Warnings say what was imported but not as it was (invalid bytes
	// replaced, with their lines); WarningReasons are the same in parts
	// (one for each; an empty Code where the window has no words of its
	// own).
	Warnings       []string     `json:"warnings,omitempty"`
	WarningReasons []FileReason `json:"warning_reasons,omitempty"`
	// Replaced: an upload took the place of an earlier one of its name.
	Replaced bool `json:"replaced,omitempty"`
	// DuplicateOf names the document that already has the content of an
	// upload in stage "duplicate" (which was not stored again).
	DuplicateOf string `json:"duplicate_of,omitempty"`
	// EmbedError says why Embedded is short of Chunks (Ollama unreachable,
	// the embedding model missing): keyword search finds those chunks, and
	// they are embedded once the model answers.
	EmbedError *ErrorInfo `json:"embed_error,omitempty"`
	// Conversation is the conversation a file is attached to
	// (KnowledgeService.Attach); "" for the library's imports.
	Conversation string `json:"conversation,omitempty"`
}

// FileReason says why a file was not imported, or what was not imported as
// it was, in parts the window words in the person's language (Error keeps
// the English sentence). Code is pdf_limit (with Limit: memory, open_time,
// page_time, pages, page_chars, text_bytes; Page when one page crossed it;
// Max the limit: "384 MB", a count, or seconds for the times),
// pdf_encrypted, pdf_no_text, pdf_damaged; unsupported (not a kind
// Wayfinder reads), empty (no text), binary (binary data, the first junk
// on Line), encoding (invalid sequences of an unknown encoding, from
// Line), json_invalid (broken at Line), json_record_too_large (a record
// from Line over Max MB), too_slow (reading took more than Max seconds);
// and, for a warning, replaced (Count invalid characters replaced with
// U+FFFD on Lines, "3, 7"; More when on later lines too).
type FileReason struct {
	Code  string `json:"code"`
	Limit string `json:"limit,omitempty"`
	Page  int    `json:"page,omitempty"`
	Max   string `json:"max,omitempty"`
	Line  int64  `json:"line,omitempty"`
	Count int64  `json:"count,omitempty"`
	Lines string `json:"lines,omitempty"`
	More  bool   `json:"more,omitempty"`
}

// ImportFailure is a file that could not be imported, and why.
type ImportFailure struct {
	File   string      `json:"file"`
	Error  string      `json:"error"`
	Reason *FileReason `json:"reason,omitempty"`
}

// ImportReport sums up an import when it ends.
type ImportReport struct {
	ImportID string          `json:"import_id"`
	Imported []string        `json:"imported"`
	Skipped  []string        `json:"skipped"`
	Failed   []ImportFailure `json:"failed"`
	Warnings []ImportFailure `json:"warnings"` // imported files, each with one warning
	Replaced []string        `json:"replaced"` // uploads that replaced an earlier one of their name
	// Duplicates are uploads the library had already (Error is the title
	// of the document that has the content).
	Duplicates []ImportFailure `json:"duplicates"`
	// Ignored are files found in the folders that are not of a type
	// Wayfinder imports (PDF, Markdown, text, JSON, JSON Lines).
	Ignored []string `json:"ignored"`
	// Conversation: as in ImportProgress.
	Conversation string     `json:"conversation,omitempty"`
	Documents    int        `json:"documents"`
	Chunks       int        `json:"chunks"`
	Pages        int        `json:"pages"`
	Error        *ErrorInfo `json:"error,omitempty"` // the whole import stopped
}

// ImportResult says what importing a conversation export did.
type ImportResult struct {
	Conversations int `json:"conversations"` // in the file
	Added         int `json:"added"`         // stored under their own ids
	// Copies were stored under new ids: a conversation of the same id was
	// there already, and different (continued since, or deleted).
	Copies int `json:"copies"`
	// Unchanged were there already, the same.
	Unchanged int `json:"unchanged"`
	// Sessions are the conversations' ids in the store, in the file's order.
	Sessions []string `json:"sessions"`
}

// ExportFile is an export for the window to save or download.
type ExportFile struct {
	Name    string `json:"name"` // a file name to suggest
	Content string `json:"content"`
}

// CatalogEntry is a tool of the built-in catalog.
type CatalogEntry struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Categories    []string `json:"categories"`
	Tasks         []string `json:"tasks"`
	DescriptionEN string   `json:"description_en"`
	DescriptionKO string   `json:"description_ko"`
	URL           string   `json:"url"`
	Pricing       string   `json:"pricing"`    // in English
	PricingKO     string   `json:"pricing_ko"` // in Korean
	Platforms     []string `json:"platforms"`
	Languages     []string `json:"languages"`
	LastChecked   string   `json:"last_checked"`
}

// MemoryKind says what a long-term memory is about.
type MemoryKind string

const (
	MemoryPreference MemoryKind = "preference"
	MemoryFact       MemoryKind = "fact"
	MemoryFeedback   MemoryKind = "feedback"
)

// MemoryOrigin says where a memory came from: nothing but the person's
// own words ever becomes a memory.
type MemoryOrigin string

const (
	MemorySaid       MemoryOrigin = "said"       // the person asked Wayfinder to remember it in a conversation
	MemoryReflection MemoryOrigin = "reflection" // drawn from what the person wrote, after a turn
	MemoryEdited     MemoryOrigin = "edited"     // written or corrected by the person (Memory screen, CLI)
)

// Memory is something Wayfinder remembers about the person; every one is
// shown in the memory screen and can be edited or deleted.
type Memory struct {
	ID        string       `json:"id"`
	Text      string       `json:"text"`
	Kind      MemoryKind   `json:"kind"`
	Origin    MemoryOrigin `json:"origin"`
	SessionID string       `json:"session_id,omitempty"`
	CreatedAt time.Time    `json:"created_at"`
	UpdatedAt time.Time    `json:"updated_at"`
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

// Event names. The desktop build sends them through the Wails runtime, serve
// mode as server-sent events; the payload types follow each name.
const (
	EventTurnStarted    = "chat.turn_started"     // TurnStarted
	EventToken          = "chat.token"            // TokenBatch
	EventTurnFinished   = "chat.turn_finished"    // TurnFinished
	EventTurnFailed     = "chat.turn_failed"      // TurnFailed
	EventSessions       = "chat.sessions"         // SessionsChanged
	EventTrace          = "chat.trace"            // TraceEvent
	EventApproval       = "chat.approval"         // ApprovalRequired
	EventToolApproval   = "chat.tool_approval"    // ToolApprovalRequired
	EventMessageUpdated = "chat.message_updated"  // MessageUpdated
	EventPullProgress   = "models.pull_progress"  // PullProgress
	EventImport         = "knowledge.import"      // ImportProgress
	EventImportDone     = "knowledge.import_done" // ImportReport
	EventMemories       = "memory.changed"        // SessionsChanged (empty)
	EventStatusChanged  = "ollama.status"         // OllamaStatus
)

// TurnStarted announces a turn so every open window can show it.
type TurnStarted struct {
	SessionID          string  `json:"session_id"`
	TurnID             string  `json:"turn_id"`
	UserMessage        Message `json:"user_message"`
	AssistantMessageID string  `json:"assistant_message_id"`
}

// TokenBatch carries the text streamed since the previous batch; batches are
// sent about every 50 ms so long answers do not flood the bridge.
type TokenBatch struct {
	SessionID string `json:"session_id"`
	TurnID    string `json:"turn_id"`
	MessageID string `json:"message_id"`
	Text      string `json:"text"`
}

// TurnFinished carries the stored assistant message (complete or stopped).
type TurnFinished struct {
	SessionID string     `json:"session_id"`
	TurnID    string     `json:"turn_id"`
	Message   Message    `json:"message"`
	Result    TurnResult `json:"result"`
}

// TurnFailed says a turn ended in an error; the person's message is kept and
// the partial reply, if any, is in Message.
type TurnFailed struct {
	SessionID string    `json:"session_id"`
	TurnID    string    `json:"turn_id"`
	Message   Message   `json:"message"`
	Error     ErrorInfo `json:"error"`
}

// MessageUpdated carries a stored message that changed after its turn
// ended: the model calls made after the answer (summary, reflection) are
// added to its result once they are done.
type MessageUpdated struct {
	SessionID string  `json:"session_id"`
	Message   Message `json:"message"`
}

// SessionsChanged tells windows to refresh the sidebar.
type SessionsChanged struct {
	SessionID string `json:"session_id"`
}

// PullProgress reports a model download.
type PullProgress struct {
	Model     string     `json:"model"`
	Status    string     `json:"status"`
	Completed int64      `json:"completed"`
	Total     int64      `json:"total"`
	Done      bool       `json:"done"`
	Error     *ErrorInfo `json:"error,omitempty"`
	// Cancelled marks the last event of a download the person cancelled.
	Cancelled bool `json:"cancelled,omitempty"`
}

// MemoriesChanged tells windows to reload the memory list.
type MemoriesChanged struct {
	Count int `json:"count"`
}

// MCPState is where an MCP server is in its life.
type MCPState string

const (
	MCPOff      MCPState = "off"      // switched off by the person
	MCPIdle     MCPState = "idle"     // not started yet: servers start when first needed
	MCPStarting MCPState = "starting" // being started
	MCPReady    MCPState = "ready"    // running, its tools listed
	MCPFailed   MCPState = "failed"   // did not start or stopped; Error and Stderr say why
)

// MCPServer is one MCP server as Settings, `wayfinder mcp list` and
// `doctor` show it.
type MCPServer struct {
	Name      string `json:"name"`
	Transport string `json:"transport"` // "stdio" or "http"
	// Command is the command line of a stdio server; URL the address of an
	// HTTP one.
	Command             string   `json:"command,omitempty"`
	URL                 string   `json:"url,omitempty"`
	Enabled             bool     `json:"enabled"`
	AutoApproveReadOnly bool     `json:"auto_approve_read_only"`
	State               MCPState `json:"state"`
	// Error says why the server failed; Stderr is the end of what it wrote
	// on its standard error (the reason, more often than not).
	Error  string `json:"error,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// RetryIn is how many seconds until a failed server is tried again.
	RetryIn int       `json:"retry_in,omitempty"`
	Tools   []MCPTool `json:"tools"`
}

// MCPTool is one tool of an MCP server.
type MCPTool struct {
	Name string `json:"name"` // as the server names it
	// FullName is the name the model calls it by: server__tool.
	FullName    string `json:"full_name"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	// ReadOnly: the server says the tool changes nothing (readOnlyHint).
	ReadOnly bool `json:"read_only"`
}

// MCPServerInput is a server the person adds in Settings: a command (and
// its arguments) or a URL.
type MCPServerInput struct {
	Name    string            `json:"name"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	URL     string            `json:"url"`
	Env     map[string]string `json:"env"`
}
