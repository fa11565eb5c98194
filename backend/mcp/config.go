// Package mcp connects Wayfinder to Model Context Protocol servers through
// the official Go SDK (github.com/modelcontextprotocol/go-sdk): servers run
// as child processes over stdio or are reached over Streamable HTTP, are
// listed in mcp.json in the data folder (the "mcpServers" layout Claude
// Desktop, Cursor, LM Studio and others use, so a person can paste theirs),
// start when first needed, restart after a crash with a growing pause, and
// offer their tools to the agent as tools.Tool values that always ask the
// person before they run (the agent's approval gate reads Tool.AlwaysAsk).
package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// FileName is the configuration file in the data folder.
const FileName = "mcp.json"

// Config is the content of mcp.json. Unknown keys of other apps (for
// example "type" or "autoApprove") are read and ignored, so a pasted block
// works as it is.
type Config struct {
	Servers map[string]Server `json:"mcpServers"`
}

// Server is one server's entry: either Command (stdio) or URL (Streamable
// HTTP).
type Server struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	// Headers are sent with every HTTP request (an API key, say).
	Headers map[string]string `json:"headers,omitempty"`
	// Disabled servers are not started and offer no tools (the key Cline
	// and others use for the same switch).
	Disabled bool `json:"disabled,omitempty"`
	// DisabledTools are the server's tools the person switched off.
	DisabledTools []string `json:"disabledTools,omitempty"`
	// AutoApproveReadOnly lets the server's tools that declare readOnlyHint
	// run without asking; every other call asks.
	AutoApproveReadOnly bool `json:"autoApproveReadOnly,omitempty"`
	// TimeoutSeconds bounds one call (default DefaultCallTimeout).
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
}

// Transport says how the server is reached.
func (s Server) Transport() string {
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

// Origin names the program behind the entry: a hash of its command and
// arguments, or of its URL. Grants ("always for this tool") are kept with
// it, so a new server added under an old one's name, or an entry changed
// to run something else, asks again instead of inheriting them. Its env,
// headers and switches are left out: a new API key is the same server.
func (s Server) Origin() string {
	h := sha256.New()
	for _, part := range append([]string{s.Transport(), s.Command, s.URL}, s.Args...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// ToolEnabled reports whether the person left the server's tool on.
func (s Server) ToolEnabled(tool string) bool { return !slices.Contains(s.DisabledTools, tool) }

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)

// ErrBadConfig marks a configuration a person must fix.
var ErrBadConfig = errors.New("mcp configuration")

// configError is a mistake in one server's entry, with which one it is
// (a case of the window's "error.invalid_input.case.<case>") and its
// particulars; Error is the English text as before.
type configError struct {
	problem string
	args    map[string]string
	err     error
}

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// Problem says which mistake it is and its particulars (name, url), for
// the window to word in the person's language.
func (e *configError) Problem() (string, map[string]string) { return e.problem, e.args }

// badConfig is an ErrBadConfig with its problem in parts.
func badConfig(problem string, kv []string, format string, a ...any) error {
	args := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i]] = kv[i+1]
	}
	return &configError{problem: problem, args: args, err: fmt.Errorf("%w: "+format, append([]any{ErrBadConfig}, a...)...)}
}

// CheckName refuses a server name that cannot prefix a tool name.
func CheckName(name string) error {
	if !namePattern.MatchString(name) {
		return badConfig("mcp_name", []string{"name", name}, "server name %q: use 1 to 32 letters, digits, - or _, starting with a letter or digit", name)
	}
	return nil
}

// Check reports what is wrong with one server's entry.
func (s Server) Check(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	switch {
	case s.Command == "" && s.URL == "":
		return badConfig("mcp_no_command", []string{"name", name}, "server %q needs a command or a url", name)
	case s.Command != "" && s.URL != "":
		return badConfig("mcp_both", []string{"name", name}, "server %q has both a command and a url; keep one", name)
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return badConfig("mcp_url", []string{"name", name, "url", s.URL}, "server %q: url %q must be an http:// or https:// address", name, s.URL)
		}
	}
	if s.TimeoutSeconds < 0 {
		return badConfig("mcp_timeout", []string{"name", name}, "server %q: timeoutSeconds must not be negative", name)
	}
	return nil
}

// Names lists the servers in name order.
func (c Config) Names() []string {
	names := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// maxConfigSize bounds mcp.json: a configuration, not a data file.
const maxConfigSize = 1 << 20

// Load reads dir/mcp.json; a missing file is an empty configuration. A
// file that does not parse is an error that names the file and the place.
func Load(dir string) (Config, error) {
	path := filepath.Join(dir, FileName)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Config{Servers: map[string]Server{}}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read %s: %w", path, err)
	}
	return Parse(b, path)
}

// Parse reads a configuration; where names the source in errors.
func Parse(b []byte, where string) (Config, error) {
	if len(b) > maxConfigSize {
		return Config{}, fmt.Errorf("%w: %s is larger than %d bytes", ErrBadConfig, where, maxConfigSize)
	}
	var c Config
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &c); err != nil {
			return Config{}, fmt.Errorf("%w: %s is not valid JSON: %v", ErrBadConfig, where, err)
		}
	}
	if c.Servers == nil {
		c.Servers = map[string]Server{}
	}
	var problems []string
	for _, n := range c.Names() {
		if err := c.Servers[n].Check(n); err != nil {
			problems = append(problems, strings.TrimPrefix(err.Error(), ErrBadConfig.Error()+": "))
		}
	}
	if len(problems) > 0 {
		return Config{}, fmt.Errorf("%w: %s: %s", ErrBadConfig, where, strings.Join(problems, "; "))
	}
	return c, nil
}

// Save writes dir/mcp.json readable by its owner only (it may hold keys in
// env or headers), through a temporary file so a crash leaves the old one.
func Save(dir string, c Config) error {
	for _, n := range c.Names() {
		if err := c.Servers[n].Check(n); err != nil {
			return err
		}
	}
	if c.Servers == nil {
		c.Servers = map[string]Server{}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	tmp, err := os.CreateTemp(dir, ".mcp-*.json")
	if err != nil {
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, FileName)); err != nil {
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	return nil
}
