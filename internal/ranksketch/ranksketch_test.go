package ranksketch

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRankSketchBracketsEveryRank holds the sketch to its promise on
// streams of every size, in random order: lo has at most from items at
// or before it, hi at least to, at most most items lie after lo up to hi,
// and most exceeds to-from by no more than its error bounds allow, which
// stay within n·log2(n/b)/(2b) together.
func TestRankSketchBracketsEveryRank(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, b := range []int{2, 3, 8, 64} {
		for _, n := range []int{0, 1, b - 1, b, 2*b + 1, 37 * b, 1000 * b} {
			s := New(b, cmp.Compare[int])
			for _, x := range r.Perm(n) {
				s.Add(x)
			}
			if errs := float64(s.over + s.under); n > b && errs > float64(n)*math.Log2(float64(n)/float64(b))/float64(2*b) {
				t.Errorf("b=%d n=%d: errors %d and %d, past n·log2(n/b)/(2b)", b, n, s.over, s.under)
			}
			maxWeight := int64(1) << len(s.full)
			for range 50 {
				from := int64(r.IntN(n + 3))
				to := from + int64(r.IntN(2*b+1))
				// The items are 0 to n-1: x has x+1 items at or before it.
				lo, hi, hasLo, hasHi, most := s.Bracket(from, to)
				loRank, hiRank := int64(0), int64(n)
				if hasLo {
					loRank = int64(lo) + 1
				}
				if hasHi {
					hiRank = int64(hi) + 1
				}
				if loRank > from || hiRank < min(to, int64(n)) || hiRank-loRank > most {
					t.Fatalf("b=%d n=%d bracket(%d, %d): items up to lo %d, up to hi %d, most %d", b, n, from, to, loRank, hiRank, most)
				}
				if slack := 2*(s.over+s.under) + 2*maxWeight; most > to-from+slack {
					t.Fatalf("b=%d n=%d bracket(%d, %d): most %d, more than %d past the span", b, n, from, to, most, slack)
				}
			}
		}
	}
}

// TestRankSketchHoldsLogarithmicMemory: the sketch of a million items in
// buffers of 1,000 allocates a buffer for each of its levels and a few
// more, whatever the order of the items.
func TestRankSketchHoldsLogarithmicMemory(t *testing.T) {
	const n, b = 1_000_000, 1000
	s := New(b, cmp.Compare[int])
	for _, x := range rand.New(rand.NewPCG(3, 4)).Perm(n) {
		s.Add(x)
	}
	if levels := int(math.Ceil(math.Log2(n / b))); s.buffers > levels+3 {
		t.Errorf("%d buffers of %d for %d items, want at most %d", s.buffers, b, n, levels+3)
	}
}
