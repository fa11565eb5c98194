package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func runAsk(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("ask", `ask [--session ID] [--json] [--approve] "message"`, &g, s)
	session := fs.String("session", "", "continue this session (its id is printed by --json)")
	asJSON := fs.Bool("json", false, "print the turn's result as JSON instead of streaming the reply")
	approve := fs.Bool("approve", false, "approve the first proposed plan without asking (for scripts)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	text := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf(`%w: give the message to send, e.g. wayfinder ask "123 * 456"`, errUsage)
	}
	a, err := openApp(ctx, g, "ask", cliLogger(s, g.verbose))
	if err != nil {
		return err
	}
	defer a.Close()
	// What the model is doing goes to standard error as it happens (the
	// window shows the same in the reply); the reply to standard output.
	progress := newProgressPrinter(s.err, cliLanguage(a.settings.Current().Language))
	onText := progress.text
	if !*asJSON {
		onText = func(t string) {
			fmt.Fprint(s.out, t)
			progress.text(t)
		}
	}
	follow := chat.WithTrace(progress.event)
	msg, err := a.chat.Ask(ctx, *session, text, onText, follow)
	if !*asJSON && msg.Content != "" {
		fmt.Fprintln(s.out)
	}
	input := bufio.NewReader(s.in)
	for err == nil && msg.Status == api.StatusAwaitingApproval {
		var d api.ApprovalDecision
		if d, err = decide(msg.Result.Plan, *approve, input, s); err != nil {
			return err
		}
		msg, err = a.chat.AskDecision(ctx, msg.SessionID, d, onText, follow)
		if !*asJSON && msg.Content != "" {
			fmt.Fprintln(s.out)
		}
	}
	if err != nil {
		return err
	}
	if msg.Status == api.StatusInterrupted {
		return errors.New("stopped before the reply was complete; the partial reply is saved in the session")
	}
	if *asJSON {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(msg.Result)
	}
	if msg.Result != nil {
		printSources(s, msg.Result.Sources)
	}
	return nil
}

// printSources lists what the reply's [n] markers point at, as the window
// lists them under the reply.
func printSources(s stdio, srcs []api.Source) {
	if len(srcs) == 0 {
		return
	}
	fmt.Fprintln(s.out, "\nSources:")
	for i, src := range srcs {
		parts := []string{src.Title}
		if src.Source != "" && src.Source != src.Title {
			parts = append(parts, src.Source)
		}
		if src.Page > 0 {
			parts = append(parts, fmt.Sprintf("p. %d", src.Page))
		}
		if src.URL != "" {
			parts = append(parts, src.URL)
		}
		fmt.Fprintf(s.out, "[%d] %s\n", i+1, strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " — "))
	}
}

// cliLanguage is the language of the command line's progress lines: the
// one chosen in Settings, else the system's.
func cliLanguage(setting string) string {
	if setting != "" {
		return setting
	}
	return osLocale()
}

// decide shows a proposed plan and asks what to do with it. With
// autoApprove it approves at once, for scripts.
func decide(plan *api.PlanApproval, autoApprove bool, in *bufio.Reader, s stdio) (api.ApprovalDecision, error) {
	fmt.Fprintf(s.err, "\nProposed plan (round %d):\n", plan.Round)
	for i, st := range plan.SubTasks {
		fmt.Fprintf(s.err, "  %d. %s", i+1, st.Title)
		if st.Detail != "" {
			fmt.Fprintf(s.err, " — %s", st.Detail)
		}
		fmt.Fprintln(s.err)
	}
	if autoApprove {
		fmt.Fprintln(s.err, "Approved (--approve).")
		return api.ApprovalDecision{Action: api.ActionApprove}, nil
	}
	for {
		fmt.Fprint(s.err, "[a]pprove, [r]evise with feedback, or [c]ancel? ")
		line, err := in.ReadString('\n')
		if err != nil && strings.TrimSpace(line) == "" {
			return api.ApprovalDecision{}, fmt.Errorf("%w: no answer on standard input; the plan stays waiting in the session (use --approve in scripts)", errUsage)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "approve", "y", "yes":
			return api.ApprovalDecision{Action: api.ActionApprove}, nil
		case "c", "cancel":
			return api.ApprovalDecision{Action: api.ActionCancel}, nil
		case "r", "revise":
			fmt.Fprint(s.err, "What should change? ")
			fb, _ := in.ReadString('\n')
			if strings.TrimSpace(fb) != "" {
				return api.ApprovalDecision{Action: api.ActionRevise, Feedback: strings.TrimSpace(fb)}, nil
			}
		}
	}
}

func runDoctor(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("doctor", "doctor", &g, s)
	if err := fs.Parse(args); err != nil {
		return err
	}
	problems := 0
	ok := func(format string, a ...any) { fmt.Fprintf(s.out, "✓ "+format+"\n", a...) }
	bad := func(msg, fix string) {
		problems++
		fmt.Fprintf(s.out, "✗ %s\n    fix: %s\n", msg, fix)
	}

	dir, err := g.resolvedDataDir()
	if err == nil {
		err = checkWritable(dir)
	}
	if err != nil {
		bad(fmt.Sprintf("Data folder: %v", err), "choose a folder you can write to with --data-dir or WAYFINDER_DATA_DIR")
		return fmt.Errorf("%d problem(s) found", problems)
	}
	ok("Data folder %s is writable", dir)

	logger := cliLogger(s, g.verbose)
	var cfg api.Settings
	a, err := openApp(ctx, g, "doctor", logger)
	switch {
	case errors.Is(err, errDataDirBusy):
		// People run doctor when the open app misbehaves: check what it
		// uses without opening the folder it owns.
		if cfg, err = readSettings(ctx, g, dir); err != nil {
			return err
		}
		if err := checkWorkflowFile(g.workflow); err != nil {
			return err
		}
		ok("Data folder %s is in use by an open Wayfinder; its settings were read without changing anything", dir)
	case err != nil:
		return err
	default:
		defer a.Close()
		cfg = a.settings.Current()
	}
	models, err := newModelClient(cfg, logger)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st := settings.CheckStatus(cctx, models, cfg, describe)
	if !st.Reachable {
		bad(fmt.Sprintf("Ollama does not answer at %s: %s", cfg.OllamaHost, st.Error.Message),
			"start it with `ollama serve` (install it from https://ollama.com/download), or point --ollama-host at it")
		return fmt.Errorf("%d problem(s) found", problems)
	}
	ok("Ollama %s answers at %s", st.Version, cfg.OllamaHost)
	checkModel := func(role string, m api.ModelState, need string) {
		switch {
		case !m.Installed:
			bad(fmt.Sprintf("The %s model %s is not downloaded", role, m.Name), "ollama pull "+m.Name)
		case !slices.Contains(m.Capabilities, need):
			bad(fmt.Sprintf("The %s model %s lacks the %q capability (it has: %s)", role, m.Name, need, strings.Join(m.Capabilities, ", ")),
				fmt.Sprintf("choose another %s model in Settings or with --%s", role, map[string]string{"chat": "model", "embedding": "embed-model"}[role]))
		default:
			ok("The %s model %s is ready (%s)", role, m.Name, strings.Join(m.Capabilities, ", "))
		}
	}
	checkModel("chat", st.ChatModel, "tools")
	checkModel("embedding", st.EmbedModel, "embedding")
	if problems > 0 {
		return fmt.Errorf("%d problem(s) found", problems)
	}
	fmt.Fprintln(s.out, "Everything is ready.")
	return nil
}

// readSettings returns the settings in effect for a data folder another
// Wayfinder has open, reading its database without writing to it.
func readSettings(ctx context.Context, g globals, dir string) (api.Settings, error) {
	over, err := g.overrides()
	if err != nil {
		return api.Settings{}, err
	}
	st, err := settings.Load(ctx, readOnlySettings(dir), over)
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

// readOnlySettings is a settings.Saver for a data folder in use elsewhere.
type readOnlySettings string

func (d readOnlySettings) LoadSettings(ctx context.Context, v any) (bool, error) {
	return store.ReadSettings(ctx, string(d), v)
}

func (d readOnlySettings) SaveSettings(context.Context, any) error {
	return fmt.Errorf("the data folder %s is in use by another Wayfinder: settings cannot be saved here", string(d))
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
