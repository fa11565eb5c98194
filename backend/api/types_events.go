// Events from the backend to every open window: their names and payloads.

package api

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
	EventEmbedded       = "knowledge.embedded"    // EmbeddingsDone
	EventEmbedding      = "knowledge.embedding"   // EmbeddingProgress
	EventEmbedPause     = "knowledge.embed_pause" // EmbedPauseChanged
	EventRemoved        = "knowledge.removed"     // KnowledgeRemoved
	EventAddedToLibrary = "knowledge.added"       // AddedToLibrary
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
	// With several Ollama hosts each downloads the model in turn and
	// Completed/Total start again for each: Host is the one downloading
	// now, HostIndex its place (from 1) of Hosts, so the window can say
	// which and keep one bar over all of them. Empty with one host.
	Host      string `json:"host,omitempty"`
	HostIndex int    `json:"host_index,omitempty"`
	Hosts     int    `json:"hosts,omitempty"`
	// Missed, on the last event of a download that succeeded, are the
	// hosts that did not get the model because they were in trouble (no
	// answer, a dropped connection, a server error); the others have it.
	Missed []string `json:"missed,omitempty"`
}

// MemoriesChanged tells windows to reload the memory list.
type MemoriesChanged struct {
	Count int `json:"count"`
}

// EmbeddingProgress says how far the vector index's background embedding
// is with the documents of the batch it just stored: how many of each one's
// passages still wait for their embedding (0: it is found by its meaning
// too now). The Knowledge screen counts a document's "meaning being
// indexed — N of M passages" down with it, without reloading the list.
type EmbeddingProgress struct {
	Docs []DocPending `json:"docs"`
}

// DocPending is a document's passages still waiting for their embedding
// (as KBDocument.Pending).
type DocPending struct {
	DocID   string `json:"doc_id"`
	Pending int    `json:"pending"`
}

// EmbedPauseChanged says that a file's meaning indexing was paused (the
// person's Stop while it embedded) or that its pause ended (a Resume, the
// file read in again, or removed), so that every window's rows say so at
// once: without it a Resume in another window showed only once the file's
// first batch was stored, and a removed file's row went on saying paused.
type EmbedPauseChanged struct {
	// Source is the file (as KBDocument.Source).
	Source string `json:"source"`
	Paused bool   `json:"paused"`
	// Removed: the pause ended because the file was removed (from the
	// library or its conversation); nothing of it is left to index.
	Removed bool `json:"removed,omitempty"`
}

// AddedToLibrary says that a conversation's file joined the library (Add
// to library), in any window, so that every window with that conversation
// open makes its row ("Added to your library: …") and drops its chip at
// once: another window showed neither until it was reloaded.
type AddedToLibrary struct {
	SessionID string `json:"session_id"`
	// File is the record as AddToLibrary returns it and AddedToLibrary
	// lists it (its id tells the window that added it its own row).
	File LibraryFile `json:"file"`
}

// KnowledgeRemoved says that files were removed from the knowledge base
// (a document on the Knowledge screen, a file taken out of its
// conversation), in any window, so that every window's rows of them say
// so at once: a chat's row of a file added to the library went on saying
// it was there after it was removed, unless its meaning indexing was
// paused, and another window's chips of a conversation's file stayed.
type KnowledgeRemoved struct {
	// DocIDs are the documents removed.
	DocIDs []string `json:"doc_ids"`
	// Sources are the files (as KBDocument.Source) none of whose
	// documents is left: no conversation finds them any more.
	Sources []string `json:"sources"`
	// Conversation is the conversation the files were attached to ("" for
	// the library).
	Conversation string `json:"conversation,omitempty"`
}

// EmbeddingsDone says that files whose embedding was left to the
// background (Ollama did not answer in time, an import stopped while it
// embedded, a model change) are embedded now: they are found by their
// meaning as well as their words. A window that said "later" on a file's
// row says so, and reloads the conversations named.
type EmbeddingsDone struct {
	// Sources are the files (as KBDocument.Source) with nothing pending
	// any more.
	Sources []string `json:"sources"`
	// Conversations are those the files are attached to, if any.
	Conversations []string `json:"conversations,omitempty"`
}
