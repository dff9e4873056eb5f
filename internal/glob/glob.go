package glob

import (
	"strings"
	"unicode/utf8"
)

// MaxAlternatives bounds how many patterns the braces of one glob may
// expand to.
const MaxAlternatives = 256

// Glob is a compiled glob pattern, matched against slash-separated paths.
//
// The syntax is that of path.Match, plus two extensions:
//
//   - "**" as a whole path element matches any number of elements, none
//     included: "**/x" matches "x" and "a/b/x", "a/**/b" matches "a/b" and
//     "a/x/y/b", and a trailing "/**" matches everything below. Elsewhere
//     "**" is the same as "*".
//   - "{a,b}" matches either alternative; braces nest, and "[{]" matches a
//     literal brace.
//
// Outside those, "*" matches any run of characters except '/', "?" one
// character except '/', "[abc]", "[a-z]" and "[^a-z]" one character of (or
// not of) the set, and '\' escapes the next character.
type Glob struct {
	pattern string
	alts    []globAlt
}

// globAlt is one brace alternative of a glob.
type globAlt struct {
	toks []token
	// base makes the alternative match the last element of a path only:
	// set by CompilePath for an alternative without '/'.
	base bool
}

// tokKind is the kind of one element of a compiled pattern.
type tokKind uint8

const (
	tokLit   tokKind = iota // lit, exactly
	tokAny                  // '?': one character except '/'
	tokClass                // '[...]': one character of a set
	tokStar                 // '*': any run of characters except '/'
	tokDirs                 // "**/": zero or more whole path elements
	tokAll                  // a final "**": anything, '/' included
)

// token is one element of a compiled pattern.
type token struct {
	kind    tokKind
	lit     string      // tokLit
	ranges  []runeRange // tokClass
	negated bool        // tokClass
}

// runeRange is one range of a character class, both ends included.
type runeRange struct{ lo, hi rune }

// Compile compiles pattern for matching whole paths. A malformed pattern
// gives an [*Error].
func Compile(pattern string) (*Glob, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	g := &Glob{pattern: pattern, alts: make([]globAlt, 0, len(alts))}
	for _, a := range alts {
		toks, err := parseGlob(pattern, a)
		if err != nil {
			return nil, err
		}
		g.alts = append(g.alts, globAlt{toks: toks})
	}
	return g, nil
}

// CompilePath compiles a pattern the way the file tools take it: matched
// against the path relative to the directory searched, where an
// alternative without '/' matches the last element of the path (its base
// name) at any depth, and a leading "/" or "./" anchors an alternative at
// that directory. A malformed pattern gives an [*Error].
func CompilePath(pattern string) (*Glob, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	g := &Glob{pattern: pattern, alts: make([]globAlt, 0, len(alts))}
	for _, a := range alts {
		anchored := false
		for {
			if rest, ok := strings.CutPrefix(a, "./"); ok {
				a, anchored = rest, true
			} else if rest, ok := strings.CutPrefix(a, "/"); ok {
				a, anchored = rest, true
			} else {
				break
			}
		}
		toks, err := parseGlob(pattern, a)
		if err != nil {
			return nil, err
		}
		g.alts = append(g.alts, globAlt{toks: toks, base: !anchored && !strings.Contains(a, "/")})
	}
	return g, nil
}

// String returns the pattern the glob was compiled from.
func (g *Glob) String() string { return g.pattern }

// Match reports whether name, a slash-separated path, matches the glob.
func (g *Glob) Match(name string) bool {
	base := name[strings.LastIndexByte(name, '/')+1:]
	for i := range g.alts {
		a := &g.alts[i]
		s := name
		if a.base {
			s = base
		}
		if matchTokens(a.toks, s) {
			return true
		}
	}
	return false
}

// matchTokens reports whether s matches toks. It runs the pattern as a
// nondeterministic automaton over the byte positions of s: after each
// token, reach holds the positions the pattern so far can end at. That
// costs O(len(toks)·len(s)) whatever the pattern, with no backtracking.
func matchTokens(toks []token, s string) bool {
	if len(toks) == 1 && toks[0].kind == tokLit {
		return s == toks[0].lit
	}
	n := len(s)
	var stack [2 * 256]bool
	var cur, next []bool
	if 2*(n+1) <= len(stack) {
		cur, next = stack[:n+1], stack[n+1:2*(n+1)]
	} else {
		cur, next = make([]bool, n+1), make([]bool, n+1)
	}
	cur[0] = true
	// boundary[j] tells whether a character starts at byte j of s, as
	// utf8 decodes it from the start (an invalid byte is a character of
	// its own); nil when s is ASCII and every position is one.
	var boundary []bool
	for i := 0; i < n; i++ {
		if s[i] >= utf8.RuneSelf {
			boundary = make([]bool, n+1)
			for j := 0; j < n; {
				boundary[j] = true
				_, size := utf8.DecodeRuneInString(s[j:])
				j += size
			}
			boundary[n] = true
			break
		}
	}
	atBoundary := func(j int) bool { return boundary == nil || boundary[j] }
	for ti := range toks {
		t := &toks[ti]
		clear(next)
		alive := false
		switch t.kind {
		case tokLit:
			for i := 0; i+len(t.lit) <= n; i++ {
				if cur[i] && s[i:i+len(t.lit)] == t.lit {
					next[i+len(t.lit)], alive = true, true
				}
			}
		case tokAny, tokClass:
			for i := 0; i < n; i++ {
				if !cur[i] {
					continue
				}
				r, size := utf8.DecodeRuneInString(s[i:])
				if t.kind == tokAny && r == '/' || t.kind == tokClass && !t.matchRune(r) {
					continue
				}
				next[i+size], alive = true, true
			}
		case tokStar:
			// A star ends only between characters, never inside the bytes
			// of one, or '?' after it would count half a character.
			reach := false
			for j := 0; j <= n; j++ {
				reach = reach || cur[j]
				next[j] = reach && atBoundary(j)
				alive = alive || next[j]
				if j < n && s[j] == '/' {
					reach = false
				}
			}
		case tokDirs:
			reach := false
			for j := 0; j <= n; j++ {
				reach = reach || cur[j]
				if cur[j] || reach && s[j-1] == '/' {
					next[j], alive = true, true
				}
			}
		case tokAll:
			reach := false
			for j := 0; j <= n; j++ {
				reach = reach || cur[j]
				next[j] = reach && atBoundary(j)
				alive = alive || next[j]
			}
		}
		if !alive {
			return false
		}
		cur, next = next, cur
	}
	return cur[n]
}

// matchRune reports whether r is in the class t.
func (t *token) matchRune(r rune) bool {
	in := false
	for _, rg := range t.ranges {
		if rg.lo <= r && r <= rg.hi {
			in = true
			break
		}
	}
	return in != t.negated
}

// parseGlob compiles p, one brace alternative of the pattern whole (named
// in errors), into tokens.
func parseGlob(whole, p string) ([]token, error) {
	var toks []token
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			toks = append(toks, token{kind: tokLit, lit: string(lit)})
			lit = lit[:0]
		}
	}
	atElemStart := true
	for i := 0; i < len(p); {
		c := p[i]
		switch c {
		case '*':
			if atElemStart && strings.HasPrefix(p[i:], "**") && (i+2 == len(p) || p[i+2] == '/') {
				flush()
				if i+2 == len(p) {
					toks = append(toks, token{kind: tokAll})
					i += 2
				} else {
					toks = append(toks, token{kind: tokDirs})
					i += 3
				}
				continue // still at the start of an element
			}
			flush()
			for i < len(p) && p[i] == '*' {
				i++
			}
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, token{kind: tokStar})
			}
		case '?':
			flush()
			toks = append(toks, token{kind: tokAny})
			i++
		case '[':
			flush()
			t, next, err := parseClass(whole, p, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = next
		case '\\':
			if i+1 == len(p) {
				return nil, &Error{Pattern: whole, Kind: EndsInBackslash, Offset: -1}
			}
			lit = append(lit, p[i+1])
			i += 2
		default:
			lit = append(lit, c)
			i++
		}
		atElemStart = c == '/'
	}
	flush()
	return toks, nil
}

// parseClass parses the character class that starts at p[i] == '['. It
// accepts exactly what path.Match accepts: an optional '^', then one or
// more characters or ranges "lo-hi", where '-' and ']' must be escaped
// with '\' (a ']' first is an error, not a literal), then ']'.
func parseClass(whole, p string, i int) (token, int, error) {
	start := i
	bad := func() (token, int, error) {
		at := strings.Index(whole, p[start:]) // -1 inside a brace alternative
		if strings.IndexByte(p[start+1:], ']') < 0 {
			return token{}, 0, &Error{Pattern: whole, Kind: OpenBracket, Offset: at}
		}
		return token{}, 0, &Error{Pattern: whole, Kind: BadClass, Offset: at}
	}
	t := token{kind: tokClass}
	i++
	if i < len(p) && p[i] == '^' {
		t.negated = true
		i++
	}
	for {
		if i < len(p) && p[i] == ']' && len(t.ranges) > 0 {
			return t, i + 1, nil
		}
		lo, next, ok := classChar(p, i)
		if !ok {
			return bad()
		}
		i = next
		hi := lo
		if p[i] == '-' {
			if hi, next, ok = classChar(p, i+1); !ok {
				return bad()
			}
			i = next
		}
		t.ranges = append(t.ranges, runeRange{lo, hi})
	}
}

// classChar reads one character of a class at p[i], unescaping '\', and
// returns the index after it. It fails, as path.Match does, at the end of
// the pattern, on '-' or ']', on invalid UTF-8, and when nothing follows
// the character (the class cannot be closed).
func classChar(p string, i int) (rune, int, bool) {
	if i >= len(p) || p[i] == '-' || p[i] == ']' {
		return 0, 0, false
	}
	if p[i] == '\\' {
		i++
		if i >= len(p) {
			return 0, 0, false
		}
	}
	r, size := utf8.DecodeRuneInString(p[i:])
	if r == utf8.RuneError && size == 1 || i+size >= len(p) {
		return 0, 0, false
	}
	return r, i + size, true
}

// expandBraces returns the alternatives that the braces of p stand for,
// in order; p itself when it has none.
func expandBraces(p string) ([]string, error) {
	return expand(p, p, 0)
}

// expand expands the braces of p, which is whole[off:off+len(p)]; errors
// name whole and positions in it.
func expand(whole, p string, off int) ([]string, error) {
	out := []string{""}
	for i := 0; i < len(p); {
		open, stray := braceIndex(p, i, '{'), braceIndex(p, i, '}')
		if stray >= 0 && (open < 0 || stray < open) {
			return nil, &Error{Pattern: whole, Kind: StrayBrace, Offset: off + stray}
		}
		if open < 0 {
			open = len(p)
		}
		for k := range out {
			out[k] += p[i:open]
		}
		if open == len(p) {
			break
		}
		alts, end := braceGroup(p, open)
		if end < 0 {
			return nil, &Error{Pattern: whole, Kind: UnclosedBrace, Offset: off + open}
		}
		var exp []string
		for _, a := range alts {
			sub, err := expand(whole, p[a.from:a.to], off+a.from)
			if err != nil {
				return nil, err
			}
			exp = append(exp, sub...)
			if len(exp)*len(out) > MaxAlternatives {
				return nil, &Error{Pattern: whole, Kind: TooManyAlternatives, Offset: -1}
			}
		}
		grown := make([]string, 0, len(out)*len(exp))
		for _, o := range out {
			for _, e := range exp {
				grown = append(grown, o+e)
			}
		}
		out, i = grown, end
	}
	return out, nil
}

// span is a part p[from:to] of a pattern.
type span struct{ from, to int }

// braceIndex returns the index of the first brace c ('{' or '}') at or
// after i that is not escaped or inside a character class, or -1.
func braceIndex(p string, i int, c byte) int {
	for i < len(p) {
		switch p[i] {
		case '\\':
			i += 2
			continue
		case '[':
			i = classEnd(p, i)
			continue
		case c:
			return i
		}
		i++
	}
	return -1
}

// braceGroup splits the brace group that opens at p[open] into its
// top-level alternatives and returns the index after its '}', or -1 if it
// is never closed.
func braceGroup(p string, open int) ([]span, int) {
	var alts []span
	depth, from := 0, open+1
	for i := open + 1; i < len(p); {
		switch p[i] {
		case '\\':
			i += 2
			continue
		case '[':
			i = classEnd(p, i)
			continue
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return append(alts, span{from, i}), i + 1
			}
			depth--
		case ',':
			if depth == 0 {
				alts = append(alts, span{from, i})
				from = i + 1
			}
		}
		i++
	}
	return nil, -1
}

// classEnd returns the index after the character class that starts at
// p[i] == '[', for skipping it while looking for braces: after the first
// ']' not escaped (a ']' first in a class is an error, never literal, in
// this syntax). An unclosed class ends at the end of p; parseClass
// reports it later.
func classEnd(p string, i int) int {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j + 1
		}
	}
	return len(p)
}
