package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// `wayfinder kb remove` of a large document gives the space its rows took
// back to the disk before the command exits: the file is about as small
// after as before the import, not until the app next starts.
func TestKBRemoveGivesTheSpaceBack(t *testing.T) {
	fake := ollamatest.New(t)
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	docs := t.TempDir()
	small := filepath.Join(docs, "small.md")
	os.WriteFile(small, []byte("# 메모\n\n작은 문서입니다.\n"), 0o644)
	if code, out, errOut := wayfinder(t, append(base, "kb", "import", small)...); code != 0 {
		t.Fatalf("import the small one: %d\n%s\n%s", code, out, errOut)
	}
	db := filepath.Join(dir, store.FileName)
	before := diskSize(t, db)

	var text strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&text, "Paragraph %d of the large report: item %d costs %d won, shipped to warehouse %d on day %d.\n\n", i, i*7, i*13%9973, i%97, i%365)
	}
	large := filepath.Join(docs, "large.md")
	os.WriteFile(large, []byte(text.String()), 0o644)
	if code, out, errOut := wayfinder(t, append(base, "kb", "import", large)...); code != 0 {
		t.Fatalf("import the large one: %d\n%s\n%s", code, out, errOut)
	}
	imported := diskSize(t, db)
	if imported-before < 4<<20 {
		t.Fatalf("the large document took %d KB, want ≥ 4 MB", (imported-before)>>10)
	}
	code, out, _ := wayfinder(t, append(base, "kb", "list")...)
	var id string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "large.md") {
			id = strings.Fields(line)[0]
		}
	}
	if code != 0 || id == "" {
		t.Fatalf("list: %d\n%s", code, out)
	}
	if code, out, errOut := wayfinder(t, append(base, "kb", "remove", id)...); code != 0 {
		t.Fatalf("remove: %d %s %s", code, out, errOut)
	}
	after := diskSize(t, db)
	t.Logf("database: %d KB before the import, %d KB with it, %d KB after kb remove", before>>10, imported>>10, after>>10)
	if after > before+1<<20 {
		t.Errorf("after kb remove the database takes %d KB, want at most 1 MB more than the %d KB before the import", after>>10, before>>10)
	}
}

// diskSize is what a database takes on the disk: its file and its log.
func diskSize(t *testing.T, path string) int64 {
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
	return n
}
