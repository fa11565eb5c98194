package app

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// envFlag collects repeated --env KEY=VALUE flags.
type envFlag map[string]string

func (e envFlag) String() string { return "" }
func (e envFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	e[k] = val
	return nil
}

// runMCP manages the MCP servers of mcp.json in the data folder. It needs
// no lock on the data folder: an open app reads the file again when it
// changes.
func runMCP(ctx context.Context, g globals, args []string, s stdio) error {
	const usage = "mcp list [--json] | add NAME [--env KEY=VALUE]... -- COMMAND [ARGS...] | add NAME --url URL | remove NAME | on|off NAME [TOOL]"
	if err := helpFor(args, usage, s); err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: wayfinder %s", errUsage, usage)
	}
	sub, args := args[0], args[1:]
	// A command that is not one names the group's help (`mcp --help`,
	// not `mcp frob --help`); the flags after it are read all the same,
	// for the language the mistake is said in (--data-dir).
	if !slices.Contains([]string{"list", "add", "remove", "on", "off"}, sub) {
		if err := subFlags("mcp", usage, &g, s).Parse(args); errors.Is(err, flag.ErrHelp) {
			return err
		}
		return unknownSub("mcp", sub, usage)
	}
	fs := subFlags("mcp "+sub, usage, &g, s)
	asJSON := false
	url := ""
	env := envFlag{}
	switch sub {
	case "list":
		fs.BoolVar(&asJSON, "json", false, "print the servers, their state and tools as JSON")
	case "add":
		fs.StringVar(&url, "url", "", "address of a Streamable HTTP server (instead of a command)")
		fs.Var(env, "env", "an environment variable for the server's command, KEY=VALUE (repeatable)")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	dir, err := g.resolvedDataDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	logger := cliLogger(s, g.verbose)
	m := mcp.New(dir, mcp.Options{Logger: logger})
	defer m.Close()
	// lang is the language the command speaks (the data folder's setting,
	// else the system's): what it says of the servers and its changes.
	lang := langIndex(cliLanguage(settingsLanguage(ctx, g)))
	// Entries with mistakes stay in the file as written while the others
	// change (and one with mistakes may be removed); a file that could
	// not be read at all is refused, saying where it is wrong: writing it
	// would lose what is in it.
	if whole, _ := wholeFileProblem(m.Err()); sub != "list" && whole != nil {
		text, hint := mcpProblemLine(*whole, lang)
		return fmt.Errorf("%s: %s\n  %s", filepath.Join(dir, mcp.FileName), text, hint)
	}
	if _, isFile := wholeFileProblem(m.Err()); m.Err() != nil && !isFile && sub != "list" {
		return fmt.Errorf("%w; fix or remove the file first", m.Err())
	}
	switch sub {
	case "list":
		if len(args) != 0 {
			return fmt.Errorf("%w: wayfinder mcp list [--json]", errUsage)
		}
		path := filepath.Join(dir, mcp.FileName)
		if whole, isFile := wholeFileProblem(m.Err()); !isFile && m.Err() != nil {
			return m.Err()
		} else if whole != nil {
			text, hint := mcpProblemLine(*whole, lang)
			return fmt.Errorf("%s: %s\n  %s", path, text, hint)
		}
		servers := m.Status(ctx, true)
		if asJSON {
			enc := json.NewEncoder(s.out)
			enc.SetIndent("", "  ")
			return enc.Encode(servers)
		}
		if len(servers) == 0 {
			sayLine(s.out, "", "  ", say("mcp.none", lang, "file", mcp.FileName))
			return nil
		}
		n := 0
		for _, srv := range servers {
			if srv.State == api.MCPInvalid {
				fmt.Fprintf(s.out, "%s (%s): %s\n", srv.Name, mcp.FileName, cliText["mcp.invalid"][lang])
				for _, p := range srv.Problems {
					text, hint := mcpProblemLine(p, lang)
					fmt.Fprintf(s.out, "  %s\n    %s\n", text, hint)
					n++
				}
				continue
			}
			printServer(s.out, srv, lang)
		}
		if n > 0 {
			return errors.New(fill(cliText["mcp.mistakes"][lang], map[string]string{"path": path, "count": mistakes(n, lang)}))
		}
		return nil
	case "add":
		if len(args) == 0 || (url == "") == (len(args) < 2) {
			return fmt.Errorf("%w: wayfinder mcp add NAME -- COMMAND [ARGS...] or wayfinder mcp add NAME --url URL", errUsage)
		}
		name := args[0]
		entry := mcp.Server{URL: url}
		if url == "" {
			entry.Command, entry.Args = args[1], args[2:]
		}
		if len(env) > 0 {
			entry.Env = env
		}
		if err := m.Update(func(c *mcp.Config) error {
			if c.Has(name) { // an entry with mistakes holds its name too
				return errors.New(say("mcp.taken", lang, "name", strconv.Quote(name)))
			}
			c.Servers[name] = entry
			return nil
		}); err != nil {
			return refused(err, lang)
		}
		defer stillMistaken(m, dir, s, lang)
		srv := m.Status(ctx, true)
		for _, st := range srv {
			if st.Name == name {
				printServer(s.out, st, lang)
				if st.State == api.MCPFailed {
					return errors.New(say("mcp.addedNotStarted", lang, "name", name))
				}
			}
		}
		sayLine(s.out, "", "  ", say("mcp.added", lang, "name", name))
		return nil
	case "remove", "on", "off":
		if len(args) < 1 || len(args) > 2 || (sub == "remove" && len(args) != 1) {
			return fmt.Errorf("%w: wayfinder %s", errUsage, usage)
		}
		name := args[0]
		unknown := false
		err := m.Update(func(c *mcp.Config) error {
			srv, ok := c.Servers[name]
			switch {
			case sub == "remove" && c.Remove(name): // an entry with mistakes too
				return nil
			case !ok && c.Has(name):
				// It never starts, and a switch written into it would
				// rewrite what the person is fixing.
				return errors.New(say("mcp.brokenSwitch", lang, "name", name))
			case !ok:
				unknown = true
				return errors.New(say("mcp.unknown", lang, "name", strconv.Quote(name)))
			case len(args) == 2:
				srv.DisabledTools = toggle(srv.DisabledTools, args[1], sub == "off")
			default:
				srv.Disabled = sub == "off"
			}
			c.Servers[name] = srv
			return nil
		})
		if err != nil && unknown && sub == "remove" {
			if n, _ := revokeLeftGrants(ctx, dir, name, logger); n > 0 {
				sayLine(s.out, "", "  ", say("mcp.tookBack", lang, "grants", counted(n, lang, "grant")))
				return nil
			}
		}
		if err != nil {
			return refused(err, lang)
		}
		defer stillMistaken(m, dir, s, lang)
		what := name
		if len(args) == 2 {
			what = name + " " + args[1]
		}
		sayLine(s.out, "", "  ", say("mcp."+sub+"Done", lang, "what", what))
		if sub == "remove" {
			return revokeServerGrants(ctx, dir, name, s, lang, logger)
		}
		return nil
	}
	return unknownSub("mcp", sub, usage)
}

// refused words a change of mcp.json refused for a mistake of its own (a
// server's name, an entry's address, a file that would grow past what is
// read back: a *mcp.Problem) in the command's language, as Settings does;
// other errors stay as they are.
func refused(err error, lang int) error {
	var p *mcp.Problem
	if !errors.As(err, &p) {
		return err
	}
	text, hint := mcpProblemLine(api.MCPProblem{Code: p.Code, Args: p.Args, Message: p.Text()}, lang)
	return &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput, Message: text, Hint: hint}}
}

// stillMistaken says, after a change that kept the entries of mcp.json
// with mistakes as they are, how many mistakes are left: those servers
// still do not start.
func stillMistaken(m *mcp.Manager, dir string, s stdio, lang int) {
	var fe *mcp.FileError
	if !errors.As(m.Err(), &fe) || fe.Whole {
		return
	}
	sayLine(s.err, "", "  ", say("mcp.stillMistakes", lang, "path", filepath.Join(dir, mcp.FileName), "count", mistakes(len(fe.Problems), lang)))
}

// settingsLanguage is the language setting, read without opening the
// data folder (an open app may have it): for what a command says before
// or without opening it. "" when it cannot be read, so that cliLanguage
// takes the system's.
func settingsLanguage(ctx context.Context, g globals) string {
	dir, err := g.resolvedDataDir()
	if err != nil {
		return ""
	}
	cfg, err := readSettings(ctx, g, dir)
	if err != nil {
		return ""
	}
	return cfg.Language
}

// toggle adds name to or takes it from a list of switched-off names.
func toggle(off []string, name string, switchOff bool) []string {
	out := make([]string, 0, len(off)+1)
	for _, n := range off {
		if n != name {
			out = append(out, n)
		}
	}
	if switchOff {
		out = append(out, name)
	}
	return out
}

// mcpReason is why srv failed in language lang, as the window and ask's
// progress line say it ("실행할 프로그램이 없음: /x"), when its reason is
// known and has its particulars; printServer puts the system's own words
// in brackets under it, where a Korean terminal read only "오류: run /x:
// fork/exec /x: no such file or directory".
func mcpReason(srv api.MCPServer, lang int) (string, bool) {
	if _, known := mcpReasonText["mcp.reason."+srv.Reason]; !known || srv.Reason == "failed" || srv.Error == "" {
		return "", false
	}
	args := map[string]string{"reason": srv.Reason}
	for k, v := range srv.ReasonArgs {
		args[k] = v
	}
	why := mcpWhy(args, lang)["error"]
	return why, why != mcpReasonText["mcp.reason.failed"][lang]
}

// printServer says a server, its state and its tools in language lang;
// its error and standard error are the server's or the system's own
// words, under a label.
func printServer(w io.Writer, srv api.MCPServer, lang int) {
	where := srv.Command
	if srv.URL != "" {
		where = srv.URL
	}
	state := string(srv.State)
	if words, ok := cliText["mcp.state."+state]; ok {
		state = words[lang]
	}
	// On a terminal the server's line and its error are wrapped to its
	// width (sayLine), where "no such file or dir" / "ectory" was cut.
	sayLine(w, "", "  ", fmt.Sprintf("%s (%s: %s): %s", srv.Name, srv.Transport, where, state))
	if why, ok := mcpReason(srv, lang); ok {
		sayLine(w, "  ", "    ", say("mcp.error", lang, "error", why))
		sayLine(w, "    ", "     ", "("+srv.Error+")")
	} else if srv.Error != "" {
		sayLine(w, "  ", "    ", say("mcp.error", lang, "error", srv.Error))
	}
	if srv.Stderr != "" {
		fmt.Fprintf(w, "  %s\n    %s\n", say("mcp.stderr", lang), strings.ReplaceAll(srv.Stderr, "\n", "\n    "))
	}
	for _, t := range srv.Tools {
		flags := ""
		if !t.Enabled {
			flags += " [" + say("mcp.toolOff", lang) + "]"
		}
		if t.ReadOnly {
			flags += " [" + say("mcp.readOnly", lang) + "]"
		}
		fmt.Fprintf(w, "  %s%s  %s\n", t.FullName, flags, firstLine(t.Description, 80))
	}
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// revokeServerGrants takes back the "always" grants of a removed server's
// tools, as removing it in Settings does, so none stay listed for a
// program that is gone. While a Wayfinder has the data folder open the
// store is its to change: the grants then stay (they can no longer apply:
// a grant holds only for the program it was given to), and the person is
// told to close it and remove the server again, which revokeLeftGrants
// then does.
func revokeServerGrants(ctx context.Context, dir, name string, s stdio, lang int, logger *slog.Logger) error {
	n, err := revokeGrants(ctx, dir, name, logger)
	if errors.Is(err, errDataDirBusy) {
		sayLine(s.err, "", "  ", say("mcp.grantsStay", lang, "name", name))
		return nil
	}
	if err != nil {
		return err
	}
	if n > 0 {
		sayLine(s.out, "", "  ", say("mcp.tookBack", lang, "grants", counted(n, lang, "grant")))
	}
	return nil
}

// revokeLeftGrants takes back the grants a server removed while Wayfinder
// was open left behind (revokeServerGrants), when the person runs
// `wayfinder mcp remove` again for a name mcp.json no longer has. It
// reports how many it took back; none when the folder is still open, or
// has no database yet (none is made for a mistyped name).
func revokeLeftGrants(ctx context.Context, dir, name string, logger *slog.Logger) (int, error) {
	if _, err := os.Stat(filepath.Join(dir, store.FileName)); err != nil {
		return 0, err
	}
	return revokeGrants(ctx, dir, name, logger)
}

// revokeGrants takes back the grants of server name's tools with the data
// folder locked, as the store is only the command line's to change while
// no Wayfinder has it open (errDataDirBusy otherwise).
func revokeGrants(ctx context.Context, dir, name string, logger *slog.Logger) (int, error) {
	lock, err := lockDataDir(dir)
	if err != nil {
		return 0, err
	}
	defer lock.Unlock()
	st, err := store.Open(ctx, dir, logger)
	if err != nil {
		return 0, fmt.Errorf("open the data folder %s: %w", dir, err)
	}
	defer st.Close()
	n, err := st.RevokeServer(ctx, name)
	if err != nil {
		return 0, fmt.Errorf("%s was removed, but the grants of its tools were not taken back (run `wayfinder mcp remove %s` again): %w", name, name, err)
	}
	return n, nil
}
