package api

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestTypeScriptIsCurrent keeps Go and TypeScript from drifting: the
// frontend's copy must be exactly what the generator makes now.
func TestTypeScriptIsCurrent(t *testing.T) {
	files, err := ReadTypeSources(".")
	if err != nil {
		t.Fatal(err)
	}
	want, err := GenerateTypeScript(files)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../frontend/src/api/gotypes.gen.ts")
	if err != nil {
		t.Fatalf("%v (run `make generate`)", err)
	}
	if string(got) != string(want) {
		t.Fatal("frontend/src/api/gotypes.gen.ts is stale: run `make generate` and commit the result")
	}
}

func TestGenerateTypeScript(t *testing.T) {
	src := `package api
import "time"
// Kind is a kind.
type Kind string
const (
	KindA Kind = "a"
	KindB Kind = "b"
)
const EventPing = "x.ping" // Ping
// Thing has fields.
type Thing struct {
	ID    string    ` + "`json:\"id\"`" + `
	N     int       ` + "`json:\"n,omitempty\"`" + ` // a count
	K     Kind      ` + "`json:\"kind\"`" + `
	At    time.Time ` + "`json:\"at\"`" + `
	Tags  []string  ` + "`json:\"tags\"`" + `
	Err   *Thing    ` + "`json:\"err,omitempty\"`" + `
}
`
	out, err := GenerateTypeScript(map[string][]byte{"x.go": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"/** Kind is a kind. */\nexport type Kind = \"a\" | \"b\";",
		"export interface Thing {\n  id: string;\n  n?: number; // a count\n  kind: Kind;\n  at: string;\n  tags: string[];\n  err?: Thing | null;\n}",
		"export const Events = {\n  Ping: \"x.ping\",\n} as const;",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks\n%s\n--- got:\n%s", want, out)
		}
	}
	for _, bad := range []string{
		"package api\ntype M map[string]int",
		"package api\ntype S struct { X int }",
		"package api\ntype S struct { X chan int `json:\"x\"` }",
	} {
		if _, err := GenerateTypeScript(map[string][]byte{"bad.go": []byte(bad)}); err == nil {
			t.Errorf("accepted unsupported input %q", bad)
		}
	}
}

// TestGenerateTypeScriptFromFiles: the types of several files come out in
// the order of the files' names, whatever the map's order, and a named string
// type takes its constants from any file.
func TestGenerateTypeScriptFromFiles(t *testing.T) {
	files := map[string][]byte{
		"types_b.go": []byte("package api\n// B is second.\ntype B string\n"),
		"types_a.go": []byte("package api\n// A is first.\ntype A struct {\n\tB B `json:\"b\"`\n}\nconst BOne B = \"one\"\n"),
		"types_c.go": []byte("package api\nconst BTwo B = \"two\"\nconst EventPing = \"x.ping\"\n"),
	}
	for range 5 { // a map's order changes from one range to the next
		out, err := GenerateTypeScript(files)
		if err != nil {
			t.Fatal(err)
		}
		want := "\n/** A is first. */\nexport interface A {\n  b: B;\n}\n\n/** B is second. */\nexport type B = \"one\" | \"two\";\n"
		if !strings.Contains(string(out), want) {
			t.Fatalf("output lacks\n%s\n--- got:\n%s", want, out)
		}
	}
	if _, err := GenerateTypeScript(map[string][]byte{"types_a.go": []byte("package api\ntype S struct { X int }")}); err == nil || !strings.Contains(err.Error(), "S:") {
		t.Errorf("an unsupported type does not name itself: %v", err)
	}
}

// TestReadTypeSources: the generator reads types_*.go and nothing else of
// the package (not errors.go, not a test).
func TestReadTypeSources(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"types_chat.go", "types_mcp.go", "types_chat_test.go", "errors.go", "doc.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package api\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ReadTypeSources(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for name := range files {
		got = append(got, name)
	}
	sort.Strings(got)
	if want := []string{"types_chat.go", "types_mcp.go"}; !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	if _, err := ReadTypeSources(t.TempDir()); err == nil {
		t.Error("an empty folder gave no error")
	}
}
