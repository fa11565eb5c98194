package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// space says when and how fast the running app gives the database's free
// space back to the disk (giveBack).
type space struct {
	// at is the free space from which a pass starts: less is left for the
	// next rows, which reuse it.
	at int64
	// step is how much one step frees, and so how long it holds the write
	// lock (BenchmarkGiveBackStep).
	step int64
	// pause is the wait between steps, in which the person's writes take
	// the lock; longer than SQLite's longest sleep between two tries of a
	// waiting writer (100 ms), so that one always gets in.
	pause time.Duration
	// busy is how long a step waits for the lock before leaving the rest
	// to the next look (the person writes, an import runs).
	busy time.Duration
	// every is how often the free space is looked at; 0 looks only when
	// a test says so.
	every time.Duration
	// limit is how long a pass may take before it leaves the rest for
	// later (GiveBack: a person waits for the command); 0: no limit.
	limit time.Duration
}

// defaultSpace: 16 MB free starts a pass; a step of 2 MB holds the lock
// for about 40 ms when every page it frees moves one in use
// (BenchmarkGiveBackStep, at a load of 8–10 on 2 cores), and keeps 99 of
// 100 writes beside a pass under 30 ms (BenchmarkWriteDuringGiveBack),
// where 4 MB let one in 100 wait 60–100 ms; 100 MB are given back within
// a minute of their delete, in about ten seconds.
func defaultSpace() space {
	return space{at: 16 << 20, step: 2 << 20, pause: 150 * time.Millisecond, busy: 100 * time.Millisecond, every: 30 * time.Second}
}

// oneShotSpace is for a command that exits when it is done (GiveBack):
// from 1 MB free, since the space would otherwise stay in the file until
// the app next starts; in steps of 8 MB without a pause between them, since
// no one else writes (the command holds the data folder); within 10 s, which
// gives back several hundred MB (BenchmarkGiveBackStep: 2 MB in about 40 ms
// on a loaded machine), the rest being left to the app's next start.
func oneShotSpace() space {
	return space{at: 1 << 20, step: 8 << 20, busy: time.Second, limit: 10 * time.Second}
}

// giveBackLoop looks at the free space when the store opens and then
// every sp.every, and gives it back (giveBack), until ctx ends (Close).
//
// A periodic look rather than a call after each large delete: rows go in
// many places and packages (knowledge's Remove and RemoveSource, the
// staged rows an import cancelled or failed drops, and those of a crashed
// one at start (dropStaged), the old chunks of a file imported again;
// deleted sessions purged, memories and agent checkpoints removed), and a
// call in each, and in each one to come, is easy to forget, while a look
// reads two numbers in the file's first page (microseconds) twice a
// minute. The space comes back within a minute of the delete, which is
// soon enough for a file on a disk.
func giveBackLoop(ctx context.Context, db *sql.DB, sp space, log *slog.Logger, done chan<- struct{}) {
	lookLoop(ctx, func(ctx context.Context) error { return giveBack(ctx, db, sp, log) },
		&backoff{every: sp.every, longest: longestWait}, log, time.After)
	close(done)
}

// lookLoop runs look now and then after each wait that b says, until ctx
// ends; after is time.After, or a test's clock.
func lookLoop(ctx context.Context, look func(context.Context) error, b *backoff, log *slog.Logger, after func(time.Duration) <-chan time.Time) {
	for {
		err := look(ctx)
		if ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-after(b.next(err, log)):
		}
	}
}

// longestWait is the longest the loop waits between two looks while giving
// back fails.
const longestWait = 30 * time.Minute

// backoff spaces the loop's looks. A failure that lasts (a full disk, a
// file made read-only, a broken file) is said once when it starts, with
// the error, and once when it ends, not every 30 s for as long as the app
// runs, and is tried again at doubling waits, up to longest: each try
// writes to the log and, on a full disk, fails the same way. The lock
// being held (the person writes, an import runs) is not a failure: the
// next look comes at the usual time.
type backoff struct {
	every, longest time.Duration
	wait           time.Duration // the wait after the last look
	failing        bool          // the last look that was not busy failed
}

// next is the wait after a look that ended in err, and says a change of
// state to log.
func (b *backoff) next(err error, log *slog.Logger) time.Duration {
	if b.wait == 0 {
		b.wait = b.every
	}
	switch {
	case err != nil && isBusy(err):
		log.Debug("database: busy; its free space is given back later", "err", err)
	case err != nil:
		b.wait = min(2*b.wait, b.longest)
		if !b.failing {
			b.failing = true
			log.Warn("database: could not give back its free space; trying again less often, and saying so when it works",
				"err", err, "next_try_in", b.wait)
		} else {
			log.Debug("database: still cannot give back its free space", "err", err, "next_try_in", b.wait)
		}
	default:
		if b.failing {
			b.failing = false
			log.Info("database: its free space can be given back again")
		}
		b.wait = b.every
	}
	return b.wait
}

// giveBack hands the file's free pages back to the disk when at least
// sp.at bytes are free, in steps of sp.step bytes: each step is one
// `PRAGMA incremental_vacuum(N)`, a short write transaction of its own
// that moves pages from the end of the file into free ones and cuts the
// end off. Between steps it pauses, so that a chat turn or an import that
// wants to write waits for one step at most, never for the whole pass.
// Then a checkpoint writes the shortened file and cuts the log, which is
// when the disk gets the space back. That one holds writers while it waits
// for readers of older pages, sp.busy at most; when they stay, it says
// busy and leaves the rest to the checkpoints SQLite makes as rows come.
//
// It does nothing to a database that is not INCREMENTAL (one too large
// for the start to switch, see compact), where incremental_vacuum does
// nothing. It stops between two steps, or inside one (which is then
// rolled back, losing nothing), when ctx ends.
func giveBack(ctx context.Context, db *sql.DB, sp space, log *slog.Logger) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("give back free space: %w", err)
	}
	defer conn.Close()
	st, err := readSpace(ctx, conn)
	if err != nil {
		return fmt.Errorf("give back free space: %w", err)
	}
	if st.autoVacuum != autoVacuumIncremental || st.free() < sp.at {
		return nil
	}
	// The connection's own wait for the lock is short: the person's
	// writes wait busyTimeout, ours give way.
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", sp.busy.Milliseconds())); err != nil {
		return fmt.Errorf("give back free space: %w", err)
	}
	defer func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("PRAGMA busy_timeout = %d", busyTimeout.Milliseconds())); err != nil {
			// Back in the pool with the short wait, it would fail the
			// person's statements: close it instead.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	start, freed := time.Now(), int64(0)
	for left := st.freePages; left > 0; {
		n, err := giveBackStep(ctx, conn, max(sp.step/st.pageSize, 1))
		if err != nil {
			return stopped(ctx, fmt.Errorf("give back free space (%d MB given back, %d MB left): %w", freed>>20, left*st.pageSize>>20, err))
		}
		if n == 0 {
			break
		}
		left -= n
		freed += n * st.pageSize
		// The step's pages go into the database file now, by this
		// connection, without the write lock, rather than by whichever
		// write next finds the log long: a reply being saved.
		if _, err := conn.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			return stopped(ctx, fmt.Errorf("give back free space: checkpoint: %w", err))
		}
		if left > 0 && sp.pause > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(sp.pause):
			}
		}
	}
	var busy, logFrames, moved int
	if err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &moved); err != nil {
		return stopped(ctx, fmt.Errorf("give back free space: checkpoint: %w", err))
	}
	log.Info("database: free space given back", "freed_mb", freed>>20, "size_mb", st.used()>>20,
		"took", time.Since(start).Round(time.Millisecond), "checkpoint_busy", busy == 1)
	return nil
}

// stopped is err, or ctx's error when ctx ended: SQLite says a statement
// it was told to stop was "interrupted".
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("give back free space: %w", ctx.Err())
	}
	return err
}

// giveBackStep frees up to pages free pages and returns how many it freed.
// SQLite's incremental_vacuum returns a row per page freed and frees the
// next one only when asked for the next row: executed without reading its
// rows, it frees one page.
func giveBackStep(ctx context.Context, conn *sql.Conn, pages int64) (int64, error) {
	rows, err := conn.QueryContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", pages))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

// isBusy tells SQLite's "database is locked" (SQLITE_BUSY), which a step
// returns when the person's writes keep the lock longer than space.busy.
func isBusy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == sqliteBusy
}
