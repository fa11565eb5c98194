// Conversations: sessions, messages, a turn's result, what its tool calls did, sending, export and import.

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
	// Files name the files attached to a conversation no message has
	// titled yet (made by attaching files in a new chat), in the order they
	// were attached: the list names it after them, not "New conversation".
	Files []string `json:"files,omitempty"`
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
	ID     string `json:"id"`
	Title  string `json:"title"`
	Source string `json:"source"`
	Page   int    `json:"page,omitempty"`
	// Unit is what Page counts: "page", or "slide" for a presentation;
	// "" (a reply saved before units were kept) is a page.
	Unit    string  `json:"unit,omitempty"`
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

// ToolCallRecord is a tool call of a turn as the message details show it.
type ToolCallRecord struct {
	ID        string `json:"id"`
	Tool      string `json:"tool"`
	Server    string `json:"server,omitempty"`
	Arguments string `json:"arguments"`        // JSON object
	Result    string `json:"result,omitempty"` // the observation, cut to 2,000 characters
	Decision  string `json:"decision"`         // ToolDecided*
	Error     bool   `json:"error,omitempty"`  // the call failed (Result says why)
	// Code and Args are the live trace's line for the result (tool_failed,
	// no_matches, found_in, a built-in tool's own), which the window words
	// in the person's language above Result: Result is what the model
	// read, in English. Empty for a result no line words (a figure, a
	// program's or an MCP tool's output).
	Code TraceCode         `json:"code,omitempty"`
	Args map[string]string `json:"args,omitempty"`
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
