package ollamatest

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

func TestMinimalInstance(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`"json"`, `{}`},
		{`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":3},"c":{"type":["boolean","null"]}}}`, `{"a":"","b":3,"c":false}`},
		{`{"type":"array","items":{"enum":["x","y"]}}`, `["x"]`},
		{`{"anyOf":[{"type":"number"},{"type":"string"}]}`, `0`},
		{`{"properties":{"k":{"const":"v"}}}`, `{"k":"v"}`},
		{`not json`, `{}`},
	}
	for _, tt := range tests {
		if got := minimalInstance(json.RawMessage(tt.schema)); got != tt.want {
			t.Errorf("minimalInstance(%s) = %s, want %s", tt.schema, got, tt.want)
		}
	}
}

func TestCorruptAlwaysBreaksJSON(t *testing.T) {
	const reply = `{"route":"simple","steps":["a"]}`
	for _, anywhere := range []bool{false, true} {
		rng := rand.New(rand.NewSource(1))
		cuts := map[int]bool{} // the lengths of the replies cut short, but for the last brace
		for range 400 {
			got := corrupt(reply, rng, anywhere)
			if json.Valid([]byte(got)) {
				t.Fatalf("corrupt (anywhere %v) left valid JSON: %s", anywhere, got)
			}
			if len(got) < len(reply)-1 {
				cuts[len(got)] = true
			}
		}
		// Cut anywhere ends at many points; in the middle, at one.
		if n := len(cuts); anywhere && n < 20 || !anywhere && n != 1 {
			t.Fatalf("anywhere %v: the cuts end at %d points", anywhere, n)
		}
	}
}

func FuzzMinimalInstance(f *testing.F) {
	for _, s := range []string{`"json"`, `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`, `{"anyOf":[]}`, `{"type":[]}`, `[]`, `{"items":{"items":{}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		if got := minimalInstance(json.RawMessage(schema)); !json.Valid([]byte(got)) {
			t.Fatalf("invalid JSON %q for schema %q", got, schema)
		}
	})
}

// A plan's reply is written as a list with a lead-in and a closing, in
// every closing, and is no longer JSON; a reply with no plan is left to
// corrupt.
func TestAsList(t *testing.T) {
	const plan = `{"sub_tasks":[{"id":"s1","title":"대본 작성","detail":"30초 대본"},{"id":"s2","title":"영상 편집","detail":"세로 영상"}]}`
	rng := rand.New(rand.NewSource(1))
	ends := map[string]bool{}
	for range 200 {
		got, ok := asList(plan, rng)
		if !ok || json.Valid([]byte(got)) || !strings.HasPrefix(got, "계획입니다:\n\n1. 대본 작성: 30초 대본\n2. 영상 편집: 세로 영상\n") {
			t.Fatalf("asList = %q, %v", got, ok)
		}
		ends[got[strings.Index(got, "세로 영상\n")+len("세로 영상\n"):]] = true
	}
	if len(ends) != len(listClosings) {
		t.Fatalf("%d closings used of %d", len(ends), len(listClosings))
	}
	for _, reply := range []string{`{"route":"simple"}`, `{"sub_tasks":[]}`, "not JSON"} {
		if got, ok := asList(reply, rng); ok {
			t.Fatalf("asList(%q) = %q", reply, got)
		}
	}
}
