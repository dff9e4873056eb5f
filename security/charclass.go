package security

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// CharClass names a whitelist of characters that a string coming from
// outside the process (for example from a language model) may contain.
//
// A class only says which characters are allowed. Higher-level policy, such
// as refusing ".." in a path or absolute paths, belongs elsewhere.
//
// The zero value is not a valid class; use ParseCharClass or one of the
// constants.
type CharClass string

// The character classes. Each one is documented by its Describe phrase and
// its Pattern; Check is the authoritative definition.
const (
	// ClassIdent allows ASCII letters, ASCII digits, '_' and '-', and requires at
	// least one character. It is the strictest class and the default for
	// string arguments that declare none.
	ClassIdent CharClass = "ident"

	// ClassPath allows any printable character except '\', which it allows
	// only to start a well-formed escape, \u{X} with 1 to 6 hexadecimal
	// digits or \x{XX} with 2 (see EscapeName; Resolve decodes them). It
	// refuses NUL and the other C0 controls (U+0000–U+001F), DEL (U+007F), the C1 controls
	// (U+0080–U+009F), the line and paragraph separators (U+2028, U+2029)
	// and the invisible format characters that can disguise a path:
	// bidirectional marks and overrides (U+061C, U+200E, U+200F,
	// U+202A–U+202E, U+2066–U+2069), zero-width space (U+200B), word joiner
	// and invisible operators (U+2060–U+2064) and the byte order mark
	// (U+FEFF). Letters of every script, combining marks, emoji and the
	// zero-width joiners used inside emoji are allowed. The empty string is
	// allowed.
	ClassPath CharClass = "path"

	// ClassGlob allows exactly the characters of ClassPath, but no escapes:
	// it refuses every '\'. The glob metacharacters
	// '*', '?', '[', ']', '{', '}' and '!' are already printable, so the
	// class differs from ClassPath only in escapes, name and description,
	// which tell the reader that wildcards are expected.
	ClassGlob CharClass = "glob"

	// ClassText allows any Unicode text, refusing only control characters other
	// than tab, line feed and carriage return: the rest of C0, DEL and C1.
	// The empty string is allowed.
	ClassText CharClass = "text"

	// ClassExpr allows the alphabet of arithmetic expressions: ASCII digits,
	// ASCII letters (which include 'e' and 'E' for exponents), space, tab
	// and + - * / % ^ ( ) . , _. The empty string is allowed.
	ClassExpr CharClass = "expr"
)

// CharClasses returns every defined class, strictest first.
func CharClasses() []CharClass {
	return []CharClass{ClassIdent, ClassExpr, ClassPath, ClassGlob, ClassText}
}

// ParseCharClass returns the class called name. Names are the constants'
// values ("ident", "path", "glob", "text", "expr") and are case-sensitive.
func ParseCharClass(name string) (CharClass, error) {
	switch c := CharClass(name); c {
	case ClassIdent, ClassPath, ClassGlob, ClassText, ClassExpr:
		return c, nil
	}
	names := make([]string, 0, 5)
	for _, c := range CharClasses() {
		names = append(names, string(c))
	}
	return "", fmt.Errorf("unknown character class %q; use one of %s", name, strings.Join(names, ", "))
}

// String returns the name of the class.
func (c CharClass) String() string { return string(c) }

// Valid reports whether c is one of the defined classes.
func (c CharClass) Valid() bool {
	_, err := ParseCharClass(string(c))
	return err == nil
}

// NonEmpty reports whether the class refuses the empty string.
func (c CharClass) NonEmpty() bool { return c == ClassIdent }

// ASCII bit sets for the ASCII-only classes: bit i of lo is character i,
// bit i of hi is character 64+i.
const (
	digitsLo = (1<<10 - 1) << '0'
	upperHi  = (1<<26 - 1) << ('A' - 64)
	lowerHi  = (1<<26 - 1) << ('a' - 64)

	identLo = digitsLo | 1<<'-'
	identHi = upperHi | lowerHi | 1<<('_'-64)

	exprLo = digitsLo | 1<<' ' | 1<<'\t' | 1<<'+' | 1<<'-' | 1<<'*' | 1<<'/' |
		1<<'%' | 1<<'(' | 1<<')' | 1<<'.' | 1<<','
	exprHi = upperHi | lowerHi | 1<<('^'-64) | 1<<('_'-64)
)

// inASCIISet reports whether r is in the ASCII set given by lo and hi.
func inASCIISet(r rune, lo, hi uint64) bool {
	switch {
	case r < 64:
		return lo&(1<<uint(r)) != 0
	case r < 128:
		return hi&(1<<uint(r-64)) != 0
	}
	return false
}

// isControl reports whether r is a C0 control, DEL or a C1 control.
func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7F && r <= 0x9F)
}

// isDisguise reports whether r is one of the invisible characters that the
// ClassPath refuses besides the controls.
func isDisguise(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200B, r == 0x200E, r == 0x200F, r == 0xFEFF:
		return true
	case r >= 0x2028 && r <= 0x202E: // line/paragraph separators, bidi embeddings and overrides
		return true
	case r >= 0x2060 && r <= 0x2064: // word joiner, invisible operators
		return true
	case r >= 0x2066 && r <= 0x2069: // bidi isolates
		return true
	}
	return false
}

// Allows reports whether the class allows the rune r. It is false for
// utf8.RuneError when that stands for an invalid encoding; Check handles that
// distinction, Allows treats U+FFFD as an ordinary printable character.
func (c CharClass) Allows(r rune) bool {
	switch c {
	case ClassIdent:
		return inASCIISet(r, identLo, identHi)
	case ClassExpr:
		return inASCIISet(r, exprLo, exprHi)
	case ClassPath, ClassGlob:
		return !isControl(r) && r != '\\' && !isDisguise(r) && r <= utf8.MaxRune
	case ClassText:
		if r == '\t' || r == '\n' || r == '\r' {
			return true
		}
		return !isControl(r) && r <= utf8.MaxRune
	}
	return false
}

// Check reports whether every character of s belongs to the class.
//
// When ok is false, bad is the first refused rune and index its byte offset
// in s. Bytes that are not valid UTF-8 are refused by every class and
// reported as utf8.RuneError. If s is empty and the class requires at least
// one character (see NonEmpty), Check returns ok false with index -1 and bad
// 0. An undefined class refuses everything.
//
// Check does not allocate and does not use regular expressions.
func (c CharClass) Check(s string) (bad rune, index int, ok bool) {
	if s == "" {
		if c.NonEmpty() || !c.Valid() {
			return 0, -1, false
		}
		return 0, 0, true
	}
	// Fast path for the ASCII-only classes: every byte must be in the set,
	// and a byte >= 0x80 is never in an ASCII set.
	switch c {
	case ClassIdent, ClassExpr:
		lo, hi := uint64(identLo), uint64(identHi)
		if c == ClassExpr {
			lo, hi = exprLo, exprHi
		}
		for i := 0; i < len(s); i++ {
			b := s[i]
			if b >= utf8.RuneSelf {
				r, _ := utf8.DecodeRuneInString(s[i:])
				return r, i, false
			}
			if !inASCIISet(rune(b), lo, hi) {
				return rune(b), i, false
			}
		}
		return 0, 0, true
	case ClassPath, ClassGlob, ClassText:
		// Most strings pass: say so fast, and look for the first
		// refused character only in a string that has one.
		if printable(s, c == ClassText) {
			return 0, 0, true
		}
		return c.firstRefused(s)
	default:
		r, _ := utf8.DecodeRuneInString(s)
		return r, 0, false
	}
}

// firstRefused is Check for the classes of printable characters (path,
// glob, text), one character at a time.
func (c CharClass) firstRefused(s string) (bad rune, index int, ok bool) {
	text := c == ClassText
	for i := 0; i < len(s); {
		b := s[i]
		if b == '\\' && c == ClassPath {
			if n := escapeLen(s[i:]); n > 0 {
				i += n
				continue
			}
		}
		if b < utf8.RuneSelf {
			// ASCII: printable except DEL, plus '\' for text and the
			// three whitespace controls for text.
			ok := b >= 0x20 && b != 0x7F && (text || b != '\\')
			if !ok && !(text && (b == '\t' || b == '\n' || b == '\r')) {
				return rune(b), i, false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return r, i, false
		}
		if !c.Allows(r) {
			return r, i, false
		}
		i += size
	}
	return 0, 0, true
}

// Pattern returns a regular expression, anchored at both ends, that matches
// exactly the strings the class accepts (for valid UTF-8). It uses only
// syntax that RE2 (Go's regexp) and ECMA-262 agree on, writing non-ASCII
// characters literally, so that it can be published in a JSON Schema. It is
// meant for display to clients; Check is the fast way to enforce the class.
func (c CharClass) Pattern() string {
	switch c {
	case ClassIdent:
		return `^[A-Za-z0-9_-]+$`
	case ClassExpr:
		return `^[0-9A-Za-z \t+*/%^().,_-]*$`
	case ClassPath:
		return "^(?:[^\\x00-\\x1F\\x7F-\\x9F\\\\\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]" +
			`|\\u\{[0-9A-Fa-f]{1,6}\}|\\x\{[0-9A-Fa-f]{2}\})*$`
	case ClassGlob:
		return "^[^\\x00-\\x1F\\x7F-\\x9F\\\\\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]*$"
	case ClassText:
		return `^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$`
	}
	return `^$.`
}

// Describe returns a short English phrase naming the characters the class
// allows, suitable after "use" or inside parentheses, for example
// "letters, digits, '_' and '-'".
func (c CharClass) Describe() string {
	switch c {
	case ClassIdent:
		return "letters, digits, '_' and '-'"
	case ClassExpr:
		return "digits, letters, spaces and + - * / % ^ ( ) . , _"
	case ClassPath:
		return "printable characters, '\\' only in \\u{…} or \\x{…} escapes"
	case ClassGlob:
		return "printable characters and wildcards except '\\'"
	case ClassText:
		return "any text except control characters other than tab and newline"
	}
	return "no characters (undefined class)"
}
