package mcp

import (
	"errors"
	"io/fs"
	"os/exec"
	"strconv"
	"time"
)

// Why a server did not start, as a code the window words in the person's
// language ("mcp.reason.<code>" in frontend/src/i18n) with its particulars.
// The error's own text (Go's and the SDK's English) stays the log's and the
// detail's: a Korean sentence never carries it.
const (
	ReasonCommandMissing = "command_missing" // {command}: no such program
	ReasonCommandFailed  = "command_failed"  // {command}: it exists but could not be run (permissions, not a program)
	ReasonExited         = "exited"          // {command}: it ended during the handshake
	ReasonTimeout        = "timeout"         // {seconds}: no answer to the handshake in time
	ReasonUnreachable    = "unreachable"     // {url}: the address did not answer as an MCP server
	ReasonNoTools        = "no_tools"        // it started but did not list its tools
	ReasonStopped        = "stopped"         // it ran, then ended on its own or lost the connection
)

// startError is a failed start with its reason; Error is the wrapped
// error's text, unchanged.
type startError struct {
	reason string
	args   map[string]string
	err    error
}

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// Reason says why the server did not start: a code (the Reason*
// constants) and its particulars. Callers outside the package find it
// through errors.As with an interface of this one method, so they need
// not import mcp.
func (e *startError) Reason() (string, map[string]string) { return e.reason, e.args }

// because marks err with why the start failed; a reason already there
// (the innermost, most precise) is kept.
func because(err error, reason string, kv ...string) error {
	if err == nil {
		return nil
	}
	var known *startError
	if errors.As(err, &known) {
		return err
	}
	args := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i]] = kv[i+1]
	}
	return &startError{reason: reason, args: args, err: err}
}

// runReason is why a command did not run: missing, or there but not runnable.
func runReason(err error) string {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return ReasonCommandMissing
	}
	return ReasonCommandFailed
}

func seconds(d time.Duration) string { return strconv.Itoa(int(d.Round(time.Second) / time.Second)) }

// reasonOf is a failure's reason as the status shows it; zero: unknown.
type reasonOf struct {
	code string
	args map[string]string
}

func reasonFor(err error) reasonOf {
	var e *startError
	if errors.As(err, &e) {
		return reasonOf{e.reason, e.args}
	}
	return reasonOf{}
}
