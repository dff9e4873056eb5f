package topk

import (
	"slices"
	"unsafe"
)

// TopK keeps the k smallest of the items it is given one at a time, in
// memory proportional to k rather than to how many it is given: a
// listing's page of a folder of any size.
//
// It appends what it is given and, each time it holds 2k, sorts and
// drops all but the k smallest, so that k items cost one sort at the end
// and n items O(n log k) in all. Once it has dropped some, an item not
// below the largest kept is refused at once, with one comparison. (A
// heap kept in order at every item cost several comparisons and swaps an
// item, and a sort at the end all the same.) Bound drops them earlier,
// when asked.
type TopK[T any] struct {
	k     int
	cmp   func(a, b T) int
	items []T
	full  bool // items has been cut to k: items[k-1] bounds what is kept

	// Sort, if set, sorts items in the order of cmp, faster than
	// slices.SortFunc with it (as namesort.Sort does by name).
	Sort func([]T)

	// Weigh, if set, gives the bytes an item points to, which Bytes
	// counts for the items kept.
	Weigh func(T) int
	held  int64
}

// New returns a TopK that keeps the k smallest items by cmp, which
// orders them totally: two items compare equal only if they are the same.
func New[T any](k int, cmp func(a, b T) int) *TopK[T] {
	return &TopK[T]{k: k, cmp: cmp}
}

// Add offers x.
func (h *TopK[T]) Add(x T) {
	if h.k <= 0 || h.full && h.cmp(x, h.items[h.k-1]) >= 0 {
		return
	}
	if len(h.items) == cap(h.items) {
		// Double, from 64 (append grows a large slice by a quarter at a
		// time, and copies it as often), by k at most.
		h.items = slices.Grow(h.items, min(max(cap(h.items), 64), h.k))
	}
	h.items = append(h.items, x)
	if h.Weigh != nil {
		h.held += int64(h.Weigh(x))
	}
	if len(h.items)-h.k >= h.k { // 2k, without overflow
		h.cut()
	}
}

// cut sorts the items and keeps the k smallest.
func (h *TopK[T]) cut() {
	if h.Sort != nil {
		h.Sort(h.items)
	} else {
		slices.SortFunc(h.items, h.cmp)
	}
	if len(h.items) > h.k {
		if h.Weigh != nil {
			for _, x := range h.items[h.k:] {
				h.held -= int64(h.Weigh(x))
			}
		}
		clear(h.items[h.k:]) // let go of what they point to
		h.items = h.items[:h.k]
		h.full = true
	}
}

// Bound returns the largest item kept once the TopK has dropped some:
// no item offered from then on that is not below it is kept. ok is false
// while every item offered may still be kept. A call that finds more
// than k held drops the rest then, so that a search that asks before
// each folder stops reading as soon as it knows its page, and that more
// results follow it.
func (h *TopK[T]) Bound() (bound T, ok bool) {
	if !h.full {
		if h.k <= 0 || len(h.items) <= h.k {
			return bound, false
		}
		h.cut()
	}
	return h.items[h.k-1], true
}

// Sorted returns the items kept, smallest first. The TopK takes no more
// items after it.
func (h *TopK[T]) Sorted() []T {
	h.cut()
	return h.items
}

// Bytes returns about how much memory the TopK holds: its items and, with
// Weigh, what they point to.
func (h *TopK[T]) Bytes() int64 {
	var zero T
	return int64(cap(h.items))*int64(unsafe.Sizeof(zero)) + h.held
}
