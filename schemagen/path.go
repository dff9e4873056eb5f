package schemagen

import (
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/security"
)

// step is one step from the arguments object to a value: an object key, or
// an array index when index >= 0.
type step struct {
	key   string
	index int
}

// path locates a value in the arguments; the empty path is the arguments
// object itself. Walks extend a path with append while they descend and
// format it only when something is reported, so siblings share (and
// overwrite) one backing array: a path must not be kept after the call it
// was passed to returns.
type path []step

// key returns p extended by an object key.
func (p path) key(k string) path { return append(p, step{key: k, index: -1}) }

// at returns p extended by an array index.
func (p path) at(i int) path { return append(p, step{index: i}) }

// formatPath writes a path the way a programmer would: edits[1].old_text.
// Keys that are not identifiers are quoted: env["MY VAR"]. The root is "".
func formatPath(p path) string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case isPlainKey(s.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			b.WriteByte('[')
			b.WriteString(quoteShort(s.key, maxShown))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// isPlainKey reports whether key can be written after a dot.
func isPlainKey(key string) bool {
	_, _, ok := security.ClassIdent.Check(key)
	return ok
}

// pathSortKey returns a string that sorts paths step by step, with array
// indexes in numeric order.
func pathSortKey(p path) string {
	var b strings.Builder
	for _, s := range p {
		if s.index >= 0 {
			idx := strconv.Itoa(s.index)
			b.WriteByte(1)
			b.WriteString(strings.Repeat("0", 20-len(idx)))
			b.WriteString(idx)
		} else {
			b.WriteByte(2)
			b.WriteString(s.key)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// topKey returns the first key of the path, which names the argument that a
// problem is about, and false for the root.
func topKey(p path) (string, bool) {
	if len(p) == 0 || p[0].index >= 0 {
		return "", false
	}
	return p[0].key, true
}
