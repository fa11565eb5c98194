package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// timing is an HTTP transport that measures every model call (/api/chat,
// and /api/embed for long-term memory) from the request to the end of its
// body: the raw model-call time Wayfinder cannot do better than. It also
// notes when the first call of a turn began and the last one ended, which
// splits the rest into the work before, between and after the calls.
type timing struct {
	base http.RoundTripper
	mu   sync.Mutex
	c    calls
}

// calls is what timing saw since its last reset.
type calls struct {
	sum         time.Duration
	n           int
	first, last time.Time // start of the first call, end of the last
}

func (t *timing) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.base.RoundTrip(r)
	if err != nil || (r.URL.Path != ollamatest.PathChat && r.URL.Path != ollamatest.PathEmbed) {
		return resp, err
	}
	resp.Body = &timedBody{ReadCloser: resp.Body, done: func() {
		end := time.Now()
		t.mu.Lock()
		t.c.sum += end.Sub(start)
		t.c.n++
		if t.c.first.IsZero() || start.Before(t.c.first) {
			t.c.first = start
		}
		t.c.last = end
		t.mu.Unlock()
	}}
	return resp, nil
}

func (t *timing) reset() calls {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.c
	t.c = calls{}
	return c
}

type timedBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.done)
	}
	return n, err
}

func (b *timedBody) Close() error {
	b.once.Do(b.done)
	return b.ReadCloser.Close()
}

// scenario is one of seed 001's scenarios with the model calls its table
// lists.
type scenario struct {
	name      string
	seedCalls string
	goal      string
	input     string
}

var scenarios = []scenario{
	{"greeting", "2", "1", "안녕하세요"},
	{"calculator (123*456)", "3", "2", "123*456은 얼마야?"},
	{"RAG (leave policy)", "2", "1 + retrieval", "회사 휴가 정책에서 연차는 며칠이야?"},
}

// overheadRow is one scenario measured against the 50 ms fake.
type overheadRow struct {
	name         string
	turn, model  time.Duration
	calls, after int
	seed, goal   string
	critical     int
	runs         int // the durations are sums over this many runs
	// time spent before the first model call and after the last one
	beforeFirst, afterLast time.Duration
}

// add counts one measured turn that began at start and returned at end.
func (r *overheadRow) add(start, end time.Time, c calls) {
	r.turn += end.Sub(start)
	r.model += c.sum
	r.beforeFirst += c.first.Sub(start)
	r.afterLast += end.Sub(c.last)
}

func newBackend(ctx context.Context, fake *ollamatest.Server, tr http.RoundTripper) (*world.Backend, func(), error) {
	dir, err := os.MkdirTemp("", "wayfinder-bench-")
	if err != nil {
		return nil, nil, err
	}
	b, err := world.Open(ctx, fake.URL(), world.Config{DataDir: dir, HTTPClient: &http.Client{Transport: tr}, LongTerm: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	// As the app's startup status check does: it lists and shows the
	// models, which tells the client whether the chat model thinks.
	if _, err := b.Client.Models(ctx); err != nil {
		b.Close()
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return b, func() { b.Close(); os.RemoveAll(dir) }, nil
}

// measureTurns runs each scenario runs times against a fake answering
// after 50 ms, and reports turn time against the sum of raw model-call
// times, with model calls on the critical path and after the answer.
func measureTurns(ctx context.Context, runs int) ([]overheadRow, error) {
	fake, err := ollamatest.Start("127.0.0.1:0", ollamatest.WithLatency(50*time.Millisecond))
	if err != nil {
		return nil, err
	}
	defer fake.Close()
	world.ScriptComplex(fake, world.Pace{})
	tr := &timing{base: http.DefaultTransport.(*http.Transport).Clone()}
	var rows []overheadRow
	for _, sc := range scenarios {
		row := overheadRow{name: sc.name, seed: sc.seedCalls, goal: sc.goal, runs: runs}
		err := withBackend(ctx, fake, tr, func(b *world.Backend) error {
			return timeTurns(b, fake, tr, &row, func() (int, error) {
				msg, err := b.Chat.Ask(ctx, "", sc.input, nil)
				return msg.Result.LLMCalls, finished(msg, err)
			})
		})
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	alone, err := agentAlone(ctx, fake, tr, runs)
	if err != nil {
		return nil, err
	}
	rows = append(rows, alone)
	long, err := longConversation(ctx, fake, tr, runs)
	if err != nil {
		return nil, err
	}
	rows = append(rows, long)
	cx, err := complexTurn(ctx, fake, tr, runs)
	if err != nil {
		return nil, err
	}
	return append(rows, cx), nil
}

func withBackend(ctx context.Context, fake *ollamatest.Server, tr http.RoundTripper, f func(*world.Backend) error) error {
	b, done, err := newBackend(ctx, fake, tr)
	if err != nil {
		return err
	}
	defer done()
	return f(b)
}

// finished is err, or an error when the turn ended otherwise than complete.
func finished(msg api.Message, err error) error {
	if err == nil && msg.Status != api.StatusComplete {
		err = fmt.Errorf("turn ended %s: %q", msg.Status, msg.Content)
	}
	return err
}

// timeTurns runs turn once unmeasured, as the app has before the person's
// turn (statements prepared, connections open), then row.runs times, each a
// new conversation, adding their times and calls to row. turn returns the
// model calls it made before the answer.
func timeTurns(b *world.Backend, fake *ollamatest.Server, tr *timing, row *overheadRow, turn func() (int, error)) error {
	for i := range row.runs + 1 {
		before := fake.Count(ollamatest.PathChat)
		tr.reset()
		start := time.Now()
		critical, err := turn()
		end := time.Now()
		c := tr.reset()
		if err != nil {
			return fmt.Errorf("%s: %w", row.name, err)
		}
		b.Agent.Wait() // after-turn work ends before the person's next message
		if i == 0 {
			continue
		}
		row.add(start, end, c)
		row.critical = critical
		row.calls = fake.Count(ollamatest.PathChat) - before
		row.after = row.calls - critical
	}
	return nil
}

// longConversation is seed 001's fourth scenario: a conversation long
// enough for the summary window; measured is the turn on which the window
// first folds old messages, in runs conversations.
func longConversation(ctx context.Context, fake *ollamatest.Server, tr *timing, runs int) (overheadRow, error) {
	row := overheadRow{name: "long conversation (turn 11)", seed: "3 (+1 summary before the answer)", goal: "0 extra before the answer", runs: runs}
	return row, withBackend(ctx, fake, tr, func(b *world.Backend) error {
		for range runs {
			session := ""
			for i := 1; i <= 11; i++ {
				b.Agent.Wait()
				before := fake.Count(ollamatest.PathChat)
				tr.reset()
				start := time.Now()
				msg, err := b.Chat.Ask(ctx, session, fmt.Sprintf("Turn %d: the project deadline is March %d. What should I do next?", i, i), nil)
				end := time.Now()
				c := tr.reset()
				if err := finished(msg, err); err != nil {
					return fmt.Errorf("long conversation turn %d: %w", i, err)
				}
				session = msg.SessionID
				if i == 11 {
					row.add(start, end, c)
					row.critical = msg.Result.LLMCalls
					b.Agent.Wait()
					row.calls = fake.Count(ollamatest.PathChat) - before
					row.after = row.calls - row.critical
				}
			}
		}
		return nil
	})
}

// complexTurn is seed 004's flow: plan, approval, recommendations, guide.
func complexTurn(ctx context.Context, fake *ollamatest.Server, tr *timing, runs int) (overheadRow, error) {
	row := overheadRow{name: "complex task (plan + approve + guide)", seed: "—", goal: "—", runs: runs}
	return row, withBackend(ctx, fake, tr, func(b *world.Backend) error {
		return timeTurns(b, fake, tr, &row, func() (int, error) {
			msg, err := b.Chat.Ask(ctx, "", world.ComplexTask, nil)
			if err != nil {
				return 0, err
			}
			msg, err = b.Chat.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionApprove}, nil)
			// The reply counts the calls before the approval too.
			return msg.Result.LLMCalls, finished(msg, err)
		})
	})
}

// discardOutput drops what a turn streams.
type discardOutput struct{}

func (discardOutput) Text(string)          {}
func (discardOutput) Trace(api.TraceEvent) {}

// agentAlone times the greeting through the agent graph alone, without the
// chat service saving messages around it, to show where overhead sits.
func agentAlone(ctx context.Context, fake *ollamatest.Server, tr *timing, runs int) (overheadRow, error) {
	row := overheadRow{name: "greeting, agent graph alone (no chat service)", seed: "—", goal: "—", runs: runs}
	return row, withBackend(ctx, fake, tr, func(b *world.Backend) error {
		return timeTurns(b, fake, tr, &row, func() (int, error) {
			res, err := b.Agent.Respond(ctx, chat.Turn{SessionID: store.NewID(), Text: "안녕하세요"}, discardOutput{})
			return res.LLMCalls, err
		})
	})
}
