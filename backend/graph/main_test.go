package graph_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Every node goroutine must be joined by the end of its step, whatever the
// step ended with (error, interrupt, cancellation).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
