package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder is an EventSink that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []event
	notify chan struct{}
}

type event struct {
	name    string
	payload any
}

func newRecorder() *recorder { return &recorder{notify: make(chan struct{}, 1000)} }

func (r *recorder) Emit(name string, payload any) {
	r.mu.Lock()
	r.events = append(r.events, event{name, payload})
	r.mu.Unlock()
	r.notify <- struct{}{}
}

// wait blocks until an event with the name arrives and returns its payload.
func (r *recorder) wait(t *testing.T, name string) any {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		r.mu.Lock()
		for _, e := range r.events {
			if e.name == name {
				r.mu.Unlock()
				return e.payload
			}
		}
		r.mu.Unlock()
		select {
		case <-r.notify:
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

func (r *recorder) tokens() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if tb, ok := e.payload.(api.TokenBatch); ok {
			b.WriteString(tb.Text)
		}
	}
	return b.String()
}

// responderFunc adapts a function to Responder.
type responderFunc func(ctx context.Context, t Turn, out Output) (api.TurnResult, error)

func (f responderFunc) Respond(ctx context.Context, t Turn, out Output) (api.TurnResult, error) {
	return f(ctx, t, out)
}

func newService(t *testing.T, r Responder) (*Service, *store.Store, *recorder) {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	svc := New(st, r, rec, Options{FlushEvery: 5 * time.Millisecond, SaveEvery: 10 * time.Millisecond})
	t.Cleanup(func() { svc.Shutdown(); _ = st.Close() })
	return svc, st, rec
}

func TestSendStreamsAndSaves(t *testing.T) {
	var gotHistory []api.Message
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		gotHistory = turn.History
		for _, w := range []string{"안녕", "하세요", "!"} {
			out.Text(w)
		}
		return api.TurnResult{LLMCalls: 1, PromptTokens: 10, CompletionTokens: 3}, nil
	}))
	ctx := context.Background()
	ack, err := svc.Send(ctx, "", "안녕")
	if err != nil {
		t.Fatal(err)
	}
	fin := rec.wait(t, api.EventTurnFinished).(api.TurnFinished)
	if fin.Message.Content != "안녕하세요!" || fin.Message.Status != api.StatusComplete {
		t.Fatalf("finished message = %+v", fin.Message)
	}
	if fin.Result.LLMCalls != 1 || fin.Result.SessionID != ack.SessionID || fin.Result.Response != "안녕하세요!" {
		t.Fatalf("result = %+v", fin.Result)
	}
	if got := rec.tokens(); got != "안녕하세요!" {
		t.Fatalf("streamed tokens = %q", got)
	}
	msgs, err := st.Messages(ctx, ack.SessionID)
	if err != nil || len(msgs) != 2 || msgs[0].Content != "안녕" || msgs[1].Content != "안녕하세요!" || msgs[1].Result == nil {
		t.Fatalf("stored = %+v, %v", msgs, err)
	}
	sess, _ := st.Session(ctx, ack.SessionID)
	if sess.Title != "안녕" {
		t.Fatalf("title = %q", sess.Title)
	}

	// The second turn sees the first as history.
	waitIdle(t, svc, ack.SessionID)
	if _, err := svc.Send(ctx, ack.SessionID, "again"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	if len(gotHistory) != 2 {
		t.Fatalf("history of second turn = %d messages, want 2", len(gotHistory))
	}
}

func TestValidation(t *testing.T) {
	svc, st, _ := newService(t, responderFunc(func(_ context.Context, turn Turn, _ Output) (api.TurnResult, error) {
		if turn.Stored() {
			t.Error("a turn for invalid input was stored")
		}
		return api.TurnResult{}, nil
	}))
	tests := []struct {
		name, text string
		code       api.ErrorCode
	}{
		{"empty", "", api.ErrEmptyMessage},
		{"spaces", " \n\t ", api.ErrEmptyMessage},
		{"2MB paste", strings.Repeat("가", 2<<20/3), api.ErrMessageTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Send(context.Background(), "", tt.text)
			var ue *Error
			if !errors.As(err, &ue) || ue.Info.Code != tt.code || ue.Info.Hint == "" {
				t.Fatalf("err = %v, want code %s with a hint", err, tt.code)
			}
			if tt.code == api.ErrMessageTooLong && (ue.Info.Args["n"] != strconv.Itoa(utf8.RuneCountInString(tt.text)) || ue.Info.Args["max"] != strconv.Itoa(MaxMessageRunes)) {
				t.Fatalf("the sizes are not sent apart for the window to word: %+v", ue.Info.Args)
			}
		})
	}
	if list, _ := st.ListSessions(context.Background(), ""); len(list) != 0 {
		t.Fatalf("invalid input created sessions: %+v", list)
	}
	if _, err := svc.Send(context.Background(), "no-such-session", "hi"); err == nil {
		t.Fatal("unknown session accepted")
	}
}

func TestStopKeepsPartialReply(t *testing.T) {
	started := make(chan struct{})
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, _ Turn, out Output) (api.TurnResult, error) {
		out.Text("partial ")
		close(started)
		<-ctx.Done()
		// The responder can tell the person's Stop from the app closing.
		if !errors.Is(context.Cause(ctx), ErrStopped) {
			out.Text("(not told it was the person's Stop)")
		}
		return api.TurnResult{LLMCalls: 1}, ctx.Err()
	}))
	ack, err := svc.Send(context.Background(), "", "write a long story")
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if _, err := svc.Send(context.Background(), ack.SessionID, "another"); err == nil {
		t.Fatal("second turn in a busy session accepted")
	}
	svc.Stop(ack.SessionID)
	fin := rec.wait(t, api.EventTurnFinished).(api.TurnFinished)
	if fin.Message.Status != api.StatusInterrupted || fin.Message.Content != "partial " {
		t.Fatalf("stopped message = %+v", fin.Message)
	}
	waitIdle(t, svc, ack.SessionID)
	msgs, _ := st.Messages(context.Background(), ack.SessionID)
	if msgs[0].Content != "write a long story" || msgs[1].Status != api.StatusInterrupted {
		t.Fatalf("stored = %+v", msgs)
	}
}

func TestResponderErrorKeepsInput(t *testing.T) {
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, _ Turn, out Output) (api.TurnResult, error) {
		out.Text("half")
		return api.TurnResult{}, errors.New("connection reset")
	}))
	svc.opt.Classify = func(err error) api.ErrorInfo {
		return api.ErrorInfo{Code: api.ErrStreamDropped, Message: "Ollama stopped answering.", Hint: "Check that `ollama serve` is running, then try again."}
	}
	ack, err := svc.Send(context.Background(), "", "내 질문")
	if err != nil {
		t.Fatal(err)
	}
	failed := rec.wait(t, api.EventTurnFailed).(api.TurnFailed)
	if failed.Error.Code != api.ErrStreamDropped || failed.Message.Content != "half" {
		t.Fatalf("failed = %+v", failed)
	}
	waitIdle(t, svc, ack.SessionID)
	msgs, _ := st.Messages(context.Background(), ack.SessionID)
	if len(msgs) != 2 || msgs[0].Content != "내 질문" || msgs[1].Status != api.StatusError || msgs[1].Error.Code != api.ErrStreamDropped {
		t.Fatalf("stored = %+v", msgs)
	}
}

func TestAskIsSynchronous(t *testing.T) {
	svc, _, _ := newService(t, responderFunc(func(ctx context.Context, _ Turn, out Output) (api.TurnResult, error) {
		out.Text("4")
		return api.TurnResult{LLMCalls: 1}, nil
	}))
	var streamed strings.Builder
	msg, err := svc.Ask(context.Background(), "", "2+2", func(s string) { streamed.WriteString(s) })
	if err != nil || msg.Content != "4" || streamed.String() != "4" || msg.Result.LLMCalls != 1 {
		t.Fatalf("Ask = %+v, %v (streamed %q)", msg, err, streamed.String())
	}
}

// Turn.Saved tells the Responder when the reply is stored and announced:
// open while it works, closed once turn_finished is out and the message
// reads back complete.
func TestSavedClosesAfterTheReplyIsStored(t *testing.T) {
	saved := make(chan (<-chan struct{}), 1)
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		select {
		case <-turn.Saved:
			t.Error("Saved closed while the Responder works")
		default:
		}
		saved <- turn.Saved
		out.Text("done")
		return api.TurnResult{}, nil
	}))
	ack, err := svc.Send(context.Background(), "", "hi")
	if err != nil {
		t.Fatal(err)
	}
	<-(<-saved)
	rec.wait(t, api.EventTurnFinished)
	msgs, err := st.Messages(context.Background(), ack.SessionID)
	if err != nil || len(msgs) != 2 || msgs[1].Status != api.StatusComplete || msgs[1].Content != "done" {
		t.Fatalf("messages once Saved closed: %+v, %v", msgs, err)
	}
}

// WaitIdle holds background work back while any turn runs, and lets it go
// once the last one ends; it says that it waits only when it does.
func TestWaitIdle(t *testing.T) {
	release := make(chan struct{})
	svc, st, _ := newService(t, responderFunc(func(ctx context.Context, _ Turn, out Output) (api.TurnResult, error) {
		<-release
		out.Text("ok")
		return api.TurnResult{}, nil
	}))
	ctx := context.Background()
	said := 0
	waiting := func() { said++ }
	if err := svc.WaitIdle(ctx, waiting); err != nil || said != 0 {
		t.Fatalf("idle service: %v, said it waits %d times", err, said)
	}
	var sessions []string
	for range 2 {
		ack, err := svc.Send(ctx, "", "hi")
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, ack.SessionID)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := svc.WaitIdle(short, waiting); !errors.Is(err, context.DeadlineExceeded) || said != 1 {
		t.Fatalf("WaitIdle during two turns = %v, said it waits %d times; want it to wait and say so once", err, said)
	}
	close(release)
	if err := svc.WaitIdle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// Both turns ended: their replies are stored whole and their sessions
	// take turns again (their events follow at once; see
	// TestSessionIsFreeWhenTheTurnEndIsAnnounced).
	for _, id := range sessions {
		msgs, err := st.Messages(ctx, id)
		if err != nil || len(msgs) != 2 || msgs[1].Status != api.StatusComplete || svc.Busy(id) {
			t.Errorf("WaitIdle returned before the turn of %s ended: %+v, %v, busy %v", id, msgs, err, svc.Busy(id))
		}
	}
}

func TestPartialReplySavedWhileStreaming(t *testing.T) {
	release := make(chan struct{})
	svc, st, _ := newService(t, responderFunc(func(ctx context.Context, _ Turn, out Output) (api.TurnResult, error) {
		out.Text("first words")
		<-release
		return api.TurnResult{}, nil
	}))
	ack, err := svc.Send(context.Background(), "", "q")
	if err != nil {
		t.Fatal(err)
	}
	defer close(release)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		msgs, _ := st.Messages(context.Background(), ack.SessionID)
		if len(msgs) == 2 && msgs[1].Content == "first words" && msgs[1].Status == api.StatusStreaming {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("partial reply never saved while streaming")
}

func waitIdle(t *testing.T, svc *Service, sessionID string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for svc.Busy(sessionID) {
		if time.Now().After(deadline) {
			t.Fatal("turn did not end")
		}
		time.Sleep(time.Millisecond)
	}
}

// codeOf is the code of a user-facing error, or "".
func codeOf(err error) api.ErrorCode {
	var e *Error
	if errors.As(err, &e) {
		return e.Info.Code
	}
	return ""
}

func TestTraceKeepsOrderWithText(t *testing.T) {
	svc, _, rec := newService(t, responderFunc(func(ctx context.Context, _ Turn, out Output) (api.TurnResult, error) {
		out.Text("before ")
		out.Trace(api.TraceEvent{Kind: api.TraceToolSelected, Tool: "calculator"})
		out.Text("after")
		return api.TurnResult{}, nil
	}))
	ack, err := svc.Send(context.Background(), "", "q")
	if err != nil {
		t.Fatal(err)
	}
	rec.wait(t, api.EventTurnFinished)
	waitIdle(t, svc, ack.SessionID)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var seq []string
	for _, e := range rec.events {
		switch p := e.payload.(type) {
		case api.TokenBatch:
			seq = append(seq, p.Text)
		case api.TraceEvent:
			seq = append(seq, "["+p.Tool+"]")
		}
	}
	if got := strings.Join(seq, ""); got != "before [calculator]after" {
		t.Fatalf("order = %q", got)
	}
}

// The Responder runs while the person's message is being written: what it
// sends before the message is stored reaches the UI only after TurnStarted,
// in order, and nothing of it once the message is refused.
func TestOutputWaitsForTheStoredMessage(t *testing.T) {
	prepared := make(chan struct{})
	svc, st, rec := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		out.Text("early ")
		out.Trace(api.TraceEvent{Kind: api.TraceToolSelected, Tool: "calculator"})
		close(prepared)
		if !turn.Stored() {
			return api.TurnResult{}, context.Cause(ctx)
		}
		out.Text("rest")
		return api.TurnResult{}, nil
	}))
	ctx := context.Background()

	// Another connection holds the write lock, so StartTurn waits.
	lock := st.DB().Begin()
	if lock.Error != nil {
		t.Fatal(lock.Error)
	}
	t.Cleanup(func() { lock.Rollback() }) // before Shutdown, when the test fails early
	acks := make(chan error, 1)
	go func() {
		_, err := svc.Send(ctx, "", "q")
		acks <- err
	}()
	<-prepared
	rec.mu.Lock()
	early := len(rec.events)
	rec.mu.Unlock()
	if early != 0 {
		t.Fatalf("%d events sent before the message was stored", early)
	}
	if err := lock.Rollback().Error; err != nil {
		t.Fatal(err)
	}
	if err := <-acks; err != nil {
		t.Fatal(err)
	}
	rec.wait(t, api.EventTurnFinished)
	rec.mu.Lock()
	var seq []string
	for _, e := range rec.events {
		switch p := e.payload.(type) {
		case api.TurnStarted:
			seq = append(seq, "<started>")
		case api.TokenBatch:
			seq = append(seq, p.Text)
		case api.TraceEvent:
			seq = append(seq, "["+p.Tool+"]")
		case api.TurnFinished:
			seq = append(seq, "<finished>")
		}
	}
	rec.mu.Unlock()
	if got := strings.Join(seq, ""); got != "<started>early [calculator]rest<finished>" {
		t.Fatalf("events = %q", got)
	}

	// A message the store refuses: the turn is cancelled, sends nothing,
	// and the session is free when Send returns.
	prepared = make(chan struct{})
	rec.mu.Lock()
	rec.events = nil
	rec.mu.Unlock()
	if _, err := svc.Send(ctx, "no-such-session", "q"); codeOf(err) != api.ErrSessionNotFound {
		t.Fatalf("Send to a missing session: %v", err)
	}
	if svc.Busy("no-such-session") {
		t.Fatal("the refused turn still holds the session")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.events) != 0 {
		t.Fatalf("a refused turn sent %+v", rec.events)
	}
}

// slowStart is a recorder that takes its time over TurnStarted, as a busy
// window may.
type slowStart struct{ *recorder }

func (s slowStart) Emit(name string, payload any) {
	if name == api.EventTurnStarted {
		time.Sleep(20 * time.Millisecond)
	}
	s.recorder.Emit(name, payload)
}

// A turn that ends before its message is saved (here at once) is still
// announced as started before it is announced as ended.
func TestTurnEndsAfterItStarts(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	svc := New(st, responderFunc(func(context.Context, Turn, Output) (api.TurnResult, error) {
		return api.TurnResult{}, errors.New("ollama is not running")
	}), slowStart{rec}, Options{})
	t.Cleanup(func() { svc.Shutdown(); _ = st.Close() })
	if _, err := svc.Send(context.Background(), "", "q"); err != nil {
		t.Fatal(err)
	}
	rec.wait(t, api.EventTurnFailed)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var names []string
	for _, e := range rec.events {
		names = append(names, e.name)
	}
	if i, j := slices.Index(names, api.EventTurnStarted), slices.Index(names, api.EventTurnFailed); i < 0 || i > j {
		t.Fatalf("events %v", names)
	}
}

func TestRegenerateAndEditLast(t *testing.T) {
	var seen []string
	svc, st, _ := newService(t, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		seen = append(seen, fmt.Sprintf("%d:%s", len(turn.History), turn.Text))
		out.Text("reply to " + turn.Text)
		return api.TurnResult{}, nil
	}))
	ctx := context.Background()
	if _, err := svc.Regenerate(ctx, "nope"); err == nil {
		t.Fatal("regenerate of a missing session accepted")
	}
	ack, _ := svc.Send(ctx, "", "first")
	waitIdle(t, svc, ack.SessionID)
	svc.Send(ctx, ack.SessionID, "second")
	waitIdle(t, svc, ack.SessionID)
	if _, err := svc.Regenerate(ctx, ack.SessionID); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	if _, err := svc.EditLast(ctx, ack.SessionID, "  "); err == nil {
		t.Fatal("empty edit accepted")
	}
	if _, err := svc.EditLast(ctx, ack.SessionID, "second, edited"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, svc, ack.SessionID)
	want := []string{"0:first", "2:second", "2:second", "2:second, edited"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Fatalf("turns = %q, want %q", seen, want)
	}
	msgs, _ := st.Messages(ctx, ack.SessionID)
	var got []string
	for _, m := range msgs {
		got = append(got, m.Content)
	}
	if strings.Join(got, "|") != "first|reply to first|second, edited|reply to second, edited" {
		t.Fatalf("messages = %q", got)
	}
}

// A turn's end is announced only once its session takes another turn, so
// a window that sends or decides the moment it hears is never refused as
// busy.
func TestSessionIsFreeWhenTheTurnEndIsAnnounced(t *testing.T) {
	for _, tc := range []struct {
		name   string
		event  string
		result api.TurnResult
		err    error
	}{
		{"finished", api.EventTurnFinished, api.TurnResult{}, nil},
		{"failed", api.EventTurnFailed, api.TurnResult{}, errors.New("model went away")},
		{"awaiting a plan", api.EventApproval, api.TurnResult{Plan: &api.PlanApproval{Task: "g", SubTasks: []api.SubTask{{ID: "1", Title: "step"}}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := store.Open(context.Background(), t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var svc *Service
			var mu sync.Mutex
			busy := map[string]bool{} // each ending event: was the session taken as it went out
			sink := &hookSink{recorder: newRecorder(), on: func(name string, payload any) {
				var id string
				switch p := payload.(type) {
				case api.TurnFinished:
					id = p.SessionID
				case api.TurnFailed:
					id = p.SessionID
				case api.ApprovalRequired:
					id = p.SessionID
				default:
					return
				}
				taken := svc.Busy(id)
				mu.Lock()
				busy[name] = taken
				mu.Unlock()
			}}
			svc = New(st, responderFunc(func(context.Context, Turn, Output) (api.TurnResult, error) {
				return tc.result, tc.err
			}), sink, Options{})
			t.Cleanup(func() { svc.Shutdown(); _ = st.Close() })
			if _, err := svc.Send(context.Background(), "", "hi"); err != nil {
				t.Fatal(err)
			}
			sink.wait(t, tc.event)
			mu.Lock()
			defer mu.Unlock()
			if busy, ok := busy[tc.event]; !ok || busy {
				t.Fatalf("%s went out with the session still taken (seen %v)", tc.event, ok)
			}
		})
	}
}

// hookSink calls on for every event, as it goes out, before keeping it.
type hookSink struct {
	*recorder
	on func(name string, payload any)
}

func (h *hookSink) Emit(name string, payload any) {
	h.on(name, payload)
	h.recorder.Emit(name, payload)
}

// A turn gives its session back once: the next turn, started the moment
// the first one's end is announced, keeps the session until it ends
// itself, though the first turn's run ends after it began.
func TestNextTurnKeepsTheSession(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first, release := make(chan struct{}), make(chan struct{})
	second := make(chan error, 1)
	var svc *Service
	sink := &hookSink{recorder: newRecorder(), on: func(_ string, payload any) {
		if f, ok := payload.(api.TurnFinished); ok && f.Message.Content == "first" {
			_, err := svc.Send(ctx, f.SessionID, "second")
			second <- err
		}
	}}
	svc = New(st, responderFunc(func(ctx context.Context, turn Turn, out Output) (api.TurnResult, error) {
		if turn.Text == "second" {
			select {
			case <-release:
			case <-ctx.Done():
				return api.TurnResult{}, ctx.Err()
			}
			out.Text("second")
		} else {
			<-first
			out.Text("first")
		}
		return api.TurnResult{}, nil
	}), sink, Options{})
	t.Cleanup(func() { svc.Shutdown(); _ = st.Close() })

	ack, err := svc.Send(ctx, "", "first")
	if err != nil {
		t.Fatal(err)
	}
	svc.mu.Lock()
	firstTurn := svc.running[ack.SessionID]
	svc.mu.Unlock()
	close(first)
	if err := <-second; err != nil {
		t.Fatalf("the next turn, sent as the first one's end was announced: %v", err)
	}
	<-firstTurn.done
	busy := svc.Busy(ack.SessionID)
	close(release)
	if !busy {
		t.Fatal("the first turn's end gave back the session the next turn holds")
	}
	waitIdle(t, svc, ack.SessionID)
}
