// Command fake-ollama runs ollamatest's fake Ollama as a process, for
// browser end-to-end tests that start `wayfinder serve` against it:
//
//	go run ./backend/llm/ollamatest/cmd/fake-ollama --addr 127.0.0.1:0 --scenario default
//
// When ready it prints exactly one line, FAKE_OLLAMA_URL=http://127.0.0.1:PORT,
// and serves until SIGTERM or SIGINT. Tests script the next replies through
// POST /__fake/script (see ollamatest's control endpoints).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-ollama:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fake-ollama", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	scenario := fs.String("scenario", "default", "canned behaviour: "+strings.Join(scenarioNames, ", "))
	profile := fs.String("profile", "", `a model server's latency: "cpu" (qwen3:4b on 8 CPU cores) or "gpu" (on an 8 GB GPU); "" answers at once`)
	slots := fs.Int("slots", 1, "parallel slots of the profile (OLLAMA_NUM_PARALLEL)")
	scale := fs.Float64("scale", 1, "run the profile's times this much faster on the wall clock (reported durations stay modelled)")
	tokenizer := fs.String("tokenizer", "", "a Hugging Face tokenizer.json to count tokens with (scripts/qwen-tokenizer.sh); default: an estimate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkLoopback(*addr); err != nil {
		return err
	}
	opts, err := scenarioOptions(*scenario)
	if err != nil {
		return err
	}
	if *tokenizer != "" {
		tk, err := ollamatest.LoadTokenizer(*tokenizer)
		if err != nil {
			return err
		}
		opts = append(opts, ollamatest.WithTokenizer(tk))
	}
	if *profile != "" {
		p, err := ollamatest.ProfileNamed(*profile, *slots)
		if err != nil {
			return err
		}
		p.Scale = *scale
		opts = append(opts, ollamatest.WithProfile(p))
	}
	srv, err := ollamatest.Start(*addr, opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "FAKE_OLLAMA_URL=%s\n", srv.URL())
	<-ctx.Done()
	return nil
}

// checkLoopback keeps the fake off the network: it is a test tool.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %q: only loopback addresses (127.0.0.1, ::1, localhost) are allowed", addr)
	}
	return nil
}

var scenarioNames = []string{"default", "slow", "xss"}

// Greeting is the default scenario's reply, for tests to wait for.
const Greeting = "Hello! I am Wayfinder's test model."

// XSSReply carries payloads the UI must render inert.
const XSSReply = "Here you go: <img src=x onerror=alert(1)> and [a link](javascript:alert(1)) " +
	"<script>alert(2)</script> <a href=\"javascript:alert(3)\">click</a>"

func scenarioOptions(name string) ([]ollamatest.Option, error) {
	base := []ollamatest.Option{
		ollamatest.WithModels(ollamatest.DefaultModels()...),
		ollamatest.WithPullDelay(150 * time.Millisecond),
	}
	switch name {
	case "default":
		return append(base, ollamatest.WithDefaultReply(ollamatest.Reply{Text: Greeting, ChunkDelay: 30 * time.Millisecond})), nil
	case "slow":
		long := strings.TrimSpace(strings.Repeat("This reply streams slowly so that stopping it can be tested. ", 20))
		return append(base, ollamatest.WithDefaultReply(ollamatest.Reply{Text: long, ChunkDelay: 100 * time.Millisecond})), nil
	case "xss":
		return append(base, ollamatest.WithDefaultReply(ollamatest.Reply{Text: XSSReply, ChunkDelay: 30 * time.Millisecond})), nil
	default:
		return nil, fmt.Errorf("unknown scenario %q (want one of %s)", name, strings.Join(scenarioNames, ", "))
	}
}
