package namesort

import (
	"slices"
	"strings"
)

// Sort sorts items by the name each has, name(&item), in the order of
// strings.Compare. Items with equal names may end in any order.
//
// It reads each name once, sorts the items' indices by their names a
// byte at a time, in place (a most-significant-digit radix sort,
// "American flag sort"), then moves each item once into its place.
func Sort[T any](items []T, name func(*T) string) {
	if len(items) < 2 {
		return
	}
	s := sorter{names: make([]string, len(items)), idx: make([]int, len(items))}
	for i := range items {
		s.names[i] = name(&items[i])
		s.idx[i] = i
	}
	s.radix(s.idx, 0)
	permute(items, s.idx)
}

// Strings sorts names in the order of strings.Compare, as [Sort] does.
func Strings(names []string) {
	Sort(names, func(s *string) string { return *s })
}

// sorter sorts idx, indices of names, by those names: name i is
// text[bounds[i]:bounds[i+1]].
type sorter struct {
	names []string
	idx   []int
}

// name returns name i.
func (s *sorter) name(i int) string { return s.names[i] }

// Buckets smaller than insertionMax are sorted by insertion; past
// radixMaxDepth bytes of common prefix, by comparison, so that the
// recursion (two kilobytes of stack a level) stays shallow whatever the
// names.
const (
	insertionMax  = 16
	radixMaxDepth = 32
)

// radix sorts idx, whose names agree on their first depth bytes.
func (s *sorter) radix(idx []int, depth int) {
	for {
		switch {
		case len(idx) < insertionMax:
			s.insertion(idx, depth)
			return
		case depth >= radixMaxDepth:
			slices.SortFunc(idx, func(a, b int) int {
				return strings.Compare(s.name(a)[depth:], s.name(b)[depth:])
			})
			return
		}
		// Bucket 0 holds the names that end before byte depth, bucket
		// c+1 those whose byte depth is c.
		var count [257]int32
		for _, i := range idx {
			count[s.byteAt(i, depth)]++
		}
		if first := s.byteAt(idx[0], depth); int(count[first]) == len(idx) {
			if first == 0 {
				return // all the same name
			}
			depth++ // a byte they all share: on to the next
			continue
		}
		var next [257]int32 // the first place of each bucket not yet filled
		sum := int32(0)
		for b, n := range count {
			next[b] = sum
			sum += n
		}
		// Each index out of place is swapped straight into the next free
		// place of its bucket, until the place being filled gets one of
		// its own.
		end := int32(0)
		for b := range count {
			end += count[b]
			for next[b] < end {
				for c := s.byteAt(idx[next[b]], depth); c != b; c = s.byteAt(idx[next[b]], depth) {
					idx[next[b]], idx[next[c]] = idx[next[c]], idx[next[b]]
					next[c]++
				}
				next[b]++
			}
		}
		// next[b] is now where bucket b ends.
		for b := 1; b < len(count); b++ {
			if count[b] > 1 {
				s.radix(idx[next[b]-count[b]:next[b]], depth+1)
			}
		}
		return
	}
}

// byteAt returns 0 if name i ends before byte d, or its byte d plus 1.
func (s *sorter) byteAt(i, d int) int {
	if name := s.name(i); d < len(name) {
		return int(name[d]) + 1
	}
	return 0
}

// insertion sorts a few indices whose names agree on their first depth
// bytes.
func (s *sorter) insertion(idx []int, depth int) {
	for i := 1; i < len(idx); i++ {
		x := idx[i]
		name := s.name(x)[depth:]
		j := i
		for ; j > 0 && before(name, s.name(idx[j-1])[depth:]); j-- {
			idx[j] = idx[j-1]
		}
		idx[j] = x
	}
}

// before reports whether a < b. Names that agree so far mostly differ in
// their next byte, which is compared first, without a call.
func before(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

// permute puts each item where idx says, moving it once: item idx[i]
// goes to place i, a cycle at a time. idx ends as the identity.
func permute[T any](items []T, idx []int) {
	for start := range idx {
		if idx[start] == start {
			continue
		}
		held := items[start]
		i := start
		for idx[i] != start {
			from := idx[i]
			items[i] = items[from]
			idx[i] = i
			i = from
		}
		items[i] = held
		idx[i] = i
	}
}
