package ollamatest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
)

// Profile is how fast a model server answers: what a person waits for
// with a real local model. A chat call costs Overhead, then prefill (the
// prompt tokens its slot's cache does not hold ÷ PrefillTPS), then
// generation (each output token at GenTPS, slower while other slots
// generate too). The server has Slots parallel slots (Ollama's
// OLLAMA_NUM_PARALLEL), each with the prompt-prefix cache Ollama's runner
// keeps (see slotCache). The two built-in profiles and their sources are
// in README.md, Performance.
type Profile struct {
	Name string `json:"name"`
	// PrefillTPS is prompt tokens evaluated per second. Prefill is
	// compute-bound, so slots share it: one prompt is evaluated at a time.
	PrefillTPS float64 `json:"prefill_tps"`
	// GenTPS is output tokens per second of a sequence generating alone.
	GenTPS float64 `json:"gen_tps"`
	// ParallelSlowdown is how much each other sequence generating at the
	// same time slows one down (0.1: four at once each run at 1/1.3 of
	// GenTPS). Generation is memory-bound, so batching several costs little.
	ParallelSlowdown float64 `json:"parallel_slowdown"`
	// Overhead is paid once per call (request handling, sampling set-up).
	Overhead time.Duration `json:"overhead"`
	// Slots is how many requests run at once; more wait in line.
	Slots int `json:"slots"`
	// Embed is the time of one /api/embed call.
	Embed time.Duration `json:"embed"`
	// Scale runs the modelled times faster on the wall clock (0.25: four
	// times faster) so a benchmark takes less time; the durations the
	// server reports (prompt_eval_duration, CallStats) stay modelled.
	// 0 means 1.
	Scale float64 `json:"scale,omitempty"`
}

// The built-in profiles: qwen3:4b (Q4_K_M, 2.3 GiB) on an 8-core laptop
// CPU and on an 8 GB consumer GPU. Where the numbers come from is in
// README.md (Performance, "The model server in the bench").
var (
	ProfileCPU = Profile{Name: "cpu", PrefillTPS: 100, GenTPS: 13, ParallelSlowdown: 0.2,
		Overhead: 50 * time.Millisecond, Slots: 1, Embed: 60 * time.Millisecond}
	ProfileGPU = Profile{Name: "gpu", PrefillTPS: 3000, GenTPS: 70, ParallelSlowdown: 0.11,
		Overhead: 25 * time.Millisecond, Slots: 1, Embed: 15 * time.Millisecond}
)

// ProfileNamed returns a built-in profile with slots parallel slots.
func ProfileNamed(name string, slots int) (Profile, error) {
	var p Profile
	switch name {
	case "cpu":
		p = ProfileCPU
	case "gpu":
		p = ProfileGPU
	default:
		return p, fmt.Errorf("unknown profile %q (want cpu or gpu)", name)
	}
	if slots < 1 || slots > 64 {
		return p, fmt.Errorf("slots must be between 1 and 64, got %d", slots)
	}
	p.Slots = slots
	return p, nil
}

func (p Profile) scale() float64 {
	if p.Scale <= 0 {
		return 1
	}
	return p.Scale
}

// wall is how long a modelled duration takes on the wall clock.
func (p Profile) wall(d time.Duration) time.Duration { return time.Duration(float64(d) * p.scale()) }

// CallStats is what one chat call cost on the modelled server.
type CallStats struct {
	Start  time.Time `json:"start"`  // when the request arrived
	End    time.Time `json:"end"`    // when its last line was written
	Model  string    `json:"model"`  // the model asked for
	Slot   int       `json:"slot"`   // the slot that ran it
	Prompt int       `json:"prompt"` // prompt tokens sent (the rendered prompt)
	Cached int       `json:"cached"` // of which the slot's cache held
	// Evaluated is Prompt − Cached: what prefill had to compute.
	Evaluated int `json:"evaluated"`
	Generated int `json:"generated"`
	// Modelled durations: waiting for a slot or for another prompt's
	// prefill, prefill, generation.
	Queued   time.Duration `json:"queued_ns"`
	Prefill  time.Duration `json:"prefill_ns"`
	Generate time.Duration `json:"generate_ns"`
	// System is the first line of the request's last system message:
	// which role of the agent made the call.
	System string `json:"system,omitempty"`
}

// latencyModel runs chat calls through a Profile's slots.
type latencyModel struct {
	p    Profile
	tok  *tokens
	free chan struct{} // one token per free slot

	mu      sync.Mutex
	slots   []slotCache
	gen     int        // sequences generating now
	prefill sync.Mutex // one prompt's prefill at a time
}

func newLatencyModel(p Profile, tok *tokens) *latencyModel {
	if p.Slots < 1 {
		p.Slots = 1
	}
	m := &latencyModel{p: p, tok: tok, free: make(chan struct{}, p.Slots), slots: make([]slotCache, p.Slots)}
	for i := range p.Slots {
		m.slots[i].id = i
		m.free <- struct{}{}
	}
	return m
}

// call is one request holding a slot.
type modelCall struct {
	m     *latencyModel
	slot  *slotCache
	stats CallStats
	// generating is set once prefill is done, until release.
	generating bool
	reply      strings.Builder // what it generated
}

// begin waits for a slot, pays the overhead and the prefill of what the
// slot's cache does not hold, and returns the call, which then paces the
// reply (token) and is ended with end. ok is false when ctx ended first.
func (m *latencyModel) begin(ctx context.Context, req api.ChatRequest, done <-chan struct{}) (*modelCall, bool) {
	start := time.Now()
	prompt := m.tok.prompt(req)
	select {
	case <-m.free:
	case <-ctx.Done():
		return nil, false
	case <-done:
		return nil, false
	}
	m.mu.Lock()
	slot, cached := pickSlot(m.slots, prompt, m.p.Slots > 1)
	slot.inUse = true
	slot.lastUsed = time.Now()
	slot.tokens = prompt[:cached]
	m.mu.Unlock()
	c := &modelCall{m: m, slot: slot, stats: CallStats{Start: start, Model: req.Model, Slot: slot.id,
		Prompt: len(prompt), Cached: cached, Evaluated: len(prompt) - cached, System: systemLine(req)}}
	if !sleep(ctx, done, m.p.wall(m.p.Overhead)) {
		c.release()
		return nil, false
	}
	m.prefill.Lock()
	c.stats.Queued = time.Duration(float64(time.Since(start)-m.p.wall(m.p.Overhead)) / m.p.scale())
	c.stats.Prefill = time.Duration(float64(c.stats.Evaluated) / m.p.PrefillTPS * float64(time.Second))
	ok := sleep(ctx, done, m.p.wall(c.stats.Prefill))
	m.prefill.Unlock()
	if !ok {
		c.release()
		return nil, false
	}
	m.mu.Lock()
	slot.tokens = prompt
	m.gen++
	c.generating = true
	m.mu.Unlock()
	return c, true
}

// generate paces text: its tokens at the generation rate, given how many
// sequences generate at once. ok is false when ctx ended first.
func (c *modelCall) generate(ctx context.Context, done <-chan struct{}, text string) bool {
	n := len(c.m.tok.tk.Encode(text))
	c.reply.WriteString(text)
	c.m.mu.Lock()
	others := max(c.m.gen-1, 0)
	c.m.mu.Unlock()
	per := time.Duration(float64(time.Second) / c.m.p.GenTPS * (1 + c.m.p.ParallelSlowdown*float64(others)))
	d := per * time.Duration(n)
	c.stats.Generate += d
	return sleep(ctx, done, c.m.p.wall(d))
}

// release ends the call: the slot keeps what it evaluated and generated
// (Ollama's runner caches the generated tokens too, so a next prompt that
// carries the reply as history finds it) and goes back to the pool.
func (c *modelCall) release() {
	c.m.mu.Lock()
	if c.generating {
		c.m.gen--
		// The reply as one text: its pieces were paced one by one, but
		// the model's tokens are those of the whole.
		if ids := c.m.tok.tk.Encode(c.reply.String()); len(ids) > 0 {
			c.stats.Generated = len(ids)
			c.slot.tokens = append(append(c.slot.tokens, ids...), c.m.tok.encode("<|im_end|>")...)
		}
	}
	c.slot.inUse = false
	c.slot.lastUsed = time.Now()
	c.m.mu.Unlock()
	c.stats.End = time.Now()
	c.m.free <- struct{}{}
}

// metrics are the counters of the final line, as Ollama v0.24 reports
// them: prompt_eval_count is the whole prompt even when the cache held
// most of it, and prompt_eval_duration shows what was really evaluated.
func (c *modelCall) metrics() api.Metrics {
	c.stats.Generated = len(c.m.tok.tk.Encode(c.reply.String()))
	return api.Metrics{
		TotalDuration:      c.m.p.Overhead + c.stats.Queued + c.stats.Prefill + c.stats.Generate,
		PromptEvalCount:    c.stats.Prompt,
		PromptEvalDuration: max(c.stats.Prefill, time.Millisecond),
		EvalCount:          c.stats.Generated,
		EvalDuration:       c.stats.Generate,
	}
}

func sleep(ctx context.Context, done <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-done:
		return false
	}
}

// systemLine is the first line of the request's last system message: an
// application that opens every call with the same preamble (Wayfinder
// does, for the prompt cache) names the call's role in the message after.
func systemLine(req api.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == "system" {
			line, _, _ := cutLine(m.Content)
			return line
		}
	}
	return ""
}

func cutLine(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
