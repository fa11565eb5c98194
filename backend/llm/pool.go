package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/ollama/ollama/api"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
)

// A Client may talk to several Ollama servers (hosts) that hold the same
// models, e.g. two machines with a GPU each. Each attempt of a call goes to
// one host, picked here:
//
//  1. hosts that are up; a host that is down never gets a person's call
//     as its health check: once its backoff has run out, its models are
//     listed (/api/tags, within probeTimeout) and it takes calls again
//     when that answers. The call does not wait for that probe while
//     another host is up; it waits (probeTimeout at most) only when no
//     host is up;
//  2. of those, the ones whose /api/tags lists the model (cached for
//     tagsTTL, since a person pulls models rarely and a listing per call
//     would double the requests); when none lists it, any host that is up,
//     so that the error is the usual "model missing" and the fallback rules
//     apply as with one host;
//  3. the fewest calls in flight from this client, so sub-tasks run at the
//     same time spread over the hosts;
//  4. among equals the host this conversation used last (its prompt-prefix
//     cache holds the conversation, which saves the prefill of all of it),
//     then the order the person listed them in.
//
// When every host is down, the one whose backoff ends first is probed at
// once (unless this call just probed it), and when no probe answers the
// call fails with the probe's error (ollama_unreachable) without a model
// call. A host is marked down when a call or listing on it fails to
// connect, drops its connection or gets a server error, and is probed
// again after a backoff that doubles from hostBackoff up to hostMaxBackoff.
//
// The probe is the listing rather than /api/version: one cheap request
// says both whether the host answers and which models it has.
//
// With a single host none of this runs: no listing, no backoff, the host is
// always the one asked, exactly as before several hosts were possible.
type pool struct {
	hosts  []*endpoint
	now    func() time.Time
	sticky *lru.Cache[string, *endpoint] // conversation → host it last used

	tagsTTL      time.Duration
	tagsTimeout  time.Duration
	probeTimeout time.Duration
	backoff      time.Duration
	maxBackoff   time.Duration

	mu sync.Mutex // guards the mutable fields of every endpoint
}

// Host health timings. A failed host is left alone for a few seconds at
// first (a restart of `ollama serve`), up to a minute (a machine that is
// off), so a down host costs one failed connection a minute at most.
const (
	tagsTTL        = 10 * time.Second
	tagsTimeout    = 5 * time.Second
	probeTimeout   = 2 * time.Second
	hostBackoff    = 2 * time.Second
	hostMaxBackoff = time.Minute
	stickySize     = 1024
)

// endpoint is one Ollama server of the pool.
type endpoint struct {
	url string
	api *api.Client

	// guarded by pool.mu
	inFlight  int
	down      bool
	downSince time.Time
	retryAt   time.Time
	failures  int // consecutive, for the backoff
	lastErr   string
	err       error    // the failure behind lastErr
	checks    int      // listings that ended, so a call knows it probed afresh
	models    []string // from /api/tags, normalised names
	modelsAt  time.Time
	listed    bool          // a listing succeeded once
	listing   chan struct{} // closed when the listing under way ends; nil: none
}

func newPool(urls []string, hc *http.Client) (*pool, error) {
	sticky, err := lru.New[string, *endpoint](stickySize)
	if err != nil {
		return nil, err
	}
	p := &pool{now: time.Now, sticky: sticky, tagsTTL: tagsTTL, tagsTimeout: tagsTimeout,
		probeTimeout: probeTimeout, backoff: hostBackoff, maxBackoff: hostMaxBackoff}
	for _, u := range urls {
		pu, err := ParseHost(u)
		if err != nil {
			return nil, err
		}
		p.hosts = append(p.hosts, &endpoint{url: pu.String(), api: api.NewClient(pu, hc)})
	}
	return p, nil
}

// ParseHosts splits a comma-separated list of Ollama addresses (what
// --ollama-host and the settings hold) and normalises each with ParseHost;
// repeats are dropped. An empty list is the default host.
func ParseHosts(list string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(list, ",") {
		if strings.TrimSpace(part) == "" && strings.TrimSpace(list) != "" {
			continue
		}
		u, err := ParseHost(part)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, u.String()) {
			out = append(out, u.String())
		}
	}
	return out, nil
}

func (p *pool) single() bool { return len(p.hosts) == 1 }

// acquire picks the host for one attempt and counts it in flight; call
// release with the attempt's outcome. With an error (no host answers, or
// ctx ended) nothing is counted and h is the host the error is about.
// since is what checkCounts said when the call began (nil: now), so the
// listings made on the call's way here count as its probes (see pick).
func (p *pool) acquire(ctx context.Context, model, conversation string, since []int) (h *endpoint, err error) {
	h, err = p.pick(ctx, model, conversation, since)
	if err != nil {
		return h, err
	}
	p.mu.Lock()
	h.inFlight++
	p.mu.Unlock()
	return h, nil
}

// release ends an attempt on h: a failure that says the server is in
// trouble marks it down, any answer from it marks it up.
func (p *pool) release(h *endpoint, model string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h.inFlight--
	p.noteLocked(h, model, err)
}

// note records an outcome of a call on h that was not acquired (a listing).
func (p *pool) note(h *endpoint, model string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.noteLocked(h, model, err)
}

func (p *pool) noteLocked(h *endpoint, model string, err error) {
	switch {
	case err == nil:
		h.down, h.failures, h.lastErr, h.err = false, 0, "", nil
	case hostFault(err):
		now := p.now()
		if !h.down {
			h.down, h.downSince = true, now
		}
		backoff := p.backoff << min(h.failures, 10)
		h.failures++
		h.retryAt = now.Add(min(backoff, p.maxBackoff))
		h.lastErr, h.err = err.Error(), err
		h.modelsAt = time.Time{} // list again when it is back
	case errors.Is(err, ErrModelNotFound):
		// The listing was stale (the model was deleted there): forget it,
		// the host answered, so it is up.
		h.down, h.failures, h.lastErr, h.err = false, 0, "", nil
		h.models = slices.DeleteFunc(slices.Clone(h.models), func(m string) bool { return wf.SameModel(m, model) })
	default:
		// The host answered (a timeout, a bad request, a model that does
		// not fit): it is up, the call itself failed.
		if !errors.Is(err, ErrTimeout) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			h.down, h.failures, h.lastErr, h.err = false, 0, "", nil
		}
	}
}

// hostFault says whether err means the server itself is in trouble: it
// cannot be reached, dropped the connection, or answered 5xx.
func hostFault(err error) bool {
	return errors.Is(err, ErrUnreachable) || errors.Is(err, ErrStreamDropped) || errors.Is(err, ErrServer)
}

// another says whether a host other than h could take a retry now: one
// that is up, or whose backoff has run out.
func (p *pool) another(h *endpoint) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	for _, o := range p.hosts {
		if o != h && (!o.down || !now.Before(o.retryAt)) {
			return true
		}
	}
	return false
}

// pick chooses the host for a call of model (may be "") for conversation
// (may be "") without counting it in flight. It fails when no host
// answers: every host is down and the probes of those due say so. A host
// listed since the call began (since, from checkCounts; nil: now) is not
// probed again by it.
func (p *pool) pick(ctx context.Context, model, conversation string, since []int) (*endpoint, error) {
	if p.single() {
		return p.hosts[0], nil
	}
	before := since
	if before == nil {
		before = p.checkCounts()
	}
	if h := p.upHost(ctx, model, conversation); h != nil {
		return h, nil
	}
	// Every host is down. The one back soonest is probed now, backoff or
	// not (a call that waited out a retry's backoff may find it back),
	// unless this call has just probed it.
	p.mu.Lock()
	soonest := slices.MinFunc(p.hosts, func(a, b *endpoint) int { return a.retryAt.Compare(b.retryAt) })
	again := soonest.checks == before[slices.Index(p.hosts, soonest)]
	if again && soonest.listing == nil {
		soonest.retryAt = p.now()
	}
	p.mu.Unlock()
	if again && ctx.Err() == nil {
		p.refreshTags(ctx, model, false)
		if h := p.choose(model, conversation); h != nil {
			return h, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return soonest, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	err := soonest.err
	if err == nil { // came back and went again meanwhile: rare
		err = &Error{Kind: ErrUnreachable, Op: "list", Host: soonest.url, Err: errors.New("no host answers")}
	}
	return soonest, err
}

// upHost is pick without its last resort: the host for a call of model
// among those that are up once the probes that are due have ended, nil
// when none is. A host that is down is not probed before its backoff has
// run out, so a question asked on the way to a call (the model's facts)
// leaves that probe to the call's own pick: one probe per call.
func (p *pool) upHost(ctx context.Context, model, conversation string) *endpoint {
	if p.single() {
		return p.hosts[0]
	}
	p.refreshTags(ctx, model, false)
	return p.choose(model, conversation)
}

// checkCounts is each host's count of ended listings.
func (p *pool) checkCounts() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int, len(p.hosts))
	for i, h := range p.hosts {
		out[i] = h.checks
	}
	return out
}

// choose applies the rules 2–4 of pool to the hosts that are up; nil when
// none is.
func (p *pool) choose(model, conversation string) *endpoint {
	p.mu.Lock()
	defer p.mu.Unlock()
	var up, withModel []*endpoint
	for _, h := range p.hosts {
		if h.down {
			continue
		}
		up = append(up, h)
		if model != "" && slices.ContainsFunc(h.models, func(m string) bool { return wf.SameModel(m, model) }) {
			withModel = append(withModel, h)
		}
	}
	set := withModel
	if len(set) == 0 {
		set = up
	}
	if len(set) == 0 {
		return nil
	}
	var last *endpoint
	if conversation != "" {
		last, _ = p.sticky.Get(conversation)
	}
	best := set[0]
	for _, h := range set[1:] {
		if h.inFlight < best.inFlight || (h.inFlight == best.inFlight && h == last) {
			best = h
		}
	}
	if conversation != "" && best != last {
		p.sticky.Add(conversation, best)
	}
	return best
}

// refreshTags starts the listings that are due, all at once: the probe of
// every host that is down and whose backoff has run out; with model set
// or all, also of every host that is up and whose listing is older than
// tagsTTL. A listing already under way is not started twice. It returns
// when the caller has what it needs:
//
//   - all: every listing has ended (a person asked for the hosts' state);
//   - model set: the first listing of every host has ended (so the first
//     calls already spread over all of them), and a host that is up is
//     known to have the model, or every listing has ended;
//   - model "": some host is up, or every listing has ended.
//
// So a host that went away without closing its connections (a laptop
// asleep) costs its listing's timeout only to itself, not to every call,
// and a probe is waited for only when no host that is up can take the
// call.
func (p *pool) refreshTags(ctx context.Context, model string, all bool) {
	p.mu.Lock()
	now := p.now()
	var first, again []chan struct{} // listings of hosts never listed, of the others
	var todo []*endpoint
	for _, h := range p.hosts {
		switch {
		case h.listing != nil:
		case h.down && now.Before(h.retryAt):
			continue
		case h.down:
			h.listing = make(chan struct{}) // its probe
			todo = append(todo, h)
		case (model == "" && !all) || (!h.modelsAt.IsZero() && now.Sub(h.modelsAt) < p.tagsTTL):
			continue
		default:
			h.listing = make(chan struct{})
			todo = append(todo, h)
		}
		if h.listed {
			again = append(again, h.listing)
		} else {
			first = append(first, h.listing)
		}
	}
	p.mu.Unlock()
	for _, h := range todo {
		go p.listTags(ctx, h)
	}
	for _, ch := range append(first, again...) {
		if !all && len(first) == 0 && p.enough(model) {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
		first = first[min(1, len(first)):]
	}
}

// enough says whether a call of model can go to a host now: one that is
// up has the model (any host that is up when model is "").
func (p *pool) enough(model string) bool {
	if model != "" {
		return p.served(model)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.ContainsFunc(p.hosts, func(h *endpoint) bool { return !h.down })
}

// served says whether a host that is up had model at its last listing
// (however old: the listing under way will correct it).
func (p *pool) served(model string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.hosts {
		if !h.down && h.listed && slices.ContainsFunc(h.models, func(m string) bool { return wf.SameModel(m, model) }) {
			return true
		}
	}
	return false
}

func (p *pool) listTags(ctx context.Context, h *endpoint) {
	// A host that is down gets the short probe timeout: a call may be
	// waiting for it.
	p.mu.Lock()
	timeout := p.tagsTimeout
	if h.down {
		timeout = min(timeout, p.probeTimeout)
	}
	p.mu.Unlock()
	// The listing outlives a caller that gives up: another call waits for it.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	// Whether a connection was made tells a server that took it and hung
	// (Ollama stuck or swamped) from an address nothing answers at.
	var connected atomic.Bool
	lctx = httptrace.WithClientTrace(lctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }})
	list, err := h.api.List(lctx)
	if err != nil && lctx.Err() != nil {
		cause := fmt.Errorf("no connection within %s: %w", timeout, err)
		if connected.Load() {
			cause = fmt.Errorf("%w within %s: %w", errNoAnswer, timeout, err)
		}
		err = &Error{Kind: ErrUnreachable, Op: "list", Host: h.url, Err: cause}
	} else if err != nil {
		err = &Error{Kind: kindOf(err), Op: "list", Host: h.url, Err: err}
		if !hostFault(err) {
			err = &Error{Kind: ErrServer, Op: "list", Host: h.url, Err: err}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil {
		h.models = h.models[:0]
		for _, m := range list.Models {
			h.models = append(h.models, m.Name)
		}
		h.modelsAt, h.listed = p.now(), true
	}
	p.noteLocked(h, "", err)
	h.checks++
	close(h.listing)
	h.listing = nil
}

// HostStates reports each host's state for a person to read (Settings,
// the first-start page, doctor). It lists the models of each host that is
// up (so they are fresh) and of each never asked, and probes a host that is
// down only when its backoff has run out: the window asks every few
// seconds while no host answers, and a reading that probed every host that
// is down would undo the backoff. A host still backing off shows its last
// known state. err is what a call would fail with now when no host is up
// (nil otherwise), so a caller can say so without a call of its own, which
// would probe a host early. With one host it says whether it answers.
func (c *Client) HostStates(ctx context.Context) ([]wf.HostStatus, error) {
	p := c.pool
	p.mu.Lock()
	for _, h := range p.hosts {
		if !h.down {
			h.modelsAt = time.Time{}
		}
	}
	p.mu.Unlock()
	p.refreshTags(ctx, "", true)
	if err := ctx.Err(); err != nil {
		return p.states(), err
	}
	return p.states(), p.noneUp("list")
}

// RetryNow ends the wait of every host that is down, so that the next
// reading of their state (or call) probes it: a person asked to check
// now, say after starting Ollama there. Reading the state alone never
// does (the window reads it every few seconds); a probe that fails
// doubles the wait as before.
func (c *Client) RetryNow() {
	p := c.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	for _, h := range p.hosts {
		if h.down && h.retryAt.After(now) {
			h.retryAt = now
		}
	}
}

// noneUp is the error of a call of op when no host is up: the failure of
// the host back soonest; nil when a host is up.
func (p *pool) noneUp(op string) error {
	if p.anyUp() {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	soonest := slices.MinFunc(p.hosts, func(a, b *endpoint) int { return a.retryAt.Compare(b.retryAt) })
	cause := soonest.err
	if cause == nil { // listed as down without an error: not expected
		cause = errors.New("down")
	}
	return noHost(op, "", soonest.url, cause)
}

// anyUp says whether some host is up (one host always is: it is always
// asked).
func (p *pool) anyUp() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.single() || slices.ContainsFunc(p.hosts, func(h *endpoint) bool { return !h.down })
}

// downErr is the failure that put h down while it is, nil when it is up
// (or the only host, which is always asked).
func (p *pool) downErr(h *endpoint) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.single() || !h.down {
		return nil
	}
	if h.err == nil {
		return &Error{Kind: ErrUnreachable, Op: "list", Host: h.url, Err: errors.New("down")}
	}
	return h.err
}

func (p *pool) states() []wf.HostStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]wf.HostStatus, 0, len(p.hosts))
	for _, h := range p.hosts {
		st := wf.HostStatus{URL: h.url, Up: !h.down, InFlight: h.inFlight, Models: slices.Clone(h.models)}
		if st.Models == nil {
			st.Models = []string{}
		}
		if h.down {
			st.DownSince, st.RetryAt, st.Error = h.downSince, h.retryAt, h.lastErr
			if h.err != nil {
				st.Code = hostCode(h.err)
			}
		}
		out = append(out, st)
	}
	return out
}

// errNoAnswer is the cause of a listing that got a connection but no
// answer in time.
var errNoAnswer = errors.New("connected, but no answer")

// hostCode sorts why a host is down for the person: ErrTimeout when it
// took the connection but did not answer in time (Ollama busy or stuck
// there), otherwise as Classify does (ollama_unreachable when no
// connection was made: nothing listens at the address, or it is off).
func hostCode(err error) wf.ErrorCode {
	if errors.Is(err, errNoAnswer) {
		return wf.ErrTimeout
	}
	return Classify(err).Code
}

// Hosts are the normalised addresses of the servers, in the order given.
func (c *Client) Hosts() []string {
	out := make([]string, len(c.pool.hosts))
	for i, h := range c.pool.hosts {
		out[i] = h.url
	}
	return out
}
