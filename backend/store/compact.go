package store

import (
	"context"
	"log/slog"

	"gorm.io/gorm"
)

// compactAt is how much free space inside the database file makes Open
// give it back: SQLite keeps the pages of deleted rows for reuse, so a
// large document removed, or a large import cancelled or failed (its
// staged rows are dropped), would otherwise keep its size on the disk for
// good. Below it the space is left for the next rows.
const compactAt = 64 << 20

// compactUpTo bounds the live data a compaction copies, and so the time a
// start waits for it (a few seconds on a slow disk): a larger database
// keeps its free space, which its own growth reuses.
const compactUpTo = 256 << 20

// compact rewrites the database without its free pages (VACUUM) when at
// least minFree bytes and half the file are free, and at most maxUsed
// bytes are in use. It runs when Open has the file to itself, before
// anything else uses it, and takes as long as copying the data in use.
// A failure (another process holds the file, the disk is full) is logged
// and changes nothing: the database works as it is.
func compact(ctx context.Context, db *gorm.DB, minFree, maxUsed int64) {
	var pageSize, pages, free int64
	for _, p := range []struct {
		name string
		dst  *int64
	}{{"page_size", &pageSize}, {"page_count", &pages}, {"freelist_count", &free}} {
		if err := db.WithContext(ctx).Raw("PRAGMA " + p.name).Scan(p.dst).Error; err != nil {
			slog.Warn("database: could not read its free space", "err", err)
			return
		}
	}
	if free*pageSize < minFree || free*2 < pages || (pages-free)*pageSize > maxUsed {
		return
	}
	// In WAL mode VACUUM writes the new file into the log; the checkpoint
	// moves it into the database file and cuts the log, which is when the
	// disk gets the space back.
	for _, q := range []string{"VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if err := db.WithContext(ctx).Exec(q).Error; err != nil {
			slog.Warn("database: could not give back its free space", "free_mb", free*pageSize>>20, "step", q, "err", err)
			return
		}
	}
	slog.Info("database: free space given back", "freed_mb", free*pageSize>>20,
		"size_mb", (pages-free)*pageSize>>20)
}
