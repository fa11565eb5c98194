package api

import "testing"

func TestSameModel(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"bge-m3", "bge-m3:latest", true},
		{"Qwen3:4B", "qwen3:4b", true},
		{" bge-m3 ", "BGE-M3:latest", true},
		{"qwen3:4b", "qwen3:8b", false},
		{"bge-m3", "bge-m3:567m", false},
		{"", "", false},
		{"", ":latest", false},
		{" ", "bge-m3", false},
	} {
		if got := SameModel(tt.a, tt.b); got != tt.want {
			t.Errorf("SameModel(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
