package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/ollama/ollama/api"
)

// Kinds of failure. Every error from a Client that is not a cancellation is
// an *Error whose Kind is one of these, so callers test with errors.Is.
var (
	ErrUnreachable     = errors.New("ollama is not reachable")
	ErrModelNotFound   = errors.New("model is not installed")
	ErrNoToolSupport   = errors.New("model does not support tools")
	ErrOutOfMemory     = errors.New("model does not fit in memory")
	ErrTimeout         = errors.New("ollama did not answer in time")
	ErrStreamDropped   = errors.New("connection to ollama dropped in the middle of the reply")
	ErrMalformedOutput = errors.New("model output does not fit the requested format")
	ErrServer          = errors.New("ollama reported an error")
	ErrRejected        = errors.New("ollama rejected the request")
	ErrPullFailed      = errors.New("model download failed")
)

// Error is a failed call to Ollama.
type Error struct {
	Kind  error  // one of the ErrX above
	Op    string // "chat", "structured", "embed", "show", "list", "pull", "version"
	Host  string
	Model string
	// Raw is the model's text when Kind is ErrMalformedOutput, so a caller
	// can show it back to the model in a repair attempt.
	Raw string
	Err error // the underlying cause, e.g. api.StatusError
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	if e.Model != "" {
		fmt.Fprintf(&b, " %q", e.Model)
	}
	fmt.Fprintf(&b, ": %v", e.Kind)
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

// Unwrap lets errors.Is match the Kind and errors.As reach the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// Timeout says whether Ollama did not answer in time, for callers that
// tell a hung Ollama from one that is away without importing this package
// (the knowledge base, as net.Error's Timeout does).
func (e *Error) Timeout() bool { return errors.Is(e.Kind, ErrTimeout) }

// Timeout causes, set on the attempt's context by the watchdog.
var (
	errFirstToken = errors.New("no reply before the first-token timeout")
	errIdle       = errors.New("the reply stalled longer than the idle timeout")
	errRequest    = errors.New("no answer before the request timeout")
	errNoDone     = errors.New("the stream ended without its final done message")
)

// fail turns err from an attempt into what the caller sees: the caller's own
// cancellation as is (wrapped with the operation), anything else as *Error
// (retry fills in the host the attempt went to).
func (c *Client) fail(ctx, attemptCtx context.Context, op, model string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s %q: %w", op, model, ctx.Err())
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if attemptCtx != nil {
		if cause := context.Cause(attemptCtx); cause == errFirstToken || cause == errIdle || cause == errRequest {
			return &Error{Kind: ErrTimeout, Op: op, Model: model, Err: cause}
		}
	}
	return &Error{Kind: kindOf(err), Op: op, Model: model, Err: err}
}

// kindOf sorts a raw error from the official client.
func kindOf(err error) error {
	var se api.StatusError
	if errors.As(err, &se) {
		msg := strings.ToLower(se.ErrorMessage)
		switch {
		case strings.Contains(msg, "does not support tools"):
			return ErrNoToolSupport
		case se.StatusCode == 404 && strings.Contains(msg, "model") && strings.Contains(msg, "not found"):
			return ErrModelNotFound
		case outOfMemory(msg):
			return ErrOutOfMemory
		case se.StatusCode >= 500:
			return ErrServer
		default:
			return ErrRejected
		}
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return ErrRejected
	}
	if errors.Is(err, errNoDone) {
		return ErrStreamDropped
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return ErrUnreachable
	}
	for _, refused := range []error{syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EADDRNOTAVAIL} {
		if errors.Is(err, refused) {
			return ErrUnreachable
		}
	}
	for _, dropped := range []error{io.EOF, io.ErrUnexpectedEOF, syscall.ECONNRESET, syscall.EPIPE, syscall.ECONNABORTED} {
		if errors.Is(err, dropped) {
			return ErrStreamDropped
		}
	}
	// A dial that failed made no connection, even when it timed out: a
	// machine that is off (or a firewall) answers nothing, and the dialer
	// gives up after its timeout. That is an address Wayfinder cannot
	// reach, not an Ollama that hangs: not retried on it, and with several
	// hosts it is put down so another takes the call.
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return ErrUnreachable
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return ErrTimeout
	}
	if op != nil {
		return ErrStreamDropped
	}
	// Error lines inside a stream and unreadable lines arrive as plain
	// errors from the official client.
	if outOfMemory(strings.ToLower(err.Error())) {
		return ErrOutOfMemory
	}
	return ErrServer
}

// outOfMemory reads Ollama's ways of saying a model does not fit: "model
// requires more system memory (5.5 GiB) than is available (3.1 GiB)", a
// runner that died with "out of memory", "cudaMalloc failed", ...
func outOfMemory(msg string) bool {
	for _, s := range []string{"requires more system memory", "out of memory", "insufficient memory", "not enough memory", "cudamalloc failed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// retryable says whether another attempt may help.
func retryable(err error) bool {
	return errors.Is(err, ErrTimeout) || errors.Is(err, ErrServer) || errors.Is(err, ErrStreamDropped)
}
