package store

import (
	"context"
	"database/sql"
	"log/slog"
)

// compactUpTo bounds the live data the start's rewrite copies, and so the
// time a start waits for it (a few seconds on a slow disk).
const compactUpTo = 256 << 20

// compact switches the database to auto_vacuum=INCREMENTAL, so that the
// running app can give its free space back in short steps (giveBack):
// SQLite keeps the pages of deleted rows for reuse, so a large document
// removed, or a large import cancelled or failed (its staged rows are
// dropped), would otherwise keep its size on the disk for good.
//
// SQLite takes the setting only before the first table is created or with
// a VACUUM, which rewrites the file without its free pages. So compact
// VACUUMs a database that is not INCREMENTAL yet and has at most maxUsed
// bytes in use: a new, empty one (instant, before its first table), and one
// written by an older Wayfinder once, at its first start by this one, which
// gives back its free space too. A database with more in use stays as it
// was (no auto_vacuum): its free space is reused by its own growth, and
// the start does not wait for a long copy. compact runs when Open has the
// file to itself, before anything else uses it; a failure (another
// process holds the file, the disk is full) is logged and changes nothing.
func compact(ctx context.Context, db *sql.DB, maxUsed int64, log *slog.Logger) {
	// The setting belongs to a connection: it must be the one that VACUUMs.
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Warn("database: could not read its free space", "err", err)
		return
	}
	defer conn.Close()
	st, err := readSpace(ctx, conn)
	if err != nil {
		log.Warn("database: could not read its free space", "err", err)
		return
	}
	if st.autoVacuum == autoVacuumIncremental || st.used() > maxUsed {
		return
	}
	// In WAL mode VACUUM writes the new file into the log; the checkpoint
	// moves it into the database file and cuts the log, which is when the
	// disk gets the space back.
	for _, q := range []string{"PRAGMA auto_vacuum = INCREMENTAL", "VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			log.Warn("database: could not give back its free space", "free_mb", st.free()>>20, "step", q, "err", err)
			return
		}
	}
	if st.pages > 1 { // not a new database
		log.Info("database: free space given back; from now on while it runs",
			"freed_mb", st.free()>>20, "size_mb", st.used()>>20)
	}
}

// autoVacuumIncremental is PRAGMA auto_vacuum's value for INCREMENTAL.
const autoVacuumIncremental = 2

// spaceState is what the database file holds: its pages, and how many of
// them are free.
type spaceState struct {
	autoVacuum, pageSize, pages, freePages int64
}

func (s spaceState) free() int64 { return s.freePages * s.pageSize }
func (s spaceState) used() int64 { return (s.pages - s.freePages) * s.pageSize }

// readSpace reads the header fields behind spaceState: a read of the
// file's first page, microseconds.
func readSpace(ctx context.Context, conn *sql.Conn) (spaceState, error) {
	var st spaceState
	for _, p := range []struct {
		name string
		dst  *int64
	}{{"auto_vacuum", &st.autoVacuum}, {"page_size", &st.pageSize}, {"page_count", &st.pages}, {"freelist_count", &st.freePages}} {
		if err := conn.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(p.dst); err != nil {
			return st, err
		}
	}
	return st, nil
}
