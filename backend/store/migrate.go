package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Migration is one schema change. Versions only grow; a released migration
// is never edited, a new one is added instead.
type Migration struct {
	Version int
	Name    string
	Up      func(tx *gorm.DB) error
}

// schemaMigration records which migrations of which set have run.
type schemaMigration struct {
	Set       string `gorm:"primaryKey"`
	Version   int    `gorm:"primaryKey"`
	Name      string
	AppliedAt time.Time
}

// Migrate runs the migrations of set that have not run yet, each in its own
// transaction, in version order. Several packages share one database, so
// each names its own set ("store", "knowledge", ...).
func Migrate(ctx context.Context, db *gorm.DB, set string, ms []Migration) error {
	db = db.WithContext(ctx)
	// IF NOT EXISTS, not gorm's AutoMigrate: packages migrate concurrently,
	// and a check-then-create would race.
	const create = "CREATE TABLE IF NOT EXISTS schema_migrations (`set` TEXT NOT NULL, version INTEGER NOT NULL, name TEXT, applied_at DATETIME, PRIMARY KEY (`set`, version))"
	if err := db.Exec(create).Error; err != nil {
		return fmt.Errorf("migrate %s: create schema_migrations: %w", set, err)
	}
	var done []int
	if err := db.Model(&schemaMigration{}).Where("`set` = ?", set).Pluck("version", &done).Error; err != nil {
		return fmt.Errorf("migrate %s: read applied versions: %w", set, err)
	}
	applied := make(map[int]bool, len(done))
	for _, v := range done {
		applied[v] = true
	}
	last := 0
	for _, m := range ms {
		if m.Version <= last {
			return fmt.Errorf("migrate %s: version %d after %d: versions must increase", set, m.Version, last)
		}
		last = m.Version
		if applied[m.Version] {
			continue
		}
		err := db.Transaction(func(tx *gorm.DB) error {
			// Another process may have applied it since the read above; the
			// transaction holds the write lock, so this answer is final.
			var n int64
			if err := tx.Model(&schemaMigration{}).Where("`set` = ? AND version = ?", set, m.Version).Count(&n).Error; err != nil || n > 0 {
				return err
			}
			if err := m.Up(tx); err != nil {
				return err
			}
			return tx.Create(&schemaMigration{Set: set, Version: m.Version, Name: m.Name, AppliedAt: time.Now()}).Error
		})
		if err != nil {
			return fmt.Errorf("migrate %s to version %d (%s): %w", set, m.Version, m.Name, err)
		}
	}
	return nil
}

// AwaitMigrated waits, up to patience, until the owner of the database has
// run every migration of set, for a reader beside it (a read-only
// connection cannot migrate): the open app sets up some of its tables in
// the background as it starts, and a command run in that moment would
// otherwise fail on a table not there yet. It returns without error when
// patience runs out too, so the reader goes on and says what it finds.
func AwaitMigrated(ctx context.Context, db *gorm.DB, set string, ms []Migration, patience time.Duration) error {
	db = db.WithContext(ctx)
	deadline := time.Now().Add(patience)
	for {
		var n int64
		// Before the owner's first migration the table is not there: that
		// error is only a "not yet".
		err := db.Model(&schemaMigration{}).Where("`set` = ?", set).Count(&n).Error
		if err == nil && n >= int64(len(ms)) || time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
