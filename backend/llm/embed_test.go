package llm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// EmbedOnce gives up after one attempt that timed out, where Embed tries
// four times: the vector index embeds what it could not later, and a
// person's import should not wait out the retries of an Ollama that hangs.
// Other failures are retried as by Embed. The error says it was a timeout
// to a caller that does not import this package.
func TestEmbedOnceDoesNotRetryATimeout(t *testing.T) {
	srv := ollamatest.New(t)
	c := newClient(t, srv.URL(), WithTimeouts(Timeouts{Request: 20 * time.Millisecond}))
	ctx := context.Background()

	srv.Fail(ollamatest.PathEmbed, 1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	if _, err := c.EmbedOnce(ctx, "bge-m3", []string{"a"}); err != nil || srv.Count(ollamatest.PathEmbed) != 2 {
		t.Errorf("500 then success: %v after %d requests, want success after 2", err, srv.Count(ollamatest.PathEmbed))
	}

	srv.Reset()
	srv.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	_, err := c.EmbedOnce(ctx, "bge-m3", []string{"a"})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("hanging embed: %v", err)
	}
	var to interface{ Timeout() bool }
	if !errors.As(err, &to) || !to.Timeout() {
		t.Errorf("%v does not say it is a timeout", err)
	}
	if n := srv.Count(ollamatest.PathEmbed); n != 1 {
		t.Errorf("EmbedOnce sent %d requests to a hanging Ollama, want 1", n)
	}
	srv.Reset()
	srv.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	if _, err := c.Embed(ctx, "bge-m3", []string{"b"}); !errors.Is(err, ErrTimeout) {
		t.Fatalf("hanging embed: %v", err)
	}
	if n := srv.Count(ollamatest.PathEmbed); n != 4 {
		t.Errorf("Embed sent %d requests to a hanging Ollama, want 4 (retried)", n)
	}
	var down *Error
	if _, err := newClient(t, "http://127.0.0.1:1").EmbedOnce(ctx, "bge-m3", []string{"a"}); !errors.As(err, &down) || down.Timeout() {
		t.Errorf("Ollama away: %v, want an *Error that is not a timeout", err)
	}
}

// One attempt's wait grows with the batch, from a minute for loading the
// model up to the request timeout.
func TestEmbedTimeoutGrowsWithTheBatch(t *testing.T) {
	def := newClient(t, "http://127.0.0.1:1", WithTimeouts(DefaultTimeouts()))
	short := newClient(t, "http://127.0.0.1:1", WithTimeouts(Timeouts{Request: 20 * time.Millisecond}))
	for _, tc := range []struct {
		c    *Client
		n    int
		want time.Duration
	}{
		{def, 1, 62 * time.Second},
		{def, 10, 80 * time.Second},
		{def, DefaultEmbedBatch, 2 * time.Minute},
		{short, 1, 20 * time.Millisecond},
	} {
		if got := tc.c.embedTimeout(tc.n); got != tc.want {
			t.Errorf("embedTimeout(%d) with a request timeout of %s = %s, want %s", tc.n, tc.c.cfg.timeouts.Request, got, tc.want)
		}
	}
}
