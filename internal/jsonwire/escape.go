package jsonwire

import (
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/swar"
)

// MaxEscape is the most bytes that one character of a string takes once
// escaped (\u001f, \u2028 and \ufffd for an invalid byte): a buffer with
// that much room always takes at least one more character from
// [AppendStringPart].
const MaxEscape = 6

// AppendString appends s to b as a JSON string, exactly as encoding/json
// writes it: quotes, backslashes and control characters escaped, invalid
// UTF-8 replaced with U+FFFD, U+2028 and U+2029 escaped, and, when html is
// set (encoding/json's default), <, > and & escaped too; without it they
// are left alone, as with an Encoder's SetEscapeHTML(false).
func AppendString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	b, _ = appendEscaped(b, s, html, len(b)+MaxEscape*len(s)+MaxEscape)
	return append(b, '"')
}

// AppendStringPart appends the start of s to b as [AppendString] writes
// it, but without the quotes and without growing b: it stops before what
// it appends would pass cap(b), and returns b and how many bytes of s it
// took. It stops only between the characters of s (an invalid byte is a
// character of its own), so that the rest, given to the next call, is
// escaped as a whole string would be: a long string can be written
// through a buffer of any size, its pieces being what AppendString writes
// between the quotes. With at least [MaxEscape] bytes free in b it takes
// one character or more.
func AppendStringPart(b []byte, s string, html bool) ([]byte, int) {
	return appendEscaped(b, s, html, cap(b))
}

// QuotedLen returns the length of what [AppendString] appends for s,
// quotes included, without writing it: a writer that sends a long string
// in pieces can announce its size first.
func QuotedLen(s string, html bool) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		for i+8 <= len(s) {
			if m := special(swar.Load(s, i), html); m != 0 {
				i += swar.First(m)
				break
			}
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plain(c, html) {
				i++
				continue
			}
			n += len(asciiEscapes[c]) - 1
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += len(`\ufffd`) - 1
		case r == '\u2028' || r == '\u2029':
			n += len(`\u2028`) - 3
		}
		i += size
	}
	return n
}

// appendEscaped appends s escaped to b, leaving len(b) at most limit, and
// returns b and how many bytes of s it took. It takes the character at i
// only while the bytes copied so far, the run s[start:i] still to copy
// and the largest escape fit within limit, so it never passes limit and
// stops only at the start of a character.
func appendEscaped(b []byte, s string, html bool, limit int) ([]byte, int) {
	const highs = 0x8080808080808080
	start, i := 0, 0
	stop := min(len(s), limit-len(b)-MaxEscape) // the last i at which a character may start
	for i < len(s) && i <= stop {
		// Eight plain ASCII bytes at a time, the bulk of most text: no
		// control, quote, backslash or byte from 0x80 up (nor, with html,
		// <, > or &).
		for i+8 <= stop {
			w := swar.Load(s, i)
			m := swar.HasBelow(w, 0x20) | swar.HasByte(w, '"') | swar.HasByte(w, '\\') | w&highs
			if html {
				m |= swar.HasByte(w, '<') | swar.HasByte(w, '>') | swar.HasByte(w, '&')
			}
			if m != 0 {
				i += swar.First(m) // the first flagged byte is exact
				break
			}
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plainASCII[c] && (!html || !htmlChar[c]) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			if e := shortEscape[c]; e != 0 {
				b = append(b, '\\', e)
			} else {
				b = append(b, asciiEscapes[c]...)
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b = append(b, s[start:i]...)
				b = append(b, `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', "0123456789abcdef"[r&0xF])
			default:
				i += size
				continue
			}
			i += size
		}
		start = i
		stop = min(len(s), start+limit-len(b)-MaxEscape)
	}
	return append(b, s[start:i]...), i
}

// plain reports whether the ASCII byte c is written as it is.
func plain(c byte, html bool) bool { return plainASCII[c] && (!html || !htmlChar[c]) }

// special flags the bytes of the word w that are not plain ASCII (exact up
// to the first, as the swar tests are).
func special(w uint64, html bool) uint64 {
	m := swar.HasBelow(w, 0x20) | swar.HasByte(w, '"') | swar.HasByte(w, '\\') | swar.BytesNonASCII(w)
	if html {
		m |= swar.HasByte(w, '<') | swar.HasByte(w, '>') | swar.HasByte(w, '&')
	}
	return m
}

// plainASCII tells the ASCII bytes written as they are without HTML
// escaping: all but the controls, the quote and the backslash.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// shortEscape holds the letter of the two-byte escape of the ASCII bytes
// that have one, and 0 for the others.
var shortEscape = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// htmlChar tells the bytes that HTML escaping escapes too.
var htmlChar = [utf8.RuneSelf]bool{'<': true, '>': true, '&': true}

// asciiEscapes holds the escape of each ASCII byte that is not plain, as
// encoding/json writes it.
var asciiEscapes = func() (t [utf8.RuneSelf]string) {
	const hex = "0123456789abcdef"
	for c := range t {
		t[c] = `\u00` + string(hex[c>>4]) + string(hex[c&0xF])
	}
	t['"'], t['\\'] = `\"`, `\\`
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	return t
}()
