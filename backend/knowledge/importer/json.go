package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// ParseJSON imports a JSON file (one object, or an array of objects) or a
// JSON Lines file (one value per line; any sequence of values works). Each
// record becomes a document: `_id` or `id` is kept as its id, `title` names
// it, and `text` or `content` is its body. A record without a text field is
// rendered as "key: value" lines so its data is still searchable.
func ParseJSON(path string, data []byte) ([]Document, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var docs []Document
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("json at line %d: %w", lineOf(data, errOffset(err, dec)), err)
		}
		if arr, ok := v.([]any); ok {
			for _, item := range arr {
				docs = appendRecord(docs, path, item)
			}
			continue
		}
		docs = appendRecord(docs, path, v)
	}
	if len(docs) == 0 {
		return nil, ErrEmpty
	}
	return docs, nil
}

func errOffset(err error, dec *json.Decoder) int64 {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return syn.Offset
	}
	return dec.InputOffset()
}

func lineOf(data []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(data)))
	return 1 + bytes.Count(data[:offset], []byte("\n"))
}

func appendRecord(docs []Document, path string, v any) []Document {
	var id, title, text string
	switch r := v.(type) {
	case map[string]any:
		id = scalarString(firstOf(r, "_id", "id"))
		title = strings.TrimSpace(scalarString(r["title"]))
		if body, ok := firstOf(r, "text", "content").(string); ok {
			text = body
		} else if body := firstOf(r, "text", "content"); body != nil {
			text = flatten("", body)
		} else {
			rest := map[string]any{}
			for k, val := range r {
				if k != "_id" && k != "id" && k != "title" {
					rest[k] = val
				}
			}
			text = flatten("", rest)
		}
	case string:
		text = r
	case nil:
		return docs
	default:
		text = flatten("", r)
	}
	if strings.TrimSpace(text) == "" && title == "" {
		return docs
	}
	if title == "" && id != "" {
		title = id
	}
	if title == "" {
		title = fmt.Sprintf("%s #%d", baseName(path), len(docs)+1)
	}
	return append(docs, Document{
		ID: id, Title: title, Source: path, Kind: KindJSON,
		Parts: []chunk.Input{{Heading: title, Text: text}},
	})
}

func firstOf(r map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := r[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

// scalarString renders ids and titles that may be numbers or booleans.
func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// flatten renders a JSON value as "key: value" lines, nested keys joined
// with dots, in key order so the same record always gives the same text.
func flatten(prefix string, v any) string {
	var b strings.Builder
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, x[k])
			}
		case []any:
			for _, item := range x {
				walk(prefix, item)
			}
		case nil:
		default:
			s := scalarString(x)
			if s == "" {
				return
			}
			if prefix != "" {
				b.WriteString(prefix)
				b.WriteString(": ")
			}
			b.WriteString(s)
			b.WriteString("\n")
		}
	}
	walk(prefix, v)
	return b.String()
}
