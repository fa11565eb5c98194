// Package security checks issue 7's security promises (item 6) from the
// outside: Wayfinder talks to no host but the configured Ollama, read_file
// cannot be talked into leaving the person's folders, and `wayfinder serve`
// refuses other addresses, missing tokens and foreign pages.
// (Script in model output or documents is the browser tests' part.)
package security

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

var binary string

func TestMain(m *testing.M) {
	execWithFileLimit() // when asked to by startServe: a helper process, not tests
	world.RunWithBinary(m, &binary)
}

// onlyHost is a transport that refuses, and remembers, every request to a
// host other than the allowed one.
type onlyHost struct {
	allowed string
	base    http.RoundTripper

	mu      sync.Mutex
	foreign []string
}

func (o *onlyHost) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != o.allowed {
		o.mu.Lock()
		o.foreign = append(o.foreign, r.Method+" "+r.URL.String())
		o.mu.Unlock()
		return nil, fmt.Errorf("security test: request to %s refused", r.URL.Host)
	}
	return o.base.RoundTrip(r)
}

// TestOnlyOllamaIsContacted runs a simple turn with a tool call and the
// whole complex flow (search, tools, guide, reflection) with a transport
// that fails on any host but the fake Ollama's.
func TestOnlyOllamaIsContacted(t *testing.T) {
	fake := ollamatest.New(t)
	world.ScriptComplex(fake, world.Pace{})
	u, _ := url.Parse(fake.URL())
	tr := &onlyHost{allowed: u.Host, base: http.DefaultTransport.(*http.Transport).Clone()}
	b := world.New(t, fake.URL(), world.Config{DataDir: t.TempDir(), HTTPClient: &http.Client{Transport: tr}})
	ctx := context.Background()

	msg, err := b.Chat.Ask(ctx, "", "123*456은 얼마야?", nil)
	if err != nil || msg.Status != api.StatusComplete || msg.Result == nil || len(msg.Result.ToolsUsed) == 0 {
		t.Fatalf("simple turn with a tool: %v %+v", err, msg)
	}
	msg, err = b.Complex(ctx)
	if err != nil || msg.Status != api.StatusComplete || len(msg.Result.Recommendations) == 0 {
		t.Fatalf("complex turn: %v %+v", err, msg)
	}
	b.Agent.Wait()
	if fake.Count(ollamatest.PathChat) < 8 {
		t.Fatalf("only %d model calls: the turns did not run through the transport", fake.Count(ollamatest.PathChat))
	}
	if len(tr.foreign) > 0 {
		t.Fatalf("requests to other hosts: %v", tr.foreign)
	}
}

// TestBinaryContactsNoOtherHost runs the real binary for a complex turn
// with HTTP(S)_PROXY pointing at a recorder: Go sends every request for a
// non-loopback host through the proxy, so the recorder sees any traffic
// that would leave the machine (loopback traffic to the fake goes direct).
func TestBinaryContactsNoOtherHost(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.Host+r.URL.Path)
		mu.Unlock()
		http.Error(w, "no network in this test", http.StatusForbidden)
	}))
	defer proxy.Close()
	fake := ollamatest.New(t)
	world.ScriptComplex(fake, world.Pace{})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := commandContext(ctx, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", world.Model,
		"ask", "--approve", "--json", world.ComplexTask)
	cmd.Env = append(os.Environ(), "HTTP_PROXY="+proxy.URL, "HTTPS_PROXY="+proxy.URL, "NO_PROXY=", "http_proxy="+proxy.URL, "https_proxy="+proxy.URL, "no_proxy=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wayfinder ask: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"recommendations"`) {
		t.Fatalf("the complex turn did not finish:\n%s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) > 0 {
		t.Fatalf("the binary tried to reach other hosts: %v", seen)
	}
	// Router, planner, a review per sub-task (3), guide, reflection.
	if n := fake.Count(ollamatest.PathChat); n < 7 {
		t.Fatalf("only %d model calls reached the fake", n)
	}
}

// freePort returns a loopback port nobody listens on.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}
