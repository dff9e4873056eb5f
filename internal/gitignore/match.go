package gitignore

import "strings"

// A matcher is one pattern compiled by compile. A path matches when it
// starts with head and what follows matches tail, component by component.
//
// The pattern's text before its first wildcard or backslash is head, a
// plain prefix: git compares that part as text and matches the rest as a
// pattern of its own. It shows when "**/" comes right after that prefix in
// the middle of a name: "a**/b" matches "ab" and "a/x/b" in git, because
// its rest "**/b" is a leading "**/". Everywhere else the split changes
// nothing.
//
// Matching takes no recursion and no step budget. The tail is a list of
// runs of component patterns, split at "**"; the first run must match the
// first components, the last run the last ones, and each run between them
// is put at the leftmost place after the one before. Leftmost is never
// wrong: every component pattern takes exactly one component, so a run
// placed earlier leaves more room to all that follows. That costs at most
// one try of each run at each component, so about P×N component matches
// for P pattern components and N path components; a component pattern
// matches a name the same way, with its pieces split at '*', in at most
// len(pattern)×len(name) byte comparisons.
type matcher struct {
	head string
	// runs is the tail, split at its "**" components: len(runs)-1 of
	// them, each matching any number of components. nil when the pattern
	// is all head, so that the path must be head exactly.
	runs [][]namePattern
	// never is set for a pattern that cannot match: a set left open, an
	// unknown class name, a backslash at the end.
	never bool
}

// match reports whether m matches path, whose components are separated
// by single slashes.
func (m *matcher) match(path string) bool {
	if m.never || !strings.HasPrefix(path, m.head) {
		return false
	}
	rest := path[len(m.head):]
	if m.runs == nil {
		return rest == ""
	}
	// k is where the next component of rest starts, len(rest)+1 once none
	// is left. rest holds one component at least, maybe empty: the head
	// may end where a name does, or in the middle of one.
	none := len(rest) + 1
	k, ok := matchRun(m.runs[0], rest, 0, none)
	switch {
	case !ok:
		return false
	case len(m.runs) == 1:
		return k == none
	}
	// The last run takes the last components; the runs between take
	// components from k up to limit, where the last run starts.
	limit := none
	if last := m.runs[len(m.runs)-1]; len(last) > 0 {
		limit = lastComponents(rest, len(last))
		if limit < k {
			return false
		}
		if _, ok := matchRun(last, rest, limit, none); !ok {
			return false
		}
	}
	for _, run := range m.runs[1 : len(m.runs)-1] {
		for {
			if end, ok := matchRun(run, rest, k, limit); ok {
				k = end
				break
			}
			if k >= limit {
				return false
			}
			_, k = component(rest, k)
		}
	}
	return true
}

// matchRun reports whether run matches the components of rest from the
// one that starts at k, all of them starting before limit, and returns
// where the component after them starts.
func matchRun(run []namePattern, rest string, k, limit int) (int, bool) {
	for i := range run {
		if k >= limit {
			return 0, false
		}
		var c string
		c, k = component(rest, k)
		if !run[i].match(c) {
			return 0, false
		}
	}
	return k, true
}

// component returns the component of s that starts at k and where the
// next one starts, len(s)+1 if it is the last.
func component(s string, k int) (string, int) {
	if j := strings.IndexByte(s[k:], '/'); j >= 0 {
		return s[k : k+j], k + j + 1
	}
	return s[k:], len(s) + 1
}

// lastComponents returns where the last n components of s start (n >= 1),
// or -1 if s has fewer.
func lastComponents(s string, n int) int {
	i := len(s)
	for ; n > 1; n-- {
		j := strings.LastIndexByte(s[:i], '/')
		if j < 0 {
			return -1
		}
		i = j
	}
	return strings.LastIndexByte(s[:i], '/') + 1
}

// A namePattern matches one component: pieces with a '*' between each two.
type namePattern struct {
	pieces []piece
	width  int // the pieces' widths added up: the shortest name it matches
}

// match reports whether n matches name. The first piece must match at the
// start, the last at the end, and each between them goes to the leftmost
// place after the one before, for the same reason as runs do.
func (n *namePattern) match(name string) bool {
	if len(name) < n.width {
		return false
	}
	ps := n.pieces
	if len(ps) == 1 {
		return len(name) == n.width && ps[0].at(name, 0)
	}
	first, last := &ps[0], &ps[len(ps)-1]
	end := len(name) - last.width
	if !first.at(name, 0) || !last.at(name, end) {
		return false
	}
	i := first.width
	for p := range ps[1 : len(ps)-1] {
		mid := &ps[1+p]
		j := mid.index(name[:end], i)
		if j < 0 {
			return false
		}
		i = j + mid.width
	}
	return true
}

// A piece is a stretch of a name pattern without '*': it matches names of
// one length only, width.
type piece struct {
	atoms []atom
	width int
}

// An atom is a run of literal bytes, or, when lit is empty, one byte of
// set (a '?' is a set of every byte).
type atom struct {
	lit string
	set byteSet
}

// at reports whether p matches s[i:i+p.width]; the caller makes sure s is
// that long.
func (p *piece) at(s string, i int) bool {
	for k := range p.atoms {
		a := &p.atoms[k]
		if a.lit != "" {
			if s[i:i+len(a.lit)] != a.lit {
				return false
			}
			i += len(a.lit)
			continue
		}
		if !a.set.has(s[i]) {
			return false
		}
		i++
	}
	return true
}

// index returns the first i >= from where p matches s, or -1.
func (p *piece) index(s string, from int) int {
	if len(p.atoms) == 1 && p.atoms[0].lit != "" {
		if j := strings.Index(s[from:], p.atoms[0].lit); j >= 0 {
			return from + j
		}
		return -1
	}
	for i := from; i+p.width <= len(s); i++ {
		if p.at(s, i) {
			return i
		}
	}
	return -1
}

// byteSet is a set of bytes, one bit each.
type byteSet [4]uint64

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }

func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}

func (s *byteSet) invert() {
	for i := range s {
		s[i] = ^s[i]
	}
}
