package security

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unsafeName reports whether r must be escaped in a name shown to the
// model.
func unsafeName(r rune) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7F || r == '\\'
	}
	return r <= 0x9F || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// EscapeName returns s with every character that is not safe to show
// escaped as the package documentation describes, and whether anything
// was escaped. A name with nothing to escape is returned as it is,
// without allocating.
func EscapeName(s string) (string, bool) { return escape(s, escName) }

// EscapeText is EscapeName for a line of a file's text, shown but never
// used as a path: it escapes the same characters except the tab, and
// leaves backslashes as they are, since source code is full of them.
func EscapeText(s string) (string, bool) { return escape(s, escText) }

// How escape treats tabs and backslashes.
const (
	escName  = iota // a name: escape both
	escTyped        // a path as the model typed it: escape tabs, keep backslashes
	escText         // a line of text: keep both
)

// escape implements EscapeName, EscapeText and the quoting of typed paths.
func escape(s string, mode int) (string, bool) {
	i := 0
	for i < len(s) {
		b := s[i]
		if b >= 0x20 && b < 0x7F && b != '\\' {
			i++ // printable ASCII, kept in every mode: most names are only that
			continue
		}
		if b < utf8.RuneSelf {
			if mustEscapeASCII(b, mode) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeName(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s, false
	}
	var sb strings.Builder
	sb.Grow(len(s) + 16)
	sb.WriteString(s[:i])
	for i < len(s) {
		b := s[i]
		if b < utf8.RuneSelf {
			if mustEscapeASCII(b, mode) {
				writeEscape(&sb, 'u', rune(b))
			} else {
				sb.WriteByte(b)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeEscape(&sb, 'x', rune(b))
		case unsafeName(r):
			writeEscape(&sb, 'u', r)
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String(), true
}

// mustEscapeASCII reports whether the ASCII byte b is escaped in mode.
func mustEscapeASCII(b byte, mode int) bool {
	switch {
	case b == '\\':
		return mode == escName
	case b == '\t':
		return mode != escText
	}
	return b < 0x20 || b == 0x7F
}

// writeEscape writes \u{X} (kind 'u') or \x{XX} (kind 'x') for v.
func writeEscape(sb *strings.Builder, kind byte, v rune) {
	sb.WriteByte('\\')
	sb.WriteByte(kind)
	sb.WriteByte('{')
	h := strconv.FormatInt(int64(v), 16)
	if kind == 'x' && len(h) < 2 {
		sb.WriteByte('0')
	}
	sb.WriteString(strings.ToUpper(h))
	sb.WriteByte('}')
}

// escapeLen returns the length of the well-formed escape at the start of
// s, \u{ and 1 to 6 hexadecimal digits and }, or \x{ and 2 hexadecimal
// digits and }, or 0 if s does not start with one. It checks the form
// only; unescape checks the value.
func escapeLen(s string) int {
	if len(s) < 5 || s[0] != '\\' || s[2] != '{' || s[1] != 'u' && s[1] != 'x' {
		return 0
	}
	maxDigits, minDigits := 6, 1
	if s[1] == 'x' {
		maxDigits, minDigits = 2, 2
	}
	n := 0
	for 3+n < len(s) && n <= maxDigits && isHex(s[3+n]) {
		n++
	}
	if n < minDigits || n > maxDigits || 3+n >= len(s) || s[3+n] != '}' {
		return 0
	}
	return 4 + n
}

// isHex reports whether b is a hexadecimal digit.
func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b|0x20 && b|0x20 <= 'f'
}

// UnescapeName undoes EscapeName: it decodes every \u{X} and \x{XX} of s.
// It fails, returning the offending escape (or lone backslash), when a
// backslash does not start a well-formed escape or an escape stands for
// NUL, '/', a surrogate or no code point at all. For every string s,
// UnescapeName(EscapeName(s)) is s, provided s holds no NUL and no '/'
// (which no name holds); a path's '/' separators may stay as they are.
func UnescapeName(s string) (string, error) {
	out, bad := unescape(s)
	if bad != "" {
		return "", badEscapeError(bad)
	}
	return out, nil
}

// badEscapeError is the error of UnescapeName: the escape it could not
// decode.
type badEscapeError string

func (e badEscapeError) Error() string {
	return "escape " + strconv.Quote(string(e)) + " does not stand for a character a name can hold"
}

// unescape decodes s, returning the decoded string, or the first escape
// (or lone backslash) it cannot decode.
func unescape(s string) (out, bad string) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, ""
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i >= 0 {
		sb.WriteString(s[:i])
		s = s[i:]
		n := escapeLen(s)
		if n == 0 {
			return "", s[:1]
		}
		v, err := strconv.ParseUint(s[3:n-1], 16, 32)
		switch {
		case err != nil, v == 0, v == '/':
			return "", s[:n]
		case s[1] == 'x':
			sb.WriteByte(byte(v))
		case v > utf8.MaxRune, v >= 0xD800 && v <= 0xDFFF:
			return "", s[:n]
		default:
			sb.WriteRune(rune(v))
		}
		s = s[n:]
		i = strings.IndexByte(s, '\\')
	}
	sb.WriteString(s)
	return sb.String(), ""
}

// ResolveNew is Resolve for a path that names something to create: the
// file write_file creates, the directories create_directory makes, the
// destination of move_file and copy_file. Besides Resolve's checks, it
// refuses (Reason Control) a path in which an element that does not
// exist yet holds a character ClassPath refuses, which only an escape can
// bring in: escapes reach the entries a model was shown, whatever their
// names, but never create names that could not be typed. Like
// ResolveWrite, it refuses a path where its root may not change.
func (s *Sandbox) ResolveNew(p string) (string, error) {
	rel, err := s.ResolveWrite(p)
	if err != nil || strings.IndexByte(p, '\\') < 0 {
		return rel, err
	}
	for start := 0; start < len(rel); {
		end := strings.IndexByte(rel[start:], '/')
		if end < 0 {
			end = len(rel)
		} else {
			end += start
		}
		bad, ok := refusedInName(rel[start:end])
		start = end + 1
		if ok {
			continue
		}
		if _, err := s.fs.Stat(rel[:end]); err == nil {
			continue
		}
		if bad == utf8.RuneError {
			return "", s.refuse(p, Control, msgInvalidUTF8, "", "")
		}
		return "", s.refuse(p, Control, msgControl, "U+"+strings.ToUpper(leftPad(strconv.FormatInt(int64(bad), 16))), "")
	}
	return rel, nil
}

// refusedInName returns the first character of name that ClassPath
// refuses in a path a model types (a backslash included), and ok false;
// ok true if there is none.
func refusedInName(name string) (rune, bool) {
	for i, r := range name {
		if r == '\\' {
			return r, false
		}
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size == 1 {
				return r, false
			}
		}
		if !ClassPath.Allows(r) {
			return r, false
		}
	}
	return 0, true
}

// leftPad pads the hexadecimal h to at least four digits.
func leftPad(h string) string {
	for len(h) < 4 {
		h = "0" + h
	}
	return h
}
