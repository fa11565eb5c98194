package robustness

import "testing"

// TestCorruptedStructuredRepliesStrict counts a run only when it took the
// scenario's intended path: the complex task must get a plan, not a direct
// answer. It found that a router whose reply and one repair were both
// corrupted fell back to "simple" (97.5%); backend/llm now mends prose
// around the JSON, missing brackets and single quotes before asking again.
// It then found the router's reply cut in half twice, before its "route"
// (1 seed in 13 failed): the route is now the rules' lean (agent.leanRoute),
// which plans a task.
func TestCorruptedStructuredRepliesStrict(t *testing.T) {
	_, onPath := runAll(t)
	if rate := float64(onPath) / float64(*runs); rate < 0.99 {
		t.Fatalf("only %.1f%% of runs took the intended path; want ≥ 99%%", 100*rate)
	}
}
