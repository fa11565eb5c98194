package agent

import (
	"strconv"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// turnsSaid keeps a turn's lines across its Respond calls, starts afresh
// on a new message, and holds the turns of maxTurnsSaid conversations at
// most, forgetting the oldest.
func TestTurnsSaidIsBounded(t *testing.T) {
	var ts turnsSaid
	failed := api.TraceEvent{Code: api.TraceMCPFailed, Args: map[string]string{"server": "files"}}
	if !ts.forTurn("s0", true).say(failed) || ts.forTurn("s0", false).say(failed) {
		t.Fatal("a turn's decision says again what the turn said")
	}
	if !ts.forTurn("s0", true).say(failed) {
		t.Fatal("a new message does not say it")
	}
	for i := 1; i <= maxTurnsSaid; i++ {
		ts.forTurn("s"+strconv.Itoa(i), true).say(failed)
	}
	if len(ts.by) != maxTurnsSaid || len(ts.order) != maxTurnsSaid {
		t.Fatalf("%d turns kept (%d in order), want %d", len(ts.by), len(ts.order), maxTurnsSaid)
	}
	if _, ok := ts.by["s0"]; ok {
		t.Error("the oldest turn was not forgotten")
	}
	if ts.forTurn("s1", false).say(failed) {
		t.Error("a kept turn forgot what it said")
	}
}
