package store

import (
	"context"
	"os"
	"testing"

	"gorm.io/gorm"
)

// fill adds mb rows of one MiB each to a table of their own.
func fill(t *testing.T, db *gorm.DB, mb int) {
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

// diskMB is what the database takes on the disk: its file and its log.
func diskMB(t *testing.T, path string) int64 {
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

// TestOpenGivesBackFreeSpace: after many rows are deleted (a large
// document removed, a large import cancelled), the next start shrinks the
// file; the data that is left stays. Open does it from 64 MB free; 8 MB
// and a 1 MB threshold keep the test quick under -race, where SQLite runs
// many times slower.
func TestOpenGivesBackFreeSpace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := openCompacting(ctx, dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.CreateSession(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	fill(t, s.db, 8)
	if err := s.db.Exec("DELETE FROM filler").Error; err != nil {
		t.Fatal(err)
	}
	if err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)").Error; err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	s.Close()
	if mb := diskMB(t, path); mb < 8 {
		t.Fatalf("the database takes %d MB before, want ≥ 8 (SQLite keeps freed pages)", mb)
	}
	s, err = openCompacting(ctx, dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if mb := diskMB(t, path); mb > 1 {
		t.Errorf("the database takes %d MB after Open, want it given back", mb)
	}
	if got, err := s.Session(ctx, sess.ID); err != nil || got.Title != "kept" {
		t.Errorf("session after compaction: %+v, %v", got, err)
	}
}

// TestCompactLeavesSpaceInUse: free space under the threshold, or under
// half the file, is left for the next rows (VACUUM would copy the whole
// file for little gain), and so is that of a database with more in use
// than a start should wait to copy.
func TestCompactLeavesSpaceInUse(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fill(t, s.db, 6)
	// Two of six MB freed: over 1 MB but under half the file.
	if err := s.db.Exec("DELETE FROM filler WHERE rowid <= 2").Error; err != nil {
		t.Fatal(err)
	}
	free := func() (n int64) {
		if err := s.db.Raw("PRAGMA freelist_count").Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := free()
	compact(ctx, s.db, 1<<20, 1<<30)
	if after := free(); after != before || before == 0 {
		t.Errorf("free pages %d → %d: under half the file must be left", before, after)
	}
	compact(ctx, s.db, 64<<20, 1<<30)
	if err := s.db.Exec("DELETE FROM filler").Error; err != nil {
		t.Fatal(err)
	}
	compact(ctx, s.db, 64<<20, 1<<30)
	if free() == 0 {
		t.Errorf("6 MB free was given back although the threshold is 64 MB")
	}
	// Two MB in use again, four free.
	fill(t, s.db, 2)
	compact(ctx, s.db, 1<<20, 1<<20)
	if free() == 0 {
		t.Errorf("2 MB in use were copied although at most 1 MB may be")
	}
	compact(ctx, s.db, 1<<20, 1<<30)
	if n := free(); n != 0 {
		t.Errorf("%d free pages left over 1 MB and over half the file, want 0", n)
	}
}
