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
// the file's other keys. What it did not change is written as it was read,
// spaces and line breaks included, and the rest in the file's style.
func encode(c Config) ([]byte, error) {
	st := c.style.orDefault()
	var b bytes.Buffer
	b.WriteString("{\n" + st.top + "\"mcpServers\": {")
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
		b.WriteString("\n" + st.entry)
		b.Write(key)
		b.WriteString(": ")
		return body(&b)
	}
	asWritten := func(raw json.RawMessage) func(*bytes.Buffer) error {
		return func(b *bytes.Buffer) error { _, err := b.Write(raw); return err }
	}
	server := func(name string) error {
		raw := c.raw[name]
		body, err := entryText(raw, c.Servers[name])
		if err != nil {
			return err
		}
		if raw != nil && sameJSON(body, raw) { // not changed: as the person wrote it
			return entry(name, asWritten(raw))
		}
		return entry(name, func(b *bytes.Buffer) error { return json.Indent(b, body, st.entry, st.unit) })
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
			err = entry(name, asWritten(raw))
		}
		if err != nil {
			return nil, err
		}
	}
	for _, k := range c.kept[kept:] { // none: each is in order
		if err := entry(k.name, asWritten(k.raw)); err != nil {
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
		b.WriteString("\n" + st.top)
	}
	b.WriteByte('}')
	for _, o := range c.other {
		key, err := json.Marshal(o.name)
		if err != nil {
			return nil, err
		}
		b.WriteString(",\n" + st.top)
		b.Write(key)
		b.WriteString(": ")
		b.Write(o.raw)
	}
	b.WriteString("\n}\n")
	out := b.Bytes()
	if st.crlf {
		// JSON has no line break inside a string: every one is layout.
		out = bytes.ReplaceAll(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// sameJSON reports whether a and b are the same JSON text but for the
// spaces between tokens.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// style is a file's layout, as far as writing it back needs: the
// indentation of its top-level keys (top) and of the servers' names
// (entry), the step of one level more (unit), and whether its lines end
// in CR LF (written by hand on Windows). A person who formats the file
// with tabs, or four spaces, gets new and changed entries in that style.
type style struct {
	known            bool
	top, entry, unit string
	crlf             bool
}

// orDefault is s, or Wayfinder's own style (two spaces, LF) for a new
// file or one whose layout says nothing (written on one line).
func (s style) orDefault() style {
	if !s.known {
		return style{known: true, top: "  ", entry: "    ", unit: "  ", crlf: s.crlf}
	}
	return s
}

// styleOf reads the layout of a file from its first top-level key's line
// and its first server's line.
func styleOf(src *source, entries []entry) style {
	st := style{crlf: bytes.Contains(src.b, []byte("\r\n"))}
	// lead is the spaces and tabs that start the line holding offset off,
	// and whether only they come before off on it.
	lead := func(off int64) (string, bool) {
		start := bytes.LastIndexByte(src.b[:off], '\n') + 1
		line := src.b[start:off]
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		return string(ws), len(bytes.TrimSpace(line)) == 0
	}
	top, found := "", false
	for _, nl := range src.nl {
		rest := src.b[nl+1:]
		text := bytes.TrimLeft(rest, " \t")
		if len(text) > 0 && text[0] == '"' {
			top, found = string(rest[:len(rest)-len(text)]), true
			break
		}
	}
	if !found || !uniform(top) {
		return st
	}
	entryIndent := top + step(top)
	if len(entries) > 0 {
		// The name is just before the value: back over `"name": `.
		e := entries[0]
		keyAt := bytes.LastIndexByte(src.b[:e.off], '"')
		if keyAt > 0 {
			keyAt = bytes.LastIndexByte(src.b[:keyAt], '"')
		}
		if keyAt >= 0 {
			if ws, alone := lead(int64(keyAt)); alone && uniform(ws) && len(ws) > len(top) {
				entryIndent = ws
			}
		}
	}
	st.known, st.top, st.entry = true, top, entryIndent
	st.unit = step(top)
	if top == "" {
		st.unit = step(entryIndent)
	}
	return st
}

// uniform reports whether ws is only spaces or only tabs.
func uniform(ws string) bool {
	return strings.Trim(ws, " ") == "" || strings.Trim(ws, "\t") == ""
}

// step is one level of indentation in the style of ws: ws itself, or two
// spaces when ws is empty.
func step(ws string) string {
	if ws == "" {
		return "  "
	}
	return ws
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
