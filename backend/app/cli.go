package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func runAsk(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("ask", `ask [--session ID] [--json] [--approve] [--approve-tools] "message"`, &g, s)
	session := fs.String("session", "", "continue this conversation: its `ID`, or the first characters of it (wayfinder sessions lists them); a plan or tool call waiting in it is shown to decide first")
	asJSON := fs.Bool("json", false, "print the turn's result as JSON instead of streaming the reply")
	approve := fs.Bool("approve", false, "approve the first proposed plan without asking (for scripts; not one recovered from a broken reply)")
	approveTools := fs.Bool("approve-tools", false, "run every tool call that asks for approval, once each, without asking (for scripts)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" && *session == "" {
		return usageMistake("usage.askMessage")
	}
	a, err := openApp(ctx, g, "ask", cliLogger(s, g.verbose))
	if err != nil {
		return err
	}
	defer a.Close()
	// What the model is doing goes to standard error as it happens (the
	// window shows the same in the reply); the reply to standard output.
	progress := newProgressPrinter(s.err, cliLanguage(a.settings.Current().Language))
	lang := a.lang()
	t := asker{a: a, s: s, lang: lang, approve: *approve, terminal: isTerminal(s.in), approveTools: *approveTools, in: newLineReader(s.in), onText: progress.text, follow: chat.WithTrace(progress.event), printed: !*asJSON}
	if !*asJSON {
		t.onText = func(txt string) {
			fmt.Fprint(s.out, txt)
			progress.text(txt)
		}
	}
	var msg api.Message
	if *session != "" {
		// The start of an id is enough, as for export; one that names no
		// conversation says so in the command's language and where the
		// ids are, before anything is sent.
		sess, err := sessionByPrefix(ctx, a, *session)
		if err != nil {
			return err
		}
		*session = sess.ID
		waiting, ok, err := a.chat.PendingDecision(ctx, *session)
		if err != nil {
			return err
		}
		if ok {
			what := "ask.waitingPlan"
			if waiting.Result.ToolCall != nil {
				what = "ask.waitingTool"
			}
			sayLine(s.err, "", "  ", say(what, lang))
			if text != "" {
				sayLine(s.err, "", "  ", say("ask.sentAfter", lang))
			}
			if msg, err = t.decideAll(ctx, waiting); err != nil {
				return err
			}
		} else if text == "" {
			return usageMistake("usage.nothingWaiting")
		}
	}
	if text != "" {
		msg, err = a.chat.Ask(ctx, *session, text, t.onText, t.follow)
		t.endReply(msg)
		if err != nil {
			return err
		}
		if msg, err = t.decideAll(ctx, msg); err != nil {
			return err
		}
	}
	if msg.Status == api.StatusInterrupted {
		// Ctrl+C ends the command as a shell reports it (130), as kb
		// import stopped does, where it was 1, a failure; a reply cut
		// off otherwise still fails.
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %s", errStopped, say("ask.interrupted", lang, "id", msg.SessionID))
		}
		return errors.New(say("ask.interrupted", lang, "id", msg.SessionID))
	}
	if *asJSON {
		// The work after the answer (summary, reflection) adds its model
		// calls to the reply's result: print the final figures.
		a.agent.Wait()
		if final, err := storedMessage(ctx, a, msg); err == nil {
			msg = final
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(msg.Result)
	}
	if msg.Result != nil {
		printSources(s, msg.Result.Sources, lang)
		printAttachments(s, msg.Result.ToolCalls, lang)
	}
	// On standard error, so that standard output stays the reply.
	fmt.Fprintln(s.err)
	sayLine(s.err, "", "  ", say("ask.session", lang, "id", msg.SessionID))
	return nil
}

// cliLanguage is the language of the command line's progress lines: the
// one chosen in Settings, else the system's.
func cliLanguage(setting string) string {
	if setting != "" {
		return setting
	}
	return osLocale()
}

// lang is the index of the [2]string tables (langIndex) for the language
// the person reads: Settings' choice, else the system's (cliLanguage).
func (a *App) lang() int { return langIndex(cliLanguage(a.settings.Current().Language)) }

// asker runs the turns of one `wayfinder ask`.
type asker struct {
	a       *App
	s       stdio
	onText  func(string)
	follow  chat.AskOption // the progress lines
	printed bool           // the reply goes to standard output (not --json)
	lang    int            // the language ask speaks (cliLanguage)
	approve bool           // --approve: the first plan
	// terminal: standard input is a terminal a person answers at
	// (approvesAtOnce asks there about a plan --approve does not take).
	terminal bool
	// approveTools (--approve-tools) runs every tool call that asks, once.
	approveTools bool
	in           *lineReader
}

// endReply ends a streamed reply's line.
func (t asker) endReply(msg api.Message) {
	if t.printed && msg.Content != "" {
		fmt.Fprintln(t.s.out)
	}
}

// decideAll asks about what msg waits for (a plan or a tool call) while
// something waits, and runs each decision's turn. Ctrl+C at the question
// leaves it waiting.
func (t asker) decideAll(ctx context.Context, msg api.Message) (api.Message, error) {
	for msg.Status == api.StatusAwaitingApproval {
		var d api.ApprovalDecision
		var err error
		what := "ask.stillWaitingPlan"
		if msg.Result.ToolCall != nil {
			what = "ask.stillWaitingTool"
			d, err = decideTool(ctx, *msg.Result.ToolCall, t.approveTools, t.in, t.s, t.lang)
		} else {
			var auto bool
			if auto, err = approvesAtOnce(msg.Result, t.approve, t.terminal, msg.SessionID, t.s, t.lang); err != nil {
				return msg, err
			}
			d, err = decide(ctx, msg.Result.Plan, auto, t.in, t.s, t.lang)
		}
		if ctx.Err() != nil {
			fmt.Fprintln(t.s.err)
			return msg, fmt.Errorf("%w: %s", errStopped, say(what, t.lang, "id", msg.SessionID))
		}
		if err != nil {
			return msg, err
		}
		reply, err := t.a.chat.AskDecision(ctx, msg.SessionID, d, t.onText, t.follow)
		t.endReply(reply)
		if now, ok := t.refused(ctx, msg.SessionID, err); ok {
			msg = now // what waits now, asked about in turn
			continue
		}
		if err != nil {
			return reply, err
		}
		msg = reply
	}
	return msg, nil
}

// refused says, when err refuses a decision because what it answered no
// longer waits (the plan changed, the call was decided), why, and returns
// what waits now to ask about instead.
func (t asker) refused(ctx context.Context, sessionID string, err error) (api.Message, bool) {
	var ce *chat.Error
	if !errors.As(err, &ce) || (ce.Info.Code != api.ErrPlanChanged && ce.Info.Code != api.ErrToolCallChanged) || ce.Info.Awaiting == nil {
		return api.Message{}, false
	}
	now, ok, perr := t.a.chat.PendingDecision(ctx, sessionID)
	if perr != nil || !ok {
		return api.Message{}, false
	}
	fmt.Fprintf(t.s.err, "\n%s\n", ce.Info.Message)
	return now, true
}

// storedMessage reads msg back as stored.
func storedMessage(ctx context.Context, a *App, msg api.Message) (api.Message, error) {
	all, err := a.store.Messages(ctx, msg.SessionID)
	if err != nil {
		return msg, err
	}
	for _, m := range all {
		if m.ID == msg.ID {
			return m, nil
		}
	}
	return msg, store.ErrNotFound
}

// lineReader reads standard input a line at a time and stops waiting when
// ctx ends (Ctrl+C), which a read on a terminal cannot do by itself.
type lineReader struct {
	in      *bufio.Reader
	lines   chan lineRead
	reading bool
}

type lineRead struct {
	line string
	err  error
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{in: bufio.NewReader(r), lines: make(chan lineRead, 1)}
}

// readLine returns the next line; a read cut short by ctx is picked up by
// the next call.
func (r *lineReader) readLine(ctx context.Context) (string, error) {
	if !r.reading {
		r.reading = true
		go func() {
			line, err := r.in.ReadString('\n')
			r.lines <- lineRead{line, err}
		}()
	}
	select {
	case l := <-r.lines:
		r.reading = false
		return l.line, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// readSettings returns the settings in effect for a data folder another
// Wayfinder has open, reading its database without writing to it.
func readSettings(ctx context.Context, g globals, dir string) (api.Settings, error) {
	over, err := g.overrides()
	if err != nil {
		return api.Settings{}, err
	}
	db, err := store.OpenReadOnly(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist): // nothing saved yet: the defaults
	case err != nil:
		return api.Settings{}, err
	default:
		defer db.Close()
	}
	st, err := settings.Load(ctx, readOnlySettings{db}, over)
	if err != nil {
		return api.Settings{}, err
	}
	return st.Current(), nil
}

// checkWorkflowFile reports a problem with the person's workflow file, as
// starting the app would.
func checkWorkflowFile(path string) error {
	def, err := loadWorkflow(path)
	if err != nil || def == nil {
		return err
	}
	if err := agent.CheckWorkflow(def); err != nil {
		return fmt.Errorf("start the agent: %w", err)
	}
	return nil
}

// readOnlySettings is a settings.Saver for a data folder in use elsewhere;
// a nil store is a folder without a database yet.
type readOnlySettings struct{ db *store.Store }

func (d readOnlySettings) LoadSettings(ctx context.Context, v any) (bool, error) {
	if d.db == nil {
		return false, nil
	}
	return d.db.LoadSettings(ctx, v)
}

func (d readOnlySettings) SaveSettings(context.Context, any) error {
	return errors.New("another Wayfinder is using the data folder: settings cannot be saved here")
}

// openCLI opens the data folder for a command. One that only reads it
// (reads) runs beside the Wayfinder that has the folder open too, read-only
// (openReadOnly), and says so on standard error.
func openCLI(ctx context.Context, g globals, s stdio, reads bool) (*App, error) {
	a, err := openApp(ctx, g, "cli", cliLogger(s, g.verbose))
	if !reads || !errors.Is(err, errDataDirBusy) {
		return a, err
	}
	if a, err = openReadOnly(ctx, g, cliLogger(s, g.verbose)); err != nil {
		return nil, err
	}
	sayLine(s.err, "", "  ", say("cli.readOnly", a.lang()))
	return a, nil
}

func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(filepath.Clean(name))
}

// isTerminal reports whether r is a terminal a person types into.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// confirm asks a yes/no question on the terminal before something that
// cannot be undone; without a terminal (a script, a pipe) it refuses and
// names the flag that skips the question. No, an empty answer and Ctrl+C
// all leave everything as it was.
// It speaks lang (cliLanguage); the answer is y or yes in either.
func confirm(ctx context.Context, s stdio, question string, lang int) error {
	if !isTerminal(s.in) {
		return fmt.Errorf("%w: %s", errUsage, say("cli.notTerminal", lang))
	}
	fmt.Fprintf(s.err, "%s [y/N] ", question)
	line, _ := newLineReader(s.in).readLine(ctx)
	if ctx.Err() != nil {
		fmt.Fprintln(s.err)
		return fmt.Errorf("%w: %s", errStopped, say("cli.nothingChanged", lang))
	}
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		return nil
	}
	return errors.New(say("cli.cancelled", lang))
}
