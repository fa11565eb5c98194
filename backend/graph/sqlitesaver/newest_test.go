package sqlitesaver

import (
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// A load that a write overtook is not kept: the next lookup loads again.
func TestNewestKeepsNoStaleLoad(t *testing.T) {
	n := &newest{threads: map[string]*graph.Saved{"th": nil}}
	loads := 0
	stale := func() (graph.Saved, error) {
		loads++
		if loads == 1 {
			n.forget("th") // a write lands while the load reads
		}
		return graph.Saved{Checkpoint: graph.Checkpoint{ThreadID: "th", ID: "old"}}, nil
	}
	for range 2 {
		if _, err := n.lookup("th", stale); err != nil {
			t.Fatal(err)
		}
	}
	if loads != 2 {
		t.Fatalf("%d loads, want 2: the overtaken load was kept", loads)
	}
}
