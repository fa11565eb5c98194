package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/version"
)

// Defaults of Options, documented in the README ("MCP servers").
const (
	// DefaultStartTimeout bounds starting a server and listing its tools
	// (npx may download the server the first time).
	DefaultStartTimeout = 30 * time.Second
	// DefaultCallTimeout bounds one tool call unless the server's entry
	// sets timeoutSeconds.
	DefaultCallTimeout = 60 * time.Second
	// DefaultMaxMessage bounds one message from a server: a larger one ends
	// the connection (the call fails with a note; the server is restarted
	// when next needed) instead of filling memory.
	DefaultMaxMessage = 4 << 20
	// stderrTail is how much of a server's standard error is kept.
	stderrTail = 4 << 10
)

// Options tune a Manager; zero values take the defaults.
type Options struct {
	StartTimeout time.Duration
	CallTimeout  time.Duration
	MaxMessage   int
	// Backoff is the pause before the n-th restart after a failure (n >=
	// 1); default 1s, 2s, 4s ... up to a minute.
	Backoff func(n int) time.Duration
	Logger  *slog.Logger
	Now     func() time.Time
}

func (o *Options) defaults() {
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxMessage
	}
	if o.Backoff == nil {
		o.Backoff = func(n int) time.Duration {
			return min(time.Second<<min(n-1, 6), time.Minute)
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Manager owns the MCP servers of one data folder. It is safe for
// concurrent use; nothing starts until a server's tools are first needed.
type Manager struct {
	dir  string
	opts Options

	mu      sync.Mutex
	cfg     Config
	cfgErr  error
	servers map[string]*server
	closed  bool
	// seen is the file's state when last read, so that an edit by hand or
	// by `wayfinder mcp` while the app runs is picked up on the next use.
	seen fileState
}

type fileState struct {
	mod  time.Time
	size int64
}

func (m *Manager) fileState() fileState {
	fi, err := os.Stat(filepath.Join(m.dir, FileName))
	if err != nil {
		return fileState{size: -1}
	}
	return fileState{fi.ModTime(), fi.Size()}
}

// New reads dir/mcp.json. Mistakes in it are not fatal: the servers whose
// entries are right run, and Err says what is wrong with the others
// (Settings, `wayfinder mcp list` and doctor show each mistake).
func New(dir string, opts Options) *Manager {
	opts.defaults()
	m := &Manager{dir: dir, opts: opts, servers: map[string]*server{}}
	m.seen = m.fileState()
	m.cfg, m.cfgErr = Load(dir)
	return m
}

// Err is what is wrong with mcp.json, if anything (a *FileError when the
// file was read).
func (m *Manager) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cfgErr
}

// Config returns the configuration in effect, read again first when the
// file changed.
func (m *Manager) Config() Config {
	now := m.fileState()
	m.mu.Lock()
	changed := now != m.seen
	m.mu.Unlock()
	if changed {
		if err := m.Reload(); err != nil {
			m.opts.Logger.Warn("read mcp.json again", "err", err)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cfg
}

// Update changes the configuration (fn edits a copy), saves it and
// restarts the servers whose entry changed. Entries with mistakes stay in
// the file as the person wrote them (fn may remove one: Config.Remove),
// so servers can be added, removed and switched while some are being
// fixed; only a file that could not be read at all (not JSON, say) is
// refused, since writing it would lose what is in it.
func (m *Manager) Update(fn func(*Config) error) error {
	// An edit by hand since the file was last read is kept, not written
	// over with the configuration read before it.
	m.mu.Lock()
	changed := m.fileState() != m.seen
	m.mu.Unlock()
	if changed {
		_ = m.Reload() // its error is m.cfgErr, judged below
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if fe := (*FileError)(nil); m.cfgErr != nil && (!errors.As(m.cfgErr, &fe) || fe.Whole) {
		return fmt.Errorf("mcp.json must be fixed first: %w", m.cfgErr)
	}
	next := m.cfg.clone()
	if err := fn(&next); err != nil {
		return err
	}
	if err := Save(m.dir, next); err != nil {
		return err
	}
	// Read back what was written: the kept entries' problems now point
	// at their new lines, and a removed one's are gone.
	m.seen = m.fileState()
	saved, err := Load(m.dir)
	if fe := (*FileError)(nil); err != nil && (!errors.As(err, &fe) || fe.Whole) {
		return fmt.Errorf("read %s after saving it: %w", FileName, err)
	}
	for n, s := range m.servers {
		if nc, ok := saved.Servers[n]; !ok || !sameProcess(nc, s.cfg()) {
			s.stop()
			delete(m.servers, n)
		} else {
			s.setConfig(nc)
		}
	}
	m.cfg, m.cfgErr = saved, err
	return nil
}

// Reload reads mcp.json again (after a person edited it by hand).
func (m *Manager) Reload() error {
	seen := m.fileState()
	c, err := Load(m.dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen = seen
	m.cfgErr = err
	var fe *FileError
	if err != nil && (!errors.As(err, &fe) || fe.Whole) {
		// Nothing could be read: the servers that run keep running
		// until the file is fixed.
		return err
	}
	for n, s := range m.servers {
		if nc, ok := c.Servers[n]; !ok || !sameProcess(nc, s.cfg()) {
			s.stop()
			delete(m.servers, n)
		} else {
			s.setConfig(nc)
		}
	}
	m.cfg = c
	return err
}

// sameProcess reports whether a changed entry can keep the running
// server: only the switches changed, not how it is started.
func sameProcess(a, b Server) bool {
	return a.Command == b.Command && slices.Equal(a.Args, b.Args) && equalMaps(a.Env, b.Env) &&
		a.URL == b.URL && equalMaps(a.Headers, b.Headers) && a.Disabled == b.Disabled
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Close stops every server.
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	for _, s := range m.servers {
		s.stop()
	}
	m.servers = map[string]*server{}
}

// server returns the live record of an enabled server, nil for a
// disabled or unknown one.
func (m *Manager) server(name string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.cfg.Servers[name]
	if !ok || c.Disabled || m.closed {
		return nil
	}
	s := m.servers[name]
	if s == nil {
		s = &server{name: name, conf: c, m: m, sem: make(chan struct{}, 1)}
		m.servers[name] = s
	}
	return s
}

// Status lists every configured server with its state and tools. With
// start, enabled servers that are not running are started first (what
// `wayfinder mcp list` and doctor do), all at once, each within the start
// time limit.
func (m *Manager) Status(ctx context.Context, start bool) []api.MCPServer {
	cfg := m.Config()
	if start {
		var wg sync.WaitGroup
		for _, n := range cfg.Names() {
			if s := m.server(n); s != nil {
				wg.Go(func() { _, _ = s.session(ctx, nil) })
			}
		}
		wg.Wait()
	}
	out := make([]api.MCPServer, 0, len(cfg.Servers))
	for _, n := range cfg.Names() {
		c := cfg.Servers[n]
		st := api.MCPServer{Name: n, Transport: c.Transport(), URL: c.URL, Enabled: !c.Disabled,
			AutoApproveReadOnly: c.AutoApproveReadOnly, State: api.MCPOff, Tools: []api.MCPTool{}}
		if c.Command != "" {
			st.Command = strings.Join(append([]string{c.Command}, c.Args...), " ")
		}
		if s := m.server(n); s != nil {
			s.describe(&st)
		}
		out = append(out, st)
	}
	out = append(out, m.invalid()...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Invalid lists the entries of mcp.json left out for their mistakes, as
// Status does, the file read again first when it changed: a turn says
// that these servers were not started, and why (ReasonInvalid).
func (m *Manager) Invalid() []api.MCPServer {
	m.Config()
	return m.invalid()
}

// Failed lists the servers that failed to start and have no tools to
// offer until their next try (Backoff): Tools does not try them again
// before then, so a turn in that pause says that it goes on without them
// (the turn that saw them fail heard it from Tools' starting).
func (m *Manager) Failed() []api.MCPServer {
	var out []api.MCPServer
	for _, st := range m.Status(context.Background(), false) {
		if st.State == api.MCPFailed && len(st.Tools) == 0 {
			out = append(out, st)
		}
	}
	return out
}

// Unreadable says, when mcp.json could not be read at all (not JSON, not
// an object, too large), why — its one problem — and which servers of
// the configuration read before that edit are still in use until it is
// fixed (enabled ones, by name; none when the file was already so when
// the app started): a turn says so rather than go on as if there were no
// servers. ok is false while the file reads. The file is read again
// first when it changed.
func (m *Manager) Unreadable() (p api.MCPProblem, kept []string, ok bool) {
	cfg := m.Config()
	var fe *FileError
	if !errors.As(m.Err(), &fe) || !fe.Whole || len(fe.Problems) == 0 {
		return api.MCPProblem{}, nil, false
	}
	for _, n := range cfg.Names() {
		if !cfg.Servers[n].Disabled {
			kept = append(kept, n)
		}
	}
	first := fe.Problems[0]
	return api.MCPProblem{Code: first.Code, Args: maps.Clone(first.Args), Message: first.Text()}, kept, true
}

// invalid lists the entries of mcp.json left out for their mistakes, each
// with every mistake found in it, in the file's order.
func (m *Manager) invalid() []api.MCPServer {
	var fe *FileError
	if !errors.As(m.Err(), &fe) {
		return nil
	}
	var out []api.MCPServer
	at := map[string]int{}
	for _, p := range fe.Problems {
		if p.Server == "" && p.Code != "mcp_name" {
			continue
		}
		i, ok := at[p.Server]
		if !ok {
			i = len(out)
			at[p.Server] = i
			out = append(out, api.MCPServer{Name: p.Server, State: api.MCPInvalid, Tools: []api.MCPTool{}})
		}
		out[i].Problems = append(out[i].Problems, api.MCPProblem{Code: p.Code, Args: maps.Clone(p.Args), Message: p.Text()})
	}
	return out
}

// ErrNotRunning is a call to a server that is off, unknown or waiting to
// be restarted.
var ErrNotRunning = errors.New("MCP server is not running")

// server is one configured server and, while it runs, its session.
type server struct {
	name string
	m    *Manager
	sem  chan struct{} // held while starting, so one start runs at a time

	mu       sync.Mutex
	conf     Server
	sess     *sdk.ClientSession
	stopProc func()
	stderr   *tail
	tools    []*sdk.Tool // as last listed; kept while the server restarts
	listed   bool
	stale    bool // the server said its tools changed
	starting bool
	err      string
	reason   reasonOf // why, in parts, for the window
	lastRun  *tail    // stderr of the failed run, read when shown: the process may still be flushing it
	failures int
	retryAt  time.Time
	stopped  bool
}

func (s *server) cfg() Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conf
}

func (s *server) setConfig(c Server) {
	s.mu.Lock()
	s.conf = c
	s.mu.Unlock()
}

// session returns the running session, starting the server when it is
// not running and no restart pause is pending; starting (nil: nobody) is
// told when it starts the server, and the func it returns how the start
// (the handshake and the list of tools) ended.
func (s *server) session(ctx context.Context, starting func(string) func(error)) (*sdk.ClientSession, error) {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.sem }()
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", s.name, ErrNotRunning)
	}
	if s.sess != nil && !s.stale {
		cs := s.sess
		s.mu.Unlock()
		return cs, nil
	}
	if s.sess != nil && s.stale { // only the tool list needs reading again
		cs := s.sess
		s.mu.Unlock()
		if err := s.list(ctx, cs); err != nil {
			return nil, err
		}
		return cs, nil
	}
	if wait := s.retryAt.Sub(s.m.opts.Now()); wait > 0 {
		err := s.err
		s.mu.Unlock()
		return nil, fmt.Errorf("%s: %w (%s); Wayfinder tries again in %s", s.name, ErrNotRunning, err, wait.Round(time.Second))
	}
	s.starting = true
	conf := s.conf
	s.mu.Unlock()
	done := func(error) {}
	if starting != nil {
		if d := starting(s.name); d != nil {
			done = d
		}
	}
	cs, err := s.begin(ctx, conf)
	done(err)
	return cs, err
}

// begin starts the server and lists its tools; s.starting is set.
func (s *server) begin(ctx context.Context, conf Server) (*sdk.ClientSession, error) {
	cs, stop, tail, err := s.start(ctx, conf)
	s.mu.Lock()
	s.starting = false
	if err == nil && s.stopped { // removed while it started
		s.mu.Unlock()
		stop()
		return nil, fmt.Errorf("%s: %w", s.name, ErrNotRunning)
	}
	if err != nil {
		s.fail(err, tail)
		s.mu.Unlock()
		return nil, fmt.Errorf("start MCP server %s: %w", s.name, err)
	}
	s.sess, s.stopProc, s.stderr = cs, stop, tail
	s.mu.Unlock()
	go s.watch(cs)
	if err := s.list(ctx, cs); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.failures, s.err, s.reason, s.lastRun = 0, "", reasonOf{}, nil
	s.mu.Unlock()
	return cs, nil
}

// fail records a failed start or a crash; s.mu is held.
func (s *server) fail(err error, t *tail) {
	s.failures++
	s.err = err.Error()
	s.reason = reasonFor(err)
	s.lastRun = t
	s.retryAt = s.m.opts.Now().Add(s.m.opts.Backoff(s.failures))
	s.m.opts.Logger.Warn("MCP server failed", "server", s.name, "err", err, "stderr", t.String(), "failures", s.failures)
}

// list reads the server's tools.
func (s *server) list(ctx context.Context, cs *sdk.ClientSession) error {
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.StartTimeout)
	defer cancel()
	var ts []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			err = because(fmt.Errorf("list the tools of MCP server %s: %w", s.name, err), ReasonNoTools)
			s.mu.Lock()
			if s.sess == cs {
				s.fail(err, s.stderr)
				s.sess = nil
			}
			stop := s.stopProc
			s.mu.Unlock()
			if stop != nil {
				stop()
			}
			return err
		}
		if t != nil && t.Name != "" {
			ts = append(ts, t)
		}
	}
	s.mu.Lock()
	s.tools, s.listed, s.stale = ts, true, false
	s.mu.Unlock()
	return nil
}

// watch notices a server that ends on its own (a crash): the next use
// restarts it after the pause.
func (s *server) watch(cs *sdk.ClientSession) {
	err := cs.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != cs || s.stopped {
		return
	}
	if err == nil {
		err = errors.New("the server closed the connection")
	}
	s.sess = nil
	s.fail(because(fmt.Errorf("stopped: %w", err), ReasonStopped), s.stderr)
	if s.stopProc != nil {
		go s.stopProc()
	}
}

// broken ends a session whose connection failed during a call, so the next
// use starts the server again.
func (s *server) broken(cs *sdk.ClientSession, err error) {
	s.mu.Lock()
	if s.sess != cs {
		s.mu.Unlock()
		return
	}
	s.sess = nil
	s.fail(because(err, ReasonStopped), s.stderr)
	stop := s.stopProc
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// stop ends the server for good (removed, changed or the app closing).
func (s *server) stop() {
	s.mu.Lock()
	s.stopped = true
	stop := s.stopProc
	s.sess = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

func (s *server) describe(st *api.MCPServer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.starting:
		st.State = api.MCPStarting
	case s.sess != nil:
		st.State = api.MCPReady
	case s.err != "":
		st.State = api.MCPFailed
		st.Error = s.err
		st.Reason, st.ReasonArgs = s.reason.code, maps.Clone(s.reason.args)
		st.Stderr = s.lastRun.String()
		if wait := s.retryAt.Sub(s.m.opts.Now()); wait > 0 {
			st.RetryIn = int(wait.Round(time.Second) / time.Second)
		}
	default:
		st.State = api.MCPIdle
	}
	for _, t := range s.tools {
		st.Tools = append(st.Tools, api.MCPTool{Name: t.Name, FullName: FullName(s.name, t.Name),
			Description: t.Description, Enabled: s.conf.ToolEnabled(t.Name), ReadOnly: readOnly(t)})
	}
}

func readOnly(t *sdk.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

// client makes the SDK client of one server's session.
func (s *server) client() *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "wayfinder", Version: version.Current().Version}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			s.mu.Lock()
			s.stale = true
			s.mu.Unlock()
		},
	})
}

// tail keeps the last bytes written to it: a server's standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTail; over > 0 {
		t.buf = slices.Clone(t.buf[over:])
	}
	return len(p), nil
}

func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(t.buf), "?"))
}

// environ is the server's environment: Wayfinder's, with the entry's env
// on top.
func environ(extra map[string]string) []string {
	env := os.Environ()
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}
