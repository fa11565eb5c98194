package graph_test

import (
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/graph/checkpointtest"
)

func TestMemorySaverContract(t *testing.T) {
	checkpointtest.Run(t, func(*testing.T) graph.Checkpointer { return graph.NewMemorySaver() })
}
