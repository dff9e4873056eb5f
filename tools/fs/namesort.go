package fs

import (
	"slices"
	"strings"
)

// sortByName sorts entries by name, in the order of strings.Compare.
//
// It sorts the entries' indices a byte of the names at a time, in place
// (a most-significant-digit radix sort, "American flag sort"), then moves
// each entry once into its place. slices.SortFunc on a thousand entries
// took two to three times as long: most of its time went to branches the
// processor could not predict and to swapping 48-byte entries, four
// pointers each, which while the collector marks costs a write barrier a
// pointer. Indices hold no pointers.
func sortByName(entries []ListEntry) {
	if len(entries) < 2 {
		return
	}
	s := nameSorter{entries: entries, idx: make([]int, len(entries))}
	for i := range s.idx {
		s.idx[i] = i
	}
	s.radix(s.idx, 0)
	s.permute()
}

// nameSorter sorts idx, indices of entries, by the entries' names.
type nameSorter struct {
	entries []ListEntry
	idx     []int
}

// Buckets smaller than insertionMax are sorted by insertion; past
// radixMaxDepth bytes of common prefix, by comparison, so that the
// recursion (two kilobytes of stack a level) stays shallow whatever the
// names.
const (
	insertionMax  = 16
	radixMaxDepth = 32
)

// radix sorts idx, whose names agree on their first depth bytes.
func (s *nameSorter) radix(idx []int, depth int) {
	for {
		switch {
		case len(idx) < insertionMax:
			s.insertion(idx, depth)
			return
		case depth >= radixMaxDepth:
			slices.SortFunc(idx, func(a, b int) int {
				return strings.Compare(s.entries[a].Name[depth:], s.entries[b].Name[depth:])
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

// byteAt returns 0 if entry i's name ends before byte d, or its byte d
// plus 1.
func (s *nameSorter) byteAt(i, d int) int {
	if name := s.entries[i].Name; d < len(name) {
		return int(name[d]) + 1
	}
	return 0
}

// insertion sorts a few indices whose names agree on their first depth
// bytes.
func (s *nameSorter) insertion(idx []int, depth int) {
	for i := 1; i < len(idx); i++ {
		x := idx[i]
		name := s.entries[x].Name[depth:]
		j := i
		for ; j > 0 && before(name, s.entries[idx[j-1]].Name[depth:]); j-- {
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

// permute puts each entry where idx says, moving it once: entry idx[i]
// goes to place i, a cycle at a time.
func (s *nameSorter) permute() {
	for start := range s.idx {
		if s.idx[start] == start {
			continue
		}
		held := s.entries[start]
		i := start
		for s.idx[i] != start {
			from := s.idx[i]
			s.entries[i] = s.entries[from]
			s.idx[i] = i
			i = from
		}
		s.entries[i] = held
		s.idx[i] = i
	}
}
