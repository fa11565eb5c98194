package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	wf "github.com/wayfinder-app/wayfinder/backend/api"
)

// RetryRecord is one failed attempt that was retried. The agent keeps these
// in its state (seed 003's resilient_invoke fallback record), so the fields
// serialise plainly.
type RetryRecord struct {
	Op      string        `json:"op"`
	Attempt int           `json:"attempt"` // the attempt that failed, from 1
	Code    wf.ErrorCode  `json:"code"`
	Error   string        `json:"error"`
	Backoff time.Duration `json:"backoff_ns"`
	At      time.Time     `json:"at"`
}

// attemptFunc is one try of a call, on host h. It reports whether it
// already passed output to the caller (streamed text), which forbids a
// retry.
type attemptFunc func(ctx context.Context, h *endpoint) (delivered bool, err error)

// retry runs fn until it succeeds, fails for good, or the retries run out.
// Errors returned by fn must already be classified (see fail). Each attempt
// goes to the host the pool picks for model and conversation. When an
// attempt finds its host down (no connection, a dropped one, a 5xx) and
// another host can take the call, the next attempt goes there at once,
// without a backoff and without counting against the retries: the call
// did not fail, a host did.
func (c *Client) retry(ctx context.Context, op, model, conversation string, fn attemptFunc) ([]RetryRecord, error) {
	return c.retryFrom(ctx, nil, op, model, conversation, fn)
}

// retryFrom is retry for a call that began before it: since is the pool's
// checkCounts then, so a host listed on the call's way here (asking the
// model's facts) is not probed again by its first attempt.
func (c *Client) retryFrom(ctx context.Context, since []int, op, model, conversation string, fn attemptFunc) ([]RetryRecord, error) {
	var records []RetryRecord
	backoff := c.cfg.backoff
	for attempt, failed, moved := 1, 0, 0; ; attempt++ {
		h, err := c.pool.acquire(ctx, model, conversation, since)
		since = nil // a later attempt, after its wait, may probe again
		var delivered bool
		switch {
		case err != nil && ctx.Err() != nil:
			return records, c.fail(ctx, nil, op, model, ctx.Err())
		case err != nil:
			// No host answers: the attempt fails as the probe did, without
			// a model call on a host that is down.
			err = noHost(op, model, h.url, err)
		default:
			delivered, err = fn(ctx, h)
			if f, ok := err.(final); ok {
				err, delivered = f.error, true // delivered: not to be tried again
			}
			var e *Error
			if errors.As(err, &e) && e.Host == "" {
				e.Host = h.url
			}
			if delivered && ctx.Err() == nil {
				err = c.gone(ctx, h, err)
			}
			c.pool.release(h, model, err)
		}
		if err == nil || ctx.Err() != nil || delivered {
			return records, err
		}
		// (At most once per host: a pool that keeps picking failing hosts
		// must not loop.)
		failover := moved < len(c.pool.hosts)-1 && hostFault(err) && c.pool.another(h)
		if !failover && (!retryable(err) || failed >= c.cfg.maxRetries) {
			return records, err
		}
		wait := backoff
		if failover {
			wait = 0
			moved++
		} else {
			failed++
		}
		records = append(records, RetryRecord{
			Op: op, Attempt: attempt, Code: Classify(err).Code, Error: err.Error(), Backoff: wait, At: time.Now(),
		})
		c.cfg.logger.Warn("ollama call failed, retrying", "op", op, "model", model, "host", h.url, "attempt", attempt, "backoff", wait, "err", err)
		if failover {
			continue
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return records, c.fail(ctx, nil, op, model, ctx.Err())
		case <-t.C:
		}
		backoff = min(backoff*2, c.cfg.maxBackoff)
	}
}

// gone tells a reply that broke off partway because Ollama went away from
// one it broke off with Ollama still there. Such a reply is not tried
// again (its text was shown), so no later attempt finds the address dead
// and says ollama_unreachable, as one that failed before its first word
// does: a dropped stream or a stalled one is asked once more here whether
// anything still takes a connection at the host. When nothing does (Ollama
// stopped, crashed, or the computer it runs on went to sleep), the error
// is ErrUnreachable, so the window holds sending at once and says to
// start Ollama, where it said "send it again" and stayed ready until its
// next check of the status. A host that takes the connection keeps the
// error as it was: an Ollama that hangs is there, and a drop may be a
// restart that is already over.
func (c *Client) gone(ctx context.Context, h *endpoint, err error) error {
	var e *Error
	if !errors.As(err, &e) || (e.Kind != ErrStreamDropped && e.Kind != ErrTimeout) {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, c.pool.probeTimeout)
	defer cancel()
	var connected atomic.Bool
	pctx = httptrace.WithClientTrace(pctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }})
	_, perr := h.api.Version(pctx)
	if perr == nil || connected.Load() || ctx.Err() != nil {
		return err
	}
	return &Error{Kind: ErrUnreachable, Op: e.Op, Host: h.url, Model: e.Model,
		Err: fmt.Errorf("%v, then no connection: %w", err, perr)}
}

// final is an attempt's error that is not to be tried again, whatever its
// kind (see EmbedOnce); retry returns the error it holds.
type final struct{ error }

// noHost is the error of a call that no host could take: its kind is the
// failed probe's (so a 5xx stays retryable by the caller's own rules), its
// cause the probe's cause.
func noHost(op, model, host string, probe error) error {
	kind, cause := error(ErrUnreachable), probe
	var e *Error
	if errors.As(probe, &e) {
		kind, cause = e.Kind, e.Err
	}
	return &Error{Kind: kind, Op: op, Model: model, Host: host, Err: fmt.Errorf("no Ollama host answers: %w", cause)}
}

// watchdog cancels an attempt's context when the first chunk does not come
// within first, or when later chunks stop for longer than idle. Call tick
// on every chunk and stop when the attempt ends.
type watchdog struct {
	timer *time.Timer
	seen  atomic.Bool
	idle  time.Duration
}

func newWatchdog(cancel context.CancelCauseFunc, first, idle time.Duration) *watchdog {
	w := &watchdog{idle: idle}
	w.timer = time.AfterFunc(first, func() {
		if w.seen.Load() {
			cancel(errIdle)
		} else {
			cancel(errFirstToken)
		}
	})
	return w
}

func (w *watchdog) tick() {
	w.seen.Store(true)
	w.timer.Reset(w.idle)
}

func (w *watchdog) stop() { w.timer.Stop() }
