package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkSciFactVariants-2   	skipped
BenchmarkSciFact-2   	       1	1523456789 ns/op	         0.6801 nDCG@10	         0.9260 recall@100
PASS`
	tests := []struct {
		name string
		want map[string]float64
	}{
		{"BenchmarkSciFact", map[string]float64{"ns/op": 1523456789, "nDCG@10": 0.6801, "recall@100": 0.926}},
		{"BenchmarkExtract", nil},
		{"BenchmarkSciFactVariants", nil},
	}
	for _, tt := range tests {
		if got := parseBench(out, tt.name); !cmp.Equal(got, tt.want) {
			t.Errorf("parseBench(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
