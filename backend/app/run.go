// Command wayfinder is a local-first assistant: a desktop window by default,
// the same UI in a browser with `serve`, one turn in the terminal with `ask`,
// and a setup check with `doctor`. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// globals are the flags every command accepts.
type globals struct {
	dataDir    string
	ollamaHost string
	model      string
	embedModel string
	workflow   string
	verbose    bool
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.dataDir, "data-dir", g.dataDir, "where Wayfinder keeps its data (env WAYFINDER_DATA_DIR)")
	fs.StringVar(&g.ollamaHost, "ollama-host", g.ollamaHost, "Ollama address (default: $OLLAMA_HOST, else http://127.0.0.1:11434)")
	fs.StringVar(&g.model, "model", g.model, "chat model for this run (overrides Settings)")
	fs.StringVar(&g.embedModel, "embed-model", g.embedModel, "embedding model for this run (overrides Settings)")
	fs.StringVar(&g.workflow, "workflow", g.workflow, "your own agent workflow definition (JSON) instead of the built-in one (env WAYFINDER_WORKFLOW)")
	fs.BoolVar(&g.verbose, "v", g.verbose, "log debug details to stderr")
}

type command struct {
	name, usage, summary string
	run                  func(ctx context.Context, g globals, args []string, io stdio) error
}

type stdio struct {
	in       io.Reader
	out, err io.Writer
}

func commands() []command {
	return []command{
		{"serve", "serve [--addr 127.0.0.1:PORT]", "the Wayfinder UI in your browser (loopback only)", runServe},
		{"ask", `ask [--session ID] [--json] [--approve] "message"`, "one turn in the terminal, streaming the reply", runAsk},
		{"kb", "kb import|list|remove|search|extract", "manage the knowledge base (run `wayfinder kb` for details)", runKB},
		{"memory", "memory list|add|edit|rm", "see and edit what Wayfinder remembers about you", runMemory},
		{"doctor", "doctor", "check Ollama, the models and the data folder, and say how to fix each problem", runDoctor},
		{"version", "version", "print the version", func(_ context.Context, _ globals, _ []string, s stdio) error {
			fmt.Fprintln(s.out, "wayfinder", version)
			return nil
		}},
	}
}

// errUsage marks a command-line mistake (exit code 2).
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) int {
	s := stdio{in, out, errOut}
	g := globals{dataDir: os.Getenv("WAYFINDER_DATA_DIR"), workflow: os.Getenv("WAYFINDER_WORKFLOW")}
	root := flag.NewFlagSet("wayfinder", flag.ContinueOnError)
	root.SetOutput(errOut)
	g.register(root)
	root.Usage = func() { rootUsage(root, errOut) }
	if err := root.Parse(args); err != nil {
		return exitCode(err)
	}
	rest := root.Args()
	if len(rest) == 0 {
		return report(errOut, runDesktop(ctx, g, s))
	}
	for _, c := range commands() {
		if c.name == rest[0] {
			return report(errOut, c.run(ctx, g, rest[1:], s))
		}
	}
	if rest[0] == "help" {
		rootUsage(root, out)
		return 0
	}
	fmt.Fprintf(errOut, "wayfinder: unknown command %q\n\n", rest[0])
	rootUsage(root, errOut)
	return 2
}

func rootUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Wayfinder %s — a local-first assistant that plans your tasks with local models.\n\n", version)
	fmt.Fprintln(w, "Usage:\n  wayfinder [flags]            open the desktop window")
	for _, c := range commands() {
		fmt.Fprintf(w, "  wayfinder %-28s %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w, "\nFlags (accepted by every command):")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nRun `wayfinder COMMAND --help` for a command's own flags.")
}

// subFlags makes a command's flag set, with the global flags on it too so
// they may come before or after the command name.
func subFlags(name, usage string, g *globals, s stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.err)
	g.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(s.err, "Usage: wayfinder %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

func exitCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// report prints an error the way a person can act on it.
func report(w io.Writer, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(w, "wayfinder:", err)
		return 2
	}
	info := describe(err)
	fmt.Fprintln(w, "wayfinder:", info.Message)
	if info.Hint != "" {
		fmt.Fprintln(w, "  next step:", info.Hint)
	}
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
