package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// clock is a hand-moved time for the pool's backoff.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newPoolClient is newClient for several fakes, on a hand-moved clock.
func newPoolClient(t *testing.T, urls ...string) (*Client, *clock) {
	t.Helper()
	c := newClient(t, strings.Join(urls, ","))
	clk := &clock{t: time.Date(2026, 11, 26, 22, 0, 0, 0, time.UTC)}
	c.pool.now = clk.now
	return c, clk
}

// listed waits until no listing of the hosts' models is under way (a call
// does not wait for a listing it does not need).
func listed(p *pool) {
	for {
		p.mu.Lock()
		var ch chan struct{}
		for _, h := range p.hosts {
			if h.listing != nil {
				ch = h.listing
			}
		}
		p.mu.Unlock()
		if ch == nil {
			return
		}
		<-ch
	}
}

// chatOn makes one chat call for conversation and returns which fake
// answered it (by the reply each fake gives).
func chatOn(t *testing.T, c *Client, conversation string) string {
	t.Helper()
	resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi"), Conversation: conversation}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Message.Content
}

func namedFake(t *testing.T, name string, opts ...ollamatest.Option) *ollamatest.Server {
	srv := ollamatest.New(t, append([]ollamatest.Option{ollamatest.WithDefaultReply(ollamatest.Reply{Text: name})}, opts...)...)
	return srv
}

func TestParseHosts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"", []string{"http://127.0.0.1:11434"}, false},
		{"gpu1:11434", []string{"http://gpu1:11434"}, false},
		{"gpu1, http://gpu2:8080/ ,gpu1", []string{"http://gpu1:11434", "http://gpu2:8080"}, false},
		{"gpu1,,gpu2,", []string{"http://gpu1:11434", "http://gpu2:11434"}, false},
		{"gpu1,ftp://x", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseHosts(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v", err)
			}
			if d := cmp.Diff(tt.want, got); d != "" && !tt.err {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// One host works exactly as before: no listing of its models, and its
// errors are what they always were.
func TestSingleHostListsNothing(t *testing.T) {
	a := namedFake(t, "A")
	c := newClient(t, a.URL())
	if got := chatOn(t, c, "c1"); got != "A" {
		t.Fatalf("answer %q", got)
	}
	if n := a.Count(ollamatest.PathTags); n != 0 {
		t.Errorf("/api/tags asked %d times with one host", n)
	}
	if got := c.Hosts(); len(got) != 1 || got[0] != a.URL() {
		t.Errorf("hosts %v", got)
	}
}

func TestHostDownIsSkipped(t *testing.T) {
	down := namedFake(t, "down")
	downURL := down.URL()
	down.Close()
	b := namedFake(t, "B")
	c, _ := newPoolClient(t, downURL, b.URL())
	for range 3 {
		resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi"), Conversation: "c1"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Content != "B" || len(resp.Retries) != 0 {
			t.Fatalf("answer %q, retries %v", resp.Message.Content, resp.Retries)
		}
	}
	vecs, err := c.Embed(context.Background(), "bge-m3", []string{"x", "y"})
	if err != nil || len(vecs) != 2 {
		t.Fatalf("embed: %v", err)
	}
	st := c.pool.states()
	if st[0].Up || st[0].Error == "" || st[0].Code != wf.ErrOllamaUnreachable || st[0].DownSince.IsZero() || !st[1].Up || st[1].Code != "" {
		t.Errorf("states %+v", st)
	}
}

// A host that goes down during a call hands the call to another at once:
// the call succeeds, the retry is recorded, and the host is left alone.
func TestFailoverOnServerError(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	a.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "runner crashed"})
	resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "B" || resp.Host != b.URL() || len(resp.Retries) != 1 || resp.Retries[0].Backoff != 0 {
		t.Fatalf("answer %q, retries %+v", resp.Message.Content, resp.Retries)
	}
	if got := chatOn(t, c, ""); got != "B" {
		t.Errorf("next call went to %q while A backs off", got)
	}
	if n := a.Count(ollamatest.PathChat); n != 1 {
		t.Errorf("A was asked %d times", n)
	}
}

// A reply that broke off after it was shown is not asked again of another
// host (the person would read its beginning twice): the existing rule.
func TestDroppedStreamIsNotRetriedElsewhere(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	a.Script(ollamatest.Reply{Text: "one two three", Fault: ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2}})
	var got strings.Builder
	_, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, func(ch Chunk) { got.WriteString(ch.Content) })
	if !errors.Is(err, ErrStreamDropped) {
		t.Fatalf("err = %v", err)
	}
	if b.Count(ollamatest.PathChat) != 0 || got.String() != "one two " {
		t.Errorf("B asked %d times, streamed %q", b.Count(ollamatest.PathChat), got.String())
	}
	if st := c.pool.states(); st[0].Up {
		t.Errorf("A still up after dropping the stream: %+v", st[0])
	}
}

func TestHostWithoutTheModelIsSkipped(t *testing.T) {
	a := namedFake(t, "A", ollamatest.WithModels(ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}}))
	b := namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	for _, conv := range []string{"c1", "c2", ""} {
		if got := chatOn(t, c, conv); got != "B" {
			t.Errorf("conversation %q went to %q, which lacks the model", conv, got)
		}
	}
	if a.Count(ollamatest.PathChat) != 0 {
		t.Errorf("A got %d chats", a.Count(ollamatest.PathChat))
	}
	// The embedding model is on both: the first listed takes it.
	if _, err := c.Embed(context.Background(), "bge-m3", []string{"x", "y"}); err != nil {
		t.Fatal(err)
	}
	if a.Count(ollamatest.PathEmbed) != 1 {
		t.Errorf("A got %d embeds", a.Count(ollamatest.PathEmbed))
	}
	// Listings are cached: three chats and an embed listed each host once.
	if a.Count(ollamatest.PathTags) != 1 || b.Count(ollamatest.PathTags) != 1 {
		t.Errorf("tags asked %d and %d times", a.Count(ollamatest.PathTags), b.Count(ollamatest.PathTags))
	}
}

// When no host has the model, the call goes to one that answers and the
// error is the usual one, so the fallback model rules apply.
func TestNoHostHasTheModel(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	_, err := c.Chat(context.Background(), ChatRequest{Model: "nope:1b", Messages: user("hi")}, nil)
	if !errors.Is(err, ErrModelNotFound) {
		t.Fatalf("err = %v", err)
	}
}

// hold makes fake srv keep every chat whose last message is text waiting
// until the returned func is called.
func hold(t *testing.T, srv *ollamatest.Server, text, reply string) (arrived <-chan struct{}, release func()) {
	gate, in := make(chan struct{}), make(chan struct{}, 8)
	srv.OnFunc(ollamatest.LastUserContains(text), func(api.ChatRequest) ollamatest.Reply {
		in <- struct{}{}
		<-gate
		return ollamatest.Reply{Text: reply}
	})
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release)
	return in, release
}

func TestFewestInFlightThenSticky(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	// Idle hosts: the first listed.
	if got := chatOn(t, c, "c1"); got != "A" {
		t.Fatalf("c1 went to %q", got)
	}
	// With a call of c1 in flight on A, the next call of c1 goes to B, the
	// host with fewer calls in flight: sub-tasks spread over the hosts.
	arrived, release := hold(t, a, "slow", "A slow")
	done := make(chan error, 1)
	go func() {
		_, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("slow"), Conversation: "c1"}, nil)
		done <- err
	}()
	<-arrived
	if got := chatOn(t, c, "c2"); got != "B" {
		t.Errorf("with A busy, c2 went to %q", got)
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Both idle again: each conversation goes back to the host it last
	// used, whose cache holds it.
	for range 2 {
		if got := chatOn(t, c, "c2"); got != "B" {
			t.Errorf("c2 went to %q, not back to B", got)
		}
		if got := chatOn(t, c, "c1"); got != "A" {
			t.Errorf("c1 went to %q, not back to A", got)
		}
	}
}

func TestDownHostIsRetriedAfterBackoff(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	// A's listings can be held, so that the call made while A is probed
	// is routed before the probe answers (a local fake answers at once).
	var holdTags atomic.Bool
	probed, answer := make(chan struct{}, 1), make(chan struct{})
	gatedA := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/tags" && holdTags.Load() {
			probed <- struct{}{}
			<-answer
		}
		a.ServeHTTP(w, r)
	}))
	t.Cleanup(gatedA.Close)
	c, clk := newPoolClient(t, gatedA.URL, b.URL())
	a.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "restarting"})
	if got := chatOn(t, c, "c1"); got != "B" {
		t.Fatalf("went to %q", got)
	}
	st := c.pool.states()[0]
	if st.Up || !st.RetryAt.Equal(clk.now().Add(hostBackoff)) {
		t.Fatalf("A after failing: %+v", st)
	}
	clk.add(hostBackoff - time.Millisecond)
	if got := chatOn(t, c, "c2"); got != "B" {
		t.Fatalf("before its backoff ran out, a call went to %q", got)
	}
	clk.add(time.Millisecond)
	// Its backoff has run out: the call goes to B while A's models are
	// listed (the probe); once that answers, A takes calls again.
	holdTags.Store(true)
	if got := chatOn(t, c, "c3"); got != "B" {
		t.Fatalf("while A was probed, a call went to %q", got)
	}
	<-probed
	holdTags.Store(false)
	close(answer)
	listed(c.pool)
	if st := c.pool.states()[0]; !st.Up || st.Error != "" {
		t.Errorf("A after recovering: %+v", st)
	}
	if got := chatOn(t, c, "c4"); got != "A" {
		t.Fatalf("after its probe answered, a call went to %q", got)
	}
}

// A host whose backoff has run out is probed with a listing before a
// person's call goes to it: while the probe fails, its calls would fail
// too, and they never reach it; the backoff keeps doubling.
func TestDownHostIsProbedBeforeCalls(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	a.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "restarting"})
	if got := chatOn(t, c, "c1"); got != "B" {
		t.Fatalf("went to %q", got)
	}
	// A is still in trouble: its chats and its listing fail.
	a.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "still restarting"})
	a.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "still restarting"})
	for i, wait := range []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second} {
		if got := c.pool.states()[0].RetryAt.Sub(clk.now()); got != wait {
			t.Fatalf("round %d: A backs off %s, want %s", i, got, wait)
		}
		clk.add(wait)
		resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Content != "B" || len(resp.Retries) != 0 {
			t.Fatalf("round %d: answer %q, retries %+v: the call was A's health check", i, resp.Message.Content, resp.Retries)
		}
		listed(c.pool)
	}
	if n := a.Count(ollamatest.PathChat); n != 1 {
		t.Errorf("A got %d chats, want only the first, before it was known down", n)
	}
	if n := a.Count(ollamatest.PathTags); n != 4 {
		t.Errorf("A listed %d times, want its first listing and three probes", n)
	}
}

// When no host answers, the call fails with the probes' error and no host
// gets a model call.
func TestNoHostAnswersMakesNoModelCall(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	chatOn(t, c, "")
	for _, srv := range []*ollamatest.Server{a, b} {
		srv.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "gpu lost"})
		srv.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "gpu lost"})
	}
	// The first call finds them down (both were up: each gets it once).
	if _, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil); !errors.Is(err, ErrServer) {
		t.Fatalf("first call: err = %v", err)
	}
	chats := a.Count(ollamatest.PathChat) + b.Count(ollamatest.PathChat)
	clk.add(hostMaxBackoff)
	_, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "no Ollama host answers") || !strings.Contains(err.Error(), "gpu lost") {
		t.Fatalf("err = %v", err)
	}
	if n := a.Count(ollamatest.PathChat) + b.Count(ollamatest.PathChat); n != chats {
		t.Errorf("%d chats reached hosts that were down", n-chats)
	}
}

// The probe of a host that is down has a short timeout of its own: a
// call that waits for it (no host is up) is held that long at most, not
// the listing's timeout.
func TestProbeHasAShortTimeout(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	c.pool.tagsTimeout, c.pool.probeTimeout = 30*time.Second, 20*time.Millisecond
	for _, srv := range []*ollamatest.Server{a, b} {
		srv.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	}
	if _, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil); !errors.Is(err, ErrServer) {
		t.Fatalf("both hosts failing: err = %v", err)
	}
	// Both down now; they stop answering without closing connections.
	for _, srv := range []*ollamatest.Server{a, b} {
		srv.Reset()
		srv.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	}
	_, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "no answer within 20ms") {
		t.Fatalf("err = %v", err)
	}
}

// A host that keeps failing is left alone longer each time, up to a
// minute.
func TestHostBackoffDoubles(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	a.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	var waits []time.Duration
	for range 7 {
		chatOn(t, c, "")
		listed(c.pool)
		st := c.pool.states()[0]
		waits = append(waits, st.RetryAt.Sub(clk.now()))
		clk.add(st.RetryAt.Sub(clk.now()))
	}
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute}
	if d := cmp.Diff(want, waits); d != "" {
		t.Errorf("backoffs (-want +got):\n%s", d)
	}
	if a.Count(ollamatest.PathChat) != 0 {
		t.Errorf("A got %d chats while its listing failed", a.Count(ollamatest.PathChat))
	}
}

func TestAllHostsDownIsUnreachable(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	urls := []string{a.URL(), b.URL()}
	a.Close()
	b.Close()
	c, _ := newPoolClient(t, urls...)
	_, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("hi")}, nil)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || (e.Host != urls[0] && e.Host != urls[1]) {
		t.Errorf("error names host %q", e.Host)
	}
	if _, err := c.Version(context.Background()); !errors.Is(err, ErrUnreachable) {
		t.Errorf("version: %v", err)
	}
}

// Models is every model some host has; Pull reaches every host.
func TestModelsAndPullAcrossHosts(t *testing.T) {
	a := namedFake(t, "A", ollamatest.WithModels(ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}}))
	b := namedFake(t, "B")
	c, _ := newPoolClient(t, a.URL(), b.URL())
	ms, err := c.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	if !strings.Contains(strings.Join(names, " "), model) || !strings.Contains(strings.Join(names, " "), "bge-m3") {
		t.Errorf("models %v", names)
	}
	if err := c.Pull(context.Background(), "tinyllama:1b", nil); err != nil {
		t.Fatal(err)
	}
	if a.Count(ollamatest.PathPull) != 1 || b.Count(ollamatest.PathPull) != 1 {
		t.Errorf("pulls %d / %d", a.Count(ollamatest.PathPull), b.Count(ollamatest.PathPull))
	}
	st, err := c.HostStates(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range st {
		if !h.Up || !strings.Contains(strings.Join(h.Models, " "), "tinyllama:1b") {
			t.Errorf("state %+v", h)
		}
	}
}

// A host that stops answering without closing its connections (a laptop
// asleep) costs its listing's timeout only to itself: once another host is
// known to have the model, calls do not wait for the hanging listing.
func TestHangingListingDoesNotHoldCalls(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	c.pool.tagsTimeout = time.Hour // a call that waited for it would never end
	chatOn(t, c, "")
	a.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	clk.add(tagsTTL)
	for range 3 {
		chatOn(t, c, "")
	}
	// The listing goes on in the background, so the calls need not have
	// seen it reach A yet: wait for it (the calls above could not have
	// waited for it, with its hour's timeout), then check it was the only one.
	for deadline := time.Now().Add(10 * time.Second); a.Count(ollamatest.PathTags) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := a.Count(ollamatest.PathTags); n != 2 {
		t.Errorf("A listed %d times, want its first listing and one hanging", n)
	}
}

// A host in trouble does not stop a pull: the others still download the
// model, and the error names the hosts that did not get it. An error that
// every host would give (an unknown name) stops it; with no host getting
// the model the error is the first host's.
func TestPullPassesOverAHostInTrouble(t *testing.T) {
	a, b := namedFake(t, "A", ollamatest.WithPullFailure("nope", "pull model manifest: file does not exist")), namedFake(t, "B")
	gone := namedFake(t, "gone")
	goneURL := gone.URL()
	gone.Close()
	c, _ := newPoolClient(t, a.URL(), goneURL, b.URL())

	err := c.Pull(context.Background(), "tinyllama:1b", nil)
	var missed *MissedHosts
	if !errors.As(err, &missed) || missed.Got != 2 || !cmp.Equal(missed.Hosts, []string{goneURL}) || !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v (%+v)", err, missed)
	}
	if a.Count(ollamatest.PathPull) != 1 || b.Count(ollamatest.PathPull) != 1 {
		t.Errorf("pulls %d / %d: the host after the one down was not asked", a.Count(ollamatest.PathPull), b.Count(ollamatest.PathPull))
	}
	if !strings.Contains(err.Error(), "downloaded on 2 of 3 hosts, not on "+goneURL) {
		t.Errorf("error says %q", err)
	}

	if err := c.Pull(context.Background(), "nope", nil); !errors.Is(err, ErrPullFailed) || errors.As(err, &missed) || b.Count(ollamatest.PathPull) != 1 {
		t.Errorf("unknown name: err = %v, B asked %d times", err, b.Count(ollamatest.PathPull))
	}

	gone2 := namedFake(t, "gone too")
	gone2.Close()
	c2, _ := newPoolClient(t, goneURL, gone2.URL())
	if err := c2.Pull(context.Background(), "tinyllama:1b", nil); !errors.Is(err, ErrUnreachable) || errors.As(err, &missed) {
		t.Errorf("no host answers: err = %v", err)
	}
}

// Reading the hosts' state for display (the window asks every 3 s while
// something is wrong) keeps each host's backoff: a host that is down is
// probed only once its backoff has run out, however often the state is
// read, and neither the reading nor the model list asks it meanwhile.
func TestHostStatesKeepTheBackoff(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	a.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "gpu lost"})
	ctx := context.Background()
	for _, wait := range []time.Duration{0, 2 * time.Second, 4 * time.Second} {
		clk.add(wait)
		tags := a.Count(ollamatest.PathTags)
		for i := range 5 {
			st, err := c.HostStates(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if st[0].Up || st[0].Code != wf.ErrOllamaError || !st[1].Up {
				t.Fatalf("after %s, reading %d: %+v", wait, i, st)
			}
			if _, err := c.Models(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := a.Count(ollamatest.PathTags) - tags; n != 1 {
			t.Errorf("after %s, five readings asked A %d times, want one probe", wait, n)
		}
	}
	if got := c.pool.states()[0].RetryAt.Sub(clk.now()); got != 8*time.Second {
		t.Errorf("A backs off %s after three failed probes, want 8s", got)
	}
}

// With every host down, the reading says so with the error a call would
// get, and probes none whose backoff has not run out.
func TestHostStatesWithNoHostUp(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	for _, srv := range []*ollamatest.Server{a, b} {
		srv.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "gpu lost"})
	}
	ctx := context.Background()
	for range 5 {
		st, err := c.HostStates(ctx)
		if !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "no Ollama host answers") || st[0].Up || st[1].Up {
			t.Fatalf("err = %v, states %+v", err, st)
		}
	}
	if na, nb := a.Count(ollamatest.PathTags), b.Count(ollamatest.PathTags); na != 1 || nb != 1 {
		t.Errorf("five readings listed A %d and B %d times, want once each", na, nb)
	}
	clk.add(hostBackoff)
	c.HostStates(ctx)
	if na, nb := a.Count(ollamatest.PathTags), b.Count(ollamatest.PathTags); na != 2 || nb != 2 {
		t.Errorf("once their backoff ran out, A was listed %d and B %d times, want twice each", na, nb)
	}
}

// With every host down, one call probes one host once: asking the
// model's facts on the way (thinking, context length) probes nothing of
// its own. When that probe brings the host back, the facts are asked of
// it, so the call is made as it would be on a host that was up.
func TestNoHostUpOneProbePerCall(t *testing.T) {
	thinking := ollamatest.Model{Name: "qwen3:4b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960}
	a, b := namedFake(t, "A", ollamatest.WithModels(thinking)), namedFake(t, "B", ollamatest.WithModels(thinking))
	c, _ := newPoolClient(t, a.URL(), b.URL())
	c.cfg.maxRetries = 0 // each retry's pick would probe again, by design
	c.cfg.numCtx = 0     // each model's own context length, as WithNumCtx(0)
	for _, srv := range []*ollamatest.Server{a, b} {
		srv.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "gpu lost"})
	}
	ask := func() (Response, error) {
		return c.Chat(context.Background(), ChatRequest{Model: "qwen3:4b", Messages: user("hi")}, nil)
	}
	tags := func() int { return a.Count(ollamatest.PathTags) + b.Count(ollamatest.PathTags) }
	// The first call lists both (their first listing) and finds them down.
	if _, err := ask(); !errors.Is(err, ErrServer) || tags() != 2 {
		t.Fatalf("first call: err = %v, %d listings", err, tags())
	}
	for i := range 3 {
		before := tags()
		if _, err := ask(); !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "no Ollama host answers") {
			t.Fatalf("call %d: err = %v", i, err)
		}
		if n := tags() - before; n != 1 {
			t.Errorf("call %d probed %d times, want once", i, n)
		}
	}
	if n := a.Count(ollamatest.PathShow) + b.Count(ollamatest.PathShow) + a.Count(ollamatest.PathChat) + b.Count(ollamatest.PathChat); n != 0 {
		t.Errorf("%d requests besides the probes reached hosts that were down", n)
	}
	// Both come back: the call's probe finds one, which is asked the facts.
	a.Reset()
	b.Reset()
	before := tags()
	resp, err := ask()
	if err != nil {
		t.Fatal(err)
	}
	srv := map[string]*ollamatest.Server{a.URL(): a, b.URL(): b}[resp.Host]
	req, _ := srv.LastChat()
	if n := tags() - before; n != 1 || req.Think == nil || req.Think.Value != false || req.Options["num_ctx"] != float64(min(40960, MaxModelNumCtx)) {
		t.Errorf("after the hosts came back: %d probes, think %v, num_ctx %v (shows %d)", n, req.Think, req.Options["num_ctx"], srv.Count(ollamatest.PathShow))
	}
}

// A host that takes the connection and then says nothing (Ollama stuck or
// swamped there) is told apart from an address where nothing listens:
// their codes differ, so the window words them apart; the error itself
// is kept for the hover and doctor.
func TestHungHostIsToldApartFromRefused(t *testing.T) {
	up, hung, gone := namedFake(t, "up"), namedFake(t, "hung"), namedFake(t, "gone")
	goneURL := gone.URL()
	gone.Close()
	hung.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	c, _ := newPoolClient(t, up.URL(), hung.URL(), goneURL)
	c.pool.tagsTimeout, c.pool.probeTimeout = 50*time.Millisecond, 50*time.Millisecond
	st, err := c.HostStates(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]wf.ErrorCode{}
	for _, h := range st {
		got[h.URL] = h.Code
	}
	want := map[string]wf.ErrorCode{up.URL(): "", hung.URL(): wf.ErrTimeout, goneURL: wf.ErrOllamaUnreachable}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("codes (-want +got):\n%s", d)
	}
	if !strings.Contains(st[1].Error, "connected, but no answer within 50ms") || !strings.Contains(st[2].Error, "connection refused") {
		t.Errorf("errors %q and %q", st[1].Error, st[2].Error)
	}
}

// A person who asks to check now (after starting Ollama on a host) gets
// the hosts that are down probed at the next reading, not when their
// wait runs out; a probe that fails doubles the wait as before.
func TestRetryNowProbesAtTheNextReading(t *testing.T) {
	a, b := namedFake(t, "A"), namedFake(t, "B")
	c, clk := newPoolClient(t, a.URL(), b.URL())
	a.Fail(ollamatest.PathTags, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "gpu lost"})
	ctx := context.Background()
	c.HostStates(ctx)
	c.HostStates(ctx)
	if n := a.Count(ollamatest.PathTags); n != 1 {
		t.Fatalf("A listed %d times before RetryNow, want once", n)
	}
	c.RetryNow()
	st, _ := c.HostStates(ctx)
	if n := a.Count(ollamatest.PathTags); n != 2 || st[0].Up || st[0].RetryAt.Sub(clk.now()) != 4*time.Second {
		t.Errorf("after RetryNow: A listed %d times, want twice; state %+v", n, st[0])
	}
	a.Reset()
	c.RetryNow()
	if st, _ := c.HostStates(ctx); !st[0].Up {
		t.Errorf("A back after RetryNow: %+v", st[0])
	}
}
