package store

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

// records keeps what a logger was told, for tests.
type records struct {
	mu   sync.Mutex
	seen []slog.Record
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, rec)
	return nil
}
func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

// at lists the messages logged at level or above.
func (r *records) at(level slog.Level) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, rec := range r.seen {
		if rec.Level >= level {
			out = append(out, rec.Message)
		}
	}
	return out
}

// busyErr is SQLite's "database is locked" as the driver codes it.
type busyErr struct{}

func (busyErr) Error() string { return "database is locked (5) (SQLITE_BUSY)" }
func (busyErr) Code() int     { return sqliteBusy }

// TestLastingFailureIsSaidOnce: giving back that fails for a lasting
// reason (an injected "disk is full") is said once as a warning when it
// starts and once when it works again, not at every look; the looks come
// at doubling waits up to the longest meanwhile, and at the usual one
// again after; the lock being held is not a failure.
func TestLastingFailureIsSaidOnce(t *testing.T) {
	full := errors.New("disk I/O error: database or disk is full")
	results := []error{nil, full, full, full, full, full, full, busyErr{}, nil, nil, full, nil}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	looks := 0
	look := func(context.Context) error {
		err := results[looks]
		if looks++; looks == len(results) {
			cancel()
		}
		return err
	}
	var waits []time.Duration
	now := make(chan time.Time)
	close(now)
	after := func(d time.Duration) <-chan time.Time { waits = append(waits, d); return now }
	log := &records{}
	const every, longest = 30 * time.Second, 4 * time.Minute
	lookLoop(ctx, look, &backoff{every: every, longest: longest}, slog.New(log), after)

	if looks != len(results) {
		t.Fatalf("%d looks, want %d", looks, len(results))
	}
	want := []time.Duration{every, time.Minute, 2 * time.Minute, longest, longest, longest, longest, longest, every, every, time.Minute}
	if !slices.Equal(waits, want) {
		t.Errorf("waits %v\nwant  %v", waits, want)
	}
	warn, info := "database: could not give back its free space; trying again less often, and saying so when it works", "database: its free space can be given back again"
	if got := log.at(slog.LevelInfo); !slices.Equal(got, []string{warn, info, warn}) {
		t.Errorf("logged %q\nwant a warning when it starts failing, a line when it works again, a warning when it fails again", got)
	}
}
