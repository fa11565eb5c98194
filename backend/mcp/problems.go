package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is one mistake in mcp.json: which server's entry (Server; ""
// for the file as a whole), what is wrong (Code, a case of the window's
// "error.invalid_input.case.<code>") and its particulars (Args: name, url,
// transport, field, line, column), so that the window and the command
// line word each mistake on a line of its own in the person's language.
// Its Error is the English text.
type Problem struct {
	Server string
	Code   string
	Args   map[string]string
	text   string
}

func (p *Problem) Error() string { return ErrBadConfig.Error() + ": " + p.text }
func (p *Problem) Unwrap() error { return ErrBadConfig }

// Text is the problem in English, without the file's name.
func (p *Problem) Text() string { return p.text }

// Problem says which mistake it is and its particulars, for the window to
// word in the person's language.
func (p *Problem) Problem() (string, map[string]string) { return p.Code, p.Args }

func problem(server, code string, kv []string, format string, a ...any) *Problem {
	args := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i]] = kv[i+1]
	}
	return &Problem{Server: server, Code: code, Args: args, text: fmt.Sprintf(format, a...)}
}

// FileError is every mistake of one mcp.json. The servers whose entries
// are right still run (Parse returns them beside it); Whole says the file
// could not be read at all, so no server could.
type FileError struct {
	Path     string
	Problems []*Problem
	Whole    bool
}

func (e *FileError) Error() string {
	texts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		texts[i] = p.text
	}
	return fmt.Sprintf("%s: %s: %s", ErrBadConfig, e.Path, strings.Join(texts, "; "))
}

func (e *FileError) Unwrap() error { return ErrBadConfig }

// maxConfigSize bounds mcp.json: a configuration, not a data file.
const maxConfigSize = 1 << 20

// Load reads dir/mcp.json; a missing file is an empty configuration. A
// file with mistakes is a *FileError beside the servers that are right.
func Load(dir string) (Config, error) {
	path := filepath.Join(dir, FileName)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Config{Servers: map[string]Server{}}, nil
	}
	if err != nil {
		return Config{Servers: map[string]Server{}}, fmt.Errorf("read %s: %w", path, err)
	}
	return Parse(b, path)
}

// Parse reads a configuration; where names the source in errors. Each
// entry is read on its own: one with a mistake (a wrong key's type, a
// name given twice, no command, a bad url…) is left out and reported in
// the *FileError, and the others are returned, so a broken entry does
// not stop the servers that are fine. Only a file that is not JSON (with
// its line and column) or not an object stops them all.
func Parse(b []byte, where string) (Config, error) {
	c := Config{Servers: map[string]Server{}}
	whole := func(p *Problem) (Config, error) {
		return c, &FileError{Path: where, Problems: []*Problem{p}, Whole: true}
	}
	if len(b) > maxConfigSize {
		return whole(problem("", "mcp_too_big", []string{"max", strconv.Itoa(maxConfigSize)}, "%s is larger than %d bytes", FileName, maxConfigSize))
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return c, nil
	}
	var top any
	if err := json.Unmarshal(b, &top); err != nil {
		var se *json.SyntaxError
		off := int64(len(b))
		if errors.As(err, &se) {
			off = se.Offset
		}
		line, col := position(b, off)
		return whole(problem("", "mcp_syntax", []string{"line", strconv.Itoa(line), "column", strconv.Itoa(col)},
			"not valid JSON at line %d, column %d: %v", line, col, err))
	}
	src := newSource(b)
	entries, other, p := serverEntries(src)
	if p != nil {
		return whole(p)
	}
	c.other = other
	c.style = styleOf(src, entries)
	var problems []*Problem
	count := map[string]int{}
	for _, e := range entries {
		count[e.name]++
		c.order = append(c.order, e.name)
	}
	reported := map[string]bool{}
	for _, e := range entries {
		line := strconv.Itoa(e.line)
		if count[e.name] > 1 {
			if !reported[e.name] {
				reported[e.name] = true
				problems = append(problems, problem(e.name, "mcp_duplicate", []string{"name", e.name, "line", line, "count", strconv.Itoa(count[e.name])},
					"server %q is named %d times (first at line %d); keep one", e.name, count[e.name], e.line))
			}
			c.kept = append(c.kept, member{e.name, e.raw})
			continue
		}
		before := len(problems)
		var s Server
		if err := json.Unmarshal(e.raw, &s); err != nil {
			// Unmarshal names only the first key of the wrong type: each
			// is read on its own, so that all of them are said at once.
			fields := fieldProblems(src, e)
			if len(fields) == 0 { // the entry itself is not an object
				problems = append(problems, problem(e.name, "mcp_entry", []string{"name", e.name, "line", line},
					"server %q (line %d) must be an object such as {\"command\": \"npx\", \"args\": [...]}", e.name, e.line))
				c.kept = append(c.kept, member{e.name, e.raw})
				continue
			}
			// The rest of the entry was read: its other mistakes too.
			problems = append(problems, fields...)
		}
		ps := s.problems(e.name)
		for _, p := range ps {
			p.Args["line"] = line
		}
		problems = append(problems, ps...)
		if len(problems) > before {
			c.kept = append(c.kept, member{e.name, e.raw})
			continue
		}
		c.Servers[e.name] = s
		if c.raw == nil {
			c.raw = map[string]json.RawMessage{}
		}
		c.raw[e.name] = e.raw
	}
	if len(problems) > 0 {
		return c, &FileError{Path: where, Problems: problems}
	}
	return c, nil
}

// entry is one server of "mcpServers" as written, in the file's order.
type entry struct {
	name string
	raw  json.RawMessage
	line int
	off  int64 // where raw begins in the file
}

// fieldProblems are the keys of an entry whose values have the wrong type
// (mcp_field), each with its own line, in the entry's order; none when
// the entry is not an object. Each key is read into a Server alone, as
// Unmarshal matches it (without regard to case), so a second wrong key
// is not hidden behind the first.
func fieldProblems(src *source, e entry) []*Problem {
	dec := json.NewDecoder(bytes.NewReader(e.raw))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil
	}
	var out []*Problem
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		line := src.line(e.off + dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out
		}
		name, _ := json.Marshal(key)
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte("{"+string(name)+":"+string(raw)+"}"), &Server{}); !errors.As(err, &te) || te.Field == "" {
			continue
		}
		want := fieldKind(te)
		out = append(out, problem(e.name, "mcp_field", []string{"name", e.name, "line", strconv.Itoa(line), "field", te.Field, "want", want},
			"server %q (line %d): %q must be %s", e.name, line, te.Field, kindWords[want]))
	}
	return out
}

// serverEntries walks the (valid) JSON for the entries of "mcpServers",
// keeping names given twice, which a map would silently merge, and the
// file's other keys as written.
func serverEntries(src *source) ([]entry, []member, *Problem) {
	dec := json.NewDecoder(bytes.NewReader(src.b))
	notObject := problem("", "mcp_not_object", nil, `%s must be an object with "mcpServers" in it`, FileName)
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, nil, notObject
	}
	var out []entry
	var other []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, notObject
		}
		if key, _ := tok.(string); key != "mcpServers" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, notObject
			}
			other = append(other, member{key, raw})
			continue
		}
		start := dec.InputOffset()
		tok, err = dec.Token()
		if tok == nil && err == nil { // "mcpServers": null
			continue
		}
		if tok != json.Delim('{') {
			line := src.line(start)
			return nil, nil, problem("", "mcp_servers", []string{"line", strconv.Itoa(line)}, `"mcpServers" (line %d) must be an object of servers by name`, line)
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, nil, notObject
			}
			name, _ := tok.(string)
			line := src.line(dec.InputOffset())
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, notObject
			}
			out = append(out, entry{name: name, raw: raw, line: line, off: dec.InputOffset() - int64(len(raw))})
		}
		if _, err := dec.Token(); err != nil {
			return nil, nil, notObject
		}
	}
	return out, other, nil
}

// source is a file's text and where its lines end, so that the line of
// each of many offsets (every entry, every key of a broken one) is found
// by a binary search instead of by counting from the start: a file of
// thousands of entries is read in linear time.
type source struct {
	b  []byte
	nl []int64 // offsets of the newlines
}

func newSource(b []byte) *source {
	src := &source{b: b}
	for i, c := range b {
		if c == '\n' {
			src.nl = append(src.nl, int64(i))
		}
	}
	return src
}

// position is the line and column (both from 1, the column in
// characters) of the byte at offset off, or of the last one before it: a
// syntax error's Offset is just past the character at fault.
func (src *source) position(off int64) (line, col int) {
	off = min(max(off, 1), int64(len(src.b)))
	n, _ := slices.BinarySearch(src.nl, off-1) // newlines before the byte
	start := int64(0)
	if n > 0 {
		start = src.nl[n-1] + 1
	}
	return n + 1, utf8.RuneCount(src.b[start:off-1]) + 1
}

// line is position's line alone: counting the column's characters on a
// long line (a file written on one) for every entry would not be linear.
func (src *source) line(off int64) int {
	off = min(max(off, 1), int64(len(src.b)))
	n, _ := slices.BinarySearch(src.nl, off-1)
	return n + 1
}

// position is src.position for one offset of b.
func position(b []byte, off int64) (line, col int) { return newSource(b).position(off) }

// jsonKind names a Go kind as JSON calls it (mcp_field's {want}: the
// window words it as "mcp.kind.<want>").
func jsonKind(kind string) string {
	switch kind {
	case "slice", "array":
		return "list"
	case "map", "struct":
		return "object"
	case "bool":
		return "bool"
	case "string":
		return "string"
	}
	return "number"
}

// fieldKind is what a key of the wrong type must be (mcp_field's {want}):
// its own kind, or, when one of its items is wrong ("args": ["-v", 1],
// "env": {"KEY": 1}, where Unmarshal names the item's type), a list or
// an object of texts.
func fieldKind(te *json.UnmarshalTypeError) string {
	t := reflect.TypeFor[Server]()
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != te.Field || f.Type.Kind() == te.Type.Kind() {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Slice:
			return "texts"
		case reflect.Map:
			return "textObject"
		}
	}
	return jsonKind(te.Type.Kind().String())
}

var kindWords = map[string]string{"list": "a list", "object": "an object", "bool": "true or false", "string": "a string", "number": "a whole number",
	"texts": `a list of texts in quotes ["…"]`, "textObject": `an object of texts in quotes {"KEY": "…"}`}
