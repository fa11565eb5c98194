// Package ollamatest is a fake Ollama server for tests. It speaks the real
// wire format (NDJSON streams, api.ChatResponse chunks, {"error": ...}
// bodies) so the official github.com/ollama/ollama/api client, and
// everything built on it, runs against it unchanged.
//
// Tests script the model's replies (FIFO with Script, or rules with On),
// inject faults (latency, HTTP 500, missing model, dropped connection,
// malformed JSON, never answering, empty replies) and then assert on the
// requests the server recorded: prompts, tools, format, num_ctx and the
// number of calls per endpoint.
//
//	srv := ollamatest.New(t)
//	srv.Script(ollamatest.Reply{Text: "Hi there"})
//	// ... point the code under test at srv.URL() ...
//	if got := srv.Count(ollamatest.PathChat); got != 1 { ... }
package ollamatest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// Endpoint paths, for Count and Fail.
const (
	PathChat    = "/api/chat"
	PathEmbed   = "/api/embed"
	PathTags    = "/api/tags"
	PathShow    = "/api/show"
	PathPull    = "/api/pull"
	PathVersion = "/api/version"
	PathDelete  = "/api/delete"
)

// Request is one HTTP request as the fake received it.
type Request struct {
	Method string
	Path   string
	Body   []byte
	At     time.Time
}

// Server is the fake. All methods are safe for concurrent use.
type Server struct {
	ts     *httptest.Server
	closed chan struct{}
	once   sync.Once

	mu          sync.Mutex
	cfg         config
	script      []Reply
	rules       []*rule
	faults      map[string][]Fault // per path, consumed front first; a Fault with Times<0 stays
	requests    []Request
	counts      map[string]int
	corruptions int
	rng         *rand.Rand
	lat         *latencyModel // nil: no latency model (WithProfile)
	inFlight    int           // chat requests being answered
	tok         *tokens
	stats       []CallStats
}

// config holds what options set.
type config struct {
	models       []Model
	defaultReply Reply
	embedDim     int
	version      string
	latency      time.Duration
	chunkDelay   time.Duration
	pullDelay    time.Duration
	pullFailures map[string]string
	corruptP     float64
	cutAnywhere  bool
	listPlans    bool
	seed         int64
	profile      *Profile
	tokenizer    Tokenizer
	// embedOverflowHang: an embedding input longer than the model's
	// context hangs (WithEmbedOverflowHang).
	embedOverflowHang bool
}

// Option configures a Server.
type Option func(*config)

// WithModels replaces the installed models (default: DefaultModels()).
func WithModels(models ...Model) Option {
	return func(c *config) { c.models = append([]Model(nil), models...) }
}

// WithDefaultReply sets the reply used when no scripted reply or rule applies
// (default: Reply{Text: "ok"}).
func WithDefaultReply(r Reply) Option { return func(c *config) { c.defaultReply = r } }

// WithEmbedDim sets the length of embedding vectors (default 64).
func WithEmbedDim(n int) Option { return func(c *config) { c.embedDim = n } }

// WithVersion sets what /api/version reports (default "0.34.4").
func WithVersion(v string) Option { return func(c *config) { c.version = v } }

// WithLatency delays every response by d before anything is written.
func WithLatency(d time.Duration) Option { return func(c *config) { c.latency = d } }

// WithChunkDelay sets the pause between streamed chunks for replies that do
// not set their own.
func WithChunkDelay(d time.Duration) Option { return func(c *config) { c.chunkDelay = d } }

// WithPullDelay sets the pause between pull progress lines (default 0).
func WithPullDelay(d time.Duration) Option { return func(c *config) { c.pullDelay = d } }

// WithPullFailure makes a pull of model fail the way the real server does
// without network: a 200 response whose stream carries {"error": message}.
func WithPullFailure(model, message string) Option {
	return func(c *config) { c.pullFailures[normalizeName(model)] = message }
}

// WithCorruption corrupts each structured (format) reply with probability p,
// using a generator seeded with seed so failing runs can be replayed.
func WithCorruption(seed int64, p float64) Option {
	return func(c *config) { c.seed, c.corruptP = seed, p }
}

// WithCutAnywhere makes a corrupted reply that is cut short (one in four,
// WithCorruption) end at a seeded point anywhere in it instead of its
// middle, as a dropped stream or a token limit ends it: inside a value, a
// step or a key.
func WithCutAnywhere() Option { return func(c *config) { c.cutAnywhere = true } }

// WithListPlans makes a corrupted reply that holds a plan (WithCorruption)
// the numbered list a small model writes instead of JSON, with a lead-in
// and often a closing line ("진행할까요?", "Let me know if you want
// changes."), where it is broken as other replies are.
func WithListPlans() Option { return func(c *config) { c.listPlans = true } }

// WithProfile runs every chat call through a model server's latency
// model (Profile): slots, prefix cache, prefill and generation time.
func WithProfile(p Profile) Option { return func(c *config) { c.profile = &p } }

// WithTokenizer counts prompt and output tokens with tk (default:
// EstimateTokenizer) for the latency model and the reported counts.
func WithTokenizer(tk Tokenizer) Option { return func(c *config) { c.tokenizer = tk } }

// WithEmbedOverflowHang makes /api/embed never answer a request with an
// input longer than the model's context (Model.ContextLength, in the
// fake's tokens), as Ollama 0.24 did; a request that says
// "truncate": false is refused with 400 all the same.
func WithEmbedOverflowHang() Option { return func(c *config) { c.embedOverflowHang = true } }

// New starts a fake on a random loopback port and closes it when the test
// ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := newServer(opts)
	s.ts = httptest.NewServer(s)
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake listening on addr (e.g. "127.0.0.1:0") for use outside
// tests, such as the fake-ollama command. Call Close when done.
func Start(addr string, opts ...Option) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := newServer(opts)
	s.ts = httptest.NewUnstartedServer(s)
	s.ts.Listener.Close()
	s.ts.Listener = l
	s.ts.Start()
	return s, nil
}

func newServer(opts []Option) *Server {
	cfg := config{
		models:       DefaultModels(),
		defaultReply: Reply{Text: "ok"},
		embedDim:     64,
		version:      "0.34.4",
		pullFailures: map[string]string{},
	}
	for _, o := range opts {
		o(&cfg)
	}
	for i := range cfg.models {
		cfg.models[i].Name = normalizeName(cfg.models[i].Name)
	}
	s := &Server{
		closed: make(chan struct{}),
		cfg:    cfg,
		faults: map[string][]Fault{},
		counts: map[string]int{},
		rng:    rand.New(rand.NewSource(cfg.seed)),
		tok:    newTokens(cfg.tokenizer),
	}
	if cfg.profile != nil {
		s.lat = newLatencyModel(*cfg.profile, s.tok)
	}
	return s
}

// SetProfile replaces the latency model (nil: none); the new one starts
// with empty caches. Calls under way finish under the old one.
func (s *Server) SetProfile(p *Profile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lat = nil
	if p != nil {
		s.lat = newLatencyModel(*p, s.tok)
	}
}

func (s *Server) latencyModel() *latencyModel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lat
}

// InFlight is how many chat requests are being answered now.
func (s *Server) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inFlight
}

// Stats returns what each chat call cost under the latency model, oldest
// first (none without one).
func (s *Server) Stats() []CallStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]CallStats(nil), s.stats...)
}

func (s *Server) addStats(c CallStats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = append(s.stats, c)
}

// URL is the base URL, e.g. http://127.0.0.1:43210.
func (s *Server) URL() string { return s.ts.URL }

// Vanish stops taking connections and leaves those open as they are: a
// host that went away without closing them (a laptop asleep, a cable
// pulled), where Close is an Ollama that stopped and closed them.
func (s *Server) Vanish() { s.ts.Listener.Close() }

// Close stops the server. Requests blocked in a "never answer" fault are
// released first so Close cannot hang.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// ServeHTTP records the request, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if strings.HasPrefix(r.URL.Path, controlPrefix) {
		s.handleControl(w, r, body)
		return
	}
	s.record(r, body)
	if !s.wait(r.Context(), s.latency()) {
		return
	}
	if r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		io.WriteString(w, "Ollama is running")
		return
	}
	if f, ok := s.takeFault(r.URL.Path); ok {
		if r.URL.Path == PathChat {
			s.handleChat(w, r, body, &f)
			return
		}
		var named struct{ Model, Name string }
		json.Unmarshal(body, &named)
		if named.Model == "" {
			named.Model = named.Name
		}
		s.serveFault(w, r, f, named.Model)
		return
	}
	switch r.URL.Path {
	case PathChat:
		s.handleChat(w, r, body, nil)
	case PathEmbed:
		if lat := s.latencyModel(); lat != nil && !s.wait(r.Context(), lat.p.wall(lat.p.Embed)) {
			return
		}
		s.handleEmbed(w, r, body)
	case PathTags:
		s.handleTags(w)
	case PathShow:
		s.handleShow(w, body)
	case PathPull:
		s.handlePull(w, r, body)
	case PathDelete:
		s.handleDelete(w, body)
	case PathVersion:
		writeJSON(w, http.StatusOK, map[string]string{"version": s.cfgVersion()})
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "404 page not found"})
	}
}

func (s *Server) record(r *http.Request, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body, At: time.Now()})
	s.counts[r.URL.Path]++
}

func (s *Server) latency() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.latency
}

func (s *Server) cfgVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.version
}

// wait sleeps for d unless the request or the server ends first; it reports
// whether the handler should go on.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
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
	case <-s.closed:
		return false
	}
}

// Requests returns every request received, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count returns how many requests reached path (e.g. PathChat).
func (s *Server) Count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[path]
}

// ChatRequests returns the decoded /api/chat requests, oldest first.
func (s *Server) ChatRequests() []api.ChatRequest {
	var out []api.ChatRequest
	for _, r := range s.Requests() {
		if r.Path != PathChat {
			continue
		}
		var req api.ChatRequest
		if json.Unmarshal(r.Body, &req) == nil {
			out = append(out, req)
		}
	}
	return out
}

// LastChat returns the most recent /api/chat request; ok is false when there
// was none.
func (s *Server) LastChat() (req api.ChatRequest, ok bool) {
	all := s.ChatRequests()
	if len(all) == 0 {
		return req, false
	}
	return all[len(all)-1], true
}

// EmbedRequests returns the decoded /api/embed requests, oldest first.
func (s *Server) EmbedRequests() []api.EmbedRequest {
	var out []api.EmbedRequest
	for _, r := range s.Requests() {
		if r.Path != PathEmbed {
			continue
		}
		var req api.EmbedRequest
		if json.Unmarshal(r.Body, &req) == nil {
			out = append(out, req)
		}
	}
	return out
}

// Corruptions returns how many structured replies WithCorruption broke.
func (s *Server) Corruptions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.corruptions
}

// Reset forgets scripted replies, rules, pending faults and recorded
// requests; options given at construction stay.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.rules, s.requests, s.stats = nil, nil, nil, nil
	s.faults = map[string][]Fault{}
	s.counts = map[string]int{}
	s.corruptions = 0
}

// Fail makes the next times requests to path fail with fault (times < 0:
// every request until Reset). For PathChat the fault replaces the reply's
// own, so a scripted reply is not consumed by the failed request.
func (s *Server) Fail(path string, times int, fault Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if times < 0 {
		fault.sticky = true
		times = 1
	}
	for range times {
		s.faults[path] = append(s.faults[path], fault)
	}
}

func (s *Server) takeFault(path string) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.faults[path]
	if len(q) == 0 {
		return Fault{}, false
	}
	f := q[0]
	if !f.sticky {
		s.faults[path] = q[1:]
	}
	return f, true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeLine writes one NDJSON line and flushes it so the client sees it now.
func writeLine(w http.ResponseWriter, v any) error {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}
