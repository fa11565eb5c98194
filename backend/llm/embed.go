package llm

import (
	"context"
	"fmt"

	"github.com/ollama/ollama/api"
)

// Embed returns one vector per input, in order, sending the inputs in
// batches (WithEmbedBatch).
func (c *Client) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	return c.EmbedWithProgress(ctx, model, inputs, nil)
}

// EmbedWithProgress is Embed reporting after each batch how many inputs are
// done; onProgress may be nil.
func (c *Client) EmbedWithProgress(ctx context.Context, model string, inputs []string, onProgress func(done, total int)) ([][]float32, error) {
	out := make([][]float32, 0, len(inputs))
	for start := 0; start < len(inputs); start += c.cfg.embedBatch {
		batch := inputs[start:min(start+c.cfg.embedBatch, len(inputs))]
		var vecs [][]float32
		_, err := c.retry(ctx, "embed", model, func(ctx context.Context) (bool, error) {
			actx, cancel := context.WithTimeoutCause(ctx, c.cfg.timeouts.Request, errRequest)
			defer cancel()
			resp, err := c.api.Embed(actx, &api.EmbedRequest{Model: model, Input: batch})
			if err != nil {
				return false, c.fail(ctx, actx, "embed", model, err)
			}
			if len(resp.Embeddings) != len(batch) {
				return false, &Error{Kind: ErrServer, Op: "embed", Host: c.host, Model: model,
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
