package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRunPrintsURLAndServesScenario(t *testing.T) {
	for _, tt := range []struct{ scenario, want string }{
		{"default", Greeting},
		{"xss", XSSReply},
	} {
		t.Run(tt.scenario, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			pr, pw := io.Pipe()
			done := make(chan error, 1)
			go func() {
				err := run(ctx, []string{"--addr", "127.0.0.1:0", "--scenario", tt.scenario}, pw)
				pw.Close()
				done <- err
			}()
			sc := bufio.NewScanner(pr)
			if !sc.Scan() {
				t.Fatal("no output")
			}
			line := sc.Text()
			raw, ok := strings.CutPrefix(line, "FAKE_OLLAMA_URL=http://127.0.0.1:")
			if !ok || raw == "" {
				t.Fatalf("first line = %q", line)
			}
			u, _ := url.Parse(strings.TrimPrefix(line, "FAKE_OLLAMA_URL="))
			tr := &http.Transport{}
			c := api.NewClient(u, &http.Client{Transport: tr})
			var got strings.Builder
			chunks := 0
			err := c.Chat(ctx, &api.ChatRequest{Model: "llama3.2:3b", Messages: []api.Message{{Role: "user", Content: "hi"}}}, func(r api.ChatResponse) error {
				got.WriteString(r.Message.Content)
				chunks++
				return nil
			})
			if err != nil || got.String() != tt.want || chunks < 4 {
				t.Errorf("reply %q in %d chunks, %v", got.String(), chunks, err)
			}
			tr.CloseIdleConnections()
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if sc.Scan() {
				t.Errorf("more than one line on stdout: %q", sc.Text())
			}
		})
	}
}

func TestRunRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--scenario", "nope"},
		{"--addr", "0.0.0.0:0"},
		{"--addr", "nonsense"},
		{"--profile", "tpu"},
		{"--profile", "gpu", "--slots", "0"},
		{"--tokenizer", "/nonexistent/tokenizer.json"},
	} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%v) accepted", args)
		}
	}
}

func TestEveryScenarioBuilds(t *testing.T) {
	for _, name := range scenarioNames {
		if _, err := scenarioOptions(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
