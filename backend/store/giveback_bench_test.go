package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"gorm.io/gorm"
)

// fragment adds mb MB of chunk-like rows (1.5 kB of text, a primary key
// and an index, as kb_chunks) that are deleted again, then as many that
// stay: the free pages lie before the kept ones, so that giving them back
// moves every kept page, the slowest case for a step.
func fragment(b *testing.B, db *gorm.DB, mb int) {
	b.Helper()
	rows := mb << 20 / 1600
	for _, q := range []string{
		"CREATE TABLE IF NOT EXISTS c (id TEXT PRIMARY KEY, doc_id TEXT, text TEXT)",
		"CREATE INDEX IF NOT EXISTS c_doc ON c(doc_id)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < ?) INSERT INTO c SELECT 'gone:' || hex(randomblob(8)) || i, 'gone', hex(randomblob(750)) FROM n",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < ?) INSERT INTO c SELECT 'kept:' || hex(randomblob(8)) || i, 'kept', hex(randomblob(750)) FROM n",
		"DELETE FROM c WHERE doc_id = 'gone'",
		"PRAGMA wal_checkpoint(TRUNCATE)",
	} {
		if err := db.Exec(q, rows).Error; err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGiveBackStep is how long one step of giveBack holds the write
// lock (ns/op), by the size of the step, when every page it frees moves a
// page in use.
//
//	go test -run '^$' -bench GiveBackStep -benchtime 10x ./backend/store/
func BenchmarkGiveBackStep(b *testing.B) {
	ctx := context.Background()
	for _, mb := range []int{1, 2, 4, 16} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			s, err := openWith(ctx, b.TempDir(), space{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			conn, err := sqlOf(b, s.db).Conn(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			pages := int64(mb<<20) / pragma(b, s.db, "page_size")
			for range b.N {
				b.StopTimer()
				fragment(b, s.db, mb)
				b.StartTimer()
				if n, err := giveBackStep(ctx, conn, pages); err != nil || n != pages {
					b.Fatalf("a step freed %d pages of %d: %v", n, pages, err)
				}
			}
		})
	}
}

// BenchmarkWriteDuringGiveBack is what the person feels: how long small
// writes (a reply being saved) take while a pass gives back 64 MB with
// the app's pauses, by the size of a step: their median and their
// longest, and how long the pass takes; "none" is the same writes while
// nothing is given back, for the machine's own delays.
//
//	go test -run '^$' -bench WriteDuringGiveBack -benchtime 2x ./backend/store/
func BenchmarkWriteDuringGiveBack(b *testing.B) {
	b.Run("none", func(b *testing.B) { writeDuringGiveBack(b, space{}) })
	for _, mb := range []int64{1, 2, 4} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			sp := defaultSpace()
			sp.at, sp.step = 1<<20, mb<<20
			writeDuringGiveBack(b, sp)
		})
	}
}

func writeDuringGiveBack(b *testing.B, sp space) {
	ctx := context.Background()
	s, err := openWith(ctx, b.TempDir(), space{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.db.Exec("CREATE TABLE w (v TEXT)").Error; err != nil {
		b.Fatal(err)
	}
	var waits []time.Duration
	var pass time.Duration
	for range b.N {
		b.StopTimer()
		fragment(b, s.db, 64)
		b.StartTimer()
		done := make(chan error, 1)
		start := time.Now()
		go func() {
			if sp.step == 0 { // nothing given back, for as long as a pass
				time.Sleep(5 * time.Second)
				done <- nil
				return
			}
			done <- giveBack(ctx, sqlOf(b, s.db), sp, quiet())
		}()
		for running := true; running; {
			select {
			case err := <-done:
				if err != nil {
					b.Fatal(err)
				}
				pass += time.Since(start)
				running = false
			default:
				t := time.Now()
				if err := s.db.Exec("INSERT INTO w VALUES ('답변의 한 조각')").Error; err != nil {
					b.Fatal(err)
				}
				waits = append(waits, time.Since(t))
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	slices.Sort(waits)
	b.ReportMetric(float64(waits[len(waits)/2].Microseconds())/1000, "median-write-ms")
	b.ReportMetric(float64(waits[len(waits)*99/100].Microseconds())/1000, "p99-write-ms")
	b.ReportMetric(float64(waits[len(waits)-1].Microseconds())/1000, "max-write-ms")
	b.ReportMetric(pass.Seconds()/float64(b.N), "pass-s")
}
