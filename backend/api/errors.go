package api

import (
	"errors"
	"net/http"
)

// Error is an error that already says what the person sees. Packages
// return it for what the person can correct or look up (validation and
// not-found errors, each with its own code); the shells pass its Info on
// as it is. (This file is not read by the TypeScript generator.)
type Error struct {
	Info ErrorInfo
	Err  error // the cause, for errors.Is; may be nil
}

func (e *Error) Error() string { return e.Info.Message }

func (e *Error) Unwrap() error { return e.Err }

// NewError makes an *Error.
func NewError(code ErrorCode, message, hint string) *Error {
	return &Error{Info: ErrorInfo{Code: code, Message: message, Hint: hint}}
}

// AsError returns the ErrorInfo of the first *Error in err's chain.
func AsError(err error) (ErrorInfo, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Info, true
	}
	return ErrorInfo{}, false
}

// HTTPStatus is the status serve mode answers a failure with: 4xx for what
// the request got wrong (validation 400, not found 404, a conflict with the
// state 409, no or a wrong token 401, another page 403), 502/504 for Ollama,
// 507 for a data folder that cannot be written, 500 for the rest.
func HTTPStatus(code ErrorCode) int {
	switch code {
	case ErrNotFound, ErrSessionNotFound, ErrMemoryNotFound, ErrDocumentNotFound, ErrFolderNotFound,
		ErrFolderNotGranted, ErrNoSuchMethod:
		return http.StatusNotFound
	case ErrBusy, ErrPlanWaiting, ErrToolCallWaiting, ErrNoPlanWaiting, ErrNothingToRetry, ErrPlanChanged, ErrToolCallChanged:
		return http.StatusConflict
	case ErrUnauthorized:
		return http.StatusUnauthorized
	case ErrForeignPage:
		return http.StatusForbidden
	case ErrUploadTooLarge:
		return http.StatusRequestEntityTooLarge
	case ErrTimeout:
		return http.StatusGatewayTimeout
	case ErrOllamaUnreachable, ErrModelMissing, ErrModelNoTools, ErrStreamDropped, ErrOllamaError,
		ErrPullFailed, ErrBadModelOutput:
		return http.StatusBadGateway
	case ErrDiskFull, ErrDataReadOnly:
		return http.StatusInsufficientStorage
	case ErrInternal, "":
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest // every other code names something to correct
}

// With returns the error with the particulars kv (name, value, ...) added
// to Info.Args, for the window to word it in the person's language
// ("error.<code>.detail", or "error.<code>.case.<case>" when Args["case"]
// names which of the code's situations it is).
func (e *Error) With(kv ...string) *Error {
	e.Info = e.Info.With(kv...)
	return e
}

// With returns info with the particulars kv (name, value, ...) added to
// Args; the map is new, so a shared ErrorInfo is left as it was.
func (info ErrorInfo) With(kv ...string) ErrorInfo {
	args := make(map[string]string, len(info.Args)+len(kv)/2)
	for k, v := range info.Args {
		args[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i]] = kv[i+1]
	}
	info.Args = args
	return info
}
