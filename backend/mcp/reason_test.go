package mcp

import (
	"context"
	"errors"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A server that did not start says why in parts (a code and its
// particulars) beside its English error, so that the window can say it
// in Korean without the English: a missing program, one that cannot run,
// one that quit during the handshake, no answer in time, an address
// that is not an MCP server.
func TestStartFailureSaysWhy(t *testing.T) {
	notProgram := filepath.Join(t.TempDir(), "server.txt")
	if err := os.WriteFile(notProgram, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := httptest.NewServer(nil)
	gone.Close()
	silent := helper("silent")
	tests := []struct {
		server Server
		reason string
		args   map[string]string
	}{
		{Server{Command: "/nonexistent/mcp-server"}, ReasonCommandMissing, map[string]string{"command": "/nonexistent/mcp-server"}},
		{Server{Command: "wayfinder-no-such-mcp-server"}, ReasonCommandMissing, map[string]string{"command": "wayfinder-no-such-mcp-server"}},
		{Server{Command: notProgram}, ReasonCommandFailed, map[string]string{"command": notProgram}},
		{helper("startfail"), ReasonExited, map[string]string{"command": os.Args[0]}},
		{silent, ReasonTimeout, map[string]string{"seconds": "1"}},
		{Server{URL: gone.URL}, ReasonUnreachable, map[string]string{"url": gone.URL}},
	}
	for _, tt := range tests {
		t.Run(tt.reason+" "+tt.server.Command+tt.server.URL, func(t *testing.T) {
			m := newManager(t, map[string]Server{"s": tt.server}, Options{StartTimeout: time.Second})
			var mu sync.Mutex
			var got error
			m.Tools(context.Background(), func(string) func(error) {
				return func(err error) { mu.Lock(); got = err; mu.Unlock() }
			})
			mu.Lock()
			defer mu.Unlock()
			var r interface {
				Reason() (string, map[string]string)
			}
			if !errors.As(got, &r) {
				t.Fatalf("%v: no reason", got)
			}
			reason, args := r.Reason()
			if reason != tt.reason || !maps.Equal(args, tt.args) {
				t.Fatalf("%v: reason %q %v, want %q %v", got, reason, args, tt.reason, tt.args)
			}
			// Settings' list says it too, in the same parts.
			st := m.Status(context.Background(), false)
			if st[0].Reason != tt.reason || !maps.Equal(st[0].ReasonArgs, tt.args) || st[0].Error != got.Error()[len("start MCP server s: "):] {
				t.Fatalf("status %+v, want reason %q %v", st[0], tt.reason, tt.args)
			}
		})
	}
}

// A server that ran and then stopped on its own says so in the status,
// whether the crash is noticed by the session's end or by the call it
// broke.
func TestCrashSaysWhy(t *testing.T) {
	m := newManager(t, map[string]Server{"h": helper("good")}, Options{Backoff: func(int) time.Duration { return time.Hour }})
	reg := registry(t, m)
	run(reg, "h__crash", nil)
	waitFor(t, func() bool { return status(t, m, "h").State == api.MCPFailed })
	if st := status(t, m, "h"); st.Reason != ReasonStopped || st.Error == "" {
		t.Fatalf("crashed: %+v", st)
	}
	// Its tools are still offered (a call starts it again): a turn does
	// not go on without it.
	if f := m.Failed(); len(f) != 0 {
		t.Fatalf("a server with tools to offer is said failed: %+v", f)
	}
}

// A server that did not start is not tried again until its pause ends,
// so the turns in that pause hear of it from Failed, with why, and not
// from Tools' starting; a server that runs is not in it.
func TestFailedServerWaitsAndSaysWhy(t *testing.T) {
	m := newManager(t, map[string]Server{"gone": {Command: "/nonexistent/mcp-server"}, "h": helper("good")},
		Options{Backoff: func(int) time.Duration { return time.Hour }})
	var mu sync.Mutex
	var started []string
	starting := func(s string) func(error) {
		mu.Lock()
		defer mu.Unlock()
		started = append(started, s)
		return nil
	}
	m.Tools(context.Background(), starting)
	if len(started) != 2 {
		t.Fatalf("first turn started %v, want both", started)
	}
	for range 2 {
		started = nil
		if ts := m.Tools(context.Background(), starting); len(ts) == 0 {
			t.Fatal("the running server's tools are gone")
		}
		if len(started) != 0 {
			t.Fatalf("started %v during the pause", started)
		}
		f := m.Failed()
		if len(f) != 1 || f[0].Name != "gone" || f[0].Reason != ReasonCommandMissing || f[0].ReasonArgs["command"] != "/nonexistent/mcp-server" || f[0].Error == "" {
			t.Fatalf("failed: %+v", f)
		}
	}
}
