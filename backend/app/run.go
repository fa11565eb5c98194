// Package app is one run of Wayfinder: its command line (the desktop window
// by default, the same UI in a browser with `serve`, one turn in the
// terminal with `ask`, the knowledge base and memory with `kb` and `memory`,
// a setup check with `doctor`), the backend wired together for one data
// folder (App), and the services both UIs call (ChatService,
// SettingsService, KnowledgeService, MemoryService: thin and typed, over
// backend/chat, store, settings, knowledge and memory).
//
// It does not import Wails: the desktop window comes in through Shells from
// package main, and package desktop, the only one that talks to the Wails
// runtime, shows it. So everything here is tested without a display.
package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/version"
)

// Shells are what package main gives the command line to show the app in.
type Shells struct {
	// Assets is the built frontend, index.html at its root.
	Assets fs.FS
	// Window shows a in the desktop window until it closes.
	Window func(ctx context.Context, a *App) error
	// ErrorWindow shows a page saying why the app could not start, in a
	// small window of its own (a launcher has no terminal to show it in).
	// instanceID is the open app's (InstanceID) when the data folder was in
	// use, so that a desktop with a session bus raises that app's window
	// instead; "" otherwise.
	ErrorWindow func(ctx context.Context, page []byte, instanceID string) error
}

// globals are the flags every command accepts.
type globals struct {
	dataDir    string
	ollamaHost string
	model      string
	fallback   string
	embedModel string
	parallel   int
	workflow   string
	verbose    bool
	// wikipediaZIM: search_wikipedia reads this ZIM file for one run
	wikipediaZIM string
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.dataDir, "data-dir", g.dataDir, "where Wayfinder keeps its data (env WAYFINDER_DATA_DIR)")
	fs.StringVar(&g.ollamaHost, "ollama-host", g.ollamaHost, "Ollama address, or several separated by commas to share the calls (default: $OLLAMA_HOST, else http://127.0.0.1:11434)")
	fs.StringVar(&g.model, "model", g.model, "chat model for this run (overrides Settings)")
	fs.StringVar(&g.fallback, "fallback-model", g.fallback, "chat model that answers when the chosen one is missing, out of memory or keeps failing (overrides Settings)")
	fs.StringVar(&g.embedModel, "embed-model", g.embedModel, "embedding model for this run (overrides Settings)")
	fs.IntVar(&g.parallel, "parallel", g.parallel, "requests the Ollama server answers at once (its OLLAMA_NUM_PARALLEL): sub-tasks are recommended that many at a time (overrides Settings)")
	fs.StringVar(&g.workflow, "workflow", g.workflow, "your own agent workflow definition (JSON) instead of the built-in one (env WAYFINDER_WORKFLOW)")
	fs.StringVar(&g.wikipediaZIM, "wikipedia-zim", g.wikipediaZIM, "let the assistant search this Kiwix ZIM file (an offline Wikipedia) with search_wikipedia, for this run (overrides Settings)")
	fs.BoolVar(&g.verbose, "v", g.verbose, "log debug details to stderr")
}

type command struct {
	name, usage, summary string
	run                  func(ctx context.Context, g globals, args []string, io stdio) error
}

type stdio struct {
	in       io.Reader
	out, err io.Writer
	shells   Shells
	// flags, when set, is pointed by subFlags at the globals the running
	// command parsed (its flags after its name included), so that report
	// words a failure in the language the command speaks: the data
	// folder's Language setting, else the system's (cliLanguage).
	flags **globals
	// command, when set, is pointed by subFlags at the name of the
	// command whose flags were parsed last ("kb search"), so that a
	// mistake points at the help that has its flags.
	command *string
}

func commands() []command {
	return []command{
		{"serve", "serve [--addr 127.0.0.1:PORT] [--new-token]", "the Wayfinder UI in your browser (loopback only)", runServe},
		{"ask", `ask [--session ID] [--json] [--approve] [--approve-tools] "message"`, "one turn in the terminal, streaming the reply", runAsk},
		{"kb", "kb import|list|remove|search|extract", "manage the knowledge base (run `wayfinder kb --help` for details)", runKB},
		{"memory", "memory list|add|edit|rm", "see and edit what Wayfinder remembers about you", runMemory},
		{"sessions", sessionsUsage, "the conversations, newest first, with the ids ask --session and export --session take", runSessions},
		{"export", exportUsage, "conversations as Markdown (to read) or JSON (to import again)", runExport},
		{"import", "import FILE", "conversations from a JSON export", runImport},
		{"mcp", "mcp list|add|remove|on|off", "connect MCP servers whose tools the assistant may call, always asking you first (run `wayfinder mcp --help` for details)", runMCP},
		{"folders", "folders list|add|remove", "the folders the read_file tool may read: grant, list, revoke", runFolders},
		{"doctor", "doctor", "check Ollama, the models and the data folder, and say how to fix each problem", runDoctor},
		{"version", "version", "print the version, commit and build date (also --version)", runVersion},
	}
}

func runVersion(_ context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("version", "version", &g, s)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMistake("usage.noArguments", "command", "version", "args", quotedList(fs.Args()))
	}
	fmt.Fprint(s.out, version.Current())
	return nil
}

// errUsage marks a command-line mistake (exit code 2).
var errUsage = errors.New("usage")

// errStopped marks a command the person stopped (Ctrl+C) where nothing
// was lost: it says what is left and ends with the shell's code for it.
var errStopped = errors.New("stopped")

// Main runs the command line with args (without the program name) and
// returns the exit code: 0 done, 1 failed, 2 a command-line mistake.
func Main(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer, shells Shells) int {
	g := globals{dataDir: os.Getenv("WAYFINDER_DATA_DIR"), workflow: os.Getenv("WAYFINDER_WORKFLOW")}
	used := &g
	out, errOut = forTerminal(out), forTerminal(errOut)
	var running string
	s := stdio{in, out, errOut, shells, &used, &running}
	// lang is the language of what report says itself ("next step:", where
	// the usage is), read only when there is something to say.
	lang := func() int { return langIndex(cliLanguage(settingsLanguage(ctx, *used))) }
	root := subFlags("wayfinder", "", &g, s)
	showVersion := root.Bool("version", false, "print the version, commit and build date")
	if err := root.Parse(args); err != nil {
		return report(errOut, "", lang, err)
	}
	if *showVersion {
		fmt.Fprint(out, version.Current())
		return 0
	}
	rest := root.Args()
	if len(rest) == 0 {
		return report(errOut, "", lang, runDesktop(ctx, g, s))
	}
	for _, c := range commands() {
		if c.name == rest[0] {
			err := c.run(ctx, g, rest[1:], s)
			// A mistake in a group's command (kb search --top x)
			// points at that command's help, which has its flags,
			// where `kb --help` lists only the group's syntax.
			if running == "" {
				running = c.name
			}
			return report(errOut, running, lang, err)
		}
	}
	if rest[0] == "help" {
		rootUsage(root.FlagSet, out, helpLang(&g))
		return 0
	}
	return report(errOut, "", lang, usageMistake("usage.unknownCommand", "command", strconv.Quote(rest[0])))
}

// rootUsage is `wayfinder --help` in language lang (helpText): each
// command's syntax on a line of its own and what it does under it,
// indented, so that a long syntax (`kb`'s, `export`'s) does not push its
// sentence out of line with the others, as one padded column did.
func rootUsage(fs *flag.FlagSet, w io.Writer, lang int) {
	fmt.Fprintf(w, "Wayfinder %s — %s\n\n", version.Current().Version, helpText("a local-first assistant that plans your tasks with local models.", lang))
	fmt.Fprintf(w, "%s\n  wayfinder [flags]\n      %s\n", helpText("Usage:", lang), helpText("open the desktop window", lang))
	for _, c := range commands() {
		fmt.Fprintf(w, "  wayfinder %s\n      %s\n", c.usage, helpText(c.summary, lang))
	}
	fmt.Fprintln(w, "\n"+helpText("Flags (accepted by every command):", lang))
	printFlags(fs, w, lang)
	fmt.Fprintln(w, "\n"+helpText("Run `wayfinder COMMAND --help` for a command's own flags.", lang))
}

// flagSet is a flag.FlagSet that prints its help to standard output (it
// was asked for) and turns a mistake into errUsage, which report prints as
// one line and where to find the help, instead of the whole usage.
type flagSet struct {
	*flag.FlagSet
	usage func(io.Writer)
	out   io.Writer
	// anywhere: flags may follow the positional arguments (every command;
	// not the root, whose first positional argument is the command).
	anywhere bool
	args     []string // the positional arguments, with anywhere
}

// subFlags makes a command's flag set, with the global flags on it too so
// they may come before or after the command name; usage "" is the root's.
func subFlags(name, usage string, g *globals, s stdio) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), out: s.out}
	if s.flags != nil {
		*s.flags = g
	}
	if s.command != nil && usage != "" {
		*s.command = name
	}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	g.register(fs.FlagSet)
	fs.usage = func(w io.Writer) {
		lang := helpLang(g)
		fmt.Fprintf(w, "%s %s\n\n%s\n", helpText("Usage: wayfinder", lang), usage, helpText("Flags:", lang))
		printFlags(fs.FlagSet, w, lang)
	}
	if usage == "" {
		fs.usage = func(w io.Writer) { rootUsage(fs.FlagSet, w, helpLang(g)) }
	} else {
		fs.anywhere = true
	}
	return fs
}

// Parse parses args; --help prints the usage and returns flag.ErrHelp. A
// command's flags may come anywhere among its arguments (`kb search leave
// --top 2`), as people type them, and "--" ends the flags (`ask -- -v
// means what?`).
func (fs *flagSet) Parse(args []string) error {
	if fs.anywhere {
		args, fs.args = fs.split(args)
	}
	err := fs.FlagSet.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.usage(fs.out)
		return err
	case err != nil:
		return flagMistake(err)
	}
	return nil
}

// split separates the flags (with their values) from the positional
// arguments. The standard library's parser stops at the first positional
// argument; spf13/pflag would go on, but reads a single dash as short
// options, and Go's -flag spelling is what every command has accepted. A
// word that is not a flag of the command stays a flag (and fails as an
// unknown one), unless it is a negative number such as -5.
func (fs *flagSet) split(args []string) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		switch {
		case a == "--":
			return flags, append(positional, args[i+1:]...)
		case len(a) < 2 || a[0] != '-' || isNumber(a) && fs.Lookup(name) == nil:
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return flags, positional
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// Args are the positional arguments.
func (fs *flagSet) Args() []string {
	if fs.anywhere {
		return fs.args
	}
	return fs.FlagSet.Args()
}

// NArg is len(Args()).
func (fs *flagSet) NArg() int { return len(fs.Args()) }

// Arg is the i-th positional argument, "" past the last.
func (fs *flagSet) Arg(i int) string {
	if a := fs.Args(); i < len(a) {
		return a[i]
	}
	return ""
}

// wordedError is an error of the command line's own that says itself in
// the command's language (an index of cliText's): what happened and the
// next step.
type wordedError interface {
	words(lang int) (message, hint string)
}

// report prints an error the way a person can act on it; cmd is the
// command that ran ("" for none), for the help hint after a mistake, and
// lang the language of the words report adds (an index of cliText's).
//
// On a terminal each sentence is wrapped at spaces to its width, the lines
// after the first indented under it (wrapped), where a next step of three
// sentences ran past the edge and the terminal cut its words in two.
func report(w io.Writer, cmd string, lang func() int, err error) int {
	cols := columns(w)
	say1 := func(text string) { fmt.Fprintln(w, wrapped(text, cols, "wayfinder: ", "  ")) }
	next := func(hint string) {
		if hint != "" {
			fmt.Fprintln(w, wrapped(hint, cols, "  "+say("report.nextStep", lang())+" ", "    "))
		}
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errStopped):
		say1(strings.TrimPrefix(err.Error(), errStopped.Error()+": "))
		return 130 // as a shell reports a command ended by Ctrl+C
	case errors.Is(err, errUsage):
		text := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
		if m := (mistake{}); errors.As(err, &m) {
			text = m.in(lang())
		}
		say1(text)
		if cmd != "" {
			cmd += " "
		}
		fmt.Fprintln(w, say("report.usage", lang(), "command", "wayfinder "+cmd+"--help"))
		return 2
	}
	var own wordedError
	if errors.As(err, &own) {
		message, hint := own.words(lang())
		say1(message)
		next(hint)
		return 1
	}
	info := describe(err)
	// In Korean the errors the window words (Ollama away, a model
	// missing, a full disk…) are said as it says them; English keeps the
	// backend's own sentence. The next step is the command line's in both
	// (errorWords: a flag, a command, never the window's Settings).
	message, hint := errorWords(info, lang())
	if lang() == 0 {
		message = info.Message
	}
	say1(message)
	next(hint)
	return 1
}

func (g globals) resolvedDataDir() (string, error) {
	if g.dataDir != "" {
		return filepath.Abs(g.dataDir)
	}
	return defaultDataDir()
}

// defaultDataDir is the OS's place for an app's own data: ~/.local/share
// on Linux (XDG), Application Support on macOS, %AppData% on Windows.
func defaultDataDir() (string, error) {
	if runtime.GOOS == "linux" || runtime.GOOS == "freebsd" {
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			return filepath.Join(x, "wayfinder"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the data folder: %w (set --data-dir)", err)
		}
		return filepath.Join(home, ".local", "share", "wayfinder"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the data folder: %w (set --data-dir)", err)
	}
	return filepath.Join(dir, "Wayfinder"), nil
}

// cliLogger keeps terminal commands quiet: their output says what happened,
// and -v shows the details.
func cliLogger(s stdio, verbose bool) *slog.Logger {
	if verbose {
		return newLogger(s.err, true)
	}
	return slog.New(slog.NewTextHandler(s.err, &slog.HandlerOptions{Level: slog.LevelError}))
}

func newLogger(w io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// helpFor prints usage when args ask for help, for commands whose first
// argument is a subcommand.
func helpFor(args []string, usage string, s stdio) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		var g *globals
		if s.flags != nil {
			g = *s.flags
		}
		lang := helpLang(g)
		fmt.Fprintln(s.out, helpText("Usage:", lang))
		cols := columns(s.out)
		for _, line := range subUsages(usage) {
			fmt.Fprintln(s.out, wrapped("wayfinder "+line, cols, "  ", "      "))
		}
		fmt.Fprintln(s.out)
		// Where each command's own flags are (kb search's -top): the
		// lines above give only their syntax.
		group, _, _ := strings.Cut(usage, " ")
		own := strings.ReplaceAll(helpText("Run `wayfinder GROUP COMMAND --help` for a command's own flags.", lang), "GROUP", group)
		fmt.Fprintln(s.out, wrapped(own, cols, "", ""))
		fmt.Fprintln(s.out, wrapped(helpText("Run `wayfinder --help` for the flags every command accepts.", lang), cols, "", ""))
		return flag.ErrHelp
	}
	return nil
}

// subUsages is a command group's usage ("kb import PATH... | list |
// remove ID") a line for each subcommand ("kb import PATH...", "kb list",
// "kb remove ID"), as `wayfinder --help` lists the commands: on one line
// `kb --help` ran to 150 columns, cut wherever the terminal's edge fell
// ("sea" / "rch"). A "|" inside a part (on|off, md|json) is one of its
// values and stays.
func subUsages(usage string) []string {
	parts := strings.Split(usage, " | ")
	group, _, _ := strings.Cut(parts[0], " ")
	for i := 1; i < len(parts); i++ {
		parts[i] = group + " " + parts[i]
	}
	return parts
}
