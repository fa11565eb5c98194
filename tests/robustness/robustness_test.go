// Package robustness checks that Wayfinder copes with a small local model
// that often breaks its structured output: with 30% of structured (format)
// replies corrupted by the fake Ollama, the seed scenarios must still
// complete in at least 99% of 200 runs (issue 7, item 3).
package robustness

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

var (
	runs = flag.Int("runs", 200, "scenario runs")
	seed = flag.Int64("seed", 0, "corruption seed (0: from the clock, printed)")
	// The fake cuts a reply in its middle unless told to cut anywhere
	// (ollamatest.WithCutAnywhere): inside a route's value or a plan's
	// step, which the middle of the scripted replies never is.
	cutAnywhere = flag.Bool("cut-anywhere", false, "cut a reply cut short at a seeded point anywhere, not in its middle")
	// A small model asked for JSON often writes the plan as a list, with a
	// closing line (ollamatest.WithListPlans): read by agent.planFromBroken
	// when the repair is broken too.
	listPlans = flag.Bool("list-plans", false, "write a corrupted plan reply as a numbered list with a closing line, not broken JSON")
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("gorm.io/gorm/internal/lru.NewLRU[...].func1"))
}

// scenario is one seed scenario: it runs on a fresh backend and says what
// went wrong, or "" when it completed; a plan it was offered is counted in
// plans by its kind (planKind).
type scenario struct {
	name string
	run  func(ctx context.Context, b *world.Backend, plans map[string]int) string
}

// planKind says what plan the complex scenario was offered: the planner's
// whole ("whole"), one with a step cut short ("cut step": a reply cut
// inside a step and mended by closing it), the steps recovered from two
// broken replies ("recovered"), or the task as one step ("one step").
func planKind(res *api.TurnResult) string {
	whole := map[api.SubTask]bool{}
	for _, st := range world.Plan["sub_tasks"].([]map[string]string) {
		whole[api.SubTask{ID: st["id"], Title: st["title"], Detail: st["detail"]}] = true
	}
	switch res.TextKey {
	case "plan_recovered":
		return "recovered"
	case "plan_fallback":
		return "one step"
	}
	for _, st := range res.Plan.SubTasks {
		if !whole[st] {
			return "cut step"
		}
	}
	return "whole"
}

func complete(msg api.Message, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case msg.Status != api.StatusComplete:
		return fmt.Sprintf("status %s: %q", msg.Status, msg.Content)
	case strings.TrimSpace(msg.Content) == "":
		return "empty reply"
	}
	return ""
}

var scenarios = []scenario{
	{"simple chat", func(ctx context.Context, b *world.Backend, _ map[string]int) string {
		return complete(b.Chat.Ask(ctx, "", "What is a good way to plan my week?", nil))
	}},
	{"calculator", func(ctx context.Context, b *world.Backend, _ map[string]int) string {
		return complete(b.Chat.Ask(ctx, "", "123*456은 얼마야?", nil))
	}},
	{"rag", func(ctx context.Context, b *world.Backend, _ map[string]int) string {
		return complete(b.Chat.Ask(ctx, "", "회사 휴가 정책에서 연차는 며칠이야?", nil))
	}},
	{"follow-up", func(ctx context.Context, b *world.Backend, _ map[string]int) string {
		msg, err := b.Chat.Ask(ctx, "", "My name is Minji and I run a small cafe.", nil)
		if why := complete(msg, err); why != "" {
			return "first turn: " + why
		}
		return complete(b.Chat.Ask(ctx, msg.SessionID, "What did I say my business was?", nil))
	}},
	{"complex plan, approve, guide", func(ctx context.Context, b *world.Backend, plans map[string]int) string {
		msg, err := b.Chat.Ask(ctx, "", world.ComplexTask, nil)
		if why := complete(msg, err); why != "" && msg.Status != api.StatusAwaitingApproval {
			return why
		}
		if msg.Status != api.StatusAwaitingApproval {
			return pathMissed + ": answered directly instead of proposing a plan"
		}
		if msg.Result != nil && msg.Result.Plan != nil {
			plans[planKind(msg.Result)]++
		}
		msg, err = b.Chat.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: msg.Result.Plan.Version}, nil)
		if why := complete(msg, err); why != "" {
			return why
		}
		if msg.Result == nil || len(msg.Result.Recommendations) == 0 {
			return pathMissed + ": guide without recommendations"
		}
		return ""
	}},
}

// pathMissed marks a run that ended with a complete answer, but not the
// one the scenario is about (the router fell back to a direct answer after
// two broken replies). Such runs count as completed turns and are reported
// separately.
const pathMissed = "completed off the intended path"

// TestCorruptedStructuredReplies is issue 7's small-model robustness figure:
// every turn must end with a complete answer in ≥ 99% of runs.
func TestCorruptedStructuredReplies(t *testing.T) {
	ok, _ := runAll(t)
	if rate := float64(ok) / float64(*runs); rate < 0.99 {
		t.Fatalf("only %.1f%% of runs completed; want ≥ 99%%", 100*rate)
	}
}

// runAll runs the scenarios and returns how many runs completed and how
// many of those took the scenario's intended path.
func runAll(t *testing.T) (ok, onPath int) {
	base := *seed
	if base == 0 {
		base = time.Now().UnixNano() % 1_000_000
	}
	t.Logf("corruption seed %d (replay with -seed %d)", base, base)
	ctx := context.Background()
	corrupted := 0
	failures := map[string][]string{}
	plans := map[string]int{}
	for i := range *runs {
		sc := scenarios[i%len(scenarios)]
		opts := []ollamatest.Option{ollamatest.WithCorruption(base+int64(i), 0.3)}
		if *cutAnywhere {
			opts = append(opts, ollamatest.WithCutAnywhere())
		}
		if *listPlans {
			opts = append(opts, ollamatest.WithListPlans())
		}
		fake := ollamatest.New(t, opts...)
		world.ScriptComplex(fake, world.Pace{})
		b := world.New(t, fake.URL(), world.Config{DataDir: t.TempDir()})
		runCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		why := sc.run(runCtx, b, plans)
		cancel()
		b.Close()
		fake.Close()
		corrupted += fake.Corruptions()
		if why == "" {
			ok++
			onPath++
			continue
		}
		if strings.HasPrefix(why, pathMissed) {
			ok++
		}
		failures[sc.name] = append(failures[sc.name], fmt.Sprintf("run %d (seed %d): %s", i, base+int64(i), why))
	}
	rate := float64(ok) / float64(*runs)
	t.Logf("robustness: %d/%d runs completed (%.1f%%), %d/%d on the intended path (%.1f%%), %d structured replies corrupted",
		ok, *runs, 100*rate, onPath, *runs, 100*float64(onPath)/float64(*runs), corrupted)
	fmt.Fprintf(os.Stderr, "ROBUSTNESS completed=%d on_path=%d runs=%d rate=%.3f corrupted=%d seed=%d\n", ok, onPath, *runs, rate, corrupted, base)
	t.Logf("plans offered: %d whole, %d with a step cut short, %d recovered from broken replies, %d the task as one step",
		plans["whole"], plans["cut step"], plans["recovered"], plans["one step"])
	fmt.Fprintf(os.Stderr, "PLANS whole=%d cut_step=%d recovered=%d one_step=%d seed=%d\n", plans["whole"], plans["cut step"], plans["recovered"], plans["one step"], base)
	for name, fs := range failures {
		for _, f := range fs[:min(5, len(fs))] {
			t.Logf("%s: %s", name, f)
		}
	}
	if corrupted == 0 {
		t.Fatal("the fake corrupted no reply: the test proves nothing")
	}
	return ok, onPath
}
