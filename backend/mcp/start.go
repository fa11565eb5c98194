package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// start connects to a server: runs its command or reaches its URL, and
// says hello (the MCP initialize handshake), all within the start time
// limit. stop ends the session and, for a command, its process.
func (s *server) start(ctx context.Context, c Server) (*sdk.ClientSession, func(), *tail, error) {
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.StartTimeout)
	defer cancel()
	if c.URL != "" {
		// The standalone stream (an HTTP GET the SDK keeps open) is how a
		// server of the 2025 protocols sends tools/list_changed; the newest
		// protocol's subscriptions/listen is a long POST. Both live as long
		// as the session, so their bodies are bounded per event
		// (MaxEventSize) rather than in total (limitedTransport).
		t := &sdk.StreamableClientTransport{Endpoint: c.URL, MaxRetries: -1, MaxEventSize: s.m.opts.MaxMessage,
			HTTPClient: &http.Client{Transport: limitedTransport{headers: c.Headers, max: int64(s.m.opts.MaxMessage)}}}
		cs, err := s.client().Connect(ctx, t, nil)
		if err != nil {
			err = fmt.Errorf("connect to %s: %w", c.URL, startErr(ctx, err))
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, nil, nil, because(err, ReasonTimeout, "seconds", seconds(s.m.opts.StartTimeout))
			}
			return nil, nil, nil, because(err, ReasonUnreachable, "url", c.URL)
		}
		return cs, func() { _ = cs.Close() }, nil, nil
	}
	errs := &tail{}
	cmd := exec.Command(c.Command, c.Args...)
	cmd.Env = environ(c.Env)
	cmd.Stderr = errs
	ownGroup(cmd)
	// Pipes of our own rather than cmd.StdoutPipe: the session reads
	// stdout until the process ends, and Wait must not close it under
	// the reader.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, nil, errs, because(fmt.Errorf("run %s: %w", c.Command, err), runReason(err), "command", c.Command)
	}
	inR.Close()
	outW.Close()
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	var once sync.Once
	var cs *sdk.ClientSession
	stop := func() {
		once.Do(func() {
			if cs != nil {
				_ = cs.Close()
			}
			inW.Close()
			select { // a polite server ends when its input closes
			case <-exited:
			case <-time.After(2 * time.Second):
				killGroup(cmd)
				<-exited
			}
			killGroup(cmd) // children it left behind (npx runs node)
			outR.Close()
		})
	}
	t := &sdk.IOTransport{Reader: outR, Writer: inW, MaxLineLength: s.m.opts.MaxMessage}
	cs, err = s.client().Connect(ctx, t, nil)
	if err != nil {
		err = startErr(ctx, err)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = because(err, ReasonTimeout, "seconds", seconds(s.m.opts.StartTimeout))
		}
		select {
		case <-exited:
			err = because(fmt.Errorf("%s exited: %s", c.Command, cmd.ProcessState), ReasonExited, "command", c.Command)
		case <-time.After(100 * time.Millisecond):
		}
		stop()
		return nil, nil, errs, err
	}
	return cs, stop, errs, nil
}

// startErr says a start ran out of time in words.
func startErr(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer to the MCP handshake in time: %w", err)
	}
	return err
}

// limitedTransport adds the entry's headers to every request and cuts a
// JSON response body at max bytes, so an HTTP server cannot fill memory.
// An event stream (text/event-stream) is left whole: it may carry a
// session's notifications for hours, and the SDK bounds each of its
// events by StreamableClientTransport.MaxEventSize instead.
type limitedTransport struct {
	headers map[string]string
	max     int64
}

func (t limitedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: t.max}
	}
	return resp, nil
}

// errTooLarge ends a response longer than the message budget.
var errTooLarge = errors.New("the server sent more than the message size limit")

type limitedBody struct {
	io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
