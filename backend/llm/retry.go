package llm

import (
	"context"
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

// attemptFunc is one try of a call. It reports whether it already passed
// output to the caller (streamed text), which forbids a retry.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// retry runs fn until it succeeds, fails for good, or the retries run out.
// Errors returned by fn must already be classified (see fail).
func (c *Client) retry(ctx context.Context, op, model string, fn attemptFunc) ([]RetryRecord, error) {
	var records []RetryRecord
	backoff := c.cfg.backoff
	for attempt := 1; ; attempt++ {
		delivered, err := fn(ctx)
		if err == nil || ctx.Err() != nil || delivered || !retryable(err) || attempt > c.cfg.maxRetries {
			return records, err
		}
		records = append(records, RetryRecord{
			Op: op, Attempt: attempt, Code: Classify(err).Code, Error: err.Error(), Backoff: backoff, At: time.Now(),
		})
		c.cfg.logger.Warn("ollama call failed, retrying", "op", op, "model", model, "attempt", attempt, "backoff", backoff, "err", err)
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
