package graph_test

import (
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/graph/checkpointtest"
)

func BenchmarkStep(b *testing.B) {
	b.Run("none", func(b *testing.B) { checkpointtest.BenchStep(b, nil, 20) })
	b.Run("memory", func(b *testing.B) { checkpointtest.BenchStep(b, graph.NewMemorySaver(), 20) })
}

func BenchmarkReActLoop20(b *testing.B) {
	b.Run("none", func(b *testing.B) { checkpointtest.BenchReAct(b, nil) })
	b.Run("memory", func(b *testing.B) { checkpointtest.BenchReAct(b, graph.NewMemorySaver()) })
}
