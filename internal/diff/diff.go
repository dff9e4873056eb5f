package diff

import (
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

// maxDiffCost bounds the edit distance the diff searches for a minimal
// edit script. Past it, the differing middle of the texts is shown as
// removed whole and added whole: still a correct diff, only longer.
const maxDiffCost = 1000

// opKind is what an edit script does with one line.
type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

// diffOp is one line of an edit script: a line of the old text kept or
// deleted, or a line of the new text inserted. a and b are the line's
// index in the old and new text (for an insert, a is where it goes; for a
// delete, b is).
type diffOp struct {
	kind opKind
	a, b int
}

// Unified returns the unified diff that turns oldText into newText,
// with headers "--- a/name" and "+++ b/name" and Context lines of
// context, or "" when the texts are equal. name is written as given: a
// caller that shows the diff escapes it first. Lines keep their endings
// ("\r\n" shows as a trailing "\r"); a last line without one is followed
// by "\ No newline at end of file", as in GNU diff.
func Unified(name, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	// Only the lines between the common start and end of the texts, and
	// the context around them, are split and compared: a small edit of a
	// large file costs what the edit costs.
	skip, oldEnd, newEnd := diffWindow(oldText, newText)
	return windowDiff(name, oldText[skip:oldEnd], newText[skip:newEnd], strings.Count(oldText[:skip], "\n"))
}

// diffWindow returns where the lines that differ, with Context lines
// of context on each side, lie in two different texts: from skip, a line
// start that the texts share, up to oldEnd and newEnd, after which the
// texts end in the same whole lines. The lines outside are equal and
// would show in no hunk, so the diff of the window, its lines numbered
// from the line at skip, is the diff of the texts.
func diffWindow(oldText, newText string) (skip, oldEnd, newEnd int) {
	pre := commonPrefix(oldText, newText)
	// The equal whole lines at the start end at the last line feed in the
	// common start; keep Context of them.
	start := strings.LastIndexByte(oldText[:pre], '\n') + 1
	skip = start
	for range Context {
		if skip == 0 {
			break
		}
		skip = strings.LastIndexByte(oldText[:skip-1], '\n') + 1
	}
	// The common end, short of the whole lines of the common start. Its
	// first line is a whole line of both texts only if a line feed
	// precedes it in both, which the longest common end rules out (the
	// bytes before it differ) unless one of them is at start: it is left
	// in the window, as are Context lines after it.
	suf := commonSuffix(oldText[start:], newText[start:])
	common := oldText[len(oldText)-suf:]
	cut := strings.IndexByte(common, '\n') + 1 // the first line left in the window
	if cut == 0 {
		return skip, len(oldText), len(newText)
	}
	for range Context {
		next := strings.IndexByte(common[cut:], '\n')
		if next < 0 {
			return skip, len(oldText), len(newText)
		}
		cut += next + 1
	}
	drop := suf - cut
	return skip, len(oldText) - drop, len(newText) - drop
}

// commonPrefix returns the length of the longest common start of a and b.
// It compares in chunks, which the runtime compares many bytes at a time,
// and only the first chunk that differs byte by byte.
func commonPrefix(a, b string) int {
	const chunk = 256
	i, n := 0, min(len(a), len(b))
	for i+chunk <= n && a[i:i+chunk] == b[i:i+chunk] {
		i += chunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common end of a and b,
// as commonPrefix does from the other end.
func commonSuffix(a, b string) int {
	const chunk = 256
	i, n := 0, min(len(a), len(b))
	for i+chunk <= n && a[len(a)-i-chunk:len(a)-i] == b[len(b)-i-chunk:len(b)-i] {
		i += chunk
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// windowDiff is Unified of the window of two texts that diffWindow
// found, whose first line is line skipped+1 of the texts.
func windowDiff(name, oldText, newText string, skipped int) string {
	a, b := splitLines(oldText), splitLines(newText)
	ops := diffLines(a, b)
	var sb strings.Builder
	sb.WriteString("--- a/")
	sb.WriteString(name)
	sb.WriteString("\n+++ b/")
	sb.WriteString(name)
	sb.WriteByte('\n')
	for start := 0; start < len(ops); {
		// Find the next change, then extend the hunk while the following
		// change is close enough for the contexts to touch.
		first := start
		for first < len(ops) && ops[first].kind == opEqual {
			first++
		}
		if first == len(ops) {
			break
		}
		last := first
		for i := first; i < len(ops); i++ {
			if ops[i].kind != opEqual {
				if i-last > 2*Context {
					break
				}
				last = i
			}
		}
		from := max(first-Context, start)
		to := min(last+Context+1, len(ops))
		writeHunk(&sb, ops[from:to], a, b, skipped)
		start = to
	}
	return sb.String()
}

// writeHunk writes one hunk: its header and its lines, numbered from
// skipped+1 rather than 1.
func writeHunk(sb *strings.Builder, ops []diffOp, a, b []string, skipped int) {
	aStart, bStart := skipped+ops[0].a, skipped+ops[0].b
	var aLen, bLen int
	for _, op := range ops {
		switch op.kind {
		case opEqual:
			aLen++
			bLen++
		case opDelete:
			aLen++
		case opInsert:
			bLen++
		}
	}
	sb.WriteString("@@ -")
	writeRange(sb, aStart, aLen)
	sb.WriteString(" +")
	writeRange(sb, bStart, bLen)
	sb.WriteString(" @@\n")
	for _, op := range ops {
		var line string
		if op.kind == opInsert {
			line = b[op.b]
		} else {
			line = a[op.a]
		}
		sb.WriteByte(byte(op.kind))
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// writeRange writes a hunk range as GNU diff does: "start,len", the
// start 1-based, or the line before the range when it is empty, and
// ",len" left out when it is 1.
func writeRange(sb *strings.Builder, start, n int) {
	if n == 0 {
		sb.WriteString(strconv.Itoa(start))
		sb.WriteString(",0")
		return
	}
	sb.WriteString(strconv.Itoa(start + 1))
	if n != 1 {
		sb.WriteByte(',')
		sb.WriteString(strconv.Itoa(n))
	}
}

// splitLines splits s after each '\n'; the last line may have none.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// diffLines returns an edit script from a to b: every line of both, in
// order, marked equal, deleted or inserted.
func diffLines(a, b []string) []diffOp {
	// The common prefix and suffix are equal lines; only the middle needs
	// the search.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, len(a)+len(b)-pre-suf)
	for i := range pre {
		ops = append(ops, diffOp{opEqual, i, i})
	}
	ops = appendMiddle(ops, a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)
	for i := range suf {
		ops = append(ops, diffOp{opEqual, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// appendMiddle appends an edit script from a to b, which start at line
// offA and offB of the texts, found with Myers' O(ND) algorithm.
func appendMiddle(ops []diffOp, a, b []string, offA, offB int) []diffOp {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return appendReplace(ops, n, m, offA, offB)
	}
	// Lines are compared by a hash first, and by their text only when the
	// hashes agree: eight bytes a line, where a table of line numbers took
	// some fifty.
	seed := maphash.MakeSeed()
	ha, hb := make([]uint64, n), make([]uint64, m)
	for i, l := range a {
		ha[i] = maphash.String(seed, l)
	}
	for j, l := range b {
		hb[j] = maphash.String(seed, l)
	}
	same := func(x, y int) bool { return ha[x] == hb[y] && a[x] == b[y] }

	// v[k+off] is the furthest x reached on diagonal k = x-y; trace keeps
	// v's live part (diagonals -d..d) after each step d for the way back.
	// The search stops at maxDiffCost, so v needs no more diagonals than
	// that, whatever the texts' length.
	dmax := min(n+m, maxDiffCost)
	off := dmax + 1
	v := make([]int, 2*off+2)
	var trace [][]int
	found := -1
	for d := 0; d <= dmax; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: an insert
			} else {
				x = v[off+k-1] + 1 // right: a delete
			}
			y := x - k
			for x < n && y < m && same(x, y) {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
		snap := make([]int, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
		if found >= 0 {
			break
		}
	}
	if found < 0 {
		// Too far apart for a minimal script at a bounded cost.
		return appendReplace(ops, n, m, offA, offB)
	}

	// Walk back from (n, m) to (0, 0), appending the script in reverse,
	// then turn what was appended around.
	start := len(ops)
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1] // diagonals -(d-1)..d-1, at index k+d-1
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			ops = append(ops, diffOp{opEqual, offA + x, offB + y})
		}
		if x == px {
			y--
			ops = append(ops, diffOp{opInsert, offA + x, offB + y})
		} else {
			x--
			ops = append(ops, diffOp{opDelete, offA + x, offB + y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		ops = append(ops, diffOp{opEqual, offA + x, offB + y})
	}
	slices.Reverse(ops[start:])
	return ops
}

// appendReplace appends a script that deletes the n lines at offA and
// inserts the m lines at offB in their place.
func appendReplace(ops []diffOp, n, m, offA, offB int) []diffOp {
	for i := range n {
		ops = append(ops, diffOp{opDelete, offA + i, offB})
	}
	for j := range m {
		ops = append(ops, diffOp{opInsert, offA + n, offB + j})
	}
	return ops
}

// Cut returns the longest start of the unified diff that is made of
// whole lines and holds at most limit bytes, or diff itself when it fits.
// When it cuts, oldNext and newNext are the first lines of the old and of
// the new text past what the shown part covers (counting from 1), so that
// a reader knows where to read on; both are 0 otherwise.
func Cut(diff string, limit int) (shown string, oldNext, newNext int) {
	if len(diff) <= limit {
		return diff, 0, 0
	}
	shown = diff[:strings.LastIndexByte(diff[:limit], '\n')+1]
	oldNext, newNext = 1, 1
	for i, l := range strings.SplitAfter(shown, "\n") {
		switch {
		case i < 2 || l == "": // the "---" and "+++" headers
		case strings.HasPrefix(l, "@@ -"):
			if a, b, c, d, ok := parseHunkHeader(l); ok {
				oldNext, newNext = a, c
				if b == 0 {
					oldNext++
				}
				if d == 0 {
					newNext++
				}
			}
		case l[0] == ' ':
			oldNext++
			newNext++
		case l[0] == '-':
			oldNext++
		case l[0] == '+':
			newNext++
		}
	}
	return shown, oldNext, newNext
}

// parseHunkHeader reads a hunk header, "@@ -a,b +c,d @@", a missing
// length being 1 as writeRange leaves it out.
func parseHunkHeader(l string) (a, b, c, d int, ok bool) {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, 0, false
	}
	a, b, ok1 := hunkRange(f[1][1:])
	c, d, ok2 := hunkRange(f[2][1:])
	return a, b, c, d, ok1 && ok2
}

// hunkRange reads a hunk range, "start,len" or "start".
func hunkRange(r string) (start, n int, ok bool) {
	s, l, found := strings.Cut(r, ",")
	start, err := strconv.Atoi(s)
	if err != nil {
		return 0, 0, false
	}
	if !found {
		return start, 1, true
	}
	n, err = strconv.Atoi(l)
	return start, n, err == nil
}

// Stat counts the lines a unified diff adds and removes.
func Stat(diff string) (added, removed int) {
	for i := 0; diff != ""; i++ {
		l := diff
		if j := strings.IndexByte(diff, '\n'); j >= 0 {
			l, diff = diff[:j+1], diff[j+1:]
		} else {
			diff = ""
		}
		switch {
		case i < 2: // the "---" and "+++" headers
		case l[0] == '+':
			added++
		case l[0] == '-':
			removed++
		}
	}
	return added, removed
}
