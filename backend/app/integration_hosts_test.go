//go:build integration

package app

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// realOllamaPair is the two real servers `make test-ollama` starts on two
// loopback ports.
func realOllamaPair(t *testing.T) (string, string) {
	t.Helper()
	a, b := os.Getenv("WAYFINDER_REAL_OLLAMA"), os.Getenv("WAYFINDER_REAL_OLLAMA_2")
	if a == "" || b == "" {
		t.Fatal("WAYFINDER_REAL_OLLAMA and WAYFINDER_REAL_OLLAMA_2 are not set: run `make test-ollama`")
	}
	return a, b
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// Two real `ollama serve` processes share the calls: a call in flight on
// one sends the next to the other, a conversation goes back to its host,
// and a third address that is down is skipped without an error.
func TestIntegrationSeveralHosts(t *testing.T) {
	a, b := realOllamaPair(t)
	down := closedPort(t)
	c, err := llm.New(a+","+b+","+down, llm.WithNumCtx(2048), llm.WithRetry(1, 10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ask := func(ctx context.Context, conv, text string, opts map[string]any) (llm.Response, error) {
		return c.Chat(ctx, llm.ChatRequest{Model: "tiny", Messages: []ollama.Message{{Role: "user", Content: text}}, Conversation: conv, Options: opts}, nil)
	}

	first, err := ask(ctx, "c1", "hello", nil)
	if err != nil || first.Message.Content != "Hello from the tiny test model." || first.Host != a {
		t.Fatalf("first call: %v, %q on %s", err, first.Message.Content, first.Host)
	}
	// A long call of c1 holds a; the next call goes to b.
	lctx, stop := context.WithCancel(ctx)
	long := make(chan error, 1)
	go func() {
		_, err := ask(lctx, "c1", "__loop__", map[string]any{"num_predict": 100000})
		long <- err
	}()
	waitInFlight(t, c, a)
	second, err := ask(ctx, "c2", "hello", nil)
	if err != nil || second.Host != b {
		t.Fatalf("with %s busy: %v, answered by %s", a, err, second.Host)
	}
	stop()
	if err := <-long; !errors.Is(err, context.Canceled) {
		t.Fatalf("long call: %v", err)
	}
	// Idle again: each conversation goes back to the host that holds it.
	for conv, want := range map[string]string{"c1": a, "c2": b} {
		r, err := ask(ctx, conv, "hello", nil)
		if err != nil || r.Host != want {
			t.Fatalf("%s: %v, answered by %s, want %s", conv, err, r.Host, want)
		}
	}
	// Embeddings go through the pool too.
	if vecs, err := c.Embed(ctx, "tiny", []string{"하나", "two"}); err != nil || len(vecs) != 2 {
		t.Fatalf("embed: %v", err)
	}
	states, _ := c.HostStates(ctx)
	if len(states) != 3 || !states[0].Up || !states[1].Up || states[2].Up || states[2].Error == "" {
		t.Fatalf("states: %+v", states)
	}
	for _, s := range states[:2] {
		if !strings.Contains(strings.Join(s.Models, " "), "tiny:latest") {
			t.Errorf("%s lists %v", s.URL, s.Models)
		}
	}
}

// waitInFlight waits until the client has a call in flight on host.
func waitInFlight(t *testing.T, c *llm.Client, host string) {
	t.Helper()
	for range 200 {
		states, _ := c.HostStates(context.Background())
		for _, s := range states {
			if s.URL == host && s.InFlight > 0 {
				return
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("no call in flight on %s", host)
}

// The command line with two real hosts: ask answers, doctor shows both.
func TestIntegrationSeveralHostsCommandLine(t *testing.T) {
	a, b := realOllamaPair(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", a + "," + b, "--model", "tiny", "--embed-model", "tiny"}
	code, out, errOut := wayfinder(t, append(base, "ask", "hello")...)
	if code != 0 || !strings.Contains(out, "Hello from the tiny test model.") {
		t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = wayfinder(t, append(base, "doctor")...)
	for _, want := range []string{"✓ Ollama host " + a + " is up (models: tiny:latest)", "✓ Ollama host " + b + " is up (models: tiny:latest)", "chat model tiny is ready"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q: %d\n%s\n%s", want, code, out, errOut)
		}
	}
}
