package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"strings"
	"time"

	"github.com/kaptinlin/jsonrepair"
	"github.com/ollama/ollama/api"
)

// ChatRequest is one call to a chat model.
type ChatRequest struct {
	Model    string
	Messages []api.Message
	Tools    api.Tools
	// Format is "json" or a JSON schema; Structured sets it.
	Format json.RawMessage
	// Options are model options (temperature, seed, num_predict, ...).
	Options map[string]any
	// NumCtx overrides the client's context size for this call.
	NumCtx    int
	Think     *api.ThinkValue
	KeepAlive *api.Duration
	// Conversation names the conversation the call is for, so that with
	// several Ollama hosts its calls stay on the host whose prompt cache
	// holds it (see pool). Not sent to Ollama.
	Conversation string
}

// Chunk is a piece of a streamed reply.
type Chunk struct {
	Content   string
	Thinking  string
	ToolCalls []api.ToolCall
}

// Response is a finished (or, with an error, partial) reply.
type Response struct {
	// Message is the assistant's message: content, thinking (kept apart so
	// it is never taken for the answer) and tool calls.
	Message api.Message
	Model   string
	// Host is the Ollama server that gave the reply (of several, the one
	// the last attempt went to).
	Host       string
	DoneReason string
	// PromptTokens and CompletionTokens are Ollama's prompt_eval_count and
	// eval_count.
	PromptTokens       int
	CompletionTokens   int
	TotalDuration      time.Duration
	LoadDuration       time.Duration
	PromptEvalDuration time.Duration
	EvalDuration       time.Duration
	// Elapsed is the wall time of the call, retries included.
	Elapsed  time.Duration
	Attempts int
	Retries  []RetryRecord
	// Repaired says Structured had to mend the model's JSON.
	Repaired bool
}

// Chat sends a chat request and streams the reply to onChunk (may be nil).
// Failed attempts are retried only while nothing was passed to onChunk, so
// streamed text is never duplicated. When ctx is cancelled, Chat returns
// promptly with an error matching context.Canceled and the partial reply.
func (c *Client) Chat(ctx context.Context, req ChatRequest, onChunk func(Chunk)) (Response, error) {
	return c.chat(ctx, "chat", req, onChunk)
}

func (c *Client) chat(ctx context.Context, op string, req ChatRequest, onChunk func(Chunk)) (Response, error) {
	start := time.Now()
	since := c.pool.checkCounts()
	think := req.Think
	prepare := func() *api.ChatRequest {
		r := req
		if r.Think == nil {
			r.Think = c.thinkOff(ctx, r.Model, r.Conversation)
		}
		return c.wireRequest(ctx, r)
	}
	wire := prepare()
	// With no host up the model's facts (thinking, context length) could
	// not be asked: the attempt asks the host the call's pick brought
	// back, rather than probing a host that is down a second time.
	_, known := c.facts.lookup(req.Model)
	askFacts := !known && (think == nil || (req.NumCtx == 0 && c.cfg.numCtx == 0 && req.Options["num_ctx"] == nil)) &&
		!c.pool.anyUp()
	var (
		resp   Response
		filter *textCallFilter
	)
	retries, err := c.retryFrom(ctx, since, op, req.Model, req.Conversation, func(ctx context.Context, h *endpoint) (bool, error) {
		if askFacts {
			_, err := c.factsOn(ctx, h, req.Model)
			if err != nil && (hostFault(err) || ctx.Err() != nil) {
				return false, err // h is in trouble: the next attempt asks another
			}
			askFacts = false
			if err == nil {
				wire = prepare()
			}
		}
		emit := onChunk
		if len(req.Tools) > 0 {
			// Each attempt starts its reply afresh; what an attempt held
			// back is dropped with it.
			filter = &textCallFilter{offered: req.Tools, emit: onChunk}
			emit = filter.push
		}
		r, delivered, err := c.chatOnce(ctx, h, op, wire, emit)
		r.Attempts, r.Host = resp.Attempts+1, h.url
		resp = r
		if filter != nil {
			delivered = filter.emitted
		}
		return delivered, err
	})
	if err == nil && filter != nil {
		filter.finish(&resp.Message)
	}
	resp.Retries = retries
	resp.Elapsed = time.Since(start)
	return resp, err
}

// wireRequest builds the official request; num_ctx is always explicit
// because Ollama's default silently cuts long prompts.
func (c *Client) wireRequest(ctx context.Context, req ChatRequest) *api.ChatRequest {
	opts := maps.Clone(req.Options)
	if opts == nil {
		opts = map[string]any{}
	}
	switch {
	case req.NumCtx > 0:
		opts["num_ctx"] = req.NumCtx
	case opts["num_ctx"] == nil:
		opts["num_ctx"] = c.contextSize(ctx, req.Model, req.Conversation)
	}
	stream := true
	return &api.ChatRequest{
		Model:     req.Model,
		Messages:  req.Messages,
		Tools:     req.Tools,
		Format:    req.Format,
		Options:   opts,
		Think:     req.Think,
		KeepAlive: req.KeepAlive,
		Stream:    &stream,
	}
}

// chatOnce is one attempt.
func (c *Client) chatOnce(ctx context.Context, h *endpoint, op string, wire *api.ChatRequest, onChunk func(Chunk)) (Response, bool, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	dog := newWatchdog(cancel, c.cfg.timeouts.FirstToken, c.cfg.timeouts.Idle)
	defer dog.stop()

	var (
		r                 = Response{Model: wire.Model}
		content, thinking strings.Builder
		done, delivered   bool
	)
	err := c.streamChat(actx, h, wire, func(cr api.ChatResponse) error {
		dog.tick()
		m := cr.Message
		content.WriteString(m.Content)
		thinking.WriteString(m.Thinking)
		r.Message.ToolCalls = append(r.Message.ToolCalls, m.ToolCalls...)
		if cr.Done {
			done = true
			r.DoneReason = cr.DoneReason
			r.PromptTokens, r.CompletionTokens = cr.PromptEvalCount, cr.EvalCount
			r.TotalDuration, r.LoadDuration = cr.TotalDuration, cr.LoadDuration
			r.PromptEvalDuration, r.EvalDuration = cr.PromptEvalDuration, cr.EvalDuration
		}
		if onChunk != nil && (m.Content != "" || m.Thinking != "" || len(m.ToolCalls) > 0) {
			delivered = true
			onChunk(Chunk{Content: m.Content, Thinking: m.Thinking, ToolCalls: m.ToolCalls})
		}
		return nil
	})
	r.Message.Role = "assistant"
	r.Message.Content = content.String()
	r.Message.Thinking = thinking.String()
	if err == nil && !done {
		err = errNoDone
	}
	return r, delivered, c.fail(ctx, actx, op, wire.Model, err)
}

// Validator is implemented by structured outputs that check themselves
// beyond JSON decoding (required fields, ranges); a failure counts as
// malformed output so the caller's repair attempt can quote it.
type Validator interface {
	Validate() error
}

// Structured asks for a reply in the shape of schema (a JSON schema as
// json.RawMessage, []byte, string or any value that marshals to one; nil
// derives it from out with SchemaOf) and decodes it into out. Text that is
// not valid JSON, has trailing data, or fails out's Validate returns an
// *Error of kind ErrMalformedOutput carrying the raw text; see
// RepairMessages. out may be partly filled on failure.
func (c *Client) Structured(ctx context.Context, req ChatRequest, schema any, out any) (Response, error) {
	raw, err := schemaBytes(schema, out)
	if err != nil {
		return Response{}, fmt.Errorf("structured %q: %w", req.Model, err)
	}
	req.Format = raw
	resp, err := c.chat(ctx, "structured", req, nil)
	if err != nil {
		return resp, err
	}
	text := stripFence(resp.Message.Content)
	if err := decodeStrict(text, out); err != nil {
		// Small models wrap JSON in prose, drop the last bracket or use single
		// quotes. A repaired reply still has to decode strictly and pass the
		// caller's validation, so a repair never invents an answer.
		repaired, ok := repairJSON(text)
		if !ok || decodeFresh(repaired, out) != nil {
			return resp, &Error{Kind: ErrMalformedOutput, Op: "structured", Host: c.host, Model: req.Model, Raw: resp.Message.Content, Err: err}
		}
		resp.Repaired = true
	}
	if v, ok := out.(Validator); ok {
		if err := v.Validate(); err != nil {
			return resp, &Error{Kind: ErrMalformedOutput, Op: "structured", Host: c.host, Model: req.Model, Raw: resp.Message.Content, Err: err}
		}
	}
	return resp, nil
}

func schemaBytes(schema, out any) (json.RawMessage, error) {
	switch s := schema.(type) {
	case nil:
		return SchemaOf(out)
	case json.RawMessage:
		return s, nil
	case []byte:
		return json.RawMessage(s), nil
	case string:
		return json.RawMessage(s), nil
	default:
		b, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("marshal schema: %w", err)
		}
		return b, nil
	}
}

// stripFence removes a Markdown code fence some models put around JSON even
// when asked for a format.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimPrefix(s, "json")
	s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	return strings.TrimSpace(s)
}

// repairJSON mends the usual damage in a model's JSON: text around it,
// missing closing brackets, single quotes, trailing commas.
func repairJSON(text string) (string, bool) {
	if i := strings.IndexAny(text, "{["); i > 0 {
		text = text[i:] // prose before the value
	}
	out, err := jsonrepair.Repair(text)
	return out, err == nil
}

// decodeFresh decodes into a new value and stores it in out only when the
// whole decode succeeds, so a failed attempt leaves out as it was.
func decodeFresh(text string, out any) error {
	fresh := reflect.New(reflect.TypeOf(out).Elem())
	if err := decodeStrict(text, fresh.Interface()); err != nil {
		return err
	}
	reflect.ValueOf(out).Elem().Set(fresh.Elem())
	return nil
}

func decodeStrict(text string, out any) error {
	if text == "" {
		return errors.New("empty reply")
	}
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("decode JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("decode JSON: unexpected text after the JSON value")
	}
	return nil
}

// RepairMessages returns the two messages for one repair attempt after a
// malformed structured reply: the model's own reply, then what was wrong
// with it. Append them to the request's messages and call Structured again.
// It returns nil for other errors.
func RepairMessages(err error) []api.Message {
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrMalformedOutput {
		return nil
	}
	return []api.Message{
		{Role: "assistant", Content: e.Raw},
		{Role: "user", Content: fmt.Sprintf("That reply could not be used (%v). Answer again with only one JSON value that matches the schema, and nothing else.", e.Err)},
	}
}
