package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// newBackend wires the real chat service and agent, in this process,
// against the fake (the conversation-context figures).
func newBackend(ctx context.Context, fake *ollamatest.Server, tr http.RoundTripper) (*world.Backend, func(), error) {
	dir, err := os.MkdirTemp("", "wayfinder-bench-")
	if err != nil {
		return nil, nil, err
	}
	b, err := world.Open(ctx, fake.URL(), world.Config{DataDir: dir, HTTPClient: &http.Client{Transport: tr}, LongTerm: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	// As the app's startup status check does: it lists and shows the
	// models, which tells the client whether the chat model thinks.
	if _, err := b.Client.Models(ctx); err != nil {
		b.Close()
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return b, func() { b.Close(); os.RemoveAll(dir) }, nil
}

// finished is err, or an error when the turn ended otherwise than complete.
func finished(msg api.Message, err error) error {
	if err == nil && msg.Status != api.StatusComplete {
		err = fmt.Errorf("turn ended %s: %q", msg.Status, msg.Content)
	}
	return err
}
