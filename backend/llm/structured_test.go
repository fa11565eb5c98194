package llm

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

var update = flag.Bool("update", false, "rewrite golden files")

type route struct {
	Route     string `json:"route" enum:"simple,complex" desc:"how to handle the message"`
	NeedsDocs bool   `json:"needs_docs"`
}

type plan struct {
	Goal     string    `json:"goal"`
	Subtasks []subtask `json:"subtasks"`
	Note     string    `json:"note,omitempty"`
}

type subtask struct {
	Title  string            `json:"title"`
	Detail string            `json:"detail"`
	Score  float64           `json:"score,omitempty"`
	Tags   map[string]string `json:"tags,omitempty"`
	hidden int
}

// Validate rejects plans a small model left empty.
func (p *plan) Validate() error {
	if len(p.Subtasks) == 0 {
		return errors.New("subtasks: need at least one")
	}
	for i, s := range p.Subtasks {
		if s.Title == "" {
			return errors.New("subtasks[" + string(rune('0'+i)) + "].title is empty")
		}
	}
	return nil
}

func TestSchemaOfGolden(t *testing.T) {
	for name, v := range map[string]any{"route": route{}, "plan": &plan{}} {
		t.Run(name, func(t *testing.T) {
			got, err := SchemaOf(v)
			if err != nil {
				t.Fatal(err)
			}
			var pretty any
			json.Unmarshal(got, &pretty)
			b, _ := json.MarshalIndent(pretty, "", "  ")
			golden := filepath.Join("testdata", "schema_"+name+".golden.json")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if d := cmp.Diff(string(want), string(b)+"\n"); d != "" {
				t.Errorf("schema (-golden +got):\n%s", d)
			}
		})
	}
	if _, err := SchemaOf(map[int]string{}); err == nil {
		t.Error("map with int keys accepted")
	}
}

func TestStructuredDecodesAndSendsSchema(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Script(ollamatest.Reply{JSON: map[string]any{"route": "complex", "needs_docs": true}, Thinking: "Let me think."})
	var got route
	resp, err := newClient(t, srv.URL()).Structured(context.Background(), ChatRequest{Model: model, Messages: user("plan a video")}, nil, &got)
	if err != nil {
		t.Fatal(err)
	}
	if got != (route{Route: "complex", NeedsDocs: true}) || resp.Message.Thinking != "Let me think." {
		t.Errorf("decoded %+v, thinking %q", got, resp.Message.Thinking)
	}
	sent, _ := srv.LastChat()
	want, _ := SchemaOf(route{})
	if string(sent.Format) != string(want) {
		t.Errorf("format sent = %s, want %s", sent.Format, want)
	}
}

func TestStructuredMalformed(t *testing.T) {
	tests := []struct {
		name  string
		reply ollamatest.Reply
		ok    bool
	}{
		{"valid", ollamatest.Reply{Text: `{"goal":"g","subtasks":[{"title":"t","detail":"d"}]}`}, true},
		{"fenced", ollamatest.Reply{Text: "```json\n{\"goal\":\"g\",\"subtasks\":[{\"title\":\"t\",\"detail\":\"d\"}]}\n```"}, true},
		{"truncated", ollamatest.Reply{Text: `{"goal":"g","subtasks":[{"ti`}, false},
		{"prose around, repaired", ollamatest.Reply{Text: "Sure! Here is the JSON:\n" + `{"goal":"g","subtasks":[{"title":"t"}]}`}, true},
		{"last brace missing, repaired", ollamatest.Reply{Text: `{"goal":"g","subtasks":[{"title":"t"}]`}, true},
		{"single quotes, repaired", ollamatest.Reply{Text: `{'goal':'g','subtasks':[{'title':'café'}]}`}, true},
		{"prose around, repaired but invalid", ollamatest.Reply{Text: `Sure! {"goal":"g"}`}, false},
		{"trailing text", ollamatest.Reply{Text: `{"goal":"g","subtasks":[{"title":"t"}]} hope this helps`}, false},
		{"empty", ollamatest.Reply{Fault: ollamatest.Fault{Kind: ollamatest.FaultEmpty}}, false},
		{"wrong type", ollamatest.Reply{Text: `{"goal":5}`}, false},
		{"fails Validate", ollamatest.Reply{Text: `{"goal":"g","subtasks":[{"title":""}]}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := ollamatest.New(t)
			srv.Script(tt.reply)
			var p plan
			_, err := newClient(t, srv.URL()).Structured(context.Background(), ChatRequest{Model: model, Messages: user("plan")}, nil, &p)
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrMalformedOutput) {
				t.Fatalf("err = %v, want ErrMalformedOutput", err)
			}
			var e *Error
			if !errors.As(err, &e) || e.Raw == "" && tt.reply.Text != "" || e.Err == nil {
				t.Errorf("error lacks raw text or cause: %#v", err)
			}
			if srv.Count(ollamatest.PathChat) != 1 {
				t.Errorf("malformed output was retried: %d requests", srv.Count(ollamatest.PathChat))
			}
		})
	}
}

// TestRepairThenSucceed shows the caller's one repair attempt: the broken
// reply and the reason go back to the model.
func TestRepairThenSucceed(t *testing.T) {
	srv := ollamatest.New(t)
	// A cut-off value is beyond local repair (it fails validation), so the
	// model is asked again.
	srv.Script(ollamatest.Reply{Text: `{"route": "compl`}, ollamatest.Reply{JSON: route{Route: "simple"}})
	c := newClient(t, srv.URL())
	req := ChatRequest{Model: model, Messages: user("hello")}
	var r checkedRoute
	_, err := c.Structured(context.Background(), req, nil, &r)
	repair := RepairMessages(err)
	if len(repair) != 2 || repair[0].Content != `{"route": "compl` || repair[1].Role != "user" {
		t.Fatalf("repair messages = %+v (err %v)", repair, err)
	}
	req.Messages = append(req.Messages, repair...)
	if _, err := c.Structured(context.Background(), req, nil, &r); err != nil || r.Route != "simple" {
		t.Fatalf("repair attempt: %+v %v", r, err)
	}
	sent, _ := srv.LastChat()
	if len(sent.Messages) != 3 {
		t.Errorf("repair request had %d messages", len(sent.Messages))
	}
	if RepairMessages(errors.New("other")) != nil {
		t.Error("repair messages for an unrelated error")
	}
}

// checkedRoute validates like the agent's decisions do: a repaired reply
// must still be one of the allowed values.
type checkedRoute struct {
	Route string `json:"route"`
}

func (r *checkedRoute) Validate() error {
	if r.Route != "simple" && r.Route != "complex" {
		return fmt.Errorf("route %q is not simple or complex", r.Route)
	}
	return nil
}

func TestStructuredRawSchemaAndCorruptionRate(t *testing.T) {
	srv := ollamatest.New(t, ollamatest.WithCorruption(7, 0.3))
	c := newClient(t, srv.URL())
	schema := json.RawMessage(`{"type":"object","properties":{"route":{"type":"string","enum":["simple","complex"]}},"required":["route"]}`)
	failed, repaired := 0, 0
	for range 80 {
		var r checkedRoute
		resp, err := c.Structured(context.Background(), ChatRequest{Model: model, Messages: user("x")}, schema, &r)
		switch {
		case err != nil:
			if !errors.Is(err, ErrMalformedOutput) {
				t.Fatal(err)
			}
			failed++
		case r.Route != "simple":
			t.Errorf("schema instance route = %q", r.Route) // a repair must never invent a value
		case resp.Repaired:
			repaired++
		}
	}
	if failed+repaired != srv.Corruptions() || repaired == 0 || failed == 0 {
		t.Errorf("%d corruptions: %d repaired, %d failed (want both kinds, adding up)", srv.Corruptions(), repaired, failed)
	}
}

func FuzzParseStructured(f *testing.F) {
	for _, s := range []string{`{"goal":"g","subtasks":[]}`, "```json\n{}\n```", `{"a":`, "", "```", `[1,2]`, `{"goal":"목표"} x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p plan
		if err := decodeStrict(stripFence(s), &p); err == nil {
			if _, err := json.Marshal(p); err != nil {
				t.Fatalf("decoded value does not marshal: %v", err)
			}
		}
		var anyV any
		_ = decodeStrict(stripFence(s), &anyV)
	})
}
