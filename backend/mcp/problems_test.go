package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// brokenFile writes an mcp.json whose "mcpServers" are the given entries
// (name and raw JSON, in order, names possibly repeated), one a line, and
// with a good server "fine" first: a helper process that really starts.
func brokenFile(t *testing.T, entries ...[2]string) string {
	t.Helper()
	fine, err := json.Marshal(helper("good"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n    \"fine\": " + string(fine))
	for _, e := range entries {
		name, _ := json.Marshal(e[0])
		b.WriteString(",\n    " + string(name) + ": " + e[1])
	}
	b.WriteString("\n  }\n}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// want is one problem as the window gets it: its server, code and
// particulars.
type want struct {
	Server, Code string
	Args         map[string]string
}

// TestBrokenEntriesAreEachReportedAndTheOthersStart: each mistake of a
// broken mcp.json is a problem of its own (which server, what, which
// line), and the server whose entry is right still starts and offers its
// tools.
func TestBrokenEntriesAreEachReportedAndTheOthersStart(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries [][2]string
		want    []want
	}{
		{"unknown transport", [][2]string{{"old", `{"type": "sse", "url": "http://127.0.0.1:9/sse"}`}},
			[]want{{"old", "mcp_transport", map[string]string{"name": "old", "transport": "sse", "line": "4"}}}},
		{"missing command and bad url", [][2]string{{"empty", `{"args": ["x"]}`}, {"web", `{"url": "ftp://host/mcp"}`}},
			[]want{
				{"empty", "mcp_no_command", map[string]string{"name": "empty", "line": "4"}},
				{"web", "mcp_url", map[string]string{"name": "web", "url": "ftp://host/mcp", "line": "5"}},
			}},
		{"duplicate name", [][2]string{{"twice", `{"command": "a"}`}, {"twice", `{"command": "b"}`}},
			[]want{{"twice", "mcp_duplicate", map[string]string{"name": "twice", "line": "4", "count": "2"}}}},
		{"several mistakes in one entry", [][2]string{{"a b", `{"type": "websocket", "command": "x", "url": "http://h", "timeoutSeconds": -1}`}},
			[]want{
				{"a b", "mcp_name", map[string]string{"name": "a b", "line": "4"}},
				{"a b", "mcp_transport", map[string]string{"name": "a b", "transport": "websocket", "line": "4"}},
				{"a b", "mcp_both", map[string]string{"name": "a b", "line": "4"}},
				{"a b", "mcp_timeout", map[string]string{"name": "a b", "line": "4"}},
			}},
		{"wrong type of a key", [][2]string{{"typed", `{"command": "x", "args": "--flag"}`}, {"str", `"npx server"`}, {"both", `{"url": "ftp://h", "env": []}`}},
			[]want{
				{"typed", "mcp_field", map[string]string{"name": "typed", "field": "args", "want": "list", "line": "4"}},
				{"str", "mcp_entry", map[string]string{"name": "str", "line": "5"}},
				{"both", "mcp_field", map[string]string{"name": "both", "field": "env", "want": "object", "line": "6"}},
				{"both", "mcp_url", map[string]string{"name": "both", "url": "ftp://h", "line": "6"}},
			}},
		{"every wrong key, each at its line", [][2]string{{"many", "{\n      \"command\": 42,\n      \"args\": \"--flag\",\n      \"disabledTools\": [\"a\", 2],\n      \"env\": {\"KEY\": 1},\n      \"Disabled\": \"yes\",\n      \"timeoutSeconds\": -1\n    }"}},
			[]want{
				{"many", "mcp_field", map[string]string{"name": "many", "field": "command", "want": "string", "line": "5"}},
				{"many", "mcp_field", map[string]string{"name": "many", "field": "args", "want": "list", "line": "6"}},
				{"many", "mcp_field", map[string]string{"name": "many", "field": "disabledTools", "want": "texts", "line": "7"}},
				{"many", "mcp_field", map[string]string{"name": "many", "field": "env", "want": "textObject", "line": "8"}},
				{"many", "mcp_field", map[string]string{"name": "many", "field": "disabled", "want": "bool", "line": "9"}},
				{"many", "mcp_no_command", map[string]string{"name": "many", "line": "4"}},
				{"many", "mcp_timeout", map[string]string{"name": "many", "line": "4"}},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := brokenFile(t, tc.entries...)
			m := New(dir, Options{})
			t.Cleanup(m.Close)
			var fe *FileError
			if err := m.Err(); !errors.As(err, &fe) || !errors.Is(err, ErrBadConfig) || fe.Whole {
				t.Fatalf("Err() = %v, want a *FileError of entries", err)
			}
			var got []want
			for _, p := range fe.Problems {
				got = append(got, want{p.Server, p.Code, p.Args})
				if p.Text() == "" || !strings.Contains(fe.Error(), p.Text()) {
					t.Errorf("%s: English text %q not in %q", p.Code, p.Text(), fe.Error())
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("problems (-want +got):\n%s", d)
			}
			var cards []want
			for _, st := range m.Status(context.Background(), true) {
				if st.Name == "fine" {
					if st.State != api.MCPReady || len(st.Tools) == 0 {
						t.Fatalf("the good server did not start beside the broken entries: %+v", st)
					}
					continue
				}
				if st.State != api.MCPInvalid {
					t.Errorf("%s: state %s, want invalid", st.Name, st.State)
				}
				for _, p := range st.Problems {
					cards = append(cards, want{st.Name, p.Code, p.Args})
				}
			}
			if status(t, m, "fine").State != api.MCPReady {
				t.Fatal("no ready server named fine")
			}
			slices.SortStableFunc(got, func(a, b want) int { return strings.Compare(a.Server, b.Server) })
			if d := cmp.Diff(got, cards); d != "" {
				t.Fatalf("the invalid entries in Status (-problems +cards):\n%s", d)
			}
		})
	}
}

// TestUnreadableFileSaysWhere: mcp.json that is not JSON (or not the
// shape of one) is a problem of the whole file, with the line and column
// of a syntax error, and no server runs.
func TestUnreadableFileSaysWhere(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       want
	}{
		{"missing comma", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {\"command\": \"y\"}\n  }\n}\n",
			want{"", "mcp_syntax", map[string]string{"line": "4", "column": "5"}}},
		{"cut short", "{\"mcpServers\": {\n  \"검색\": {\"command\": \"x\"",
			want{"", "mcp_syntax", map[string]string{"line": "2", "column": "23"}}},
		{"korean before the fault", "{\"mcpServers\": {\"검색\": {\"command\": \"x\",}}}",
			want{"", "mcp_syntax", map[string]string{"line": "1", "column": "39"}}},
		{"a list", `[{"command": "x"}]`, want{"", "mcp_not_object", map[string]string{}}},
		{"servers a list", "{\n\"mcpServers\": [\"x\"]}", want{"", "mcp_servers", map[string]string{"line": "2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.file), "mcp.json")
			var fe *FileError
			if !errors.As(err, &fe) || !fe.Whole || len(fe.Problems) != 1 {
				t.Fatalf("Parse error %v, want one problem of the whole file", err)
			}
			p := fe.Problems[0]
			delete(p.Args, "reason")
			if d := cmp.Diff(tc.want, want{p.Server, p.Code, p.Args}); d != "" {
				t.Fatalf("problem (-want +got):\n%s", d)
			}
		})
	}
}

// TestReloadKeepsRunningWhenTheFileBreaks: a file edited into broken JSON
// leaves the servers that run as they are; a broken entry stops only its
// own server.
func TestReloadKeepsRunningWhenTheFileBreaks(t *testing.T) {
	m := newManager(t, map[string]Server{"fine": helper("good"), "other": helper("good")}, Options{})
	if st := m.Status(context.Background(), true); len(st) != 2 {
		t.Fatalf("status %+v", st)
	}
	path := filepath.Join(m.dir, FileName)
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.Reload(); err == nil || len(m.Config().Servers) != 2 {
		t.Fatalf("reload of broken JSON: %v, servers %v", err, m.Config().Names())
	}
	fine, _ := json.Marshal(helper("good"))
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"fine": `+string(fine)+`, "other": {"url": "nope"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.Reload(); err == nil {
		t.Fatal("reload of a broken entry: no error")
	}
	if got := m.Config().Names(); len(got) != 1 || got[0] != "fine" || status(t, m, "fine").State != api.MCPReady {
		t.Fatalf("after reload: servers %v, fine %+v", got, status(t, m, "fine"))
	}
}
