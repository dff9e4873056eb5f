package fs

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTopKKeepsTheSmallestInOrder(t *testing.T) {
	for _, k := range []int{0, 1, 2, 7, 100} {
		for _, n := range []int{0, 1, 5, 50, 1000} {
			h := newTopK(k, cmp.Compare[int])
			all := make([]int, n)
			for i := range all {
				all[i] = rand.IntN(200) // with repeats
				h.add(all[i])
			}
			slices.Sort(all)
			want := all[:min(k, n)]
			if got := h.sorted(); !slices.Equal(got, want) {
				t.Fatalf("k=%d n=%d: got %v, want %v", k, n, got, want)
			}
		}
	}
}
