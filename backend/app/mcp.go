package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
)

// MCPService is bound to the frontend: the MCP servers section of
// Settings. The file mcp.json stays the source of truth; every change is
// written there, and an edit by hand is picked up on the next use.
type MCPService struct{ app *App }

func (s *MCPService) manager() (*mcp.Manager, error) {
	if s.app.mcp == nil {
		return nil, &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput, Message: "MCP servers cannot be changed while another Wayfinder has this data folder open.",
			Args: map[string]string{"case": "mcp_locked"}}}
	}
	return s.app.mcp, nil
}

// List returns the servers, their state and tools; with start, the
// enabled servers that are not running are started first (the Check
// button), each within the start time limit.
func (s *MCPService) List(start bool) ([]api.MCPServer, error) {
	m, err := s.manager()
	if err != nil {
		return nil, err
	}
	// Entries with mistakes come back as invalid servers, each mistake
	// worded on its own line, beside the servers that are right (which
	// run); only a file that cannot be read at all is an error.
	if err := m.Err(); err != nil {
		if fe := (*mcp.FileError)(nil); !errors.As(err, &fe) || fe.Whole {
			return nil, invalid(err)
		}
	}
	ctx, cancel := context.WithTimeout(s.app.ctx, mcp.DefaultStartTimeout+5*time.Second)
	defer cancel()
	return m.Status(ctx, start), nil
}

// Add adds a server and starts it, so that the person sees at once
// whether it works.
func (s *MCPService) Add(in api.MCPServerInput) ([]api.MCPServer, error) {
	m, err := s.manager()
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(in.Name)
	entry := mcp.Server{Command: strings.TrimSpace(in.Command), Args: in.Args, URL: strings.TrimSpace(in.URL), Env: in.Env}
	if len(entry.Env) == 0 {
		entry.Env = nil
	}
	err = m.Update(func(c *mcp.Config) error {
		if c.Has(name) { // an entry with mistakes holds its name too
			return api.NewError(api.ErrInvalidInput, fmt.Sprintf("an MCP server named %q is already there", name), "").With("case", "mcp_taken", "name", name)
		}
		if err := entry.Check(name); err != nil {
			return err
		}
		c.Servers[name] = entry
		return nil
	})
	if err != nil {
		return nil, invalid(err)
	}
	return s.List(true)
}

// Remove takes a server out of mcp.json and stops it, and takes back the
// grants ("always for this tool") of its tools: a server added later under
// the same name asks again (grants are kept with the program that
// provides the tool, so one added by hand or by `wayfinder mcp` asks too).
// An entry with mistakes is removed the same way (every entry of a name
// given twice); the other entries with mistakes stay as written.
func (s *MCPService) Remove(name string) error {
	m, err := s.manager()
	if err != nil {
		return err
	}
	err = m.Update(func(c *mcp.Config) error {
		if !c.Remove(name) {
			return unknownServer(name)
		}
		return nil
	})
	if err != nil {
		return invalid(err)
	}
	if _, err := s.app.store.RevokeServer(s.app.ctx, name); err != nil {
		return fmt.Errorf("MCP server %s removed, but its tools allowed for good stay listed in Settings: %w", name, err)
	}
	return nil
}

// SetServer switches a server on or off and sets whether its read-only
// tools run without asking.
func (s *MCPService) SetServer(name string, enabled, autoApproveReadOnly bool) error {
	return s.change(name, func(c *mcp.Config, srv mcp.Server) {
		srv.Disabled, srv.AutoApproveReadOnly = !enabled, autoApproveReadOnly
		c.Servers[name] = srv
	})
}

// SetTool switches one tool of a server on or off.
func (s *MCPService) SetTool(name, tool string, enabled bool) error {
	return s.change(name, func(c *mcp.Config, srv mcp.Server) {
		srv.DisabledTools = toggle(srv.DisabledTools, tool, !enabled)
		c.Servers[name] = srv
	})
}

// change edits the entry of a server that is right. One with mistakes is
// not switched: it never starts, and writing a switch into it would
// rewrite what the person is fixing (removing it is possible).
func (s *MCPService) change(name string, fn func(*mcp.Config, mcp.Server)) error {
	m, err := s.manager()
	if err != nil {
		return err
	}
	return invalid(m.Update(func(c *mcp.Config) error {
		srv, ok := c.Servers[name]
		switch {
		case !ok && c.Has(name):
			return api.NewError(api.ErrInvalidInput, fmt.Sprintf("The MCP server %q has mistakes in mcp.json, so it does not start and cannot be switched; correct them there, or remove it.", name), "").
				With("case", "mcp_broken", "name", name)
		case !ok:
			return unknownServer(name)
		}
		fn(c, srv)
		return nil
	}))
}

func unknownServer(name string) error {
	return api.NewError(api.ErrInvalidInput, fmt.Sprintf("No MCP server is named %q.", name), "").With("case", "mcp_unknown", "name", name)
}

// invalid turns a configuration mistake into an error the window words:
// a mistake in one entry says which (Problem) with its particulars, and
// so does a file that cannot be read at all (mcp_syntax with its line and
// column), and so does a change refused because the file would grow past
// what is read back (mcp_save_too_big with the limit); any other mistake
// of the file is "mcp_file", its English words kept as the cause.
func invalid(err error) error {
	if err == nil {
		return nil
	}
	msg := strings.TrimPrefix(err.Error(), mcp.ErrBadConfig.Error()+": ")
	if !errors.Is(err, mcp.ErrBadConfig) {
		return err
	}
	info := api.ErrorInfo{Code: api.ErrInvalidInput, Message: msg}
	var p interface {
		Problem() (string, map[string]string)
	}
	var fe *mcp.FileError
	if errors.As(err, &fe) && fe.Whole {
		p = fe.Problems[0] // the file cannot be read: its syntax error, with line and column
	}
	if p != nil || fe == nil && errors.As(err, &p) {
		problem, args := p.Problem()
		info = info.With("case", problem)
		for k, v := range args {
			info = info.With(k, v)
		}
	} else {
		info = info.With("case", "mcp_file", "reason", msg)
	}
	return &chat.Error{Info: info}
}
