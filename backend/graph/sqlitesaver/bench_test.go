package sqlitesaver_test

import (
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/graph/checkpointtest"
)

func BenchmarkStep(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { checkpointtest.BenchStep(b, openSaver(b), 20) })
}

func BenchmarkReActLoop20(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { checkpointtest.BenchReAct(b, openSaver(b)) })
}
