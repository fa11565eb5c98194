//go:build wayfinder_known_failure

package robustness

import "testing"

// TestCorruptedStructuredRepliesStrict counts a run only when it took the
// scenario's intended path: the complex task must get a plan, not a direct
// answer. It fails today at about 97.5–98%: when both the router's reply
// and its one repair are corrupted (≈ 9% of complex runs), the router falls
// back to "simple". Salvaging JSON wrapped in prose, missing its last brace
// or single-quoted in backend/llm's Structured would recover most of them.
// Run it with go test -tags wayfinder_known_failure ./tests/robustness.
func TestCorruptedStructuredRepliesStrict(t *testing.T) {
	_, onPath := runAll(t)
	if rate := float64(onPath) / float64(*runs); rate < 0.99 {
		t.Fatalf("only %.1f%% of runs took the intended path; want ≥ 99%%", 100*rate)
	}
}
