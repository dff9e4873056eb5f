package topk

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/namesort"
)

func TestTopKKeepsTheSmallestInOrder(t *testing.T) {
	for _, k := range []int{0, 1, 2, 7, 100} {
		for _, n := range []int{0, 1, 5, 50, 1000} {
			h := New(k, cmp.Compare[int])
			all := make([]int, n)
			for i := range all {
				all[i] = rand.IntN(200) // with repeats
				h.Add(all[i])
			}
			slices.Sort(all)
			want := all[:min(k, n)]
			if got := h.Sorted(); !slices.Equal(got, want) {
				t.Fatalf("k=%d n=%d: got %v, want %v", k, n, got, want)
			}
		}
	}
}

func TestTopKSortsWithItsOwnSort(t *testing.T) {
	type entry struct{ Name string }
	byName := func(a, b entry) int { return strings.Compare(a.Name, b.Name) }
	for _, k := range []int{1, 3, 100, 1000} {
		for _, n := range []int{0, 5, 250, 3000} {
			h := New(k, byName)
			h.Sort = func(es []entry) { namesort.Sort(es, func(e *entry) string { return e.Name }) }
			var all []string
			for i := range n {
				name := strconv.Itoa((i * 7919) % n) // distinct
				all = append(all, name)
				h.Add(entry{Name: name})
			}
			slices.Sort(all)
			var got []string
			for _, e := range h.Sorted() {
				got = append(got, e.Name)
			}
			if want := all[:min(k, n)]; !slices.Equal(got, want) {
				t.Fatalf("k=%d n=%d: got %v, want %v", k, n, got, want)
			}
		}
	}
}

func TestAKeeperOfNoneHasNoBound(t *testing.T) {
	h := New(0, cmp.Compare[int])
	h.Add(1)
	if b, ok := h.Bound(); ok {
		t.Fatalf("k=0: Bound = %d, true", b)
	}
	if got := h.Sorted(); len(got) != 0 {
		t.Fatalf("k=0: Sorted = %v", got)
	}
}

func TestBoundIsTheLargestKeptOnceMoreThanKWereOffered(t *testing.T) {
	h := New(3, cmp.Compare[int])
	for _, x := range []int{50, 40, 60} {
		h.Add(x)
		if _, ok := h.Bound(); ok {
			t.Fatalf("a bound after %d items, none to drop yet", x)
		}
	}
	h.Add(70) // more than k: asked, it drops the largest
	if b, ok := h.Bound(); !ok || b != 60 {
		t.Fatalf("with k+1 items, Bound = %d, %v; want 60, true", b, ok)
	}
	h.Add(60) // not below the bound: refused
	for _, x := range []int{30, 20} {
		h.Add(x)
		if b, ok := h.Bound(); !ok || b != 60 {
			t.Fatalf("after %d, Bound = %d, %v; want 60 until the next cut", x, b, ok)
		}
	}
	h.Add(10) // the sixth item held: 2k, cut to the three smallest
	b, ok := h.Bound()
	if !ok || b != 30 {
		t.Fatalf("Bound = %d, %v; want 30, true", b, ok)
	}
	h.Add(30) // not below the bound: refused
	h.Add(5)
	if got := h.Sorted(); !slices.Equal(got, []int{5, 10, 20}) {
		t.Fatalf("Sorted = %v", got)
	}
	if b, ok := h.Bound(); !ok || b != 20 {
		t.Fatalf("after Sorted, Bound = %d, %v; want 20, true", b, ok)
	}
}
