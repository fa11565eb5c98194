package vector

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A reader beside the owner of the file: it queries what was whole when it
// read, never cuts the record the owner is still appending, and refuses
// every change.
func TestReadOnlyBesideTheWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chunks.vec")
	emb := &fakeEmbedder{dim: 16}
	owner := openReady(t, path, "m", emb)
	if err := owner.Add(t.Context(), corpus, nil); err != nil {
		t.Fatal(err)
	}
	// The owner is in the middle of appending a record: half of its bytes
	// are on disk.
	rec := record{op: opPut, id: "half", model: "m", text: "half written", vec: make([]float32, 16)}
	b := rec.encode(nil)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(b[:len(b)/2])
	f.Close()
	before, _ := os.Stat(path)

	reader := openReady(t, path, "m", emb, ReadOnly())
	if st := reader.Status(); st.Docs != len(corpus) || st.Embedded != len(corpus) {
		t.Fatalf("reader status %+v, want the %d whole records", st, len(corpus))
	}
	hits, err := reader.Query(t.Context(), "Runway edits video with AI", 1, nil)
	if err != nil || len(hits) != 1 || hits[0].ID != "video" {
		t.Fatalf("query: %v %v", ids(hits), err)
	}
	if err := reader.Add(t.Context(), corpus[:1], nil); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Add: %v, want ErrReadOnly", err)
	}
	if err := reader.Delete(t.Context(), "video"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Delete: %v, want ErrReadOnly", err)
	}
	if err := reader.Close(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the reader changed the file: %d -> %d bytes", before.Size(), after.Size())
	}
}
