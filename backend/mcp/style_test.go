package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteKeepsTheFilesLayout: a change made in Settings or by `wayfinder
// mcp` leaves the entries it did not change as the person formatted them
// (an array on one line, a key aligned by hand), and writes the one it
// changed, or a new one, in the file's own indentation (four spaces,
// tabs) and line ends (CR LF); a save that changes nothing gives the file
// back byte for byte.
func TestWriteKeepsTheFilesLayout(t *testing.T) {
	fourSpaces := `{
    "mcpServers": {
        "files": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"],
            "autoApprove":   ["read_file"]
        },
        "web": { "url": "https://example.com/mcp" }
    },
    "theme": {"dark": true}
}
`
	tabs := "{\n\t\"mcpServers\": {\n\t\t\"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"fs\"]}\n\t}\n}\n"
	crlf := strings.ReplaceAll("{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"fs\"]},\n    \"web\": {\n      \"url\": \"https://example.com/mcp\"\n    }\n  }\n}\n", "\n", "\r\n")
	off := func(name string) func(*Config) {
		return func(c *Config) {
			s := c.Servers[name]
			s.Disabled = true
			c.Servers[name] = s
		}
	}
	for _, tc := range []struct {
		name, file string
		change     func(*Config)
		want       string
	}{
		{"four spaces, nothing changed", fourSpaces, func(*Config) {}, fourSpaces},
		{"four spaces, one entry changed", fourSpaces, off("web"), `{
    "mcpServers": {
        "files": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"],
            "autoApprove":   ["read_file"]
        },
        "web": {
            "url": "https://example.com/mcp",
            "disabled": true
        }
    },
    "theme": {"dark": true}
}
`},
		{"tabs, nothing changed", tabs, func(*Config) {}, tabs},
		{"tabs, a server added", tabs, func(c *Config) { c.Servers["time"] = Server{Command: "uvx", Args: []string{"mcp-server-time"}} },
			"{\n\t\"mcpServers\": {\n\t\t\"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"fs\"]},\n\t\t\"time\": {\n\t\t\t\"command\": \"uvx\",\n\t\t\t\"args\": [\n\t\t\t\t\"mcp-server-time\"\n\t\t\t]\n\t\t}\n\t}\n}\n"},
		{"CR LF, one entry changed", crlf, off("files"),
			strings.ReplaceAll("{\n  \"mcpServers\": {\n    \"files\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"fs\"\n      ],\n      \"disabled\": true\n    },\n    \"web\": {\n      \"url\": \"https://example.com/mcp\"\n    }\n  }\n}\n", "\n", "\r\n")},
		{"one line, a server removed", `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`, func(c *Config) { c.Remove("a") },
			"{\n  \"mcpServers\": {\n    \"b\": {\"command\": \"y\"}\n  }\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			m := New(dir, Options{})
			t.Cleanup(m.Close)
			if err := m.Update(func(c *Config) error { tc.change(c); return nil }); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, string(got)); d != "" {
				t.Errorf("mcp.json after the change (-want +got):\n%s", d)
			}
		})
	}
}
