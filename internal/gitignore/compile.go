package gitignore

import "strings"

// compile turns a pattern, without its '!', its trailing '/' and a
// leading '/', into a matcher. The rules are those of gitignore(5) and of
// fnmatch(3) with FNM_PATHNAME, made precise where they are silent by
// experiments with git check-ignore (the table in glob_test.go holds each
// to git):
//
//   - The text before the first '*', '?', '[' or backslash must start
//     the path as it is; the rest is matched as a pattern of its own,
//     from wherever that text ends (see matcher).
//   - '*' matches any bytes within one component, '?' any one byte but
//     '/', and a backslash makes the byte after it plain; "\/" separates
//     components as '/' does.
//   - A component that holds two or more stars and nothing else matches
//     any number of components, none included, when a '/' follows it;
//     one or more at the end ("abc/**" matches what abc holds but not
//     abc) or before a "\/". Other stars in a row are one '*'.
//   - "[...]" matches one byte, see parseSet. A '/' may stand in a set;
//     no set matches it.
//   - A pattern with a set left open, an unknown class name or a
//     backslash at its end matches nothing.
func compile(pattern string) matcher {
	i := strings.IndexAny(pattern, `*?[\`)
	if i < 0 {
		return matcher{head: pattern}
	}
	m := matcher{head: pattern[:i]}
	comps, ok := parseTail(pattern[i:])
	if !ok {
		m.never = true
		return m
	}
	m.runs = runsOf(comps)
	return m
}

// tailComponent is one component of a pattern: any number of components
// (anyDepth, a "**" alone; oneOrMore when none is not enough), or one
// that name matches.
type tailComponent struct {
	anyDepth, oneOrMore bool
	name                namePattern
}

// parseTail splits s at every '/' that no set holds and compiles each
// component; ok is false when s cannot match.
func parseTail(s string) (comps []tailComponent, ok bool) {
	var b nameBuilder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '/':
			comps = append(comps, b.finish(false))
			i++
		case '*':
			b.star()
			i++
		case '?':
			var all byteSet
			all.invert()
			b.oneOf(all)
			i++
		case '[':
			set, n, ok := parseSet(s[i:])
			if !ok {
				return nil, false
			}
			b.oneOf(set)
			i += n
		case '\\':
			switch {
			case i+1 == len(s):
				return nil, false
			case s[i+1] == '/':
				comps = append(comps, b.finish(true))
			default:
				b.literal(s[i+1])
			}
			i += 2
		default:
			b.literal(c)
			i++
		}
	}
	return append(comps, b.finish(true)), true
}

// runsOf splits comps at their "**" components. One that must match one
// component or more is a "*" then a "**", and several "**" in a row are
// one.
func runsOf(comps []tailComponent) [][]namePattern {
	runs := make([][]namePattern, 1, 4)
	split := false // the last run was started by a "**" and is empty
	for _, c := range comps {
		last := len(runs) - 1
		switch {
		case !c.anyDepth:
			runs[last] = append(runs[last], c.name)
			split = false
			continue
		case c.oneOrMore:
			anyName := namePattern{pieces: make([]piece, 2)} // "*"
			runs[last] = append(runs[last], anyName)
			split = false
		}
		if !split {
			runs = append(runs, nil)
			split = true
		}
	}
	return runs
}

// nameBuilder collects one component's pattern as parseTail reads it.
type nameBuilder struct {
	pieces   []piece
	cur      piece
	lit      []byte // literal bytes not yet added to cur
	stars    int
	others   bool // the component holds something else than stars
	lastStar bool
}

func (b *nameBuilder) literal(c byte) {
	b.lit = append(b.lit, c)
	b.others, b.lastStar = true, false
}

func (b *nameBuilder) oneOf(set byteSet) {
	b.flush()
	b.cur.atoms = append(b.cur.atoms, atom{set: set})
	b.cur.width++
	b.others, b.lastStar = true, false
}

func (b *nameBuilder) star() {
	b.stars++
	if b.lastStar {
		return
	}
	b.flush()
	b.pieces = append(b.pieces, b.cur)
	b.cur, b.lastStar = piece{}, true
}

func (b *nameBuilder) flush() {
	if len(b.lit) > 0 {
		b.cur.atoms = append(b.cur.atoms, atom{lit: string(b.lit)})
		b.cur.width += len(b.lit)
		b.lit = b.lit[:0]
	}
}

// finish returns the component read so far and starts the next one;
// oneOrMore is set when it ends the pattern or a "\/" ends it.
func (b *nameBuilder) finish(oneOrMore bool) tailComponent {
	if b.stars >= 2 && !b.others {
		*b = nameBuilder{lit: b.lit}
		return tailComponent{anyDepth: true, oneOrMore: oneOrMore}
	}
	b.flush()
	n := namePattern{pieces: append(b.pieces, b.cur)}
	for _, p := range n.pieces {
		n.width += p.width
	}
	*b = nameBuilder{lit: b.lit}
	return tailComponent{name: n}
}

// parseSet reads the set at the start of s, s[0] being '[', and returns
// the bytes it matches and its length; ok is false for a set that is not
// closed or names an unknown class. Inside the brackets:
//
//   - a '!' or '^' first matches the bytes not listed;
//   - a ']' first, after the negation if any, is a plain ']'; any other
//     ']' closes the set;
//   - a backslash makes the byte after it plain;
//   - "[:name:]" adds a class of ASCII bytes (alnum, alpha, blank, cntrl,
//     digit, graph, lower, print, punct, space, upper, xdigit); a '[' not
//     followed by ':', then a name and ":]", is a plain '[';
//   - "x-y" adds the bytes from x to y, only x when y comes before it;
//     a '-' first or last is plain, and so is one after a range or a
//     class (which never start one), though it may start a range itself.
func parseSet(s string) (set byteSet, n int, ok bool) {
	i := 1
	negated := i < len(s) && (s[i] == '!' || s[i] == '^')
	if negated {
		i++
	}
	known := true
	for first := true; ; first = false {
		if i >= len(s) {
			return set, 0, false
		}
		if s[i] == ']' && !first {
			i++
			break
		}
		if name, end, isClass := className(s, i); isClass {
			known = set.addClass(name) && known
			i = end
			continue
		}
		lo, next, ok := setByte(s, i)
		if !ok {
			return set, 0, false
		}
		i = next
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, next, ok := setByte(s, i+1)
			if !ok {
				return set, 0, false
			}
			i = next
			set.addRange(lo, max(lo, hi))
			continue
		}
		set.add(lo)
	}
	if !known {
		return set, 0, false
	}
	if negated {
		set.invert()
	}
	return set, i, true
}

// setByte returns the byte of a set at s[i], a backslash making the next
// one plain, and where the set goes on; ok is false at a backslash that
// ends s.
func setByte(s string, i int) (c byte, next int, ok bool) {
	if s[i] != '\\' {
		return s[i], i + 1, true
	}
	if i+1 == len(s) {
		return 0, 0, false
	}
	return s[i+1], i + 2, true
}

// className reports whether s[i:] starts with "[:name:]", the name being
// any bytes but ']', and returns the name and where the class ends.
func className(s string, i int) (name string, end int, ok bool) {
	if !strings.HasPrefix(s[i:], "[:") {
		return "", 0, false
	}
	j := strings.IndexByte(s[i+2:], ']')
	if j < 1 || s[i+2+j-1] != ':' {
		return "", 0, false
	}
	return s[i+2 : i+2+j-1], i + 2 + j + 1, true
}

// addClass adds the ASCII bytes of the class name (the C locale's), and
// reports whether the name is known.
func (s *byteSet) addClass(name string) bool {
	var in func(c byte) bool
	switch name {
	case "alnum":
		in = func(c byte) bool { return isAlpha(c) || isDigit(c) }
	case "alpha":
		in = isAlpha
	case "blank":
		in = func(c byte) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		in = func(c byte) bool { return c < ' ' || c == 0x7f }
	case "digit":
		in = isDigit
	case "graph":
		in = func(c byte) bool { return c > ' ' && c < 0x7f }
	case "lower":
		in = func(c byte) bool { return 'a' <= c && c <= 'z' }
	case "print":
		in = func(c byte) bool { return c >= ' ' && c < 0x7f }
	case "punct":
		in = func(c byte) bool { return c > ' ' && c < 0x7f && !isAlpha(c) && !isDigit(c) }
	case "space":
		in = func(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }
	case "upper":
		in = func(c byte) bool { return 'A' <= c && c <= 'Z' }
	case "xdigit":
		in = func(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	default:
		return false
	}
	for c := range byte(0x80) {
		if in(c) {
			s.add(c)
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
