//go:build unix

package security

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestServeIsNotStarved (issue 22.4): serve runs under an open-file limit
// of 1,024 (soft and hard, as `ulimit -n 1024`). Another local program
// opens 1,100 connections without the token and leaves them idle; the
// person's page still gets an answer within 2 s, and then 200 concurrent
// requests with the token all succeed while the idle connections are still
// being held. Before the fix every request with the token timed out until
// the idle connections were closed.
//
// The 2 s is the acceptance criterion, measured once and generous
// for a busy machine (an answer normally takes milliseconds).
func TestServeIsNotStarved(t *testing.T) {
	const limit, idle = 1024, 1100
	fake := ollamatest.New(t)
	srv := startServe(t, serveOptions{ollama: fake.URL(), launch: withFileLimit(limit)})
	if runtime.GOOS == "linux" {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", srv.pid))
		if err != nil || !strings.Contains(string(b), fmt.Sprintf("Max open files            %d                 %d", limit, limit)) {
			t.Fatalf("serve does not run under the limit: %v\n%s", err, b)
		}
	}

	// The attacker: 1,100 connections that send nothing, held open; a
	// connection the server closes is not reopened.
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	var dialErrs atomic.Int32
	var wg sync.WaitGroup
	for i := range idle {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.DialTimeout("tcp", srv.addr, 5*time.Second)
			if err != nil {
				if dialErrs.Add(1) == 1 {
					t.Logf("dial %d: %v", i, err)
				}
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n := dialErrs.Load(); n > idle/10 {
		t.Fatalf("%d of %d idle connections could not even connect; raise this test's own open-file limit", n, idle)
	}

	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 256}, Timeout: 30 * time.Second}
	call := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+srv.addr+"/api/SettingsService/Info", strings.NewReader("[]"))
		req.Header.Set("Authorization", "Bearer "+srv.token)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"mode":"serve"`) {
			return fmt.Errorf("status %d: %s", resp.StatusCode, body)
		}
		return nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	start := time.Now()
	err := call(ctx)
	cancel()
	if err != nil {
		t.Fatalf("with %d idle connections open, a request with the token failed after %v: %v", idle, time.Since(start).Round(time.Millisecond), err)
	}
	t.Logf("answered in %v with %d idle connections opened", time.Since(start).Round(time.Millisecond), idle)

	errs := make(chan error, 200)
	for range 200 {
		go func() { errs <- call(context.Background()) }()
	}
	var failed []error
	for range 200 {
		if err := <-errs; err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		t.Fatalf("%d of 200 concurrent requests with the token failed; first: %v", len(failed), errors.Join(failed[:1]...))
	}
}

// TestRefusedConnectionsDoNotStay (issue 22.4): 1,000 requests without the
// token each get their 401 and then their connection closed by serve,
// instead of 1,000 idle connections left open.
func TestRefusedConnectionsDoNotStay(t *testing.T) {
	fake := ollamatest.New(t)
	srv := startServe(t, serveOptions{ollama: fake.URL()})
	const n = 1000
	var open atomic.Int32
	var wg sync.WaitGroup
	sem := make(chan struct{}, 100)
	for range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := net.DialTimeout("tcp", srv.addr, 5*time.Second)
			if err != nil {
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/ChatService/ListSessions HTTP/1.1\r\nHost: %s\r\nContent-Length: 2\r\n\r\n[]", srv.addr)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			b, err := io.ReadAll(c) // ends only when serve hangs up
			if err != nil || !strings.Contains(string(b), "401") || !strings.Contains(string(b), string(api.ErrUnauthorized)) {
				open.Add(1)
			}
		}()
	}
	wg.Wait()
	if k := open.Load(); k > 0 {
		t.Fatalf("%d of %d refused connections were not answered 401 and closed within 10 s", k, n)
	}
}
