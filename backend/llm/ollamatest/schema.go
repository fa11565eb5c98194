package ollamatest

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
)

// minimalInstance answers a structured request the way the real tiny model
// does: `{}` for format "json", else a valid instance of the schema with
// empty strings, zero numbers, one-element arrays and the first enum value.
func minimalInstance(format json.RawMessage) string {
	var schema any
	if err := json.Unmarshal(format, &schema); err != nil {
		return "{}"
	}
	m, ok := schema.(map[string]any)
	if !ok { // "json"
		return "{}"
	}
	b, err := json.Marshal(instanceOf(m, 0))
	if err != nil {
		return "{}"
	}
	return string(b)
}

func instanceOf(schema map[string]any, depth int) any {
	if depth > 8 {
		return nil
	}
	if c, ok := schema["const"]; ok {
		return c
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := schema[key].([]any); ok && len(alts) > 0 {
			if alt, ok := alts[0].(map[string]any); ok {
				return instanceOf(alt, depth+1)
			}
		}
	}
	typ := schema["type"]
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			if ps, ok := p.(map[string]any); ok {
				out[name] = instanceOf(ps, depth+1)
			}
		}
		return out
	case "array":
		items, _ := schema["items"].(map[string]any)
		if items == nil {
			return []any{}
		}
		return []any{instanceOf(items, depth+1)}
	case "string":
		return ""
	case "integer", "number":
		if lo, ok := schema["minimum"].(float64); ok {
			return lo
		}
		return 0
	case "boolean":
		return false
	default:
		if _, ok := schema["properties"]; ok {
			return instanceOf(map[string]any{"type": "object", "properties": schema["properties"]}, depth)
		}
		return nil
	}
}

// corrupt breaks a structured reply the ways small models do: cut short
// (in the middle, or anywhere), missing the closing brace, wrapped in
// prose, or single-quoted.
func corrupt(text string, rng *rand.Rand, anywhere bool) string {
	switch rng.Intn(4) {
	case 0:
		if anywhere && len(text) > 1 {
			return text[:1+rng.Intn(len(text)-1)]
		}
		return text[:len(text)/2]
	case 1:
		if n := len(text); n > 0 {
			return text[:n-1]
		}
		return "{"
	case 2:
		return "Sure! Here is the JSON you asked for:\n" + text
	default:
		out := []byte(text)
		for i, c := range out {
			if c == '"' {
				out[i] = '\''
			}
		}
		if string(out) == text {
			return text + "}"
		}
		return string(out)
	}
}

// listClosings end a plan written as a list (WithListPlans): nothing, or
// the offer or question small models end a plan with, in English and
// Korean, after a blank line.
var listClosings = []string{
	"",
	"\nLet me know if you want changes.",
	"\nShall I proceed?",
	"\n수정할 부분이 있으면 말씀해 주세요.",
	"\n진행할까요?",
	"\n이대로 진행해도 될까요? 수정이 필요하면 알려 주세요.",
}

// asList writes a reply that holds a plan (a "sub_tasks" array) as the
// list a small model writes when it answers in prose instead of JSON: a
// lead-in, "N. title: detail" for each step, and a closing from
// listClosings. ok is false for a reply that holds no plan.
func asList(text string, rng *rand.Rand) (string, bool) {
	var p struct {
		SubTasks []struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"sub_tasks"`
	}
	if json.Unmarshal([]byte(text), &p) != nil || len(p.SubTasks) == 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteString("계획입니다:\n\n")
	for i, st := range p.SubTasks {
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, st.Title, st.Detail)
	}
	return b.String() + listClosings[rng.Intn(len(listClosings))], true
}
