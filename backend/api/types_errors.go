// Errors as the person sees them (the Go error type is in errors.go).

package api

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
	// Fields come with ErrSettingsInvalid (and the zim_* codes of a Save):
	// each value refused, so that the window says why beside its field.
	Fields []FieldProblem `json:"fields,omitempty"`
	// Awaiting comes with ErrPlanChanged and ErrToolCallChanged: what the
	// conversation waits for now, nil when nothing does.
	Awaiting *Awaiting `json:"awaiting,omitempty"`
}

// FieldProblem is one value of a settings form the backend refused: the
// field (its JSON name in Settings or ConversationSettings) and why, as a
// code ("settings.refusal.<code>", or "error.<code>" for the zim_* codes,
// in frontend/src/i18n) with its particulars (min, max, n, value, host).
type FieldProblem struct {
	Field string            `json:"field"`
	Code  string            `json:"code"`
	Args  map[string]string `json:"args,omitempty"`
}
