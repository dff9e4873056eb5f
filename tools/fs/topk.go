package fs

import (
	"slices"
	"unsafe"
)

// topK keeps the k smallest of the items it is given one at a time, in
// memory proportional to k rather than to how many it is given: a
// listing's page of a folder of any size.
//
// It appends what it is given and, each time it holds 2k, sorts and
// drops all but the k smallest, so that k items cost one sort at the end
// and n items O(n log k) in all. Once it has dropped some, an item not
// below the largest kept is refused at once, with one comparison. (A
// heap kept in order at every item cost several comparisons and swaps an
// item, and a sort at the end all the same.)
type topK[T any] struct {
	k     int
	cmp   func(a, b T) int
	items []T
	full  bool // items has been cut to k: items[k-1] bounds what is kept

	// sort, if set, sorts items in the order of cmp, faster than
	// slices.SortFunc with it (as sortByName does).
	sort func([]T)

	// weigh, if set, gives the bytes an item points to, which bytes
	// counts for the items kept.
	weigh func(T) int
	held  int64
}

// newTopK returns a topK that keeps the k smallest items by cmp, which
// orders them totally: two items compare equal only if they are the same.
func newTopK[T any](k int, cmp func(a, b T) int) *topK[T] {
	return &topK[T]{k: k, cmp: cmp}
}

// add offers x.
func (h *topK[T]) add(x T) {
	if h.k <= 0 || h.full && h.cmp(x, h.items[h.k-1]) >= 0 {
		return
	}
	if len(h.items) == cap(h.items) {
		// Double, from 64 (append grows a large slice by a quarter at a
		// time, and copies it as often), by k at most.
		h.items = slices.Grow(h.items, min(max(cap(h.items), 64), h.k))
	}
	h.items = append(h.items, x)
	if h.weigh != nil {
		h.held += int64(h.weigh(x))
	}
	if len(h.items)-h.k >= h.k { // 2k, without overflow
		h.cut()
	}
}

// cut sorts the items and keeps the k smallest.
func (h *topK[T]) cut() {
	if h.sort != nil {
		h.sort(h.items)
	} else {
		slices.SortFunc(h.items, h.cmp)
	}
	if len(h.items) > h.k {
		if h.weigh != nil {
			for _, x := range h.items[h.k:] {
				h.held -= int64(h.weigh(x))
			}
		}
		clear(h.items[h.k:]) // let go of what they point to
		h.items = h.items[:h.k]
		h.full = true
	}
}

// sorted returns the items kept, smallest first. The topK takes no more
// items after it.
func (h *topK[T]) sorted() []T {
	h.cut()
	return h.items
}

// bytes returns about how much memory the topK holds: its items and, with
// weigh, what they point to.
func (h *topK[T]) bytes() int64 {
	var zero T
	return int64(cap(h.items))*int64(unsafe.Sizeof(zero)) + h.held
}
