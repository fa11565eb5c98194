package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// encode is the file's text: "mcpServers" with every entry in the file's
// order (the right ones as Wayfinder writes them, the kept ones as
// written, a name given twice twice) and new ones after them by name, then
// the file's other keys.
func encode(c Config) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n  \"mcpServers\": {")
	n := 0
	entry := func(name string, body func(*bytes.Buffer) error) error {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		b.WriteString("\n    ")
		b.Write(key)
		b.WriteString(": ")
		return body(&b)
	}
	server := func(name string) error {
		return entry(name, func(b *bytes.Buffer) error {
			body, err := entryText(c.raw[name], c.Servers[name])
			if err != nil {
				return err
			}
			return json.Indent(b, body, "    ", "  ")
		})
	}
	written := map[string]bool{}
	kept := 0
	for _, name := range c.order {
		var err error
		switch _, ok := c.Servers[name]; {
		case ok && !written[name]:
			written[name] = true
			err = server(name)
		case kept < len(c.kept) && c.kept[kept].name == name:
			raw := c.kept[kept].raw
			kept++
			err = entry(name, func(b *bytes.Buffer) error { return json.Indent(b, raw, "    ", "  ") })
		}
		if err != nil {
			return nil, err
		}
	}
	for _, k := range c.kept[kept:] { // none: each is in order
		if err := entry(k.name, func(b *bytes.Buffer) error { return json.Indent(b, k.raw, "    ", "  ") }); err != nil {
			return nil, err
		}
	}
	for _, name := range c.Names() {
		if !written[name] {
			if err := server(name); err != nil {
				return nil, err
			}
		}
	}
	if n > 0 {
		b.WriteString("\n  ")
	}
	b.WriteByte('}')
	for _, o := range c.other {
		key, err := json.Marshal(o.name)
		if err != nil {
			return nil, err
		}
		b.WriteString(",\n  ")
		b.Write(key)
		b.WriteString(": ")
		if err := json.Indent(&b, o.raw, "  ", "  "); err != nil {
			return nil, err
		}
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// entryText is a right entry's JSON: as written (raw) with only what
// changed changed — a key Wayfinder knows whose value changed is written
// anew in its place, one now empty is left out, a new one goes at the
// end — and the keys of other apps kept; the entry as Wayfinder writes it
// when it has no raw (a new server) or names a key of its own twice.
func entryText(raw json.RawMessage, s Server) ([]byte, error) {
	now, err := members(s)
	if err != nil {
		return nil, err
	}
	written, ok := objectMembers(raw)
	if !ok {
		return json.Marshal(s)
	}
	seen := map[string]bool{}
	var out []member
	for _, m := range written {
		key := knownKey(m.name)
		if key == "" { // another app's key
			out = append(out, m)
			continue
		}
		if seen[key] {
			return json.Marshal(s)
		}
		seen[key] = true
		var was Server
		name, _ := json.Marshal(m.name)
		if err := json.Unmarshal([]byte("{"+string(name)+":"+string(m.raw)+"}"), &was); err != nil {
			return nil, err
		}
		before, err := members(was)
		if err != nil {
			return nil, err
		}
		switch value, kept := now[key]; {
		case bytes.Equal(before[key], value): // unchanged: as written
			out = append(out, m)
		case kept:
			out = append(out, member{m.name, value})
		}
	}
	for _, key := range jsonKeys() {
		if value, ok := now[key]; ok && !seen[key] {
			out = append(out, member{key, value})
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range out {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(m.name)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// members is an entry as Wayfinder writes it, by key.
func members(s Server) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	return out, json.Unmarshal(b, &out)
}

// objectMembers are the keys of a JSON object and their values as
// written, in order; false when raw is not an object.
func objectMembers(raw json.RawMessage) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		out = append(out, member{key, value})
	}
	return out, true
}

// jsonKeys are the keys of an entry Wayfinder knows, in Server's order.
func jsonKeys() []string {
	t := reflect.TypeFor[Server]()
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return keys
}

// knownKey is the key of Server a written key stands for (Unmarshal
// matches keys without regard to case), "" for another app's.
func knownKey(written string) string {
	if i := slices.IndexFunc(jsonKeys(), func(k string) bool { return strings.EqualFold(k, written) }); i >= 0 {
		return jsonKeys()[i]
	}
	return ""
}
