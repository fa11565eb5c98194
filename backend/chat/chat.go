// Package chat runs conversation turns: it validates and saves what the
// person wrote, asks a Responder for the reply (starting it while the
// message is saved, see Turn.Stored), streams the reply to the UI in
// batches, and saves it as it grows so that neither a stop, an error nor a
// killed process loses what was typed or already answered.
//
// The Responder is the seam between the conversation and the intelligence
// behind it: a plain model call today, the agent graph tomorrow.
package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// MaxMessageRunes bounds one message. A 2 MB paste is refused with a clear
// message rather than silently cut; the UI keeps the text in the input box.
const MaxMessageRunes = 100_000

// Turn is what a Responder gets: the session's earlier messages (oldest
// first, without the new one; their text and status, not their results)
// and either the new text or, when the session waits for the person (a
// plan, a tool call), the person's decision.
type Turn struct {
	SessionID string
	TurnID    string
	History   []api.Message
	Text      string
	// Model is the conversation's chat model; "" is the default one.
	Model string
	// Settings are the conversation's own settings (system prompt,
	// temperature, context size) over the global ones; nil: none.
	Settings *api.ConversationSettings
	// Decision answers what the previous turn asked for (a plan, a tool
	// call); nil for a new message. Its Version is the one the session
	// waited for: the store checked it when it took the decision.
	Decision *api.ApprovalDecision
	// Saved is closed once the reply is stored and announced. Work a
	// Responder leaves for after the answer (summaries, reflection) waits
	// for it rather than compete with saving the reply. Nil: nobody saves.
	Saved <-chan struct{}
	// Settled, when set, takes the model calls the Responder made after the
	// answer (summaries, reflection) once they are done, so that the stored
	// reply's result counts every call the turn caused. It is called at
	// most once, after Saved is closed.
	Settled func(Usage)
	// Stored waits until the person's message is saved and reports whether
	// it was. The Responder is called while the message is being written,
	// so that the work before the model's reply costs the person nothing;
	// it must ask Stored before it acts on that work (runs a tool, keeps a
	// checkpoint, says it is done). When Stored says false the turn is
	// cancelled and must leave no trace; what it sent to Output is dropped.
	// Nil: the message is saved already.
	Stored func() bool
}

// Usage is model calls and their tokens, as TurnResult counts them.
type Usage struct {
	LLMCalls, PromptTokens, CompletionTokens int
}

// Output receives what a Responder produces while it works.
type Output interface {
	// Text is a piece of the reply, in order.
	Text(s string)
	// Trace is a step of the work, for the live trace; SessionID and TurnID
	// are filled in by the chat service.
	Trace(e api.TraceEvent)
}

// Responder writes the assistant's reply. It returns the turn's accounting;
// Response may be left empty, the streamed text is used then. A result with
// Plan or ToolCall set means the turn now waits for the person's decision,
// which arrives as the next Turn's Decision. A turn that carried out a
// decision and then failed or was stopped may return an error together
// with a Plan: the approval offered again (AgainFailed), so the person's
// decision and edits are not lost.
type Responder interface {
	Respond(ctx context.Context, t Turn, out Output) (api.TurnResult, error)
}

// Reofferer is a Responder that can ask again for a decision whose turn a
// killed process cut short (Service.Recover). It returns the result that
// waits for the person (Plan or ToolCall set), or a result without either
// when there is nothing left to ask.
type Reofferer interface {
	Reoffer(ctx context.Context, sessionID string, d api.ApprovalDecision) (api.TurnResult, error)
}

// EventSink delivers events to every open window.
type EventSink interface {
	Emit(name string, payload any)
}

// Options tune a Service; zero values take the defaults.
type Options struct {
	// Classify turns a Responder error into what the person sees.
	Classify func(error) api.ErrorInfo
	// FlushEvery is how often streamed text is sent to the UI (default 50 ms).
	FlushEvery time.Duration
	// SaveEvery is how often a growing reply is written to the database
	// (default 1 s), bounding what a killed process can lose.
	SaveEvery time.Duration
	Logger    *slog.Logger
}

// Service runs turns. Only one turn per session runs at a time.
type Service struct {
	store     *store.Store
	responder Responder
	events    EventSink
	opt       Options

	mu      sync.Mutex
	running map[string]*turn // by session id
	idle    chan struct{}    // closed when running becomes empty
	wg      sync.WaitGroup
}

// New returns a Service.
func New(st *store.Store, r Responder, events EventSink, opt Options) *Service {
	if opt.Classify == nil {
		opt.Classify = func(err error) api.ErrorInfo {
			return api.ErrorInfo{Code: api.ErrInternal, Message: err.Error()}
		}
	}
	if opt.FlushEvery <= 0 {
		opt.FlushEvery = 50 * time.Millisecond
	}
	if opt.SaveEvery <= 0 {
		opt.SaveEvery = time.Second
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	idle := make(chan struct{})
	close(idle)
	return &Service{store: st, responder: r, events: events, opt: opt, running: map[string]*turn{}, idle: idle}
}

// Error is a failure the person can act on; bound methods return it so the
// UI can show a translated message.
type Error = api.Error

func userError(code api.ErrorCode, msg, hint string) error {
	return api.NewError(code, msg, hint)
}

// userErrorCase is userError for one of the code's situations, which the
// window words as "error.<code>.case.<c>" in the person's language.
func userErrorCase(code api.ErrorCode, c, msg, hint string) error {
	return api.NewError(code, msg, hint).With("case", c)
}

// Validate checks a message before anything is saved.
func Validate(text string) error {
	if strings.TrimSpace(text) == "" {
		return userError(api.ErrEmptyMessage, "The message is empty.", "Type a question or a task, then send it.")
	}
	if n := utf8.RuneCountInString(text); n > MaxMessageRunes {
		return api.NewError(api.ErrMessageTooLong,
			fmt.Sprintf("The message is %d characters long; the limit is %d.", n, MaxMessageRunes),
			"Shorten it, or import long text as a document in Knowledge and ask about it.").With("n", strconv.Itoa(n), "max", strconv.Itoa(MaxMessageRunes))
	}
	return nil
}

// Send starts a turn and returns at once; the reply arrives as events. An
// empty sessionID starts a new session.
func (s *Service) Send(ctx context.Context, sessionID, text string) (api.SendAck, error) {
	return s.SendWith(ctx, sessionID, text, api.SendOptions{})
}

// SendWith is Send with options: a new session gets opts.Model as its
// model.
func (s *Service) SendWith(ctx context.Context, sessionID, text string, opts api.SendOptions) (api.SendAck, error) {
	t, err := s.begin(ctx, sessionID, text, opts, watch{})
	if err != nil {
		return api.SendAck{}, err
	}
	return t.ack, nil
}

// Regenerate answers the last message of a session again. The new answer
// is shown; the earlier ones stay as its variants (Message.Variants).
func (s *Service) Regenerate(ctx context.Context, sessionID string) (api.SendAck, error) {
	if s.Busy(sessionID) {
		return api.SendAck{}, userError(api.ErrBusy, "A reply is still being written in this conversation.", "Wait for it, or press Stop.")
	}
	if err := s.checkSession(ctx, sessionID); err != nil {
		return api.SendAck{}, err
	}
	t, err := s.start(ctx, sessionID, "", "", "", nil, watch{}, true)
	if err != nil {
		return api.SendAck{}, err
	}
	return t.ack, nil
}

// ShowVariant shows another answer to a message in place of the one
// shown, which becomes a variant; later turns continue from the one shown.
func (s *Service) ShowVariant(ctx context.Context, sessionID, messageID, variantID string) (api.Message, error) {
	if s.Busy(sessionID) {
		return api.Message{}, userError(api.ErrBusy, "A reply is still being written in this conversation.", "Wait for it, or press Stop.")
	}
	m, err := s.store.ShowVariant(ctx, sessionID, messageID, variantID)
	if errors.Is(err, store.ErrNotFound) {
		return api.Message{}, userErrorCase(api.ErrNotFound, "answer", "That answer is not in this conversation any more.", "Reload the conversation.")
	}
	return m, err
}

// EditLast replaces the last message of a session with text and runs it.
func (s *Service) EditLast(ctx context.Context, sessionID, text string) (api.SendAck, error) {
	if err := Validate(text); err != nil {
		return api.SendAck{}, err
	}
	return s.redo(ctx, sessionID, text)
}

// redo removes the session's last turn (the person's last message and what
// followed) and sends text in its place.
func (s *Service) redo(ctx context.Context, sessionID, text string) (api.SendAck, error) {
	if s.Busy(sessionID) {
		return api.SendAck{}, userError(api.ErrBusy, "A reply is still being written in this conversation.", "Wait for it, or press Stop.")
	}
	if err := s.checkSession(ctx, sessionID); err != nil {
		return api.SendAck{}, err
	}
	msgs, err := s.store.Messages(ctx, sessionID)
	if err != nil {
		return api.SendAck{}, err
	}
	last := lastFrom(msgs, api.RoleUser)
	if last < 0 {
		return api.SendAck{}, userError(api.ErrNothingToRetry, "There is no message to send again.", "Type a message instead.")
	}
	if _, err := s.store.DeleteMessagesFrom(ctx, sessionID, msgs[last].ID); err != nil {
		return api.SendAck{}, err
	}
	return s.Send(ctx, sessionID, text)
}

// Ask runs a turn to its end, for the command line. onText receives the
// streamed text as it arrives.
func (s *Service) Ask(ctx context.Context, sessionID, text string, onText func(string), opts ...AskOption) (api.Message, error) {
	t, err := s.begin(ctx, sessionID, text, api.SendOptions{}, watching(onText, opts))
	if err != nil {
		return api.Message{}, err
	}
	return s.wait(ctx, t)
}

// wait returns a started turn's stored reply once it ends; ending ctx
// stops the turn.
func (s *Service) wait(ctx context.Context, t *turn) (api.Message, error) {
	stop := context.AfterFunc(ctx, func() { t.stop(ErrStopped) })
	defer stop()
	<-t.done
	if t.reply.Error != nil {
		return t.reply, &Error{Info: *t.reply.Error}
	}
	return t.reply, nil
}

// AskOption adds to what Ask and AskDecision report while the turn runs.
type AskOption func(*watch)

// WithTrace has every step of the work (the live trace's events) passed
// to f as it happens, in order with the text: `wayfinder ask` prints its
// progress lines from them.
func WithTrace(f func(api.TraceEvent)) AskOption {
	return func(w *watch) { w.trace = f }
}

// watch is who follows a turn from the command line.
type watch struct {
	text  func(string)
	trace func(api.TraceEvent)
}

func watching(onText func(string), opts []AskOption) watch {
	w := watch{text: onText}
	for _, o := range opts {
		o(&w)
	}
	return w
}

// ErrStopped is the cause (context.Cause) of a turn's context when the
// person stopped it (Stop, or Ctrl+C in ask), as opposed to the app
// closing: a decision whose work was stopped is offered again saying so.
var ErrStopped = errors.New("stopped by the person")

// Stop ends the running turn of a session, keeping the text so far.
func (s *Service) Stop(sessionID string) {
	s.mu.Lock()
	t := s.running[sessionID]
	s.mu.Unlock()
	if t != nil {
		t.stop(ErrStopped)
	}
}

// WaitIdle blocks until no turn runs in any session, or ctx ends. Work
// that competes with the model for the machine (embedding the catalog in
// the background) waits on it. waiting (may be nil) is called once, before
// it blocks, and only if it does: an import says on its row that it waits
// for the person's question, and goes on saying "embedding" otherwise.
func (s *Service) WaitIdle(ctx context.Context, waiting func()) error {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return nil
	default:
	}
	if waiting != nil {
		waiting()
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Busy reports whether a session has a turn running.
func (s *Service) Busy(sessionID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[sessionID] != nil
}

// Shutdown stops every running turn and waits for them to be saved.
func (s *Service) Shutdown() {
	s.mu.Lock()
	for _, t := range s.running {
		t.cancel()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

type turn struct {
	ack      api.SendAck
	history  []api.Message
	text     string
	model    string
	tuned    *api.ConversationSettings // the conversation's own settings
	decision *api.ApprovalDecision
	ctx      context.Context
	cancel   context.CancelFunc
	stop     context.CancelCauseFunc // cancel with a cause (ErrStopped)
	watch    watch
	out      *stream

	stored chan struct{} // closed once the messages are saved and announced, or refused
	ok     bool          // whether they were saved; read after stored
	done   chan struct{} // closed when the turn has ended
	reply  api.Message   // as stored when done
}

// isStored is Turn.Stored.
func (t *turn) isStored() bool {
	<-t.stored
	return t.ok
}

func (s *Service) begin(ctx context.Context, sessionID, text string, opts api.SendOptions, w watch) (*turn, error) {
	if err := Validate(text); err != nil {
		return nil, err
	}
	title, model := "", ""
	if sessionID == "" {
		sessionID, title, model = store.NewID(), titleFrom(text), strings.TrimSpace(opts.Model)
	}
	return s.start(ctx, sessionID, title, model, text, nil, w, false)
}

// checkSession makes sure the session exists and is not waiting for a
// decision.
func (s *Service) checkSession(ctx context.Context, sessionID string) error {
	sess, err := s.store.Session(ctx, sessionID)
	if err == nil && sess.PendingApproval {
		err = store.ErrPlanPending
	}
	return s.refused(ctx, sessionID, err)
}

// refused is sessionError naming what the session waits for: the store
// only knows that something waits, and a person asked to approve a plan
// while a tool call waits looks for a plan that is not there.
func (s *Service) refused(ctx context.Context, sessionID string, err error) error {
	if errors.Is(err, store.ErrPlanPending) {
		if aw, aerr := s.store.Awaiting(ctx, sessionID); aerr == nil && aw != nil && aw.ToolCall != nil {
			return &Error{Info: api.ErrorInfo{Code: api.ErrToolCallWaiting, Awaiting: aw,
				Message: "A tool call in this conversation is waiting for your approval.",
				Hint:    "Run it once, always allow the tool, or deny it first; then send your message."}}
		}
	}
	return sessionError(err)
}

// sessionError is what the person sees when a session cannot take a turn.
func sessionError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return userError(api.ErrSessionNotFound, "This conversation no longer exists.", "Start a new chat.")
	case errors.Is(err, store.ErrNoPlanPending):
		return userError(api.ErrNoPlanWaiting, "This conversation has no plan waiting for a decision.", "Send a new message instead.")
	case errors.Is(err, store.ErrNotLast):
		return userErrorCase(api.ErrInvalidInput, "answer_again_last", "Only the last message can be answered again.", "Send it again as a new message.")
	case errors.Is(err, store.ErrPlanPending):
		return userError(api.ErrPlanWaiting, "A plan in this conversation is waiting for your decision.", "Approve, revise or cancel the plan first.")
	}
	return err
}

// start claims the session for one turn, starts it and saves its
// messages; a non-empty newTitle creates the session with them, and
// newModel as its model; again answers the session's last message of the
// person once more instead of a new text, keeping its answers as variants.
// The turn
// runs while the messages are written, so the work before its first model
// call costs the person nothing (see Turn.Stored); when they cannot be
// written, start waits for the turn to unwind and says why.
func (s *Service) start(ctx context.Context, sessionID, newTitle, newModel, text string, d *api.ApprovalDecision, w watch, again bool) (*turn, error) {
	// The turn outlives the request that started it: it ends on Stop or
	// Shutdown, not when the bound call returns.
	turnCtx, stop := context.WithCancelCause(context.WithoutCancel(ctx))
	cancel := func() { stop(nil) }
	user, reply := store.NewTurn(sessionID, text)
	user.Decision = d
	t := &turn{
		ack:  api.SendAck{SessionID: sessionID, TurnID: reply.ID, UserMessage: user, AssistantMessageID: reply.ID},
		text: text, decision: d, ctx: turnCtx, cancel: cancel, stop: stop, watch: w,
		stored: make(chan struct{}), done: make(chan struct{}), reply: reply,
	}
	for {
		other := s.claim(sessionID, t)
		if other == nil {
			break
		}
		if d == nil {
			cancel()
			return nil, userError(api.ErrBusy, "A reply is still being written in this conversation.", "Wait for it, or press Stop.")
		}
		if err := s.awaitOther(ctx, sessionID, *d, other); err != nil {
			cancel()
			return nil, err
		}
	}

	t.model = newModel
	if newTitle == "" {
		var err error
		if t.model, err = s.store.SessionModel(ctx, sessionID); err == nil {
			if t.tuned, err = s.store.SessionSettings(ctx, sessionID); err == nil {
				t.history, err = s.store.History(ctx, sessionID)
			}
		}
		if err != nil {
			s.finish(t)
			cancel()
			close(t.stored) // refused, for a decision waiting on this turn
			close(t.done)
			return nil, sessionError(err)
		}
	}
	save := func() error { return s.store.StartTurn(ctx, newTitle, user, reply) }
	if again {
		i := lastFrom(t.history, api.RoleUser)
		if i < 0 {
			s.finish(t)
			cancel()
			close(t.stored)
			close(t.done)
			return nil, userErrorCase(api.ErrInvalidInput, "answer_again_none", "There is no message to answer again.", "Type a message instead.")
		}
		user, t.text, t.history = t.history[i], t.history[i].Content, t.history[:i]
		t.ack.UserMessage = user
		save = func() error { return s.store.StartRerun(ctx, user, reply) }
	}
	t.out = newStream(s, t)
	// The turn's goroutine starts last: when this one waits, Go runs the
	// goroutine started last on this CPU, so the reply's preparation
	// begins at once and the save runs on the other CPU or while the
	// model works. Measured, this order takes 0.1-0.2 ms more off a turn
	// than saving here.
	storing := make(chan error, 1)
	go func() { storing <- save() }()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.run(t)
	}()
	if err := <-storing; err != nil {
		cancel()
		close(t.stored)
		<-t.done // the session takes a turn again once the caller hears why
		if d != nil && (errors.Is(err, store.ErrNoPlanPending) || errors.Is(err, store.ErrOtherPending)) {
			return nil, s.decisionRefused(ctx, sessionID, *d)
		}
		return nil, s.refused(ctx, sessionID, err)
	}
	if newTitle != "" {
		if newModel != "" {
			// Rare (a model picked in a new chat), so the session is
			// created as every other and given its model right after.
			if _, err := s.store.SetSessionModel(ctx, sessionID, newModel); err != nil {
				s.opt.Logger.Warn("keep the model of a new conversation", "session", sessionID, "err", err)
			}
		}
		s.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	} else if d != nil || len(t.history) == 0 {
		// The session stopped waiting for its plan: the sidebar's "plan
		// waiting" goes now, not when the guide is written minutes later.
		// A conversation made before its first message (files attached in
		// a new chat) has just been titled by it.
		s.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	}
	s.events.Emit(api.EventTurnStarted, api.TurnStarted{
		SessionID: sessionID, TurnID: t.ack.TurnID, UserMessage: t.ack.UserMessage, AssistantMessageID: t.ack.AssistantMessageID,
	})
	t.out.open()
	// Stored says yes only now, so that the turn's end is announced after
	// its start even when the turn ends before its message is saved.
	t.ok = true
	close(t.stored)
	return t, nil
}

// claim makes t the session's running turn, or returns the turn that runs.
func (s *Service) claim(sessionID string, t *turn) *turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if other := s.running[sessionID]; other != nil {
		return other
	}
	if len(s.running) == 0 {
		s.idle = make(chan struct{})
	}
	s.running[sessionID] = t
	return nil
}

// finish gives t's session back. Only t's own claim is given back: run
// frees the session before it announces the turn's end and again as it
// returns, and by then the next turn may hold the session.
func (s *Service) finish(t *turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[t.ack.SessionID] != t {
		return
	}
	delete(s.running, t.ack.SessionID)
	if len(s.running) == 0 {
		close(s.idle)
	}
}

// run streams one reply and stores its end state in t.reply; a turn whose
// messages were not stored ends without a trace.
func (s *Service) run(t *turn) {
	defer close(t.done)
	defer s.finish(t)
	defer t.cancel()
	saved := make(chan struct{})
	defer close(saved)
	start := time.Now()
	result, err := s.responder.Respond(t.ctx, Turn{
		SessionID: t.ack.SessionID, TurnID: t.ack.TurnID, History: t.history, Text: t.text, Model: t.model, Settings: t.tuned, Decision: t.decision,
		Saved: saved, Stored: t.isStored, Settled: func(u Usage) { s.settle(t, u) },
	}, t.out)
	text := t.out.close()
	if !t.isStored() {
		return
	}
	reply := &t.reply

	// Saving must happen even when the turn was cancelled.
	saveCtx, cancelSave := context.WithTimeout(context.WithoutCancel(t.ctx), 10*time.Second)
	defer cancelSave()
	reply.Content = text
	if result.Response == "" {
		result.Response = text
	}
	result.SessionID = t.ack.SessionID
	result.ExecutionMS = time.Since(start).Milliseconds()
	if result.ToolsUsed == nil {
		result.ToolsUsed = []string{}
	}
	if result.Sources == nil {
		result.Sources = []api.Source{}
	}
	waiting := ""
	switch {
	case err == nil && waits(result):
		reply.Content = result.Response
		reply.Status = api.StatusAwaitingApproval
		reply.Result = &result
	case err == nil:
		reply.Content = result.Response
		reply.Status = api.StatusComplete
		reply.Result = &result
	case t.ctx.Err() != nil && errors.Is(err, context.Canceled):
		reply.Status = api.StatusInterrupted
		reply.Result = &result
	default:
		info := s.opt.Classify(err)
		reply.Status = api.StatusError
		reply.Error = &info
		s.opt.Logger.Warn("turn failed", "session", t.ack.SessionID, "err", err)
	}
	if err != nil && t.decision != nil && waits(result) {
		// The decision was taken but the work after it failed or was
		// stopped: the responder offers the approval again, edits and all,
		// so that one more click goes on instead of the decision being lost.
		// The reply keeps its error, to say why.
		reply.Status = api.StatusAwaitingApproval
		reply.Result = &result
	}
	if reply.Status == api.StatusAwaitingApproval {
		waiting = awaitingVersion(&api.Awaiting{Plan: result.Plan, ToolCall: result.ToolCall})
	}
	if serr := s.store.EndTurn(saveCtx, *reply, waiting, t.decision != nil); serr != nil {
		s.opt.Logger.Error("save reply", "session", t.ack.SessionID, "err", serr)
	}
	// The session takes another turn before anyone hears this one ended: a
	// window that sends, answers again or decides as soon as it is told
	// would otherwise be refused as busy now and then.
	s.finish(t)
	if reply.Status == api.StatusAwaitingApproval {
		s.announceAwaiting(t.ack.TurnID, *reply)
	}
	if reply.Status == api.StatusError {
		s.events.Emit(api.EventTurnFailed, api.TurnFailed{SessionID: t.ack.SessionID, TurnID: t.ack.TurnID, Message: *reply, Error: *reply.Error})
		return
	}
	s.opt.Logger.Info("turn finished", "session", t.ack.SessionID, "status", reply.Status, "model", result.Model, "llm_calls", result.LLMCalls, "ms", result.ExecutionMS)
	s.events.Emit(api.EventTurnFinished, api.TurnFinished{SessionID: t.ack.SessionID, TurnID: t.ack.TurnID, Message: *reply, Result: result})
}

// settle adds the model calls a turn made after its answer to the stored
// reply's result and shows the new figures in every window. The answer is
// looked up first: showing another variant meanwhile (ShowVariant) moves
// answers between rows, and the figures belong to the answer, not the row.
func (s *Service) settle(t *turn, u Usage) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msgs, err := s.store.Messages(ctx, t.reply.SessionID)
	if err != nil {
		s.opt.Logger.Warn("save the turn's final accounting", "session", t.reply.SessionID, "err", err)
		return
	}
	shown, answer := findAnswer(msgs, t.reply)
	if answer == nil || answer.Result == nil {
		return
	}
	r := *answer.Result
	r.LLMCalls += u.LLMCalls
	r.PromptTokens += u.PromptTokens
	r.CompletionTokens += u.CompletionTokens
	answer.Result = &r
	if err := s.store.UpdateMessage(ctx, *answer); err != nil {
		s.opt.Logger.Warn("save the turn's final accounting", "session", t.reply.SessionID, "err", err)
		return
	}
	s.events.Emit(api.EventMessageUpdated, api.MessageUpdated{SessionID: t.reply.SessionID, Message: *shown})
}

// findAnswer finds the answer reply is, by its time (which moves with it
// between rows), among the messages shown and their variants; shown is
// the message in the conversation's line that holds or stands for it.
func findAnswer(msgs []api.Message, reply api.Message) (shown, answer *api.Message) {
	for i := range msgs {
		m := &msgs[i]
		if m.Role != api.RoleAssistant {
			continue
		}
		if m.CreatedAt.Equal(reply.CreatedAt) {
			return m, m
		}
		for j := range m.Variants {
			if m.Variants[j].CreatedAt.Equal(reply.CreatedAt) {
				return m, &m.Variants[j]
			}
		}
	}
	return nil, nil
}

// lastFrom is the index of the last message of role, or -1.
func lastFrom(msgs []api.Message, role api.Role) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == role {
			return i
		}
	}
	return -1
}

func titleFrom(text string) string { return store.TitleFrom(text) }
