package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testTool() *Tool {
	return &Tool{
		Name:        "t",
		Description: "test tool",
		Params: []Param{
			{Name: "q", Type: TypeString, Required: true, Description: "query"},
			{Name: "n", Type: TypeInteger, Min: bound(1), Max: bound(10), Description: "count"},
			{Name: "x", Type: TypeNumber, Description: "number"},
			{Name: "b", Type: TypeBoolean, Description: "flag"},
			{Name: "lang", Type: TypeString, Enum: []string{"ko", "en"}, Description: "language"},
		},
		Run: func(ctx context.Context, a Args) (Result, error) { return Result{Text: a.String("q")}, nil },
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		args    map[string]any
		want    Args
		wantErr string
	}{
		{"minimal", map[string]any{"q": " hi "}, Args{"q": "hi"}, ""},
		{"all typed", map[string]any{"q": "a", "n": 3.0, "x": 1.5, "b": true, "lang": "ko"},
			Args{"q": "a", "n": 3, "x": 1.5, "b": true, "lang": "ko"}, ""},
		{"strings coerced", map[string]any{"q": "a", "n": "4", "x": " 2.5", "b": "false"},
			Args{"q": "a", "n": 4, "x": 2.5, "b": false}, ""},
		{"number as query", map[string]any{"q": 42.0}, Args{"q": "42"}, ""},
		{"unknown keys dropped", map[string]any{"q": "a", "extra": 1}, Args{"q": "a"}, ""},
		{"nil optional ignored", map[string]any{"q": "a", "n": nil}, Args{"q": "a"}, ""},
		{"missing required", map[string]any{}, nil, `"q" is required`},
		{"blank required", map[string]any{"q": "  "}, nil, `"q" is required`},
		{"nil args", nil, nil, `"q" is required`},
		{"fraction for integer", map[string]any{"q": "a", "n": 2.5}, nil, "whole number"},
		{"out of range", map[string]any{"q": "a", "n": 11.0}, nil, "between 1 and 10"},
		{"not a number", map[string]any{"q": "a", "x": "ten"}, nil, "must be a number"},
		{"bad bool", map[string]any{"q": "a", "b": "maybe"}, nil, "true or false"},
		{"bad enum", map[string]any{"q": "a", "lang": "fr"}, nil, "one of ko, en"},
		{"object for string", map[string]any{"q": map[string]any{}}, nil, "must be a string"},
		{"several problems", map[string]any{"n": 0.0}, nil, `(query); "n" must be between`},
	}
	tool := testTool()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tool.Validate(tt.args)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrInvalidArgs) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want ErrInvalidArgs containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSchemaJSON(t *testing.T) {
	b, err := json.Marshal(testTool().Schema())
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	fn := got["function"].(map[string]any)
	params := fn["parameters"].(map[string]any)
	if got["type"] != "function" || fn["name"] != "t" || params["type"] != "object" {
		t.Fatalf("schema = %s", b)
	}
	if diff := cmp.Diff([]any{"q"}, params["required"]); diff != "" {
		t.Errorf("required: %s", diff)
	}
	props := params["properties"].(map[string]any)
	if props["n"].(map[string]any)["type"] != "integer" {
		t.Errorf("n type: %s", b)
	}
	if diff := cmp.Diff([]any{"ko", "en"}, props["lang"].(map[string]any)["enum"]); diff != "" {
		t.Errorf("enum: %s", diff)
	}
	// Parameter order is kept (ordered map), so prompts are reproducible.
	if i, j := strings.Index(string(b), `"q"`), strings.Index(string(b), `"lang"`); i > j {
		t.Errorf("properties out of order: %s", b)
	}
}

func TestToolCall(t *testing.T) {
	res, err := testTool().Call(context.Background(), map[string]any{"q": "hello"})
	if err != nil || res.Text != "hello" {
		t.Fatalf("Call = %+v, %v", res, err)
	}
	if _, err := testTool().Call(context.Background(), nil); !errors.Is(err, ErrInvalidArgs) {
		t.Fatalf("Call without args: %v", err)
	}
}
