// Package llm is Wayfinder's only way to talk to Ollama. It wraps the
// official client (github.com/ollama/ollama/api) with what every caller
// would otherwise repeat: an explicit context size (Ollama's default
// silently truncates long prompts), timeouts for a model that never answers,
// retries that never duplicate streamed text, structured output decoded into
// Go values, batched embeddings, and errors typed so the UI can say in plain
// words what to do next (see Classify).
//
// Messages, tools and tool calls are the official api types; only the
// request and response of a chat are Wayfinder's own, to keep callers free of
// Ollama's pointer-valued switches and to carry token counts and retries.
package llm

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Defaults, chosen for a 3B model on a laptop CPU.
const (
	DefaultHost       = "http://127.0.0.1:11434"
	DefaultNumCtx     = 8192
	DefaultMaxRetries = 3
	DefaultEmbedBatch = 32
	// MaxModelNumCtx caps a model's own context length when it is used as
	// num_ctx (WithNumCtx(0)): Ollama reserves memory for the whole
	// context, and a 128k-token context of a 4B model would take tens of
	// gigabytes.
	MaxModelNumCtx = 32768
)

// Timeouts bound how long Wayfinder waits for Ollama. Zero fields keep the
// defaults.
type Timeouts struct {
	// FirstToken is the wait for the first chunk of a reply; it includes
	// loading the model from disk, which can take a while on a cold start.
	FirstToken time.Duration
	// Idle is the longest pause between two chunks of a reply.
	Idle time.Duration
	// Request bounds one non-streaming call (version, list, show, one
	// embedding batch).
	Request time.Duration
	// PullIdle is the longest pause between two progress lines of a pull.
	PullIdle time.Duration
}

// DefaultTimeouts are generous: a slow answer is better than a false alarm,
// and a cold model load on a laptop CPU can take a minute.
func DefaultTimeouts() Timeouts {
	return Timeouts{
		FirstToken: 120 * time.Second,
		Idle:       60 * time.Second,
		Request:    120 * time.Second,
		PullIdle:   5 * time.Minute,
	}
}

type config struct {
	httpClient *http.Client
	numCtx     int
	maxRetries int
	backoff    time.Duration
	maxBackoff time.Duration
	timeouts   Timeouts
	embedBatch int
	logger     *slog.Logger
	memo       ContextMemo // nil: context lengths are not kept beyond the client
}

// Option configures a Client.
type Option func(*config)

// WithHTTPClient sets the HTTP client, e.g. one whose transport refuses every
// host but Ollama's.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.httpClient = hc } }

// WithNumCtx sets the context size sent as num_ctx; 0 (or less) uses each
// model's own context length, up to MaxModelNumCtx (see ContextSize).
func WithNumCtx(n int) Option {
	return func(c *config) { c.numCtx = max(n, 0) }
}

// WithRetry sets how many times a failed call is retried (0 disables
// retries) and the first backoff, which doubles each time up to 5 s.
func WithRetry(maxRetries int, backoff time.Duration) Option {
	return func(c *config) {
		c.maxRetries = max(0, maxRetries)
		c.backoff = backoff
	}
}

// WithTimeouts overrides timeouts; zero fields keep the defaults.
func WithTimeouts(t Timeouts) Option {
	return func(c *config) {
		if t.FirstToken > 0 {
			c.timeouts.FirstToken = t.FirstToken
		}
		if t.Idle > 0 {
			c.timeouts.Idle = t.Idle
		}
		if t.Request > 0 {
			c.timeouts.Request = t.Request
		}
		if t.PullIdle > 0 {
			c.timeouts.PullIdle = t.PullIdle
		}
	}
}

// WithEmbedBatch sets how many texts go into one /api/embed request.
func WithEmbedBatch(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.embedBatch = n
		}
	}
}

// WithLogger sets where retries are logged (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Client talks to one Ollama server, or to several that share the work
// (see pool). It is safe for concurrent use.
type Client struct {
	pool    *pool
	host    string // the hosts, normalised and joined with ", ", for messages
	cfg     config
	facts   modelFacts
	queries *lru.Cache[string, queryVector] // recent single-input embeddings, by model and text
}

// New returns a client for host ("http://127.0.0.1:11434", "127.0.0.1:11434"
// or "" for the default), or for several hosts separated by commas. It does
// not contact the servers.
func New(host string, opts ...Option) (*Client, error) {
	urls, err := ParseHosts(host)
	if err != nil {
		return nil, err
	}
	cfg := config{
		numCtx:     DefaultNumCtx,
		maxRetries: DefaultMaxRetries,
		backoff:    250 * time.Millisecond,
		maxBackoff: 5 * time.Second,
		timeouts:   DefaultTimeouts(),
		embedBatch: DefaultEmbedBatch,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.httpClient == nil {
		cfg.httpClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	// (The expirable variant of this cache starts a goroutine that never
	// ends; a client is replaced whenever the settings change.)
	queries, err := lru.New[string, queryVector](queryCacheSize)
	if err != nil {
		return nil, err
	}
	p, err := newPool(urls, cfg.httpClient)
	if err != nil {
		return nil, err
	}
	return &Client{pool: p, host: strings.Join(urls, ", "), cfg: cfg, queries: queries}, nil
}

// Host is the normalised base URL (several joined with ", "), for messages.
func (c *Client) Host() string { return c.host }

// ParseHost normalises an Ollama address the way OLLAMA_HOST is read: the
// scheme defaults to http and the port to 11434.
func ParseHost(host string) (*url.URL, error) {
	host = strings.TrimSpace(host)
	if host == "" {
		host = DefaultHost
	}
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("parse ollama host %q: %w", host, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("parse ollama host %q: scheme must be http or https", host)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("parse ollama host %q: no host name", host)
	}
	if u.Port() == "" && u.Scheme == "http" {
		u.Host = net.JoinHostPort(u.Hostname(), "11434")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}
