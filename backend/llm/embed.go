package llm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ollama/ollama/api"
)

// Embed returns one vector per input, in order, sending the inputs in
// batches (WithEmbedBatch).
//
// A single input (a search query) is answered from a small cache when the
// same model embedded the same text minutes ago: one turn searches both
// long-term memory and the documents with the person's message, and each
// embedding is a model round trip (or worse, a model swap in Ollama).
func (c *Client) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	if len(inputs) != 1 {
		return c.EmbedWithProgress(ctx, model, inputs, nil)
	}
	key := model + "\x00" + inputs[0]
	if q, ok := c.queries.Get(key); ok && time.Since(q.at) < queryCacheTTL {
		return [][]float32{slices.Clone(q.vec)}, nil
	}
	out, err := c.EmbedWithProgress(ctx, model, inputs, nil)
	if err == nil {
		c.queries.Add(key, queryVector{vec: slices.Clone(out[0]), at: time.Now()})
	}
	return out, err
}

type queryVector struct {
	vec []float32
	at  time.Time
}

// The query cache holds a few hundred vectors (about 1 MB at 1024
// dimensions) for ten minutes, so a re-pulled model's new vectors are in
// use soon after.
const (
	queryCacheSize = 256
	queryCacheTTL  = 10 * time.Minute
)

// EmbedWithProgress is Embed reporting after each batch how many inputs are
// done; onProgress may be nil.
//
// Inputs longer than the model's context are cut to fit it (see
// fitEmbedInputs), and Ollama is asked to truncate too.
func (c *Client) EmbedWithProgress(ctx context.Context, model string, inputs []string, onProgress func(done, total int)) ([][]float32, error) {
	return c.embed(ctx, model, inputs, onProgress, true)
}

// EmbedOnce is Embed for a caller that tries again later on its own, as
// the vector index does with what it could not embed: an attempt that
// times out is not tried again here, so an Ollama that hangs holds the
// caller (a person's import) one attempt, not four. Other failures are
// retried as by Embed. Nothing is cached.
func (c *Client) EmbedOnce(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	return c.embed(ctx, model, inputs, nil, false)
}

func (c *Client) embed(ctx context.Context, model string, inputs []string, onProgress func(done, total int), retryTimeouts bool) ([][]float32, error) {
	inputs = c.fitEmbedInputs(ctx, model, inputs)
	truncate := true // Ollama's default, said out loud for a server whose default differs
	out := make([][]float32, 0, len(inputs))
	for start := 0; start < len(inputs); start += c.cfg.embedBatch {
		batch := inputs[start:min(start+c.cfg.embedBatch, len(inputs))]
		var vecs [][]float32
		_, err := c.retry(ctx, "embed", model, "", func(ctx context.Context, h *endpoint) (bool, error) {
			actx, cancel := context.WithTimeoutCause(ctx, c.embedTimeout(len(batch)), errRequest)
			defer cancel()
			resp, err := h.api.Embed(actx, &api.EmbedRequest{Model: model, Input: batch, Truncate: &truncate})
			if err != nil {
				err = c.fail(ctx, actx, "embed", model, err)
				if !retryTimeouts && errors.Is(err, ErrTimeout) {
					err = final{err}
				}
				return false, err
			}
			if len(resp.Embeddings) != len(batch) {
				return false, &Error{Kind: ErrServer, Op: "embed", Host: h.url, Model: model,
					Err: fmt.Errorf("got %d vectors for %d inputs", len(resp.Embeddings), len(batch))}
			}
			vecs = resp.Embeddings
			return false, nil
		})
		if err != nil {
			return nil, fmt.Errorf("embed inputs %d-%d of %d: %w", start+1, start+len(batch), len(inputs), err)
		}
		out = append(out, vecs...)
		if onProgress != nil {
			onProgress(len(out), len(inputs))
		}
	}
	return out, nil
}

// The wait for one embedding request grows with its batch: a minute for
// loading the model (a cold load of bge-m3 from a laptop's disk takes
// 5–20 s, a slow disk more) and two seconds an input (a chunk of 1,000
// characters takes well under one on a laptop CPU), up to the request
// timeout (Timeouts.Request, 2 minutes). A search query or a small file's
// last batch is given up after a minute then, not two: a person waits on
// it, and the index embeds it later.
const (
	embedLoadWait  = time.Minute
	embedInputWait = 2 * time.Second
)

// embedTimeout bounds one attempt of an embedding request of n inputs.
func (c *Client) embedTimeout(n int) time.Duration {
	return min(c.cfg.timeouts.Request, embedLoadWait+time.Duration(n)*embedInputWait)
}
