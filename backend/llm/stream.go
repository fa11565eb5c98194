package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"
)

// Streamed chat replies are read here rather than through api.Client.Chat:
// that client zeroes an 8 MB line buffer on every call, which was a third of
// a turn's CPU and most of its allocations. This reader speaks the same wire
// format with the same types and errors (api.StatusError for HTTP errors,
// the text of an error line otherwise), and its buffer grows to the same
// 8 MB only when a line needs it.
const (
	firstLineBuffer = 64 << 10
	maxLineBuffer   = 8 << 20
)

func (c *Client) streamChat(ctx context.Context, h *endpoint, req *api.ChatRequest, fn func(api.ChatResponse) error) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(h.url, "/")+"/api/chat", bytes.NewReader(body))
	if err != nil {
		return err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/x-ndjson")
	hreq.Header.Set("User-Agent", "wayfinder")
	resp, err := c.cfg.httpClient.Do(hreq)
	if err != nil {
		return err
	}
	defer resp.Body.Close()

	scanner := bufio.NewScanner(resp.Body)
	scanner.Buffer(make([]byte, 0, firstLineBuffer), maxLineBuffer)
	for scanner.Scan() {
		line := scanner.Bytes()
		var e struct {
			Error string `json:"error,omitempty"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			if resp.StatusCode >= http.StatusBadRequest {
				return api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, ErrorMessage: string(line)}
			}
			return errors.New(string(line))
		}
		if resp.StatusCode >= http.StatusBadRequest {
			return api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, ErrorMessage: e.Error}
		}
		if e.Error != "" {
			return errors.New(e.Error)
		}
		var cr api.ChatResponse
		if err := json.Unmarshal(line, &cr); err != nil {
			return err
		}
		if err := fn(cr); err != nil {
			return err
		}
	}
	return scanner.Err()
}
