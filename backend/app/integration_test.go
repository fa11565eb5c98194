//go:build integration

// The real-Ollama tier: `make test-ollama` starts `ollama serve` with the
// tiny deterministic test model and runs these tests against it. They prove
// that Wayfinder works with the real server's wire format and quirks
// (thinking beside content, a pull failing inside a 200 response, a model
// whose structured answers are empty), not that the model is any good.
package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

func realOllama(t *testing.T) []string {
	t.Helper()
	url := os.Getenv("WAYFINDER_REAL_OLLAMA")
	if url == "" {
		t.Fatal("WAYFINDER_REAL_OLLAMA is not set: run `make test-ollama`")
	}
	return []string{"--data-dir", t.TempDir(), "--ollama-host", url, "--model", "tiny", "--embed-model", "tiny"}
}

func TestIntegrationAsk(t *testing.T) {
	base := realOllama(t)
	code, out, errOut := wayfinder(t, append(base, "ask", "hello")...)
	if code != 0 || !strings.Contains(out, "Hello from the tiny test model.") {
		t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "Let me think") {
		t.Fatalf("thinking text shown as the answer:\n%s", out)
	}
	code, out, errOut = wayfinder(t, append(base, "ask", "--json", "again")...)
	var res api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("ask --json: %d\n%s\n%s", code, out, errOut)
	}
	if res.LLMCalls < 1 || res.PromptTokens == 0 || res.CompletionTokens == 0 || res.Response == "" {
		t.Fatalf("accounting from the real server: %+v", res)
	}
}

func TestIntegrationDoctor(t *testing.T) {
	base := realOllama(t)
	code, out, errOut := wayfinder(t, append(base, "doctor")...)
	if !strings.Contains(out, "✓ Ollama 0.24.0 answers") || !strings.Contains(out, "chat model tiny is ready") {
		t.Fatalf("doctor: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = wayfinder(t, append(base, "--model", "missing-model", "doctor")...)
	if code != 1 || !strings.Contains(out, "fix: ollama pull missing-model") {
		t.Fatalf("doctor with a missing model: %d\n%s", code, out)
	}
}

func TestIntegrationModelMissing(t *testing.T) {
	base := realOllama(t)
	code, _, errOut := wayfinder(t, append(base, "--model", "missing-model", "ask", "hi")...)
	if code != 1 || !strings.Contains(errOut, "ollama pull missing-model") {
		t.Fatalf("ask with a missing model: %d\n%s", code, errOut)
	}
}

func TestIntegrationPullFailsClearly(t *testing.T) {
	url := os.Getenv("WAYFINDER_REAL_OLLAMA")
	if url == "" {
		t.Fatal("WAYFINDER_REAL_OLLAMA is not set: run `make test-ollama`")
	}
	s := api.Settings{OllamaHost: url, ChatModel: "tiny", ContextTokens: 2048}
	m, err := newModelClient(s, newLogger(os.Stderr, false), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// This machine has no route to the model registry: the real server
	// reports the failure inside a 200 response, which must become an error.
	err = m.Pull(ctx, "wayfinder-test/no-such-model", func(api.PullProgress) {})
	if err == nil {
		t.Fatal("pull of an unreachable model reported success")
	}
	if info := describe(err); info.Message == "" || info.Code == api.ErrInternal && !strings.Contains(strings.ToLower(info.Message), "pull") {
		t.Fatalf("pull error not explained: %+v", info)
	}
}

// The complex flow, auto-approved. The tiny model fills every schema with
// empty strings, so this proves the fallbacks (an empty plan becomes the
// task as one step; a recommendation with no tool says so) rather than the
// model. testdata/plan-first.workflow.json routes every message to the
// planner, because the tiny model's router decision is random.
func TestIntegrationComplexFlow(t *testing.T) {
	base := realOllama(t)
	args := append(base, "--workflow", "testdata/plan-first.workflow.json", "ask", "--approve", "--json", "Make a YouTube Shorts video about my café")
	code, out, errOut := wayfinder(t, args...)
	var res api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("complex flow: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "1. Make a YouTube Shorts video about my café") {
		t.Fatalf("fallback plan not shown:\n%s", errOut)
	}
	if len(res.Recommendations) != 1 || res.Recommendations[0].Why == "" || res.Response == "" || res.LLMCalls < 3 {
		t.Fatalf("result: %+v", res)
	}
}

// Ingestion with real embeddings, then search.
func TestIntegrationKnowledge(t *testing.T) {
	base := realOllama(t)
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "policy.md"), []byte("# 휴가 정책\n\n연차는 15일입니다.\n"), 0o644)
	code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...)
	if code != 0 || !strings.Contains(out, "1 chunk, 1 embedded") {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = wayfinder(t, append(base, "kb", "search", "--json", "휴가를")...)
	if code != 0 || !strings.Contains(out, "연차는 15일") {
		t.Fatalf("search: %d\n%s\n%s", code, out, errOut)
	}
}
