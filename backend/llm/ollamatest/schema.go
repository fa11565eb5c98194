package ollamatest

import (
	"encoding/json"
	"math/rand"
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
