package gitignore

import "strings"

// The outcomes of wildmatch, as in git's wildmatch.c. The two aborts cut
// the search short: abortAll when the text ran out (no later start of a
// '*' can match either), abortToStarStar when a single '*' met a '/' (only
// an enclosing "**" may go on).
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// maxSteps bounds the work of one match. git has no such bound; patterns
// with several "**" can take time that grows as a power of the path's
// length, and one ignore file must not hold a walk for minutes. No pattern
// a person writes comes near it on a real path; past it, the pattern does
// not match.
const maxSteps = 1 << 20

// wildmatch matches text against pattern byte by byte, as git's wildmatch
// does: '?' is any byte, '*' any run of bytes, "[...]" a set ('!' or '^'
// negates it; ranges, backslash escapes and [:alpha:]-style ASCII classes
// inside), '\' escapes the next byte. With pathname (git's WM_PATHNAME),
// '?', '*' and sets never match '/', and "**" between slashes (or at
// either end) matches any number of directories.
func wildmatch(pattern, text string, pathname bool) bool {
	w := wild{p: pattern, t: text, pathname: pathname}
	return w.match(0, 0) == wmMatch
}

// wild is one match in progress.
type wild struct {
	p, t     string
	pathname bool
	steps    int
}

// at returns s[i], or 0 past its end: git's strings end in a NUL, and the
// port keeps its tests. Neither a name nor a pattern holds a NUL (Parse
// cuts lines there, as git does).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// isGlobSpecial reports whether c starts something other than a literal
// byte in a pattern.
func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

// match is git's dowild: p[pi:] against t[ti:].
func (w *wild) match(pi, ti int) int {
	p, t := w.p, w.t
	start := pi
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		if w.steps++; w.steps > maxSteps {
			return wmAbortAll
		}
		pc, tc := p[pi], at(t, ti)
		if tc == 0 && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			// A literal; a backslash at the very end matches nothing.
			pi++
			if tc != at(p, pi) {
				return wmNoMatch
			}
		case '?':
			if w.pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			if pi++; at(p, pi) == '*' {
				prev := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				if !w.pathname {
					matchSlash = true
				} else if (prev < start || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || p[pi] == '\\' && at(p, pi+1) == '/') {
					// "**/" may match no directory at all: a/**/b
					// matches a/b.
					if at(p, pi) == '/' && w.match(pi+1, ti) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			} else {
				matchSlash = !w.pathname
			}
			if pi == len(p) {
				// A trailing "**" matches everything; a trailing '*'
				// only what holds no more slashes.
				if !matchSlash && strings.IndexByte(t[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One '*' and a slash: the rest of this name.
				i := strings.IndexByte(t[ti:], '/')
				if i < 0 {
					return wmNoMatch
				}
				ti += i // the loop steps over the slash in both
				continue
			}
			for tc != 0 {
				// Before a literal, skip to where it next occurs.
				if !isGlobSpecial(p[pi]) {
					lit := p[pi]
					for tc = at(t, ti); tc != 0 && (matchSlash || tc != '/') && tc != lit; tc = at(t, ti) {
						ti++
						w.steps++
					}
					if tc != lit {
						return wmNoMatch
					}
				}
				if m := w.match(pi, ti); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tc == '/' {
					return wmAbortToStarStar
				}
				ti++
				tc = at(t, ti)
			}
			return wmAbortAll
		case '[':
			m, next := w.set(pi, tc)
			if m != wmMatch {
				return m
			}
			pi = next
		default:
			if tc != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// set matches the byte tc against the set that starts at p[pi] == '[',
// and returns the index of its closing ']'.
func (w *wild) set(pi int, tc byte) (result, end int) {
	p := w.p
	pi++
	pc := at(p, pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = at(p, pi)
	}
	var prev byte
	matched := false
	for {
		switch {
		case pc == 0:
			return wmAbortAll, 0
		case pc == '\\':
			pi++
			if pc = at(p, pi); pc == 0 {
				return wmAbortAll, 0
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && at(p, pi+1) != 0 && p[pi+1] != ']':
			pi++
			pc = p[pi]
			if pc == '\\' {
				pi++
				if pc = at(p, pi); pc == 0 {
					return wmAbortAll, 0
				}
			}
			if tc <= pc && tc >= prev {
				matched = true
			}
			pc = 0 // no range may start here
		case pc == '[' && at(p, pi+1) == ':':
			s := pi + 2
			j := s
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j == len(p) {
				return wmAbortAll, 0
			}
			if j-s-1 < 0 || p[j-1] != ':' {
				// No ":]": an ordinary '['.
				if tc == '[' {
					matched = true
				}
				break
			}
			in, ok := inClass(p[s:j-1], tc)
			if !ok {
				return wmAbortAll, 0
			}
			if in {
				matched = true
			}
			pi, pc = j, 0
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		if pc = at(p, pi); pc == ']' {
			break
		}
	}
	if matched == negated || w.pathname && tc == '/' {
		return wmNoMatch, 0
	}
	return wmMatch, pi
}

// inClass reports whether c is in the character class named (alpha,
// digit, ...), with git's ASCII-only definitions; ok is false for a name
// git does not know, which makes the whole pattern fail.
func inClass(name string, c byte) (in, ok bool) {
	alpha := 'a' <= c|0x20 && c|0x20 <= 'z'
	digit := '0' <= c && c <= '9'
	graph := 0x21 <= c && c <= 0x7e
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return graph, true
	case "lower":
		return 'a' <= c && c <= 'z', true
	case "print":
		return graph || c == ' ', true
	case "punct":
		return graph && !alpha && !digit, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return 'A' <= c && c <= 'Z', true
	case "xdigit":
		return digit || 'a' <= c|0x20 && c|0x20 <= 'f', true
	}
	return false, false
}
