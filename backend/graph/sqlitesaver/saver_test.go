package sqlitesaver_test

import (
	"path/filepath"
	"testing"

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
