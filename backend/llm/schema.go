package llm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// SchemaOf derives a JSON schema from a Go value's type, for Structured. It
// covers what small structured outputs use: structs (json tags; fields
// without omitempty are required), strings, numbers, booleans, slices,
// maps and pointers. Two extra struct tags help the model:
// `enum:"simple,complex"` and `desc:"what this field is for"`.
func SchemaOf(v any) (json.RawMessage, error) {
	t := reflect.TypeOf(v)
	if t == nil {
		return nil, fmt.Errorf("schema of nil")
	}
	s, err := schemaFor(t, 0)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", t, err)
	}
	return json.Marshal(s)
}

var timeType = reflect.TypeOf(time.Time{})

func schemaFor(t reflect.Type, depth int) (map[string]any, error) {
	if depth > 10 {
		return nil, fmt.Errorf("type nests too deep (recursive?)")
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == timeType {
		return map[string]any{"type": "string", "format": "date-time"}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Slice, reflect.Array:
		items, err := schemaFor(t.Elem(), depth+1)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key %s is not a string", t.Key())
		}
		vals, err := schemaFor(t.Elem(), depth+1)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": vals}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	case reflect.Struct:
		return structSchema(t, depth)
	default:
		return nil, fmt.Errorf("unsupported kind %s", t.Kind())
	}
}

func structSchema(t reflect.Type, depth int) (map[string]any, error) {
	props := map[string]any{}
	required := []string{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p, err := schemaFor(f.Type, depth+1)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		if enum := f.Tag.Get("enum"); enum != "" {
			p["enum"] = strings.Split(enum, ",")
		}
		if desc := f.Tag.Get("desc"); desc != "" {
			p["description"] = desc
		}
		props[name] = p
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			required = append(required, name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}, nil
}
