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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
)

// FileName is the configuration file in the data folder.
const FileName = "mcp.json"

// Config is the content of mcp.json. Unknown keys of other apps (for
// example "type" or "autoApprove") are read and ignored, so a pasted block
// works as it is.
type Config struct {
	Servers map[string]Server `json:"mcpServers"`
	// kept are the entries left out for their mistakes, as written and in
	// the file's order, and other holds the file's keys beside
	// "mcpServers": Save writes both back as they are, so that a change
	// made in Settings or by `wayfinder mcp` while the person is fixing an
	// entry by hand neither drops nor rewrites it.
	kept  []member
	other []member
	// order is the entries' names in the file's order (repeated when
	// given twice): Save keeps it, adding new servers after by name.
	order []string
	// raw is each right entry as written: Save keeps the keys of other
	// apps in it (autoApprove, say) and the values it did not change.
	raw map[string]json.RawMessage
	// style is how the file was laid out (indentation, line ends): Save
	// writes the entries it did not change as they were written, and the
	// rest in the file's own style.
	style style
}

// member is one key of a JSON object and its value as written.
type member struct {
	name string
	raw  json.RawMessage
}

// Invalid names the entries left out for their mistakes, in the file's
// order, each once (a name given twice is one).
func (c Config) Invalid() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range c.kept {
		if !seen[k.name] {
			seen[k.name] = true
			out = append(out, k.name)
		}
	}
	return out
}

// Has reports whether name has an entry: one that is right, or one kept
// for its mistakes (a new server must not take its name).
func (c Config) Has(name string) bool {
	_, ok := c.Servers[name]
	return ok || slices.ContainsFunc(c.kept, func(k member) bool { return k.name == name })
}

// Remove takes every entry named name out, right or kept for its
// mistakes; false when there is none.
func (c *Config) Remove(name string) bool {
	_, ok := c.Servers[name]
	delete(c.Servers, name)
	n := len(c.kept)
	// Copies: c may share its entries with the Config it was copied from.
	c.kept = slices.DeleteFunc(slices.Clone(c.kept), func(k member) bool { return k.name == name })
	c.raw = maps.Clone(c.raw)
	delete(c.raw, name) // a server added again under the name starts afresh
	return ok || len(c.kept) < n
}

// clone is a copy whose changes leave c as it is.
func (c Config) clone() Config {
	next := Config{Servers: make(map[string]Server, len(c.Servers)), kept: slices.Clone(c.kept), other: slices.Clone(c.other), order: slices.Clone(c.order), raw: maps.Clone(c.raw), style: c.style}
	for n, s := range c.Servers {
		s.Args = slices.Clone(s.Args)
		s.Env = maps.Clone(s.Env)
		s.Headers = maps.Clone(s.Headers)
		s.DisabledTools = slices.Clone(s.DisabledTools)
		next.Servers[n] = s
	}
	return next
}

// Server is one server's entry: either Command (stdio) or URL (Streamable
// HTTP).
type Server struct {
	// Type is the transport other apps name ("stdio", "http"); Wayfinder
	// tells them apart by Command and URL, and refuses one it does not
	// speak instead of failing to connect.
	Type    string            `json:"type,omitempty"`
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

// CheckName refuses a server name that cannot prefix a tool name.
func CheckName(name string) error {
	if p := checkName(name); p != nil {
		return p
	}
	return nil
}

func checkName(name string) *Problem {
	if !namePattern.MatchString(name) {
		return problem(name, "mcp_name", []string{"name", name}, "server name %q: use 1 to 32 letters, digits, - or _, starting with a letter or digit", name)
	}
	return nil
}

// Check reports the first thing wrong with one server's entry.
func (s Server) Check(name string) error {
	if ps := s.problems(name); len(ps) > 0 {
		return ps[0]
	}
	return nil
}

// problems lists everything wrong with one server's entry, so that a
// person fixing mcp.json by hand sees them all at once.
func (s Server) problems(name string) []*Problem {
	var out []*Problem
	if p := checkName(name); p != nil {
		out = append(out, p)
	}
	if !knownTransport(s.Type) {
		out = append(out, problem(name, "mcp_transport", []string{"name", name, "transport", s.Type},
			"server %q: transport %q is not one Wayfinder speaks; use a command (stdio) or an http:// or https:// url (Streamable HTTP)", name, s.Type))
	}
	switch {
	case s.Command == "" && s.URL == "":
		out = append(out, problem(name, "mcp_no_command", []string{"name", name}, "server %q needs a command or a url", name))
	case s.Command != "" && s.URL != "":
		out = append(out, problem(name, "mcp_both", []string{"name", name}, "server %q has both a command and a url; keep one", name))
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			out = append(out, problem(name, "mcp_url", []string{"name", name, "url", s.URL}, "server %q: url %q must be an http:// or https:// address", name, s.URL))
		}
	}
	if s.TimeoutSeconds < 0 {
		out = append(out, problem(name, "mcp_timeout", []string{"name", name}, "server %q: timeoutSeconds must not be negative", name))
	}
	return out
}

// knownTransport reports whether an entry's "type" (the key Claude Code,
// Cursor and VS Code write) names a transport Wayfinder speaks: stdio, or
// Streamable HTTP under the names those apps give it. "sse" (the older
// HTTP transport) is not one: such a server would not answer.
func knownTransport(t string) bool {
	switch strings.ToLower(t) {
	case "", "stdio", "http", "streamable-http", "streamablehttp", "streamable_http":
		return true
	}
	return false
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

// Save writes dir/mcp.json readable by its owner only (it may hold keys in
// env or headers), through a temporary file so a crash leaves the old one.
// The entries it did not change, those kept for their mistakes and the
// file's other keys are written back as they were read, spaces and all;
// the rest is indented as the file was (see style).
func Save(dir string, c Config) error {
	for _, n := range c.Names() {
		if err := c.Servers[n].Check(n); err != nil {
			return err
		}
	}
	b, err := encode(c)
	if err != nil {
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	if len(b) > maxConfigSize { // it could not be read back
		return fmt.Errorf("save %s: %w", FileName, problem("", "mcp_save_too_big", []string{"max", strconv.Itoa(maxConfigSize)},
			"the change would make it larger than %d bytes, which could not be read back, so it was not saved", maxConfigSize))
	}
	if err := atomicfile.Write(filepath.Join(dir, FileName), b, 0o600); err != nil {
		return fmt.Errorf("save %s: %w", FileName, err)
	}
	return nil
}
