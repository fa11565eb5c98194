package chat

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// stream collects a reply as it is generated. A ticker sends what arrived
// since the last tick as one TokenBatch (so a fast model does not send a
// bridge message per token) and, less often, saves the text so far.
//
// The reply starts before its turn's messages are stored (Turn.Stored):
// until open, what it would send waits in order and nothing is saved, and
// a turn that is never opened sends nothing.
type stream struct {
	s *Service
	t *turn

	mu      sync.Mutex
	all     strings.Builder
	pending strings.Builder

	sendMu sync.Mutex
	opened bool
	queued []func()

	done chan struct{}
	wg   sync.WaitGroup
}

func newStream(s *Service, t *turn) *stream {
	st := &stream{s: s, t: t, done: make(chan struct{})}
	st.wg.Add(1)
	go st.loop()
	return st
}

// open sends what waited and lets the rest through.
func (st *stream) open() {
	st.sendMu.Lock()
	defer st.sendMu.Unlock()
	for _, f := range st.queued {
		f()
	}
	st.queued, st.opened = nil, true
}

// send runs f, which sends something to the person, once the stream is open.
func (st *stream) send(f func()) {
	st.sendMu.Lock()
	defer st.sendMu.Unlock()
	if !st.opened {
		st.queued = append(st.queued, f)
		return
	}
	f()
}

func (st *stream) isOpen() bool {
	st.sendMu.Lock()
	defer st.sendMu.Unlock()
	return st.opened
}

// Trace sends a step of the work at once, after the text before it, so
// the live trace and the reply stay in order.
func (st *stream) Trace(e api.TraceEvent) {
	st.flush()
	e.SessionID, e.TurnID = st.t.ack.SessionID, st.t.ack.TurnID
	st.send(func() {
		st.s.events.Emit(api.EventTrace, e)
		if st.t.watch.trace != nil {
			st.t.watch.trace(e)
		}
	})
}

// Text adds a piece of the reply.
func (st *stream) Text(text string) {
	if text == "" {
		return
	}
	st.mu.Lock()
	st.all.WriteString(text)
	st.pending.WriteString(text)
	st.mu.Unlock()
	if st.t.watch.text != nil {
		st.send(func() { st.t.watch.text(text) })
	}
}

func (st *stream) loop() {
	defer st.wg.Done()
	flush := time.NewTicker(st.s.opt.FlushEvery)
	defer flush.Stop()
	save := time.NewTicker(st.s.opt.SaveEvery)
	defer save.Stop()
	for {
		select {
		case <-st.done:
			return
		case <-flush.C:
			st.flush()
		case <-save.C:
			st.save()
		}
	}
}

func (st *stream) flush() {
	st.mu.Lock()
	text := st.pending.String()
	st.pending.Reset()
	st.mu.Unlock()
	if text != "" {
		st.send(func() {
			st.s.events.Emit(api.EventToken, api.TokenBatch{
				SessionID: st.t.ack.SessionID, TurnID: st.t.ack.TurnID, MessageID: st.t.ack.AssistantMessageID, Text: text,
			})
		})
	}
}

// save writes the partial reply so a killed process keeps it; errors are
// only logged because the final save will try again.
func (st *stream) save() {
	if !st.isOpen() {
		return
	}
	st.mu.Lock()
	partial := st.t.reply
	partial.Content = st.all.String()
	st.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := st.s.store.UpdateMessage(ctx, partial); err != nil {
		st.s.opt.Logger.Warn("save partial reply", "err", err)
	}
}

// close stops the ticker, sends the last batch and returns the whole text.
func (st *stream) close() string {
	close(st.done)
	st.wg.Wait()
	st.flush()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.all.String()
}
