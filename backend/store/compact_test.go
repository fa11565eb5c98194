package store

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"gorm.io/gorm"
)

// fill adds mb rows of one MiB each to a table of their own.
func fill(t testing.TB, db *gorm.DB, mb int) {
	t.Helper()
	for _, q := range []string{
		"CREATE TABLE IF NOT EXISTS filler (b BLOB)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < ?) INSERT INTO filler SELECT zeroblob(1048576) FROM n",
	} {
		if err := db.Exec(q, mb).Error; err != nil {
			t.Fatal(err)
		}
	}
}

// emptyFiller deletes the filler rows and checkpoints, so that the file
// holds their pages as free ones, as after a large document is removed.
func emptyFiller(t testing.TB, db *gorm.DB) {
	t.Helper()
	for _, q := range []string{"DELETE FROM filler", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if err := db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
}

// diskMB is what the database takes on the disk: its file and its log.
func diskMB(t testing.TB, path string) int64 {
	t.Helper()
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		st, err := os.Stat(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err == nil {
			n += st.Size()
		}
	}
	return n >> 20
}

// pragma reads a number from the database.
func pragma(t testing.TB, db *gorm.DB, name string) (n int64) {
	t.Helper()
	if err := db.Raw("PRAGMA " + name).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func sqlOf(t testing.TB, db *gorm.DB) *sql.DB {
	t.Helper()
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	return sqlDB
}

// oldDatabase writes a database as Wayfinder did before auto_vacuum
// (OpenDB sets none): a kept row, and mb MB of rows deleted again.
func oldDatabase(t *testing.T, dir string, mb int) string {
	t.Helper()
	path := filepath.Join(dir, FileName)
	db, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlOf(t, db).Close()
	for _, q := range []string{"CREATE TABLE kept (v TEXT)", "INSERT INTO kept VALUES ('안녕')"} {
		if err := db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	fill(t, db, mb)
	emptyFiller(t, db)
	if av := pragma(t, db, "auto_vacuum"); av != 0 {
		t.Fatalf("the old database's auto_vacuum is %d, want 0 (none)", av)
	}
	return path
}

// TestOpenMakesDatabasesIncremental: a new database is INCREMENTAL from
// its creation; one written by an older Wayfinder becomes INCREMENTAL at
// its first start, which also gives back the free space it held, and
// keeps its data.
func TestOpenMakesDatabasesIncremental(t *testing.T) {
	ctx := context.Background()
	s, err := openWith(ctx, t.TempDir(), space{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if av := pragma(t, s.db, "auto_vacuum"); av != autoVacuumIncremental {
		t.Errorf("a new database's auto_vacuum is %d, want %d (incremental)", av, autoVacuumIncremental)
	}
	s.Close()

	dir := t.TempDir()
	path := oldDatabase(t, dir, 8)
	if mb := diskMB(t, path); mb < 8 {
		t.Fatalf("the old database takes %d MB, want ≥ 8 (SQLite keeps freed pages)", mb)
	}
	s, err = openWith(ctx, dir, space{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if av := pragma(t, s.db, "auto_vacuum"); av != autoVacuumIncremental {
		t.Errorf("an old database's auto_vacuum after Open is %d, want %d (incremental)", av, autoVacuumIncremental)
	}
	if mb := diskMB(t, path); mb > 1 {
		t.Errorf("the old database takes %d MB after Open, want its free space given back", mb)
	}
	var kept string
	if err := s.db.Raw("SELECT v FROM kept").Scan(&kept).Error; err != nil || kept != "안녕" {
		t.Errorf("kept row after the start's rewrite: %q, %v", kept, err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestCompactLeavesLargeAndIncrementalDatabases: an old database with more
// in use than a start should wait to copy keeps its pages and its mode (as
// before, its growth reuses them); an INCREMENTAL one is not rewritten at
// start, its free space is the background's (giveBack).
func TestCompactLeavesLargeAndIncrementalDatabases(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := oldDatabase(t, dir, 4)
	db, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlOf(t, db).Close()
	fill(t, db, 2)                                    // 2 MB in use, 2 free
	compact(ctx, sqlOf(t, db), 1<<20, slog.Default()) // at most 1 MB may be copied
	if av, free := pragma(t, db, "auto_vacuum"), pragma(t, db, "freelist_count"); av != 0 || free == 0 {
		t.Errorf("2 MB in use with 1 MB allowed: auto_vacuum %d, %d free pages; want 0 and some", av, free)
	}
	compact(ctx, sqlOf(t, db), 1<<30, slog.Default())
	if av, free := pragma(t, db, "auto_vacuum"), pragma(t, db, "freelist_count"); av != autoVacuumIncremental || free != 0 {
		t.Fatalf("2 MB in use with 1 GB allowed: auto_vacuum %d, %d free pages; want %d and 0", av, free, autoVacuumIncremental)
	}
	emptyFiller(t, db)
	before := pragma(t, db, "freelist_count")
	compact(ctx, sqlOf(t, db), 1<<30, slog.Default())
	if after := pragma(t, db, "freelist_count"); after != before || before == 0 {
		t.Errorf("free pages of an incremental database %d → %d at start, want them left to the background", before, after)
	}
}
