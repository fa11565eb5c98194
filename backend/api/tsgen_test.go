package api

import (
	"os"
	"strings"
	"testing"
)

// TestTypeScriptIsCurrent keeps Go and TypeScript from drifting: the
// frontend's copy must be exactly what the generator makes now.
func TestTypeScriptIsCurrent(t *testing.T) {
	src, err := os.ReadFile("types.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := GenerateTypeScript("types.go", src)
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
	out, err := GenerateTypeScript("x.go", []byte(src))
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
		if _, err := GenerateTypeScript("bad.go", []byte(bad)); err == nil {
			t.Errorf("accepted unsupported input %q", bad)
		}
	}
}
