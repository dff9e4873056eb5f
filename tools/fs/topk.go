package fs

import "slices"

// topK keeps the k smallest of the items it is given one at a time, in
// memory proportional to k rather than to how many it is given: a
// listing's page of a folder of any size. The items are held in a heap
// whose root is the largest kept.
type topK[T any] struct {
	k     int
	cmp   func(a, b T) int
	items []T
}

// newTopK returns a topK that keeps the k smallest items by cmp.
func newTopK[T any](k int, cmp func(a, b T) int) *topK[T] {
	return &topK[T]{k: k, cmp: cmp}
}

// add offers x, and reports whether it is kept (for now).
func (h *topK[T]) add(x T) bool {
	if h.k <= 0 {
		return false
	}
	if len(h.items) < h.k {
		h.items = append(h.items, x)
		h.up(len(h.items) - 1)
		return true
	}
	if h.cmp(x, h.items[0]) >= 0 {
		return false
	}
	h.items[0] = x
	h.down(0)
	return true
}

// sorted returns the items kept, smallest first.
func (h *topK[T]) sorted() []T {
	out := slices.Clone(h.items)
	slices.SortFunc(out, h.cmp)
	return out
}

func (h *topK[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h.cmp(h.items[i], h.items[parent]) <= 0 {
			return
		}
		h.items[i], h.items[parent] = h.items[parent], h.items[i]
		i = parent
	}
}

func (h *topK[T]) down(i int) {
	for {
		largest, l, r := i, 2*i+1, 2*i+2
		if l < len(h.items) && h.cmp(h.items[l], h.items[largest]) > 0 {
			largest = l
		}
		if r < len(h.items) && h.cmp(h.items[r], h.items[largest]) > 0 {
			largest = r
		}
		if largest == i {
			return
		}
		h.items[i], h.items[largest] = h.items[largest], h.items[i]
		i = largest
	}
}
