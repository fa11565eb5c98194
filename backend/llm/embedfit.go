package llm

import (
	"context"
	"unicode/utf8"
)

// What is sent for embedding is fitted to the embedding model's context
// here, because Ollama cannot be trusted to do it: Ollama 0.24 hung on an
// /api/embed input longer than the model's context, and later versions
// answer 400 "the input length exceeds the context length" whatever
// `truncate` says (ollama/ollama#14186). Either way the chunk never gets a
// vector, and the vector index retries it for ever. A chunk is at most
// about a thousand characters (knowledge/chunk), which fits every usual
// embedding model but those of 512 tokens (all-minilm, mxbai-embed-large,
// snowflake-arctic-embed); a search query or a memory can be anything a
// person pasted.
//
// The fit is a cut, not a split into parts: an input has one vector, and
// the start of a text says most of what it is about. The words cut off
// are still found by keyword search, which indexes the whole chunk.
const (
	// embedCtxCap bounds the context an input is fitted to: 2048 tokens,
	// Ollama's default num_ctx for years, which it runs an embedding model
	// with unless told otherwise (it cuts at min(num_ctx, the model's
	// context)). Wayfinder does not send num_ctx with embeddings: another
	// value than other callers' reloads the model.
	embedCtxCap = 2048
	// embedFitShare is the part of that context an input may fill: the
	// estimate below is an estimate, and the model adds its own tokens
	// ([CLS], [SEP], BOS, EOS).
	embedFitNum, embedFitDen = 3, 4
	// embedNoAsk is the size, in estimated tokens, below which an input is
	// sent without asking the model's context length: it fits the smallest
	// embedding models (256 tokens) with the margin. A search query is
	// never the reason for an /api/show.
	embedNoAsk = 256 * embedFitNum / embedFitDen
)

// embedTokens estimates the tokens an embedding model makes of s, erring
// high: one per three ASCII characters, one per other character.
//
// English averages four characters or more a token in the WordPiece,
// SentencePiece and BPE vocabularies of embedding models; numbers, code,
// URLs and rare words go lower, hence three. A Hangul syllable is one
// token or less in XLM-R's SentencePiece (bge-m3) and in WordPiece (one
// piece a syllable, or a whole [UNK] word); byte-level BPE (Qwen3
// embeddings, RoBERTa) can take more for a rare syllable, which the margin
// (embedFitNum/embedFitDen) and Truncate cover.
func embedTokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
	}
	return (ascii+2)/3 + other
}

// cutToTokens returns the longest start of s (whole characters) whose
// estimate (embedTokens) is at most limit.
func cutToTokens(s string, limit int) string {
	ascii, other := 0, 0
	for i, r := range s {
		if r < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
		if (ascii+2)/3+other > limit {
			return s[:i]
		}
	}
	return s
}

// fitEmbedInputs returns inputs with each one cut to fit model's context
// (see above); inputs itself when all fit, so that nothing is copied for
// the usual chunk. The model's context length is asked once per model
// (/api/show, kept with the model's other facts) and only when an input is
// long enough for it to matter; while it cannot be asked, the memo's
// (WithContextMemo) or embedCtxCap is used.
func (c *Client) fitEmbedInputs(ctx context.Context, model string, inputs []string) []string {
	longest := 0
	for _, in := range inputs {
		// Bytes bound the estimate from above: skip the count for the
		// usual short input.
		if len(in) > embedNoAsk {
			longest = max(longest, embedTokens(in))
		}
	}
	if longest <= embedNoAsk {
		return inputs
	}
	limit := c.embedContext(ctx, model) * embedFitNum / embedFitDen
	if longest <= limit {
		return inputs
	}
	out := make([]string, len(inputs))
	for i, in := range inputs {
		out[i] = in
		if len(in) > limit && embedTokens(in) > limit {
			out[i] = cutToTokens(in, limit)
			c.cfg.logger.Debug("embedding input cut to the model's context", "model", model, "from_bytes", len(in), "to_bytes", len(out[i]), "limit_tokens", limit)
		}
	}
	return out
}

// embedContext is the context, in tokens, inputs to model are fitted to:
// the model's own context length up to embedCtxCap.
func (c *Client) embedContext(ctx context.Context, model string) int {
	n := 0
	actx, cancel := context.WithTimeoutCause(ctx, c.cfg.timeouts.Request, errRequest)
	f, ok := c.factsOf(actx, model, "")
	cancel()
	switch {
	case ok && f.contextLen > 0:
		n = f.contextLen
	case c.cfg.memo != nil:
		n = c.cfg.memo.Recall(model)
	}
	if n <= 0 {
		return embedCtxCap
	}
	return min(n, embedCtxCap)
}
