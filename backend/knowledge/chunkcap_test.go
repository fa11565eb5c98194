package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTooManyChunks: a file that would add more chunks than one file may
// (a JSON Lines file of a million tiny records peaked at 608 MiB) fails
// with TooManyChunksError and leaves nothing; one at the limit imports.
func TestTooManyChunks(t *testing.T) {
	records := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "{\"id\":%d,\"text\":\"기록 %d\"}\n", i, i)
		}
		return b.String()
	}
	dir := t.TempDir()
	b := newPlainEnv(t).openWith(Options{FileChunks: 1000})
	atLimit, over := filepath.Join(dir, "at.jsonl"), filepath.Join(dir, "over.jsonl")
	if err := os.WriteFile(atLimit, []byte(records(1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(over, []byte(records(1001)), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := b.Import(context.Background(), []string{atLimit, over}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tm *TooManyChunksError
	if len(rep.Failed) != 1 || rep.Failed[0].Path != over || !errors.As(rep.Failed[0].Err, &tm) || tm.Max != 1000 {
		t.Fatalf("failed %+v, want over.jsonl with TooManyChunksError{1000}", rep.Failed)
	}
	if rep.Chunks != 1000 || len(rep.Imported) != 1 {
		t.Fatalf("imported %v with %d chunks, want at.jsonl's 1000", rep.Imported, rep.Chunks)
	}
	docs, err := b.List(context.Background())
	if err != nil || len(docs) != 1000 {
		t.Fatalf("%d documents (%v), want at.jsonl's 1000 and nothing of over.jsonl", len(docs), err)
	}
}
