package gitignore

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// FuzzGlob holds the matcher to a regular expression built from the rules
// of compile's doc by a route of its own: RE2 runs in linear time and
// shares no code with it. Sets are compared only in their plain form
// (letters, digits, ranges between them that go up, known classes); the
// others, bytes past ASCII ('?' is a byte, a regexp's '.' a character)
// and long inputs (on which package regexp takes other paths, which the
// fuzzer would spend its time minimizing) must only not panic.
func FuzzGlob(f *testing.F) {
	for _, c := range globCases {
		f.Add(c.line, c.path)
	}
	f.Add("**", "a/b")
	f.Add("a/**", "a/b/c")
	f.Add("**/a/**/b/**", "x/a/y/b/z")
	f.Add("***/x", "a/x")
	f.Add("a**/**/b", "ax/y/b")
	f.Add("[![:digit:]a-f]*/?", "x1/y")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		m := compile(pattern)
		got := m.match(path)
		if len(pattern)+len(path) > 256 || !ascii(pattern+path) {
			return
		}
		expr, ok := globRegexp(pattern)
		if !ok {
			return
		}
		re := regexp.MustCompile(expr)
		if want := re.MatchString(path); got != want {
			t.Errorf("compile(%q).match(%q) = %v; the rules (%s) say %v", pattern, path, got, re, want)
		}
	})
}

// globRegexp translates a pattern into a regular expression by the rules
// of compile's doc, or reports that it holds a set of another form than
// the plain one. The text before the first wildcard or backslash must be
// there as it is; the rest is split into components at '/' and "\/": one
// of two or more stars and nothing else matches "(.*/)?" (any components
// and their slashes), or ".*/" before "\/", or ".*" last; in any other
// '*' is "[^/]*" and '?' "[^/]".
func globRegexp(p string) (string, bool) {
	var sb strings.Builder
	sb.WriteString(`(?s)^`)
	i := strings.IndexAny(p, `*?[\`)
	if i < 0 {
		i = len(p)
	}
	sb.WriteString(regexp.QuoteMeta(p[:i]))
	// Split the rest at '/' and "\/"; a backslash at the end matches
	// nothing.
	var comps [][]string // each component as tokens: "*", "?", "[...]" or a literal byte after "\"
	var escaped []bool   // the component ends at "\/"
	comp := []string{}
	for rest := p[i:]; rest != ""; {
		switch {
		case rest[0] == '/':
			comps, comp = append(comps, comp), []string{}
			escaped = append(escaped, false)
			rest = rest[1:]
		case rest[0] == '\\' && len(rest) == 1:
			return "$.", true
		case rest[0] == '\\' && rest[1] == '/':
			comps, comp = append(comps, comp), []string{}
			escaped = append(escaped, true)
			rest = rest[2:]
		case rest[0] == '\\':
			comp = append(comp, rest[:2])
			rest = rest[2:]
		case rest[0] == '[':
			end, ok := setEnd(rest)
			if !ok {
				return "", false
			}
			comp = append(comp, rest[:end])
			rest = rest[end:]
		default:
			comp = append(comp, rest[:1])
			rest = rest[1:]
		}
	}
	comps = append(comps, comp)
	if i == len(p) {
		comps = nil
	}
	for n, c := range comps {
		stars := len(c) >= 2
		for _, tok := range c {
			stars = stars && tok == "*"
		}
		switch {
		case stars && n == len(comps)-1:
			sb.WriteString(`.*`)
			continue
		case stars && escaped[n]:
			sb.WriteString(`.*/`)
			continue
		case stars:
			sb.WriteString(`(?:.*/)?`)
			continue
		}
		for _, tok := range c {
			switch {
			case tok == "*":
				sb.WriteString(`[^/]*`)
			case tok == "?":
				sb.WriteString(`[^/]`)
			case tok[0] == '\\':
				sb.WriteString(regexp.QuoteMeta(tok[1:]))
			case tok[0] == '[':
				class, ok := plainSet(tok)
				if !ok {
					return "", false
				}
				sb.WriteString(class)
			default:
				sb.WriteString(regexp.QuoteMeta(tok))
			}
		}
		if n < len(comps)-1 {
			sb.WriteString("/")
		}
	}
	sb.WriteString(`$`)
	return sb.String(), true
}

// setEnd returns the length of the set at the start of s, taking
// "[:...:]" whole, for a set that a plain one may be: with no ']' first.
func setEnd(s string) (int, bool) {
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		i++
	}
	for i < len(s) {
		switch {
		case s[i] == ']':
			return i + 1, true
		case strings.HasPrefix(s[i:], "[:"):
			j := strings.Index(s[i+2:], ":]")
			if j < 0 {
				return 0, false
			}
			i += 2 + j + 2
		default:
			i++
		}
	}
	return 0, false
}

// plainSet translates a set of letters, digits, ranges between them that
// go up and known "[:name:]" classes, maybe negated with '!' or '^', into
// a regexp class of the ASCII bytes but '/' it matches.
func plainSet(set string) (string, bool) {
	body := set[1 : len(set)-1]
	negated := body != "" && (body[0] == '!' || body[0] == '^')
	if negated {
		body = body[1:]
	}
	if body == "" {
		return "", false
	}
	var in []func(r rune) bool
	for body != "" {
		alnum := func(c byte) bool { return isAlnumRune(rune(c)) }
		switch {
		case strings.HasPrefix(body, "[:"):
			end := strings.Index(body[2:], ":]")
			if end < 0 {
				return "", false
			}
			class, ok := asciiClass(body[2 : 2+end])
			if !ok {
				return "", false
			}
			in = append(in, class)
			body = body[2+end+2:]
		case len(body) >= 3 && body[1] == '-' && alnum(body[0]) && alnum(body[2]) && body[0] <= body[2]:
			lo, hi := rune(body[0]), rune(body[2])
			in = append(in, func(r rune) bool { return lo <= r && r <= hi })
			body = body[3:]
		case alnum(body[0]) && (len(body) == 1 || body[1] != '-'):
			c := rune(body[0])
			in = append(in, func(r rune) bool { return r == c })
			body = body[1:]
		default:
			return "", false
		}
	}
	var sb strings.Builder
	sb.WriteString("(?:[")
	any := false
	for r := rune(0); r < 0x80; r++ {
		member := false
		for _, f := range in {
			member = member || f(r)
		}
		if member != negated && r != '/' {
			fmt.Fprintf(&sb, `\x{%x}`, r)
			any = true
		}
	}
	if !any {
		return "$.", true // matches nothing
	}
	sb.WriteString("])")
	return sb.String(), true
}

func isAlnumRune(r rune) bool { return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// asciiClass is the class of POSIX's C locale, from package unicode.
func asciiClass(name string) (func(r rune) bool, bool) {
	classes := map[string]func(r rune) bool{
		"alnum":  isAlnumRune,
		"alpha":  unicode.IsLetter,
		"blank":  func(r rune) bool { return r == ' ' || r == '\t' },
		"cntrl":  unicode.IsControl,
		"digit":  unicode.IsDigit,
		"graph":  func(r rune) bool { return unicode.IsPrint(r) && r != ' ' },
		"lower":  unicode.IsLower,
		"print":  unicode.IsPrint,
		"punct":  func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) },
		"space":  unicode.IsSpace,
		"upper":  unicode.IsUpper,
		"xdigit": func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF", r) },
	}
	class, ok := classes[name]
	return class, ok
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzParse parses arbitrary ignore files and matches arbitrary paths with
// them: it must never panic, keep no more patterns than lines, and keep
// no pattern longer than MaxPatternBytes or holding a NUL.
func FuzzParse(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\n/dist\n", "a/keep.log")
	f.Add("\uFEFF# comment\r\n\\#x\n\\!y\ntrailing   \nspace\\ \n", "#x")
	f.Add("**/cache/\nlogs/**\n!logs/.gitkeep\n[!a]x\n[[:digit:]]*\n", "logs/.gitkeep")
	f.Add("a\x00b\n!\n/\n\\\n[\n", "a")
	f.Add("a**/b\nx\\/y\n[[:foo:]]\n[a-[:digit:]]\n", "x/y")
	f.Fuzz(func(t *testing.T, content, path string) {
		ps := Parse(content)
		if len(ps) > Lines(content) {
			t.Errorf("%d patterns from %d lines", len(ps), Lines(content))
		}
		for _, p := range ps {
			if len(p.glob) > MaxPatternBytes || strings.IndexByte(p.glob, 0) >= 0 {
				t.Errorf("kept %q", p.glob)
			}
		}
		r := (*Rules)(nil).With("", ps).With("sub", ps)
		r.Ignored(path, false)
		r.Ignored(path, true)
		r.Ignored("sub/"+path, true)
	})
}
