package store

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"testing"
	"time"
)

// testSpace gives back from 1 MB free, without pauses worth the name, and
// without a background loop unless every is set.
func testSpace() space {
	return space{at: 1 << 20, step: 4 << 20, pause: time.Millisecond, busy: 100 * time.Millisecond}
}

// TestGiveBackShrinksTheFile: after 56 MB of rows are deleted (a large
// document removed, a large import cancelled), a pass gives the file back
// to the disk down to the data in use, while the store is open, and keeps
// that data.
func TestGiveBackShrinksTheFile(t *testing.T) {
	ctx := context.Background()
	s, err := openWith(ctx, t.TempDir(), space{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, err := s.CreateSession(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	fill(t, s.db, 56)
	emptyFiller(t, s.db)
	if mb := diskMB(t, s.Path()); mb < 56 {
		t.Fatalf("the database takes %d MB before, want ≥ 56 (SQLite keeps freed pages)", mb)
	}
	if err := giveBack(ctx, sqlOf(t, s.db), testSpace(), quiet()); err != nil {
		t.Fatal(err)
	}
	if mb := diskMB(t, s.Path()); mb > 1 {
		t.Errorf("the database takes %d MB after giving back, want ≤ 1 (the data in use)", mb)
	}
	if got, err := s.Session(ctx, sess.ID); err != nil || got.Title != "kept" {
		t.Errorf("session after giving back: %+v, %v", got, err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestGiveBackStep: one step frees the pages it is given and no more, so
// that it holds the write lock for a bounded time.
func TestGiveBackStep(t *testing.T) {
	ctx := context.Background()
	s, before := emptied(t, 4)
	conn, err := sqlOf(t, s.db).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, err := giveBackStep(ctx, conn, 100)
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	if after := pragma(t, s.db, "freelist_count"); n != 100 || after != before-100 {
		t.Errorf("a step of 100 pages freed %d (free pages %d → %d), want 100", n, before, after)
	}
}

// TestGiveBackLeaves: less free space than space.at is left for the next
// rows, and a database too large for the start to switch (auto_vacuum
// none) is left as it is.
func TestGiveBackLeaves(t *testing.T) {
	ctx := context.Background()
	s, before := emptied(t, 2)
	sp := testSpace()
	sp.at = 4 << 20
	if err := giveBack(ctx, sqlOf(t, s.db), sp, quiet()); err != nil {
		t.Fatal(err)
	}
	if after := pragma(t, s.db, "freelist_count"); after != before || before == 0 {
		t.Errorf("2 MB free with 4 MB to start: free pages %d → %d, want them left", before, after)
	}

	old, err := OpenDB(oldDatabase(t, t.TempDir(), 2))
	if err != nil {
		t.Fatal(err)
	}
	defer sqlOf(t, old).Close()
	before = pragma(t, old, "freelist_count")
	if err := giveBack(ctx, sqlOf(t, old), testSpace(), quiet()); err != nil {
		t.Fatal(err)
	}
	if after := pragma(t, old, "freelist_count"); after != before || before == 0 {
		t.Errorf("auto_vacuum none: free pages %d → %d, want them left", before, after)
	}
}

// TestGiveBackStopsWhenCancelled: a pass ends between two steps when its
// context ends (the store closes), with the rest of the free space left
// and the database whole.
func TestGiveBackStopsWhenCancelled(t *testing.T) {
	ctx := context.Background()
	s, before := emptied(t, 8)
	sp := testSpace()
	sp.step, sp.pause = 1<<20, time.Hour
	passCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- giveBack(passCtx, sqlOf(t, s.db), sp, quiet()) }()
	waitFor(t, func() bool { return pragma(t, s.db, "freelist_count") < before })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled pass returned %v, want context.Canceled", err)
	}
	if after := pragma(t, s.db, "freelist_count"); after == 0 || after >= before {
		t.Errorf("free pages %d → %d: want one step given back and the rest left", before, after)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestOpenGivesBackInTheBackground: Open's loop gives the space back
// without being asked, and Close ends it.
func TestOpenGivesBackInTheBackground(t *testing.T) {
	ctx := context.Background()
	sp := testSpace()
	sp.every = 10 * time.Millisecond
	s, err := openWith(ctx, t.TempDir(), sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, s.db, 8)
	emptyFiller(t, s.db)
	waitFor(t, func() bool { return diskMB(t, s.Path()) <= 1 })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.giveBackDone:
	default:
		t.Error("the loop runs on after Close")
	}
}

// waitFor waits until ok, failing after a minute: the machine may be
// loaded, and what is waited for is that it happens, not how soon.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("not within a minute")
		}
	}
}

// TestGiveBackGivesWay: a step does not wait behind the person's writes
// as they wait for one another (busyTimeout): it gives up after
// space.busy with "database is locked", leaving the pass to the next
// look, and its connection goes back to the pool with the usual wait.
func TestGiveBackGivesWay(t *testing.T) {
	ctx := context.Background()
	s, before := emptied(t, 2)
	db := sqlOf(t, s.db)
	writer, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writer.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil { // the person's write, under way
		t.Fatal(err)
	}
	sp := testSpace()
	sp.busy = 10 * time.Millisecond
	err = giveBack(ctx, db, sp, quiet())
	if _, rerr := writer.ExecContext(ctx, "ROLLBACK"); rerr != nil {
		t.Fatal(rerr)
	}
	writer.Close()
	if !isBusy(err) {
		t.Errorf("a pass beside a write under way returned %v, want database is locked", err)
	}
	if after := pragma(t, s.db, "freelist_count"); after != before {
		t.Errorf("free pages %d → %d beside a write under way, want them left", before, after)
	}
	// Every pooled connection, the pass's among them, waits as long as before.
	db.SetMaxIdleConns(8)
	conns := make([]*sql.Conn, 0, 3)
	for range 3 {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var ms int64
		if err := c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&ms); err != nil || ms != busyTimeout.Milliseconds() {
			t.Errorf("a pooled connection waits %d ms (%v), want %d", ms, err, busyTimeout.Milliseconds())
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

// emptied is an open store whose filler table was filled with mb
// megabytes and emptied again, and the free pages that left in its file.
func emptied(t *testing.T, mb int) (*Store, int64) {
	t.Helper()
	s, err := openWith(context.Background(), t.TempDir(), space{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fill(t, s.db, mb)
	emptyFiller(t, s.db)
	return s, pragma(t, s.db, "freelist_count")
}

// quiet is a logger that drops what it is told.
func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestGiveBackBeforeExit: a command that exits (GiveBack) gives back
// what it freed at once, also less than the loop waits for, and stops the
// loop; at its limit it leaves the rest for the next start without an
// error, and Ctrl+C (ctx ended) leaves it too, saying so.
func TestGiveBackBeforeExit(t *testing.T) {
	ctx := context.Background()
	t.Run("all of it", func(t *testing.T) {
		sp := testSpace()
		sp.every = time.Hour // a loop that would not look again before the exit
		s, err := openWith(ctx, t.TempDir(), sp, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fill(t, s.db, 6)
		emptyFiller(t, s.db)
		if mb := diskMB(t, s.Path()); mb < 6 {
			t.Fatalf("the database takes %d MB before, want ≥ 6", mb)
		}
		if defaultSpace().at <= 6<<20 {
			t.Fatal("the loop would give this back itself: fill more")
		}
		if err := s.GiveBack(ctx, quiet()); err != nil {
			t.Fatal(err)
		}
		if mb := diskMB(t, s.Path()); mb > 1 {
			t.Errorf("the database takes %d MB after GiveBack, want ≤ 1", mb)
		}
		select {
		case <-s.giveBackDone:
		default:
			t.Error("the background loop runs on after GiveBack")
		}
		if err := s.IntegrityCheck(ctx); err != nil {
			t.Error(err)
		}
	})
	for _, tc := range []struct {
		name    string
		limit   time.Duration
		stopped bool
	}{
		{"at its limit", time.Nanosecond, false},
		{"Ctrl+C", time.Hour, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, before := emptied(t, 4)
			sp := oneShotSpace()
			sp.limit = tc.limit
			passCtx, cancel := context.WithCancel(ctx)
			if tc.stopped {
				cancel()
			}
			defer cancel()
			err := s.giveBackNow(passCtx, quiet(), sp)
			if tc.stopped != errors.Is(err, context.Canceled) || (!tc.stopped && err != nil) {
				t.Errorf("GiveBack returned %v", err)
			}
			if after := pragma(t, s.db, "freelist_count"); after != before {
				t.Errorf("free pages %d → %d, want them left", before, after)
			}
		})
	}
}
