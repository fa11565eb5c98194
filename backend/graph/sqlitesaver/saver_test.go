package sqlitesaver_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/glebarez/sqlite"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/graph/checkpointtest"
	"github.com/wayfinder-app/wayfinder/backend/graph/sqlitesaver"
)

func openSaver(t testing.TB, opts ...sqlitesaver.Option) *sqlitesaver.Saver {
	t.Helper()
	s, err := sqlitesaver.Open(filepath.Join(t.TempDir(), "cp.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteSaverContract(t *testing.T) {
	checkpointtest.Run(t, func(t *testing.T) graph.Checkpointer { return openSaver(t) })
}

func TestOnlyWriterContract(t *testing.T) {
	checkpointtest.Run(t, func(t *testing.T) graph.Checkpointer { return openSaver(t, sqlitesaver.OnlyWriter()) })
}

// TestOnlyWriterReadsNewestFromMemory: with OnlyWriter, a thread's newest
// checkpoint, and a thread that has none, are answered without a query,
// while a Saver opened later on the same file still finds what an earlier
// one stored.
func TestOnlyWriterReadsNewestFromMemory(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "cp.db")
	cp := graph.Checkpoint{ThreadID: "th", ID: uuid.Must(uuid.NewV7()).String(), Values: json.RawMessage(`{"n":1}`),
		Metadata: graph.Metadata{Source: graph.SourceLoop}}
	for i := range 2 {
		db, err := gorm.Open(sqlite.Open(path), &gorm.Config{Logger: logger.Discard})
		if err != nil {
			t.Fatal(err)
		}
		var queries atomic.Int32
		if err := db.Callback().Query().Before("gorm:query").Register("count", func(*gorm.DB) { queries.Add(1) }); err != nil {
			t.Fatal(err)
		}
		s, err := sqlitesaver.New(db, sqlitesaver.OnlyWriter())
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if err := s.Put(ctx, cp); err != nil {
				t.Fatal(err)
			}
		}
		queries.Store(0)
		for range 2 {
			if got, err := s.Get(ctx, "th", ""); err != nil || got.ID != cp.ID || string(got.Values) != `{"n":1}` {
				t.Fatalf("open %d: newest = %+v, %v; want %s", i, got.Checkpoint, err, cp.ID)
			}
			if _, err := s.Get(ctx, "new", ""); !errors.Is(err, graph.ErrNoCheckpoint) {
				t.Fatalf("open %d: a thread without checkpoints: %v", i, err)
			}
		}
		// The first open stored the checkpoint and never reads it; the
		// second loads it once.
		if want := int32(i * 2); queries.Load() != want {
			t.Fatalf("open %d: %d queries for four reads, want %d", i, queries.Load(), want)
		}
		sqlDB, _ := db.DB()
		sqlDB.Close()
	}
}

// Conformance suite's test_put_writes_idempotent_across_restart: a task's
// writes replayed by a new process (same task id and idx) replace, not
// duplicate, what the old one saved.
func TestPutWritesIdempotentAcrossRestart(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "cp.db")
	cp := graph.Checkpoint{ThreadID: "th", ID: uuid.Must(uuid.NewV7()).String(), Values: json.RawMessage(`{}`),
		Metadata: graph.Metadata{Source: graph.SourceLoop}}
	w := []graph.PendingWrite{{TaskID: "task", Idx: 0, Channel: "ch", Value: json.RawMessage(`"val"`)}}
	for i := range 2 {
		s, err := sqlitesaver.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if err := s.Put(ctx, cp); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.PutWrites(ctx, "th", cp.ID, w); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "th", cp.ID)
		if err != nil || len(got.Writes) != 1 || string(got.Writes[0].Value) != `"val"` {
			t.Fatalf("open %d: writes %+v, %v; want the one write", i, got.Writes, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestThreads(t *testing.T) {
	for name, opts := range map[string][]sqlitesaver.Option{"database": nil, "only writer": {sqlitesaver.OnlyWriter()}} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			path := filepath.Join(t.TempDir(), "cp.db")
			s, err := sqlitesaver.Open(path, opts...)
			if err != nil {
				t.Fatal(err)
			}
			put := func(thread string) {
				t.Helper()
				cp := graph.Checkpoint{ThreadID: thread, ID: uuid.Must(uuid.NewV7()).String(), Values: json.RawMessage(`{}`), Metadata: graph.Metadata{Source: graph.SourceLoop}}
				if err := s.Put(ctx, cp); err != nil {
					t.Fatal(err)
				}
			}
			put("b")
			put("a")
			put("b")
			if err := s.DeleteThread(ctx, "a"); err != nil {
				t.Fatal(err)
			}
			put("c")
			if got, err := s.Threads(ctx); err != nil || !slices.Equal(got, []string{"b", "c"}) {
				t.Fatalf("threads = %v, %v", got, err)
			}
			s.Close()
			// A new Saver on the file lists the same.
			if s, err = sqlitesaver.Open(path, opts...); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got, err := s.Threads(ctx); err != nil || !slices.Equal(got, []string{"b", "c"}) {
				t.Fatalf("threads after reopening = %v, %v", got, err)
			}
		})
	}
}
