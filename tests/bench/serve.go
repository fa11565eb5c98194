package main

// Driving a build of Wayfinder from outside, the way the browser UI does:
// `wayfinder serve` on a random loopback port, its HTTP API
// (POST /api/<Service>/<Method>) and its event stream (SSE /api/events).
// Every build since the serve mode has this shape, so the same code drives
// this build and the baseline.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// event is one SSE event with the time it arrived.
type event struct {
	at   time.Time
	name string
	data json.RawMessage
}

// served is a running `wayfinder serve`.
type served struct {
	cmd    *exec.Cmd
	base   string
	token  string
	client *http.Client
	stop   context.CancelFunc

	mu     sync.Mutex
	events []event
	notify chan struct{}
}

var (
	servingRe = regexp.MustCompile(`running at (http://[^/\s]+)/\?token=(\S+)`)
	arityRe   = regexp.MustCompile(`takes (\d+) arguments, got \d+`)
)

// startServe runs bin serve on dataDir against the Ollama at host and
// connects to its events.
func startServe(ctx context.Context, bin, dataDir, host, model string, extra ...string) (*served, error) {
	ctx, cancel := context.WithCancel(ctx)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir,
		"--ollama-host", host, "--model", model, "--embed-model", "bge-m3"}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+host)
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	s := &served{cmd: cmd, client: &http.Client{}, stop: cancel, notify: make(chan struct{}, 1)}
	lines := bufio.NewScanner(out)
	found := make(chan bool, 1)
	go func() {
		ok := false
		for lines.Scan() {
			if m := servingRe.FindStringSubmatch(lines.Text()); m != nil && !ok {
				s.base, s.token, ok = m[1], m[2], true
				found <- true
			}
		}
		if !ok {
			found <- false
		}
	}()
	select {
	case ok := <-found:
		if !ok {
			s.close()
			return nil, fmt.Errorf("%s serve ended: %s", bin, strings.TrimSpace(stderr.String()))
		}
	case <-time.After(60 * time.Second):
		s.close()
		return nil, fmt.Errorf("%s serve printed no address in 60 s: %s", bin, stderr.String())
	}
	if err := s.listen(ctx); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *served) close() {
	s.stop()
	_ = s.cmd.Wait()
}

// listen reads the event stream into s.events until ctx ends.
func (s *served) listen(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/api/events?token="+s.token, nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return fmt.Errorf("events: %s", resp.Status)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var name string
		var data strings.Builder
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data.WriteString(strings.TrimPrefix(line, "data: "))
			case line == "" && name != "":
				s.mu.Lock()
				s.events = append(s.events, event{at: time.Now(), name: name, data: json.RawMessage(data.String())})
				s.mu.Unlock()
				select {
				case s.notify <- struct{}{}:
				default:
				}
				name = ""
				data.Reset()
			}
		}
	}()
	return nil
}

// call invokes a bound service method with args and decodes its result
// into out (when not nil).
func (s *served) call(ctx context.Context, service, method string, out any, args ...any) error {
	if args == nil {
		args = []any{}
	}
	body, err := json.Marshal(args)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/api/"+service+"/"+method, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if m := arityRe.FindSubmatch(b); resp.StatusCode == http.StatusBadRequest && m != nil {
		// A later build takes more arguments (options at the end): the
		// zero value of each, as a caller that sets none.
		if n, _ := strconv.Atoi(string(m[1])); n > len(args) && n <= len(args)+3 {
			return s.call(ctx, service, method, out, append(args, make([]any, n-len(args))...)...)
		}
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s.%s: %s: %s", service, method, resp.Status, bytes.TrimSpace(b))
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// since returns the events from index i on.
func (s *served) since(i int) []event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]event(nil), s.events[min(i, len(s.events)):]...)
}

func (s *served) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.events)
}

// waitEvent waits until one of the events from index from on satisfies
// stop, and returns the events up to and including it.
func (s *served) waitEvent(ctx context.Context, from int, timeout time.Duration, stop func(event) bool) ([]event, error) {
	deadline := time.After(timeout)
	for {
		evs := s.since(from)
		for i, e := range evs {
			if stop(e) {
				return evs[:i+1], nil
			}
		}
		select {
		case <-s.notify:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			return evs, fmt.Errorf("no end of the turn after %v (%d events)", timeout, len(evs))
		case <-ctx.Done():
			return evs, ctx.Err()
		}
	}
}
