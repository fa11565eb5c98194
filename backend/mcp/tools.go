package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// Budgets of what the model reads about MCP tools, documented in the
// README: every tool of every enabled server shares DescriptionBudget
// characters of description (each gets at least MinDescription and at
// most MaxDescription), and a parameter's description is cut at
// ParamDescription. A server with 50 tools thus costs about as much
// context as one with 13, and nothing is left out: the model sees every
// tool's name and parameters.
const (
	DescriptionBudget = 4000
	MaxDescription    = 300
	MinDescription    = 60
	ParamDescription  = 100
)

// Separator joins a server's name and its tool's in the name the model
// calls: files__read_file. Names keep to [A-Za-z0-9_-], 64 characters,
// which every model template and chat API accepts.
const Separator = "__"

const maxName = 64

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// FullName is the name the model calls a server's tool by.
func FullName(server, tool string) string {
	n := server + Separator + unsafeName.ReplaceAllString(tool, "_")
	if len(n) > maxName {
		sum := sha256.Sum256([]byte(tool))
		n = n[:maxName-9] + "_" + hex.EncodeToString(sum[:4])
	}
	return n
}

// Tools returns the tools of every enabled server for the agent, starting
// the servers that are not running yet (lazily: the first turn that
// needs tools). A server that cannot start offers the tools it had when it
// last ran, if any: a call then tries to start it again and fails as an
// observation when it cannot. starting (nil: nobody) is told of each
// server that starts now, and the func it returns of how that ended, so
// the person sees what the turn waits for (starting may take the whole
// StartTimeout).
func (m *Manager) Tools(ctx context.Context, starting func(server string) (done func(err error))) []*tools.Tool {
	cfg := m.Config()
	type found struct {
		server string
		conf   Server
		tools  []*sdk.Tool
	}
	all := make([]found, 0, len(cfg.Servers))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, n := range cfg.Names() {
		s := m.server(n)
		if s == nil {
			continue
		}
		wg.Go(func() {
			if _, err := s.session(ctx, starting); err != nil {
				m.opts.Logger.Debug("MCP server not available", "server", n, "err", err)
			}
			s.mu.Lock()
			f := found{server: n, conf: s.conf, tools: s.tools}
			s.mu.Unlock()
			mu.Lock()
			all = append(all, f)
			mu.Unlock()
		})
	}
	wg.Wait()
	count := 0
	for _, f := range all {
		for _, t := range f.tools {
			if f.conf.ToolEnabled(t.Name) {
				count++
			}
		}
	}
	budget := MaxDescription
	if count > 0 {
		budget = min(MaxDescription, max(MinDescription, DescriptionBudget/count))
	}
	var out []*tools.Tool
	seen := map[string]bool{}
	slices.SortFunc(all, func(a, b found) int { return strings.Compare(a.server, b.server) })
	for _, f := range all {
		for _, t := range f.tools {
			if !f.conf.ToolEnabled(t.Name) {
				continue
			}
			tt := m.tool(f.server, f.conf, t, budget)
			if seen[tt.Name] {
				continue // two tools whose names differ only in unsafe characters
			}
			seen[tt.Name] = true
			out = append(out, tt)
		}
	}
	return out
}

// tool turns a server's tool into one the agent can call.
func (m *Manager) tool(server string, conf Server, t *sdk.Tool, budget int) *tools.Tool {
	timeout := m.opts.CallTimeout
	if conf.TimeoutSeconds > 0 {
		timeout = time.Duration(conf.TimeoutSeconds) * time.Second
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	name := t.Name
	return &tools.Tool{
		Name:        FullName(server, t.Name),
		Description: trim(fmt.Sprintf("[MCP server %s] %s", server, desc), budget),
		InputSchema: inputSchema(t.InputSchema),
		Timeout:     timeout,
		// What an MCP tool returns is text Wayfinder did not write, and it
		// may read files or the network: the agent treats it as both.
		Outside: true,
		Reaches: true,
		// Every call asks the person first (the agent's approval gate),
		// unless they allowed this tool for good or let this server's
		// read-only tools run.
		AlwaysAsk: true,
		ReadOnly:  readOnly(t),
		Server:    server,
		Origin:    conf.Origin(),
		Run: func(ctx context.Context, args tools.Args) (tools.Result, error) {
			return m.Call(ctx, server, name, args)
		},
	}
}

// inputSchema reads a tool's JSON schema into the form Ollama takes,
// parameter descriptions cut to ParamDescription. A schema that is not an
// object's becomes an empty object: the tool takes no arguments we can
// describe, and the server still validates what it gets.
func inputSchema(raw any) *ollama.ToolFunctionParameters {
	p := &ollama.ToolFunctionParameters{}
	if m, ok := asMap(raw); ok {
		trimDescriptions(m, 0)
		if b, err := json.Marshal(m); err == nil {
			_ = json.Unmarshal(b, p)
		}
	}
	p.Type = "object"
	if p.Properties == nil {
		p.Properties = ollama.NewToolPropertiesMap()
	}
	return p
}

func asMap(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case json.RawMessage:
		var m map[string]any
		return m, json.Unmarshal(x, &m) == nil
	case nil:
		return nil, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m) == nil
}

// trimDescriptions cuts the descriptions of a schema's properties, down
// nested objects and arrays (to a depth that no sane schema reaches).
func trimDescriptions(schema map[string]any, depth int) {
	if depth > 8 {
		return
	}
	if d, ok := schema["description"].(string); ok && depth > 0 {
		schema["description"] = trim(d, ParamDescription)
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		for _, p := range props {
			if pm, ok := p.(map[string]any); ok {
				trimDescriptions(pm, depth+1)
			}
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		trimDescriptions(items, depth+1)
	}
}

// trim cuts s to n characters at a word, with an ellipsis.
func trim(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// Call runs a server's tool. A failure the model can act on (the tool's
// own error, a bad argument) comes back as an error whose text the agent
// shows the model as an observation; so does a server that is down.
func (m *Manager) Call(ctx context.Context, server, tool string, args map[string]any) (tools.Result, error) {
	s := m.server(server)
	if s == nil {
		return tools.Result{}, fmt.Errorf("%s: %w (it is off or was removed)", server, ErrNotRunning)
	}
	cs, err := s.session(ctx, nil)
	if err != nil {
		return tools.Result{}, err
	}
	if args == nil {
		args = map[string]any{}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) && !alive(ctx, cs) {
			// Not the server's own answer, and it no longer answers a
			// ping: the connection broke (the server crashed, or sent a
			// message over the size limit).
			s.broken(cs, err)
			return tools.Result{}, fmt.Errorf("MCP server %s failed during the call (it is restarted when next needed): %w", server, err)
		}
		return tools.Result{}, fmt.Errorf("MCP server %s: %w", server, err)
	}
	return m.result(ctx, server, res)
}

// alive reports whether a session still answers a ping.
func alive(ctx context.Context, cs *sdk.ClientSession) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	return cs.Ping(ctx, nil) == nil
}

// result turns a call's content into the observation: text as it is,
// structured content as JSON when there is no text, links and embedded
// resources by their address, and binary content (images, audio, blobs)
// saved as an attachment in the data folder, the observation saying where.
func (m *Manager) result(ctx context.Context, server string, res *sdk.CallToolResult) (tools.Result, error) {
	var parts []string
	var files []api.Attachment
	attach := func(kind, mimeType string, data []byte) string {
		note, a, ok := m.attach(ctx, server, kind, mimeType, data)
		if ok {
			files = append(files, a)
		}
		return note
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, attach("image", c.MIMEType, c.Data))
		case *sdk.AudioContent:
			parts = append(parts, attach("audio", c.MIMEType, c.Data))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", firstOf(c.Title, c.Name), c.URI))
		case *sdk.EmbeddedResource:
			switch {
			case c.Resource == nil:
			case c.Resource.Text != "":
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, c.Resource.Text))
			case len(c.Resource.Blob) > 0:
				parts = append(parts, attach("resource "+c.Resource.URI, c.Resource.MIMEType, c.Resource.Blob))
			}
		default:
			parts = append(parts, fmt.Sprintf("[content of a kind Wayfinder does not show: %T]", c))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := strings.ToValidUTF8(strings.Join(parts, "\n"), "\uFFFD")
	if res.IsError {
		if text == "" {
			text = "the tool reported an error without saying which"
		}
		return tools.Result{}, errors.New(text)
	}
	if text == "" {
		text = "(the tool returned nothing)"
	}
	return tools.Result{Text: text, Attachments: files}, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
