package main

// What a person waits for with a real local model (issue 23): each seed
// scenario run through `wayfinder serve` of this build and of the baseline
// build (34526c5, before the work on speed), both against the same fake
// Ollama running a model server's latency model (ollamatest.Profile:
// prefill, generation, slots, prefix cache), for each profile. Times come
// from the event stream as the browser receives it; tokens and calls from
// the fake's accounting of every call.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// speedBaseline is main before this session's work on speed.
const speedBaseline = "34526c5"

// speedConfig is one model server set-up.
type speedConfig struct {
	Name    string `json:"name"`
	Profile string `json:"profile"`
	Slots   int    `json:"slots"`
	// Hosts is how many such servers share the calls (0 or 1: one). With
	// several, only this build runs (the baseline has one host) and only
	// the complex tasks, the scenarios whose sub-tasks can spread.
	Hosts int `json:"hosts,omitempty"`
}

// key names the set-up for -speed-configs: "gpu4", "2xgpu4".
func (c speedConfig) key() string {
	k := c.Profile + fmt.Sprint(c.Slots)
	if c.Hosts > 1 {
		k = fmt.Sprintf("%dx%s", c.Hosts, k)
	}
	return k
}

func (c speedConfig) hosts() int { return max(c.Hosts, 1) }

var speedConfigs = []speedConfig{
	{"CPU, 1 slot", "cpu", 1, 1},
	{"CPU, 4 slots", "cpu", 4, 1},
	{"GPU, 1 slot", "gpu", 1, 1},
	{"GPU, 4 slots", "gpu", 4, 1},
	{"2 × GPU, 1 slot each", "gpu", 1, 2},
	{"2 × GPU, 4 slots each", "gpu", 4, 2},
}

// phase is one request of the person (a message, a decision) and what
// followed it, in modelled milliseconds from the request.
type phase struct {
	FirstProgressMS float64 `json:"first_progress_ms"` // the first thing shown besides their own message
	FirstTokenMS    float64 `json:"first_token_ms"`    // the first text of the answer, plan or guide
	DoneMS          float64 `json:"done_ms"`           // the answer finished, or the plan shown
	Ended           string  `json:"ended"`             // finished, approval, failed
	// plan is the version of the plan the phase asked about, which the
	// decision names (a build from before versions sends none, harmlessly).
	plan string
}

// speedRow is one scenario on one build and set-up.
type speedRow struct {
	Build     string  `json:"build"`
	Config    string  `json:"config"`
	Scenario  string  `json:"scenario"`
	Phases    []phase `json:"phases"`
	Critical  int     `json:"calls_critical"`     // model calls before the last phase ended
	After     int     `json:"calls_after"`        // model calls after it (summaries, reflection)
	Sent      int     `json:"prompt_tokens_sent"` // prompt tokens of all the calls
	Evaluated int     `json:"prompt_tokens_evaluated"`
	Generated int     `json:"generated_tokens"`
	// The headline times, in modelled milliseconds: the first progress
	// and the first answer or guide token of the last phase (for a task:
	// after the approval), and the end of the whole scenario's phases.
	FirstProgressMS float64 `json:"first_progress_ms"`
	FirstTokenMS    float64 `json:"first_token_ms"`
	DoneMS          float64 `json:"done_ms"`
	Error           string  `json:"error,omitempty"`
	// Calls are the fake's figures for each model call, in order (role,
	// slot, tokens sent and cached): where a prompt stopped matching.
	Calls []ollamatest.CallStats `json:"calls,omitempty"`
}

// speedScenario drives one scenario; it returns the phases measured.
type speedScenario struct {
	name string
	run  func(ctx context.Context, r *speedRun) ([]phase, error)
}

var speedScenarios = []speedScenario{
	{"greeting", func(ctx context.Context, r *speedRun) ([]phase, error) { return r.send(ctx, "", "안녕하세요") }},
	{"calculator", func(ctx context.Context, r *speedRun) ([]phase, error) {
		return r.send(ctx, "", "123*456은 얼마야?")
	}},
	{"document question", func(ctx context.Context, r *speedRun) ([]phase, error) {
		return r.send(ctx, "", "회사 휴가 정책에서 연차는 며칠이야?")
	}},
	{"turn 25 of a conversation", func(ctx context.Context, r *speedRun) ([]phase, error) { return r.turn25(ctx) }},
	{"complex task, 4 sub-tasks", func(ctx context.Context, r *speedRun) ([]phase, error) { return r.task(ctx, false) }},
	{"complex task, revised once", func(ctx context.Context, r *speedRun) ([]phase, error) { return r.task(ctx, true) }},
}

// speedRun is one build under one set-up: its serve process and the fakes.
type speedRun struct {
	srv   *served
	fake  fakes
	cfg   speedConfig
	scale float64
	// profile turns the latency model on (true) or off (the warm-up turns).
	profile func(on bool)
	// answered is when the last request's answer was all there (its last
	// text), or zero: the work after the answer starts later.
	answered time.Time
}

// modelled turns a wall-clock duration into modelled milliseconds.
func (r *speedRun) modelled(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000 / r.scale
}

// send sends a message and measures the turn.
func (r *speedRun) send(ctx context.Context, session, text string) ([]phase, error) {
	_, p, err := r.request(ctx, func() (string, error) {
		var ack api.SendAck
		err := r.srv.call(ctx, "ChatService", "Send", &ack, session, text)
		return ack.SessionID, err
	})
	return []phase{p}, err
}

// request runs one request of the person and waits for the turn's end.
func (r *speedRun) request(ctx context.Context, do func() (string, error)) (string, phase, error) {
	from := r.srv.mark()
	start := time.Now()
	session, err := do()
	if err != nil {
		return "", phase{}, err
	}
	// A turn that asks for approval emits the plan, then its end.
	evs, err := r.srv.waitEvent(ctx, from, 30*time.Minute, func(e event) bool {
		return e.name == api.EventTurnFinished || e.name == api.EventTurnFailed
	})
	if err != nil {
		return session, phase{}, err
	}
	var p phase
	r.answered = time.Time{}
	for _, e := range evs {
		ms := r.modelled(e.at.Sub(start))
		if e.name == api.EventToken || e.name == api.EventApproval {
			r.answered = e.at
		}
		if p.FirstProgressMS == 0 && visible(e) {
			p.FirstProgressMS = ms
		}
		if p.FirstTokenMS == 0 && e.name == api.EventToken {
			p.FirstTokenMS = ms
		}
	}
	last := evs[len(evs)-1]
	p.DoneMS = r.modelled(last.at.Sub(start))
	p.Ended = map[string]string{api.EventTurnFinished: "finished", api.EventTurnFailed: "failed"}[last.name]
	for _, e := range evs {
		if e.name == api.EventApproval {
			p.Ended = "approval"
			p.DoneMS = r.modelled(e.at.Sub(start))
			var a api.ApprovalRequired
			if err := json.Unmarshal(e.data, &a); err == nil {
				p.plan = a.Approval.Version
			}
		}
	}
	if p.Ended == "failed" {
		return session, p, fmt.Errorf("turn failed: %s", last.data)
	}
	return session, p, nil
}

// visible says whether an event shows the person something besides their
// own message: a step of the trace, progress, text, a plan.
func visible(e event) bool {
	switch e.name {
	case api.EventTurnStarted, api.EventSessions, api.EventMemories, api.EventStatusChanged:
		return false
	case api.EventTrace:
		var t api.TraceEvent
		if json.Unmarshal(e.data, &t) == nil && (t.Kind == api.TraceNodeStarted || t.Kind == api.TraceNodeFinished) {
			return false
		}
	}
	return strings.HasPrefix(e.name, "chat.")
}

// turn25 runs 23 turns of a conversation without the latency model,
// turn 24 with it (so the server's caches hold what a real one would) and
// measures turn 25.
func (r *speedRun) turn25(ctx context.Context) ([]phase, error) {
	r.profile(false)
	session := ""
	for i := 1; i <= 24; i++ {
		if i == 24 {
			r.settle(ctx)
			r.profile(true)
		}
		r.settle(ctx) // the person reads the answer; the work after it ends
		var ack api.SendAck
		_, _, err := r.request(ctx, func() (string, error) {
			err := r.srv.call(ctx, "ChatService", "Send", &ack, session, fmt.Sprintf("Turn %d: here is more about my café, which sells hand-drip coffee and cakes; what should I do next?", i))
			return ack.SessionID, err
		})
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i, err)
		}
		session = ack.SessionID
	}
	r.settle(ctx)
	r.fake.Reset()
	r.fake.script()
	return r.send(ctx, session, "Turn 25: here is more about my café, which sells hand-drip coffee and cakes; what should I do next?")
}

// task sends the complex task, revises the plan once when asked, and
// approves it.
func (r *speedRun) task(ctx context.Context, revise bool) ([]phase, error) {
	var phases []phase
	session, p, err := r.request(ctx, func() (string, error) {
		var ack api.SendAck
		err := r.srv.call(ctx, "ChatService", "Send", &ack, "", world.ComplexTask)
		return ack.SessionID, err
	})
	if err != nil {
		return nil, err
	}
	phases = append(phases, p)
	decide := func(d api.ApprovalDecision) error {
		_, p, err := r.request(ctx, func() (string, error) {
			return session, r.srv.call(ctx, "ChatService", "Decide", nil, session, d)
		})
		phases = append(phases, p)
		return err
	}
	waiting := func() string { return phases[len(phases)-1].plan }
	if revise {
		if err := decide(api.ApprovalDecision{Action: api.ActionRevise, Feedback: "무료 도구만 써 주세요", Version: waiting()}); err != nil {
			return phases, err
		}
	}
	if p := phases[len(phases)-1]; p.Ended != "approval" {
		return phases, fmt.Errorf("want a plan to approve, the turn ended %s", p.Ended)
	}
	if err := decide(api.ApprovalDecision{Action: api.ActionApprove, Version: waiting()}); err != nil {
		return phases, err
	}
	if r.fake.Count(ollamatest.PathChat) < 3 {
		return phases, fmt.Errorf("the task made %d model calls: it did not plan and recommend", r.fake.Count(ollamatest.PathChat))
	}
	return phases, nil
}

// settle waits until the server has had no call in flight for a while:
// the after-turn work (summaries, reflection) is done.
func (r *speedRun) settle(ctx context.Context) {
	quiet := time.Duration(float64(time.Second) * max(r.scale, 0.5))
	stable := time.Now()
	last := -1
	for time.Since(stable) < quiet && ctx.Err() == nil {
		if n := r.fake.Count(ollamatest.PathChat); n != last || r.fake.InFlight() > 0 {
			last, stable = n, time.Now()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// measureSpeed runs every scenario for one build (bin) and set-up.
// extra are serve's flags for this build (the baseline has none of them).
func measureSpeed(ctx context.Context, build, bin, tokenizer string, cfg speedConfig, scale float64, handbook string, extra []string, log func(string, ...any)) []speedRow {
	var rows []speedRow
	fail := func(sc string, err error) {
		rows = append(rows, speedRow{Build: build, Config: cfg.Name, Scenario: sc, Error: firstLine(err)})
	}
	profile, err := ollamatest.ProfileNamed(cfg.Profile, cfg.Slots)
	if err != nil {
		fail("all", err)
		return rows
	}
	profile.Scale = scale
	if cfg.hosts() > 1 && len(extra) == 0 {
		return nil // the baseline has one host
	}
	opts := []ollamatest.Option{ollamatest.WithModels(append(ollamatest.DefaultModels(),
		ollamatest.Model{Name: benchModel, Capabilities: []string{"completion", "tools"}, Size: 2_497_293_931, ContextLength: 40960})...)}
	if tokenizer != "" {
		tk, err := ollamatest.LoadTokenizer(tokenizer)
		if err != nil {
			fail("all", err)
			return rows
		}
		opts = append(opts, ollamatest.WithTokenizer(tk))
	}
	var fake fakes
	defer func() { fake.Close() }()
	for range cfg.hosts() {
		f, err := ollamatest.Start("127.0.0.1:0", opts...)
		if err != nil {
			fail("all", err)
			return rows
		}
		fake = append(fake, f)
	}
	fake.script()
	data, err := os.MkdirTemp("", "wayfinder-bench-speed-")
	if err != nil {
		fail("all", err)
		return rows
	}
	defer os.RemoveAll(data)
	imp := exec.CommandContext(ctx, bin, "--data-dir", data, "--ollama-host", fake.URL(), "--embed-model", "bge-m3", "kb", "import", handbook)
	if out, err := imp.CombinedOutput(); err != nil {
		fail("all", fmt.Errorf("kb import: %w: %s", err, out))
		return rows
	}
	srv, err := startServe(ctx, bin, data, fake.URL(), benchModel, extra...)
	if err != nil {
		fail("all", err)
		return rows
	}
	defer srv.close()
	run := &speedRun{srv: srv, fake: fake, cfg: cfg, scale: scale, profile: func(on bool) {
		if on {
			fake.SetProfile(&profile)
		} else {
			fake.SetProfile(nil)
		}
	}}
	// Start-up work (catalog embedding, status checks) is over before the
	// person's first message, as in an app that has been open a moment.
	run.settle(ctx)
	time.Sleep(2 * time.Second)
	run.settle(ctx)
	// One server for all the scenarios, in order, as a person's Ollama:
	// what one conversation left in its slots is there for the next.
	run.profile(true)
	for _, sc := range speedScenarios {
		if cfg.hosts() > 1 && !strings.HasPrefix(sc.name, "complex task") {
			continue
		}
		log("speed: %s, %s, %s", build, cfg.Name, sc.name)
		run.settle(ctx)
		fake.Reset()
		fake.script()
		phases, err := sc.run(ctx, run)
		if err != nil {
			fail(sc.name, err)
			continue
		}
		end := run.answered
		if end.IsZero() {
			end = time.Now()
		}
		run.settle(ctx)
		row := speedRow{Build: build, Config: cfg.Name, Scenario: sc.name, Phases: phases}
		last := phases[len(phases)-1]
		row.FirstProgressMS, row.FirstTokenMS = last.FirstProgressMS, last.FirstTokenMS
		for _, p := range phases {
			row.DoneMS += p.DoneMS
		}
		for _, c := range fake.Stats() {
			if c.Start.Before(end) {
				row.Critical++
			} else {
				row.After++
			}
			row.Sent += c.Prompt
			row.Evaluated += c.Evaluated
			row.Generated += c.Generated
			row.Calls = append(row.Calls, c)
		}
		rows = append(rows, row)
	}
	return rows
}

func firstLine(err error) string {
	return strings.ReplaceAll(strings.SplitN(err.Error(), "\n", 2)[0], "|", "/")
}

// writeHandbook writes the document the document question is about.
func writeHandbook(dir string) (string, error) {
	path := filepath.Join(dir, "employee-handbook.md")
	text := "# 직원 안내서\n\n## 휴가 정책\n\n연차는 15일, 병가는 10일입니다. 연차는 입사 1년 후부터 사용할 수 있습니다. " +
		"휴가를 쓰려면 2주 전에 팀장에게 알립니다.\n\n## 근무 시간\n\n근무 시간은 오전 9시부터 오후 6시까지이며 점심시간은 한 시간입니다.\n"
	return path, os.WriteFile(path, []byte(text), 0o644)
}

// fakes are the fake Ollama servers of one set-up, one per host; their
// accounting is added up, as one server's would be.
type fakes []*ollamatest.Server

// URL is the --ollama-host value: the hosts separated by commas.
func (f fakes) URL() string {
	urls := make([]string, len(f))
	for i, s := range f {
		urls[i] = s.URL()
	}
	return strings.Join(urls, ",")
}

func (f fakes) Count(path string) (n int) {
	for _, s := range f {
		n += s.Count(path)
	}
	return n
}

func (f fakes) InFlight() (n int) {
	for _, s := range f {
		n += s.InFlight()
	}
	return n
}

// Stats are every host's calls.
func (f fakes) Stats() []ollamatest.CallStats {
	var out []ollamatest.CallStats
	for _, s := range f {
		out = append(out, s.Stats()...)
	}
	return out
}

func (f fakes) Reset() {
	for _, s := range f {
		s.Reset()
	}
}

// SetProfile gives each host a latency model of its own (own slots and
// caches), as separate machines have.
func (f fakes) SetProfile(p *ollamatest.Profile) {
	for _, s := range f {
		s.SetProfile(p)
	}
}

func (f fakes) script() {
	for _, s := range f {
		scriptSpeed(s)
	}
}

func (f fakes) Close() {
	for _, s := range f {
		s.Close()
	}
}
