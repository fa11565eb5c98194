package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// newManager writes servers into a fresh data folder's mcp.json and opens
// a manager on it that stops them when the test ends.
func newManager(t *testing.T, servers map[string]Server, opts Options) *Manager {
	t.Helper()
	dir := t.TempDir()
	if err := Save(dir, Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
	m := New(dir, opts)
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// registry is what the agent would make of the manager's tools.
func registry(t *testing.T, m *Manager) *tools.Registry {
	t.Helper()
	reg, err := tools.NewRegistry(nil, m.Tools(context.Background(), nil)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func run(reg *tools.Registry, name string, args map[string]any) tools.Outcome {
	return reg.Run(context.Background(), tools.Call{Name: name, Args: args})
}

func status(t *testing.T, m *Manager, name string) api.MCPServer {
	t.Helper()
	for _, s := range m.Status(context.Background(), false) {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("server %s not in the status", name)
	return api.MCPServer{}
}

func TestParseConfig(t *testing.T) {
	// A block as Claude Desktop's documentation gives it, plus keys of
	// other apps, parses as it is.
	pasted := `{"mcpServers": {
	  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"A": "1"}, "autoApprove": []},
	  "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}, "disabled": true}
	}}`
	c, err := Parse([]byte(pasted), "pasted")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Names(); len(got) != 2 || got[0] != "filesystem" || c.Servers["remote"].Transport() != "http" || !c.Servers["remote"].Disabled {
		t.Fatalf("parsed %+v", c)
	}
	for _, tc := range []struct{ name, json, want string }{
		{"not json", `{"mcpServers": [`, "not valid JSON"},
		{"neither", `{"mcpServers": {"a": {}}}`, "needs a command or a url"},
		{"both", `{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, "keep one"},
		{"bad url", `{"mcpServers": {"a": {"url": "file:///etc/passwd"}}}`, "http:// or https://"},
		{"bad name", `{"mcpServers": {"a b": {"command": "x"}}}`, "server name"},
		{"negative timeout", `{"mcpServers": {"a": {"command": "x", "timeoutSeconds": -1}}}`, "negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.json), "mcp.json")
			if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// Origin names the program: another command, argument or URL is another
// origin (its grants do not carry over); a new key in env or headers, or
// a switch, is the same server.
func TestOrigin(t *testing.T) {
	base := Server{Command: "npx", Args: []string{"-y", "server-a"}}
	same := []Server{
		{Command: "npx", Args: []string{"-y", "server-a"}, Env: map[string]string{"KEY": "new"}},
		{Command: "npx", Args: []string{"-y", "server-a"}, Disabled: true, DisabledTools: []string{"x"}, AutoApproveReadOnly: true, TimeoutSeconds: 9},
	}
	other := []Server{
		{Command: "npx", Args: []string{"-y", "server-b"}},
		{Command: "node", Args: []string{"-y", "server-a"}},
		{Command: "npx", Args: []string{"-y", "server", "-a"}},
		{Command: "npx", Args: []string{"-yserver-a"}},
		{URL: "http://127.0.0.1:9/mcp"},
	}
	for _, s := range same {
		if s.Origin() != base.Origin() {
			t.Errorf("%+v: origin changed", s)
		}
	}
	seen := map[string]bool{base.Origin(): true}
	for _, s := range other {
		if seen[s.Origin()] {
			t.Errorf("%+v: the origin of another program", s)
		}
		seen[s.Origin()] = true
	}
	h := Server{URL: "http://127.0.0.1:9/mcp", Headers: map[string]string{"Authorization": "Bearer x"}}
	if h.Origin() != (Server{URL: "http://127.0.0.1:9/mcp"}).Origin() {
		t.Error("a header changed the origin")
	}
}

func TestSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	if c, err := Load(dir); err != nil || len(c.Servers) != 0 {
		t.Fatalf("missing file: %+v %v", c, err)
	}
	want := Config{Servers: map[string]Server{"a": {Command: "x", Env: map[string]string{"KEY": "secret"}, DisabledTools: []string{"t"}}}}
	if err := Save(dir, want); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("mcp.json has mode %v, want 0600 (it may hold keys)", mode)
	}
	got, err := Load(dir)
	if err != nil || got.Servers["a"].Env["KEY"] != "secret" || got.Servers["a"].ToolEnabled("t") {
		t.Fatalf("loaded %+v %v", got, err)
	}
	if err := Save(dir, Config{Servers: map[string]Server{"a": {}}}); err == nil {
		t.Fatal("saved an entry without command or url")
	}
	// A broken file is reported, and the manager runs no server.
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := New(dir, Options{})
	defer m.Close()
	if m.Err() == nil || len(m.Tools(context.Background(), nil)) != 0 {
		t.Fatal("a broken mcp.json was not reported")
	}
	if err := m.Update(func(*Config) error { return nil }); err == nil {
		t.Fatal("Update overwrote a broken mcp.json")
	}
}

func TestStdioServer(t *testing.T) {
	m := newManager(t, map[string]Server{"h": helper("good")}, Options{})
	if st := status(t, m, "h"); st.State != api.MCPIdle {
		t.Fatalf("state before use %q, want idle (servers start lazily)", st.State)
	}
	reg := registry(t, m)
	echo, ok := reg.Lookup("h__echo")
	if !ok {
		t.Fatalf("tools %v, want h__echo", reg.Names())
	}
	if echo.Server != "h" || echo.Origin != helper("good").Origin() || echo.Origin == "" {
		t.Errorf("server %q origin %q: grants would not be kept with the server's program", echo.Server, echo.Origin)
	}
	if n := utf8.RuneCountInString(echo.Description); n > MaxDescription || !strings.HasPrefix(echo.Description, "[MCP server h]") {
		t.Errorf("description (%d characters) %q", n, echo.Description)
	}
	if o := run(reg, "h__echo", map[string]any{"text": "안녕"}); o.Err != nil || o.Result.Text != "echo: 안녕" {
		t.Fatalf("echo: %q %v", o.Result.Text, o.Err)
	}
	st := status(t, m, "h")
	if st.State != api.MCPReady || len(st.Tools) != 8 || st.Transport != "stdio" {
		t.Fatalf("status %+v", st)
	}
	for _, tl := range st.Tools {
		if tl.ReadOnly != (tl.Name == "peek") {
			t.Errorf("tool %s read-only %v", tl.Name, tl.ReadOnly)
		}
	}
	// The schema the model sees is the server's.
	sc := echo.Schema()
	if p, ok := sc.Function.Parameters.Properties.Get("text"); !ok || p.Description != "what to say back" {
		t.Errorf("schema %v", sc.Function.Parameters)
	}
}

func TestResults(t *testing.T) {
	m := newManager(t, map[string]Server{"h": helper("good")}, Options{})
	reg := registry(t, m)
	t.Run("error is an observation", func(t *testing.T) {
		o := run(reg, "h__fail", nil)
		if o.Err == nil || !strings.Contains(o.Result.Text, "disk is full") || !strings.HasPrefix(o.Result.Text, "Error:") {
			t.Fatalf("%q %v", o.Result.Text, o.Err)
		}
	})
	t.Run("huge output is cut with a note", func(t *testing.T) {
		o := run(reg, "h__huge", map[string]any{"n": 1_000_000})
		if o.Err != nil || !strings.Contains(o.Result.Text, "cut") || utf8.RuneCountInString(o.Result.Text) > tools.DefaultMaxObservation+200 {
			t.Fatalf("%d characters, err %v", len(o.Result.Text), o.Err)
		}
	})
	t.Run("image is an attachment", func(t *testing.T) {
		o := run(reg, "h__image", nil)
		if o.Err != nil || !strings.Contains(o.Result.Text, "a dot:") || !strings.Contains(o.Result.Text, "image image/png") {
			t.Fatalf("%q %v", o.Result.Text, o.Err)
		}
		files, _ := filepath.Glob(filepath.Join(m.dir, AttachmentsDir, "*", "*.png"))
		if len(files) != 1 {
			t.Fatalf("attachments %v", files)
		}
		if b, _ := os.ReadFile(files[0]); string(b) != "\x89PNG\r\n\x1a\nfake" || !strings.Contains(o.Result.Text, files[0]) {
			t.Fatalf("attachment %q, observation %q", b, o.Result.Text)
		}
	})
	t.Run("structured content", func(t *testing.T) {
		if o := run(reg, "h__structured", nil); o.Err != nil || o.Result.Text != `{"temp":21}` {
			t.Fatalf("%q %v", o.Result.Text, o.Err)
		}
	})
	t.Run("missing required argument", func(t *testing.T) {
		tl, _ := reg.Lookup("h__echo")
		tl.InputSchema.Required = []string{"text"}
		if o := run(reg, "h__echo", nil); !errors.Is(o.Err, tools.ErrInvalidArgs) {
			t.Fatalf("%q %v", o.Result.Text, o.Err)
		}
	})
}

func TestHungServer(t *testing.T) {
	s := helper("good")
	s.TimeoutSeconds = 1
	m := newManager(t, map[string]Server{"h": s}, Options{})
	reg := registry(t, m)
	start := time.Now()
	o := run(reg, "h__hang", nil)
	if !errors.Is(o.Err, tools.ErrTimeout) {
		t.Fatalf("hang: %q %v", o.Result.Text, o.Err)
	}
	// Stop: the turn's context ends the call, whatever the time limit.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	o = reg.Run(ctx, tools.Call{Name: "h__hang"})
	if !errors.Is(o.Err, context.Canceled) {
		t.Fatalf("stopped hang: %v", o.Err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("took %s", d)
	}
	// The server still answers other calls.
	if o := run(reg, "h__echo", map[string]any{"text": "still here"}); o.Err != nil {
		t.Fatal(o.Err)
	}
}

func TestCrashAndRestart(t *testing.T) {
	var pause time.Duration // no pause: the next use restarts at once
	m := newManager(t, map[string]Server{"h": helper("good")}, Options{Backoff: func(int) time.Duration { return pause }})
	reg := registry(t, m)
	o := run(reg, "h__crash", nil)
	if o.Err == nil {
		t.Fatalf("crash: %q", o.Result.Text)
	}
	waitFor(t, func() bool {
		st := status(t, m, "h")
		return st.State == api.MCPFailed && strings.Contains(st.Stderr, "panic: crash requested")
	})
	if o := run(reg, "h__echo", map[string]any{"text": "back"}); o.Err != nil || o.Result.Text != "echo: back" {
		t.Fatalf("after restart: %q %v", o.Result.Text, o.Err)
	}
	if st := status(t, m, "h"); st.State != api.MCPReady || st.Error != "" {
		t.Fatalf("status after the restart %+v", st)
	}
	// With a pause, a crashed server is not hammered: the call says when
	// it is tried again.
	pause = time.Hour
	run(reg, "h__crash", nil)
	waitFor(t, func() bool { return status(t, m, "h").State == api.MCPFailed })
	o = run(reg, "h__echo", map[string]any{"text": "x"})
	if !strings.Contains(o.Result.Text, "tries again in") || status(t, m, "h").RetryIn < 3000 {
		t.Fatalf("during the pause: %q %+v", o.Result.Text, status(t, m, "h"))
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("condition not met in 10s")
}

func TestStartFailure(t *testing.T) {
	m := newManager(t, map[string]Server{"broken": helper("startfail"), "missing": {Command: "/nonexistent/mcp-server"}}, Options{})
	if ts := m.Tools(context.Background(), nil); len(ts) != 0 {
		t.Fatalf("tools of servers that failed: %v", ts)
	}
	st := m.Status(context.Background(), true)
	if st[0].Name != "broken" || st[0].State != api.MCPFailed || !strings.Contains(st[0].Stderr, "permission denied") || st[0].RetryIn == 0 {
		t.Fatalf("broken: %+v", st[0])
	}
	if st[1].State != api.MCPFailed || !strings.Contains(st[1].Error, "/nonexistent/mcp-server") {
		t.Fatalf("missing: %+v", st[1])
	}
	if _, err := m.Call(context.Background(), "broken", "x", nil); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("call during the pause: %v", err)
	}
}

func TestMisbehavingServers(t *testing.T) {
	m := newManager(t, map[string]Server{"raw": helper("malformed"), "flood": helper("flood")}, Options{MaxMessage: 1 << 20})
	reg := registry(t, m)
	if _, ok := reg.Lookup("raw__odd_name_with_spaces"); !ok {
		t.Fatalf("tools %v: a tool with an odd name and a bad schema is still offered, renamed", reg.Names())
	}
	o := run(reg, "raw__bad", nil)
	if o.Err == nil || !strings.HasPrefix(o.Result.Text, "Error:") {
		t.Fatalf("malformed result: %q %v", o.Result.Text, o.Err)
	}
	o = run(reg, "flood__bad", nil)
	if o.Err == nil || !strings.Contains(o.Result.Text, "restarted when next needed") {
		t.Fatalf("10 MiB message: %q %v", o.Result.Text, o.Err)
	}
}

func TestStreamableHTTP(t *testing.T) {
	ts := newHTTPServer(t)
	m := newManager(t, map[string]Server{"web": {URL: ts.URL, Headers: map[string]string{"X-Key": "k"}}}, Options{MaxMessage: 256 << 10})
	reg := registry(t, m)
	if o := run(reg, "web__echo", map[string]any{"text": "over http"}); o.Err != nil || o.Result.Text != "echo: over http" {
		t.Fatalf("%q %v", o.Result.Text, o.Err)
	}
	if st := status(t, m, "web"); st.State != api.MCPReady || st.Transport != "http" {
		t.Fatalf("status %+v", st)
	}
	// A response larger than the message budget fails the call.
	if o := run(reg, "web__huge", map[string]any{"n": 1 << 20}); o.Err == nil {
		t.Fatalf("1 MiB answer passed a 256 KiB budget: %d characters", len(o.Result.Text))
	}
	// A server that went away fails the call as an observation.
	ts.Close()
	if o := run(reg, "web__echo", map[string]any{"text": "gone"}); o.Err == nil || !strings.HasPrefix(o.Result.Text, "Error:") {
		t.Fatalf("after the server stopped: %q %v", o.Result.Text, o.Err)
	}
}

func TestSwitches(t *testing.T) {
	m := newManager(t, map[string]Server{"h": helper("good"), "off": {Command: "/nonexistent", Disabled: true}}, Options{})
	if err := m.Update(func(c *Config) error {
		s := c.Servers["h"]
		s.DisabledTools = []string{"crash"}
		c.Servers["h"] = s
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	reg := registry(t, m)
	if _, ok := reg.Lookup("h__crash"); ok {
		t.Fatal("a switched-off tool is offered")
	}
	if _, ok := reg.Lookup("h__echo"); !ok {
		t.Fatal("the other tools are gone")
	}
	if st := status(t, m, "off"); st.State != api.MCPOff || st.Enabled {
		t.Fatalf("off: %+v", st)
	}
	if err := m.Update(func(c *Config) error { delete(c.Servers, "h"); return nil }); err != nil {
		t.Fatal(err)
	}
	if ts := m.Tools(context.Background(), nil); len(ts) != 0 {
		t.Fatalf("tools of a removed server: %v", ts)
	}
	if _, err := m.Call(context.Background(), "h", "echo", nil); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("call to a removed server: %v", err)
	}
}

func TestDescriptionBudget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 12, "one two…"},
		{"  spaces \n\n everywhere ", 40, "spaces everywhere"},
		{"한국어 설명이 길어요", 6, "한국어…"},
	} {
		if got := trim(tc.in, tc.n); got != tc.want {
			t.Errorf("trim(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	if n := FullName(strings.Repeat("s", 32), strings.Repeat("t", 60)); len(n) > 64 {
		t.Errorf("name of %d characters", len(n))
	}
	if FullName("s", strings.Repeat("t", 70)+"a") == FullName("s", strings.Repeat("t", 70)+"b") {
		t.Error("long names collide")
	}
}

// Tools tells who asks which servers it starts and how each start ended,
// so the first turn's wait is explained; a running server or one in its
// restart pause starts nothing and says nothing.
func TestToolsSaysWhichServersStart(t *testing.T) {
	m := newManager(t, map[string]Server{"h": helper("good"), "broken": helper("startfail")}, Options{})
	var mu sync.Mutex
	var said []string
	starting := func(server string) func(error) {
		mu.Lock()
		said = append(said, "starting "+server)
		mu.Unlock()
		return func(err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				said = append(said, "failed "+server)
			} else {
				said = append(said, "started "+server)
			}
		}
	}
	if ts := m.Tools(context.Background(), starting); len(ts) == 0 {
		t.Fatal("no tools")
	}
	slices.Sort(said)
	if want := []string{"failed broken", "started h", "starting broken", "starting h"}; !slices.Equal(said, want) {
		t.Fatalf("said %q, want %q", said, want)
	}
	said = nil
	m.Tools(context.Background(), starting)
	if len(said) != 0 {
		t.Fatalf("a running server and one in its pause said %q", said)
	}
}
