package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"
)

// TestFailedImportDropsInBatches: the rows a failed import staged are
// deleted in statements of at most Base.dropBatch rows, so a file stopped at
// its chunk limit does not hold the database's write lock for the
// seconds its 500,000 rows take (the app's other writes go between);
// and none stays. Before, one transaction deleted them all.
func TestFailedImportDropsInBatches(t *testing.T) {
	const batch = 50
	for _, tt := range []struct {
		name, file string
		body       string
	}{
		// a document a record: as many documents as chunks (written to
		// the database in batches of stageBatch, so more than that)
		{"records", "many.jsonl", strings.Repeat(`{"text":"작은 기록"}`+"\n", 2*stageBatch+7) + "{broken\n"},
		// one document of many chunks
		{"one long text", "long.json", `{"text":"` + strings.Repeat("긴 글 ", 250*(2*stageBatch+7)) + `"}` + "\n]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newPlainEnv(t).openWith(Options{})
			b.dropBatch = batch
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, []byte(tt.body), 0o600); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			most := map[string]int64{}
			record := func(db *gorm.DB) {
				words := strings.Fields(db.Statement.SQL.String())
				if len(words) < 3 || !strings.EqualFold(words[0], "DELETE") {
					return
				}
				table := strings.Trim(words[2], "`\"")
				mu.Lock()
				most[table] = max(most[table], db.RowsAffected)
				mu.Unlock()
			}
			for _, err := range []error{
				b.db.Callback().Delete().After("gorm:delete").Register("test:rows", record),
				b.db.Callback().Raw().After("gorm:raw").Register("test:rows", record),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
			rep, err := b.Import(context.Background(), []string{path}, nil)
			if err != nil || len(rep.Failed) != 1 {
				t.Fatalf("report %+v, %v: want the file failed", rep, err)
			}
			if docs, chunks := rows(t, b); docs != 0 || chunks != 0 {
				t.Errorf("%d documents and %d chunks left", docs, chunks)
			}
			if most["kb_chunks"] == 0 {
				t.Fatalf("no chunk was deleted (%v): nothing staged?", most)
			}
			for table, n := range most {
				if n > batch {
					t.Errorf("one statement deleted %d rows of %s, want at most %d", n, table, batch)
				}
			}
			t.Log(fmt.Sprint(most))
		})
	}
}
