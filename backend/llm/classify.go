package llm

import (
	"context"
	"errors"
	"fmt"

	wf "github.com/wayfinder-app/wayfinder/backend/api"
)

// Classify turns an error from a Client into what the person sees: a stable
// code the frontend translates, an English message, and the next step. It
// returns the zero ErrorInfo for nil.
func Classify(err error) wf.ErrorInfo {
	if err == nil {
		return wf.ErrorInfo{}
	}
	var e *Error
	if !errors.As(err, &e) {
		switch {
		case errors.Is(err, context.Canceled):
			return wf.ErrorInfo{Code: wf.ErrInternal, Message: "The request was stopped."}
		case errors.Is(err, context.DeadlineExceeded):
			return wf.ErrorInfo{Code: wf.ErrTimeout, Message: "Ollama did not answer in time.",
				Hint: "Try again; if it keeps happening, choose a smaller model."}
		}
		return wf.ErrorInfo{Code: wf.ErrInternal, Message: err.Error()}
	}
	model := e.Model
	switch e.Kind {
	case ErrUnreachable:
		return wf.ErrorInfo{
			Code:    wf.ErrOllamaUnreachable,
			Message: fmt.Sprintf("Wayfinder cannot reach Ollama at %s.", e.Host),
			Args:    args("host", e.Host),
			Hint:    "Start Ollama (run `ollama serve`, or open the Ollama app); if it is not installed, get it from https://ollama.com/download. If Ollama runs elsewhere, change the Ollama host in Settings.",
		}
	case ErrModelNotFound:
		return wf.ErrorInfo{
			Code:    wf.ErrModelMissing,
			Message: fmt.Sprintf("The model %q is not installed in Ollama.", model),
			Hint:    fmt.Sprintf("ollama pull %s", model),
			Args:    args("model", model),
		}
	case ErrNoToolSupport:
		return wf.ErrorInfo{
			Code:    wf.ErrModelNoTools,
			Message: fmt.Sprintf("The model %q cannot use tools, which Wayfinder needs for this.", model),
			Args:    args("model", model),
			Hint:    "Choose a chat model with the \"tools\" badge in Settings, for example: ollama pull llama3.2:3b",
		}
	case ErrOutOfMemory:
		return wf.ErrorInfo{
			Code:    wf.ErrModelOutOfMemory,
			Message: fmt.Sprintf("The model %q does not fit in this computer's memory.", model),
			Args:    args("model", model),
			Hint:    "Choose a smaller chat model in Settings, or name a fallback model there (or with --fallback-model) for when this one cannot run.",
		}
	case ErrTimeout:
		return wf.ErrorInfo{
			Code:    wf.ErrTimeout,
			Message: "Ollama did not answer in time" + forModel(model) + ".",
			Args:    args("model", model),
			Hint:    "The model may still be loading or the computer is busy. Try again; if it keeps happening, choose a smaller model.",
		}
	case ErrStreamDropped:
		return wf.ErrorInfo{
			Code:    wf.ErrStreamDropped,
			Message: "The connection to Ollama broke off in the middle of the reply.",
			Hint:    "Check that Ollama is still running (`ollama ps`), then send the message again.",
		}
	case ErrMalformedOutput:
		return wf.ErrorInfo{
			Code:    wf.ErrBadModelOutput,
			Message: fmt.Sprintf("The model %q answered in a form Wayfinder could not read.", model),
			Args:    args("model", model),
			Hint:    "Try again; a larger model follows the format more reliably.",
		}
	case ErrPullFailed:
		return wf.ErrorInfo{
			Code:    wf.ErrPullFailed,
			Message: fmt.Sprintf("Downloading the model %q failed: %v", model, e.Err),
			Hint:    fmt.Sprintf("Check the internet connection and the model name (see https://ollama.com/library), then try again or run: ollama pull %s", model),
			Args:    args("model", model, "reason", cause(e.Err)),
		}
	case ErrRejected:
		return wf.ErrorInfo{
			Code:    wf.ErrInvalidInput,
			Message: fmt.Sprintf("Ollama refused the request: %v", e.Err),
			Args:    args("case", "ollama_rejected", "reason", cause(e.Err)),
			Hint:    "Check the model chosen in Settings; updating Ollama may help.",
		}
	default: // ErrServer
		return wf.ErrorInfo{
			Code:    wf.ErrOllamaError,
			Message: fmt.Sprintf("Ollama reported an error: %v", e.Err),
			Args:    args("reason", cause(e.Err)),
			Hint:    "Try again; if it keeps happening, look at the Ollama server log or restart Ollama.",
		}
	}
}

func forModel(model string) string {
	if model == "" {
		return ""
	}
	return fmt.Sprintf(" (model %q)", model)
}

// args pairs names and values for ErrorInfo.Args, leaving out empty
// values: the window words an error from a catalog sentence only when
// every blank of it is filled, and keeps the English message otherwise.
func args(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m[kv[i]] = kv[i+1]
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// cause is Ollama's own words for a failure (its error text, kept raw
// for the muted detail line), or "".
func cause(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
