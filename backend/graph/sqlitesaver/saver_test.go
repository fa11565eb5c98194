package sqlitesaver_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/uuid"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/graph/checkpointtest"
	"github.com/wayfinder-app/wayfinder/backend/graph/sqlitesaver"
)

func openSaver(t testing.TB) *sqlitesaver.Saver {
	t.Helper()
	s, err := sqlitesaver.Open(filepath.Join(t.TempDir(), "cp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteSaverContract(t *testing.T) {
	checkpointtest.Run(t, func(t *testing.T) graph.Checkpointer { return openSaver(t) })
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
