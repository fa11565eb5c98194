package fusion

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestRRF(t *testing.T) {
	r := func(ranks ...int) float64 {
		var s float64
		for _, rk := range ranks {
			s += 1 / float64(60+rk)
		}
		return s
	}
	tests := []struct {
		name  string
		k     int
		lists [][]string
		want  []Fused
	}{
		{name: "no lists", want: []Fused{}},
		{name: "empty lists", lists: [][]string{{}, {}}, want: []Fused{}},
		{
			name:  "one list keeps its order",
			lists: [][]string{{"a", "b", "c"}},
			want: []Fused{
				{ID: "a", Score: r(1), Ranks: []int{1}},
				{ID: "b", Score: r(2), Ranks: []int{2}},
				{ID: "c", Score: r(3), Ranks: []int{3}},
			},
		},
		{
			// 1/63+1/61 > 2/62: a first rank outweighs two second ranks.
			name:  "found by both beats found by one",
			lists: [][]string{{"a", "b", "c"}, {"c", "b", "d"}},
			want: []Fused{
				{ID: "c", Score: r(3, 1), Ranks: []int{3, 1}},
				{ID: "b", Score: r(2, 2), Ranks: []int{2, 2}},
				{ID: "a", Score: r(1), Ranks: []int{1, 0}},
				{ID: "d", Score: r(3), Ranks: []int{0, 3}},
			},
		},
		{
			name:  "ties: first seen list wins",
			lists: [][]string{{"a", "x"}, {"b", "y"}},
			want: []Fused{
				{ID: "a", Score: r(1), Ranks: []int{1, 0}},
				{ID: "b", Score: r(1), Ranks: []int{0, 1}},
				{ID: "x", Score: r(2), Ranks: []int{2, 0}},
				{ID: "y", Score: r(2), Ranks: []int{0, 2}},
			},
		},
		{
			name:  "k<=0 means 60",
			k:     -1,
			lists: [][]string{{"a"}},
			want:  []Fused{{ID: "a", Score: r(1), Ranks: []int{1}}},
		},
		{
			name:  "custom k",
			k:     1,
			lists: [][]string{{"a", "b"}, {"b"}},
			want: []Fused{
				{ID: "b", Score: 1.0/3 + 1.0/2, Ranks: []int{2, 1}},
				{ID: "a", Score: 1.0 / 2, Ranks: []int{1, 0}},
			},
		},
		{
			name:  "duplicate in one list counts once at first rank",
			lists: [][]string{{"a", "a", "b"}},
			want: []Fused{
				{ID: "a", Score: r(1), Ranks: []int{1}},
				{ID: "b", Score: r(3), Ranks: []int{3}},
			},
		},
		{
			name:  "Korean ids",
			lists: [][]string{{"문서", "휴가"}, {"휴가"}},
			want: []Fused{
				{ID: "휴가", Score: r(2, 1), Ranks: []int{2, 1}},
				{ID: "문서", Score: r(1), Ranks: []int{1, 0}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RRF(tt.k, tt.lists...)
			opt := cmpopts.EquateApprox(0, 1e-12)
			if diff := cmp.Diff(tt.want, got, opt, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("RRF mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRRFStable checks that fusing the same input twice gives the same order,
// which map iteration inside RRF must not disturb.
func TestRRFStable(t *testing.T) {
	var a, b []string
	for i := range 200 {
		a = append(a, string(rune('A'+i%26))+string(rune('a'+i/26)))
		b = append(b, string(rune('a'+i/26))+string(rune('A'+i%26)))
	}
	first := RRF(60, a, b)
	for range 20 {
		if diff := cmp.Diff(first, RRF(60, a, b)); diff != "" {
			t.Fatalf("order changed between runs:\n%s", diff)
		}
	}
	for i := 1; i < len(first); i++ {
		if first[i].Score > first[i-1].Score+math.SmallestNonzeroFloat64 {
			t.Fatalf("not sorted at %d: %v > %v", i, first[i].Score, first[i-1].Score)
		}
	}
}

func BenchmarkRRF(b *testing.B) {
	var x, y []string
	for i := range 100 {
		x = append(x, "k"+string(rune(i)))
		y = append(y, "v"+string(rune(i%50)))
	}
	for b.Loop() {
		RRF(DefaultK, x, y)
	}
}

// An id that a list could not hold is scored over the lists that could:
// "new" is first by words and has no vector yet, so it counts as if the
// vector list agreed, and ranks above "both", second in each list.
func TestRRFCovered(t *testing.T) {
	words := []string{"new", "both", "w"}
	vectors := []string{"v", "both"}
	covers := func(list int, id string) bool { return list == 0 || id != "new" }
	got := RRFCovered(60, covers, words, vectors)
	want := []Fused{
		{ID: "new", Score: 2.0 / 61, Ranks: []int{1, 0}},
		{ID: "both", Score: 1.0/62 + 1.0/62, Ranks: []int{2, 2}},
		{ID: "v", Score: 1.0 / 61, Ranks: []int{0, 1}},
		{ID: "w", Score: 1.0 / 63, Ranks: []int{3, 0}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RRFCovered (-want +got):\n%s", diff)
	}
	if plain := RRF(60, words, vectors); plain[0].ID != "both" {
		t.Errorf("plain RRF first %q; want both (the case RRFCovered is for)", plain[0].ID)
	}
}
