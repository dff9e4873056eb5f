package ranksketch

import (
	"slices"
	"unsafe"
)

// Sketch is a deterministic rank sketch of a stream of items (see the
// package doc).
type Sketch[T any] struct {
	b   int
	cmp func(a, b T) int
	// Sort, if set, sorts items in the order of cmp, faster than
	// slices.SortFunc with it.
	Sort func([]T)
	// Weigh, if set, gives the bytes an item points to, which Bytes
	// counts for the items kept.
	Weigh func(T) int

	in     []T   // the latest items, unsorted, of weight 1
	full   [][]T // full[h] is nil or b sorted items, each standing for 2^h items
	spare  [][]T // emptied buffers, for reuse
	merged []T   // where two buffers are merged
	n      int64 // items given

	// over and under bound how far the count of items at or before any
	// item, as the sketch estimates it, may exceed or fall short of the
	// true count.
	over, under int64
	odd         bool  // the next merge keeps the second, fourth, ... items
	buffers     int   // buffers of b allocated, for bytes
	held        int64 // what the items kept point to, by weigh
}

// New returns a sketch of buffers of b items, b at least 2, ordered by
// cmp, which orders them totally.
func New[T any](b int, cmp func(a, b T) int) *Sketch[T] {
	return &Sketch[T]{b: b, cmp: cmp}
}

// Count returns how many items the sketch was given.
func (s *Sketch[T]) Count() int64 { return s.n }

// Add gives the sketch x.
func (s *Sketch[T]) Add(x T) {
	if s.in == nil {
		s.in = s.buffer()
	}
	s.in = append(s.in, x)
	s.n++
	if s.Weigh != nil {
		s.held += int64(s.Weigh(x))
	}
	if len(s.in) < s.b {
		return
	}
	s.sorted(s.in)
	carry := s.in
	s.in = s.buffer()
	for h := 0; ; h++ {
		if h == len(s.full) {
			s.full = append(s.full, nil)
		}
		if s.full[h] == nil {
			s.full[h] = carry
			return
		}
		carry = s.merge(s.full[h], carry, int64(1)<<min(h, 62))
		s.full[h] = nil
	}
}

// merge merges two sorted buffers of items of weight w, keeps every other
// item in a, gives back c, and returns a.
func (s *Sketch[T]) merge(a, c []T, w int64) []T {
	if s.merged == nil {
		s.merged = make([]T, 0, 2*s.b)
	}
	m := s.merged[:0]
	i, j := 0, 0
	for i < len(a) && j < len(c) {
		if s.cmp(c[j], a[i]) < 0 {
			m = append(m, c[j])
			j++
		} else {
			m = append(m, a[i])
			i++
		}
	}
	m = append(append(m, a[i:]...), c[j:]...)
	first := 0
	if s.odd {
		first = 1
		s.under += w
	} else {
		s.over += w
	}
	s.odd = !s.odd
	a = a[:0]
	for k := range m {
		if k%2 == first {
			a = append(a, m[k])
		} else if s.Weigh != nil {
			s.held -= int64(s.Weigh(m[k]))
		}
	}
	clear(m) // let go of what the items point to
	clear(c)
	s.spare = append(s.spare, c[:0])
	return a
}

// buffer returns an empty buffer of capacity b.
func (s *Sketch[T]) buffer() []T {
	if n := len(s.spare); n > 0 {
		b := s.spare[n-1]
		s.spare = s.spare[:n-1]
		return b
	}
	s.buffers++
	return make([]T, 0, s.b)
}

// sorted sorts items in the order of cmp.
func (s *Sketch[T]) sorted(items []T) {
	if s.Sort != nil {
		s.Sort(items)
	} else {
		slices.SortFunc(items, s.cmp)
	}
}

// Bytes returns about how much memory the sketch holds: its buffers and
// what their items point to.
func (s *Sketch[T]) Bytes() int64 {
	var zero T
	return int64(s.buffers*s.b+cap(s.merged))*int64(unsafe.Sizeof(zero)) + s.held
}

// Bracket returns lo, the last item the sketch holds that at most from
// items surely precede or equal, and hi, the first that at least to items
// surely do (hasLo, hasHi false when there is none), and most, the most
// items that can lie after lo up to hi (after nothing, up to everything).
// The items of ranks from to to-1, counting from 0, lie after lo up to
// hi. The sketch takes no more items after it.
func (s *Sketch[T]) Bracket(from, to int64) (lo, hi T, hasLo, hasHi bool, most int64) {
	// The buffers are merged as they are read, smallest item first,
	// rather than copied into one list and sorted: that list would take
	// as much memory again as the sketch.
	s.sorted(s.in)
	bufs := append([][]T{s.in}, s.full...)
	// bufs[i] has items of weight 1 for i 0 and 1, 2^(i-1) past them.
	weight := func(i int) int64 { return int64(1) << min(max(i-1, 0), 62) }
	next := make([]int, len(bufs)) // the next item to read of each buffer
	// The least count of items up to lo, and the most up to hi; and the
	// estimated count up to the item read.
	loLeast, hiMost, rank := int64(0), s.n, int64(0)
	for {
		least := -1
		for i, b := range bufs {
			if next[i] < len(b) && (least < 0 || s.cmp(b[next[i]], bufs[least][next[least]]) < 0) {
				least = i
			}
		}
		if least < 0 {
			break
		}
		x := bufs[least][next[least]]
		next[least]++
		rank += weight(least)
		if rank+s.under <= from {
			lo, hasLo, loLeast = x, true, max(rank-s.over, 0)
		}
		if rank-s.over >= to {
			hi, hasHi, hiMost = x, true, min(rank+s.under, s.n)
			break
		}
	}
	return lo, hi, hasLo, hasHi, max(hiMost-loLeast, 0)
}
