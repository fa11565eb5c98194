package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// keptEntries are the entries of a file as written (compacted: only the
// whitespace between tokens may change), in order, names repeated.
func keptEntries(t *testing.T, b []byte) [][2]string {
	t.Helper()
	entries, _, p := serverEntries(newSource(b))
	if p != nil {
		t.Fatalf("not a file of servers: %v\n%s", p, b)
	}
	var out [][2]string
	for _, e := range entries {
		var c bytes.Buffer
		if err := json.Compact(&c, e.raw); err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]string{e.name, c.String()})
	}
	return out
}

func keptWithout(entries [][2]string, name string) [][2]string {
	var out [][2]string
	for _, e := range entries {
		if e[0] != name {
			out = append(out, e)
		}
	}
	return out
}

// TestChangesKeepTheEntriesBeingFixed: while entries of mcp.json have
// mistakes, servers can still be added, switched and removed (a broken
// entry too), and every broken entry stays in the file exactly as the
// person wrote it (its keys, values, their order, a name given twice), as
// do the file's other keys; none of them ever starts. Only a file that is
// not JSON is refused, and left as it is.
func TestChangesKeepTheEntriesBeingFixed(t *testing.T) {
	dir := brokenFile(t,
		[2]string{"twice", `{"command": "a", "args": "--one"}`},
		[2]string{"typed", `{ "command":"x",  "args": "--flag", "env": {"K": "\u00e9"}, "autoApprove": ["t"] }`},
		[2]string{"twice", `{"command": "b"}`},
		[2]string{"str", `"npx server"`},
		[2]string{"a b", `{"url": "http://h/mcp"}`},
	)
	path := filepath.Join(dir, FileName)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A key of another app beside "mcpServers" stays too.
	orig = bytes.Replace(orig, []byte("{\n  \"mcpServers\""), []byte("{\n  \"globalShortcut\": \"Ctrl+Space\",\n  \"mcpServers\""), 1)
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	written := keptEntries(t, orig)
	broken := keptWithout(written, "fine")
	m := New(dir, Options{})
	t.Cleanup(m.Close)
	if got, want := m.Config().Invalid(), []string{"twice", "typed", "str", "a b"}; !cmp.Equal(got, want) {
		t.Fatalf("Invalid() = %q, want %q", got, want)
	}

	check := func(step string, wantRight []string, wantBroken [][2]string, wantInvalid []string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var right, kept [][2]string
		for _, e := range keptEntries(t, b) {
			if _, ok := m.Config().Servers[e[0]]; ok {
				right = append(right, e)
			} else {
				kept = append(kept, e)
			}
		}
		var names []string
		for _, e := range right {
			names = append(names, e[0])
		}
		if !cmp.Equal(names, wantRight) {
			t.Errorf("%s: right entries %q, want %q", step, names, wantRight)
		}
		if d := cmp.Diff(wantBroken, kept); d != "" {
			t.Errorf("%s: the broken entries were not kept as written (-want +got):\n%s\n%s", step, d, b)
		}
		if !bytes.Contains(b, []byte(`"globalShortcut": "Ctrl+Space"`)) {
			t.Errorf("%s: the file's other key was dropped:\n%s", step, b)
		}
		var fe *FileError
		if err := m.Err(); !errors.As(err, &fe) || fe.Whole {
			t.Fatalf("%s: Err() = %v, want the entries' mistakes", step, err)
		}
		if got := m.Config().Invalid(); !cmp.Equal(got, wantInvalid) {
			t.Errorf("%s: Invalid() = %q, want %q", step, got, wantInvalid)
		}
		// What a turn says was not started, each with its mistakes.
		var told []string
		for _, st := range m.Invalid() {
			told = append(told, st.Name)
			if len(st.Problems) == 0 {
				t.Errorf("%s: %s is told without its mistakes", step, st.Name)
			}
		}
		slices.Sort(told)
		if want := slices.Sorted(slices.Values(wantInvalid)); !cmp.Equal(told, want) {
			t.Errorf("%s: Manager.Invalid() = %q, want %q", step, told, want)
		}
		// Every mistake reported points at its line in the file as it is
		// now: its entry's, or its key's.
		lines := strings.Split(string(b), "\n")
		for _, p := range fe.Problems {
			n, _ := strconv.Atoi(p.Args["line"])
			at := mustQuote(p.Server)
			if p.Code == "mcp_field" {
				at = mustQuote(p.Args["field"])
			}
			if n < 1 || n > len(lines) || !strings.Contains(lines[n-1], at) {
				t.Errorf("%s: %s of %q says line %d, which is %q", step, p.Code, p.Server, n, lines[max(0, min(n-1, len(lines)-1))])
			}
		}
		for _, st := range m.Status(t.Context(), false) {
			for _, n := range wantInvalid {
				if st.Name == n && st.State != "invalid" {
					t.Errorf("%s: %s is %s, want invalid (never started)", step, n, st.State)
				}
			}
		}
	}

	more := helper("good")
	if err := m.Update(func(c *Config) error {
		if c.Has("twice") == false || c.Has("str") == false {
			t.Error("Has does not see the broken entries")
		}
		c.Servers["more"] = more
		return nil
	}); err != nil {
		t.Fatalf("add beside broken entries: %v", err)
	}
	check("add", []string{"fine", "more"}, broken, []string{"twice", "typed", "str", "a b"})

	if err := m.Update(func(c *Config) error {
		s := c.Servers["fine"]
		s.Disabled = true
		c.Servers["fine"] = s
		return nil
	}); err != nil || !m.Config().Servers["fine"].Disabled {
		t.Fatalf("switch off beside broken entries: %v", err)
	}
	check("off", []string{"fine", "more"}, broken, []string{"twice", "typed", "str", "a b"})

	if err := m.Update(func(c *Config) error {
		if !c.Remove("twice") || c.Remove("nobody") {
			t.Error("Remove of a broken entry (or of none) says otherwise")
		}
		return nil
	}); err != nil {
		t.Fatalf("remove a broken entry: %v", err)
	}
	broken = keptWithout(broken, "twice")
	check("remove twice", []string{"fine", "more"}, broken, []string{"typed", "str", "a b"})

	// A file that is not JSON is not written over: refused, left as it is.
	bad := []byte("{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"}\n    \"z\": {}\n  }\n}\n")
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	err = m.Update(func(c *Config) error { c.Remove("typed"); return nil })
	var fe *FileError
	if !errors.As(err, &fe) || !fe.Whole || fe.Problems[0].Code != "mcp_syntax" {
		t.Fatalf("Update of a file that is not JSON: %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, bad) {
		t.Fatalf("a file that is not JSON was written over:\n%s", b)
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestChangesKeepWhatOtherAppsWrote: a change to a right entry changes
// only what changed — a switch written in its place, a new key at the
// end, one now empty left out — and keeps the keys of other apps, the
// values as written (a key's case, an object's order) and the entries not
// changed as they were.
func TestChangesKeepWhatOtherAppsWrote(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	files := `{"type": "stdio", "command": "x", "Args": ["a"], "autoApprove": ["read"], "env": {"B": "2", "A": "\u0031"}, "disabled": false}`
	other := `{"command": "y", "alwaysAllow": [], "timeoutSeconds": 30}`
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"files": `+files+`, "other": `+other+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := New(dir, Options{})
	t.Cleanup(m.Close)
	compact := func(s string) string {
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(s)); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	entries := func() map[string]string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, e := range keptEntries(t, b) {
			out[e[0]] = e[1]
		}
		return out
	}
	for _, step := range []struct {
		name   string
		change func(*Server)
		files  string
	}{
		{"off, a tool off", func(s *Server) { s.Disabled, s.DisabledTools = true, []string{"t"} },
			`{"type":"stdio","command":"x","Args":["a"],"autoApprove":["read"],"env":{"B":"2","A":"\u0031"},"disabled":true,"disabledTools":["t"]}`},
		{"on again", func(s *Server) { s.Disabled = false },
			`{"type":"stdio","command":"x","Args":["a"],"autoApprove":["read"],"env":{"B":"2","A":"\u0031"},"disabledTools":["t"]}`},
		{"other arguments", func(s *Server) { s.Args = []string{"b"} },
			`{"type":"stdio","command":"x","Args":["b"],"autoApprove":["read"],"env":{"B":"2","A":"\u0031"},"disabledTools":["t"]}`},
	} {
		if err := m.Update(func(c *Config) error {
			s := c.Servers["files"]
			step.change(&s)
			c.Servers["files"] = s
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got := entries()
		if got["files"] != step.files || got["other"] != compact(other) {
			t.Errorf("%s:\n files %s\n  want %s\n other %s\n  want %s", step.name, got["files"], step.files, got["other"], compact(other))
		}
	}
	// Removed and added again in one change: the new entry owes nothing to the old.
	if err := m.Update(func(c *Config) error {
		c.Remove("files")
		c.Servers["files"] = Server{Command: "z"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := entries()["files"]; got != `{"command":"z"}` {
		t.Errorf("added again: %s", got)
	}
}

// FuzzWriteKeepsWhatWasRead: whatever mcp.json holds, reading it, writing
// it back unchanged and reading that again gives the same right servers
// and the same entries with mistakes, each kept with the same mistakes: a
// change elsewhere in the file never turns a broken entry into one that
// starts, nor drops or changes one.
func FuzzWriteKeepsWhatWasRead(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers": {"a": {"command": "x", "autoApprove": ["t"]}, "b": {"url": "ftp://h"}}}`,
		`{"mcpServers": {"t": {"command": "a"}, "t": {"command": "b"}, "s": "npx"}, "other": [1, {"x": null}]}`,
		`{"mcpServers": {"a b": {"command": 1, "args": "x", "env": {"K": 2}, "Disabled": "yes"}}}`,
		`{"mcpServers": {"ok": {"url": "https://h/mcp", "headers": {"A": "\u00e9"}, "timeoutSeconds": -1}}}`,
		`{"mcpServers": null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b, FileName)
		var fe *FileError
		if err != nil && (!errors.As(err, &fe) || fe.Whole) {
			return // not written: Update refuses it
		}
		again := func(c Config) (Config, []string) {
			t.Helper()
			out, err := encode(c)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			c2, err := Parse(out, FileName)
			var fe *FileError
			if err != nil && (!errors.As(err, &fe) || fe.Whole) {
				t.Fatalf("what was written cannot be read: %v\n%s", err, out)
			}
			var codes []string
			if fe != nil {
				for _, p := range fe.Problems {
					codes = append(codes, p.Server+" "+p.Code+" "+p.Args["field"])
				}
			}
			return c2, codes
		}
		var codes []string
		if fe != nil {
			for _, p := range fe.Problems {
				codes = append(codes, p.Server+" "+p.Code+" "+p.Args["field"])
			}
		}
		c2, codes2 := again(c)
		if !cmp.Equal(c.Servers, c2.Servers, cmpopts.EquateEmpty()) {
			t.Fatalf("right servers changed:\n%s", cmp.Diff(c.Servers, c2.Servers, cmpopts.EquateEmpty()))
		}
		if !cmp.Equal(c.Invalid(), c2.Invalid()) || !cmp.Equal(codes, codes2) {
			t.Fatalf("entries with mistakes changed: %q %q → %q %q", c.Invalid(), codes, c2.Invalid(), codes2)
		}
	})
}

// manyEntries is an mcp.json of n entries on one line, every other one
// with two keys of the wrong type.
func manyEntries(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpServers": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		if i%2 == 1 {
			b.WriteString(`"s` + strconv.Itoa(i) + `": {"command": "x", "args": "bad", "env": {"K": 1}}`)
		} else {
			b.WriteString(`"s` + strconv.Itoa(i) + `": {"command": "x", "args": ["a"], "autoApprove": []}`)
		}
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// A change that would make mcp.json larger than it may be (turning every
// server of a file written on one line off, which writes each anew,
// indented) is refused, and the file left as it is: it could not be read
// back.
func TestChangeThatWouldNotFitIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	b := manyEntries(14000)
	if len(b) > maxConfigSize || len(b) < maxConfigSize*3/4 {
		t.Fatalf("the file is %d bytes; the test needs it just under %d", len(b), maxConfigSize)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	m := New(dir, Options{})
	t.Cleanup(m.Close)
	err := m.Update(func(c *Config) error {
		for name, s := range c.Servers {
			s.Disabled = true
			c.Servers[name] = s
		}
		return nil
	})
	var p *Problem
	if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "larger than") || !errors.As(err, &p) {
		t.Fatalf("Update: %v", err)
	}
	// Its own case, for the window and the command line to word.
	if code, args := p.Problem(); code != "mcp_save_too_big" || args["max"] != strconv.Itoa(maxConfigSize) {
		t.Fatalf("the refusal is %s %v", code, args)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, b) {
		t.Fatal("the file was written")
	}
	if len(m.Config().Servers) != 7000 || len(m.Config().Invalid()) != 7000 {
		t.Fatalf("after the refusal: %d right, %d with mistakes", len(m.Config().Servers), len(m.Config().Invalid()))
	}
}

// BenchmarkParse reads files of many entries, half of them with mistakes,
// on one line (where counting columns for each entry would not be linear).
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		file := manyEntries(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				if _, err := Parse(file, FileName); err == nil {
					b.Fatal("no mistakes found")
				}
			}
		})
	}
}

// Unreadable says why mcp.json cannot be read at all, and which servers
// of the configuration read before that edit stay in use (the enabled
// ones): none when the file was already so when the manager started, and
// nothing at all while the file reads.
func TestUnreadableSaysWhyAndWhatIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"mcpServers": {"files": {"command": "/nonexistent/files"}, "off": {"command": "/nonexistent/off", "disabled": true}, "web": {"url": "http://127.0.0.1:1/mcp"}}}`)
	m := New(dir, Options{})
	t.Cleanup(m.Close)
	if p, kept, ok := m.Unreadable(); ok {
		t.Fatalf("a file that reads: %+v %v", p, kept)
	}
	write("{\"mcpServers\": {\n  \"files\": {\"command\": \"/nonexistent/files\"\n}}")
	p, kept, ok := m.Unreadable()
	if !ok || p.Code != "mcp_syntax" || p.Args["line"] != "3" || p.Args["column"] == "" || !strings.Contains(p.Message, "not valid JSON") {
		t.Fatalf("after the edit: %v %+v", ok, p)
	}
	if strings.Join(kept, ",") != "files,web" {
		t.Fatalf("kept %v, want files,web (not the disabled one)", kept)
	}
	fresh := New(dir, Options{})
	t.Cleanup(fresh.Close)
	if p, kept, ok := fresh.Unreadable(); !ok || p.Code != "mcp_syntax" || len(kept) != 0 {
		t.Fatalf("broken from the start: %v %+v %v", ok, p, kept)
	}
}
