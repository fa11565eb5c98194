package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Streamable HTTP server that adds a tool while Wayfinder is connected
// says so (notifications/tools/list_changed); the next use of the server's
// tools offers the new one without a restart. versions are the protocol
// versions the server speaks: the newest (subscriptions/listen, a long
// POST stream) and the 2025 ones (the standalone GET stream).
func TestHTTPToolListChanged(t *testing.T) {
	for _, c := range []struct {
		name     string
		versions []string
	}{
		{"current protocol", nil},
		{"2025-06-18 protocol", []string{"2025-06-18"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := testServer(&sdk.ServerOptions{SupportedProtocolVersions: c.versions})
			ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			t.Cleanup(ts.Close)
			m := newManager(t, map[string]Server{"web": {URL: ts.URL}}, Options{MaxMessage: 64 << 10})
			if _, ok := registry(t, m).Lookup("web__late"); ok {
				t.Fatal("the tool is there before the server added it")
			}
			srv.AddTool(&sdk.Tool{Name: "late", Description: "Added while connected.", InputSchema: objectSchema},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("late"), nil })
			waitFor(t, func() bool {
				_, ok := registry(t, m).Lookup("web__late")
				return ok
			})
		})
	}
}

// An event stream may outlive any total budget (a session's notifications
// for hours), so only JSON bodies are cut at the message limit; the SDK
// bounds each event of a stream (MaxEventSize).
func TestLimitedTransport(t *testing.T) {
	body := strings.Repeat("x", 10<<10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Key") != "k" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", r.URL.Query().Get("type"))
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(ts.Close)
	client := &http.Client{Transport: limitedTransport{headers: map[string]string{"X-Key": "k"}, max: 1 << 10}}
	for _, c := range []struct {
		typ     string
		cut     bool
		wantLen int
	}{
		{"application/json", true, 1 << 10},
		{"text/event-stream", false, len(body)},
		{"text/event-stream; charset=utf-8", false, len(body)},
		{"", true, 1 << 10},
	} {
		resp, err := client.Get(ts.URL + "/?type=" + url.QueryEscape(c.typ))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(b) != c.wantLen || errors.Is(err, errTooLarge) != c.cut {
			t.Errorf("%q: status %d, read %d bytes, err %v; want %d bytes, cut %v", c.typ, resp.StatusCode, len(b), err, c.wantLen, c.cut)
		}
	}
}
