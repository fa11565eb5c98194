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
type stream struct {
	s     *Service
	t     *turn
	reply *api.Message

	mu      sync.Mutex
	all     strings.Builder
	pending strings.Builder

	done chan struct{}
	wg   sync.WaitGroup
}

func newStream(s *Service, t *turn, reply *api.Message) *stream {
	st := &stream{s: s, t: t, reply: reply, done: make(chan struct{})}
	st.wg.Add(1)
	go st.loop()
	return st
}

// Trace sends a step of the work at once, after the text before it, so
// the live trace and the reply stay in order.
func (st *stream) Trace(e api.TraceEvent) {
	st.flush()
	e.SessionID, e.TurnID = st.t.ack.SessionID, st.t.ack.TurnID
	st.s.events.Emit(api.EventTrace, e)
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
	if st.t.onText != nil {
		st.t.onText(text)
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
		st.s.events.Emit(api.EventToken, api.TokenBatch{
			SessionID: st.t.ack.SessionID, TurnID: st.t.ack.TurnID, MessageID: st.reply.ID, Text: text,
		})
	}
}

// save writes the partial reply so a killed process keeps it; errors are
// only logged because the final save will try again.
func (st *stream) save() {
	st.mu.Lock()
	partial := *st.reply
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
