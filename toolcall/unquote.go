package toolcall

import (
	"unicode/utf16"
	"unicode/utf8"
)

// appendUnquoted appends to dst the text of a JSON string body s (the raw
// bytes between the quotes, already checked by the Parser) as
// encoding/json decodes it: invalid UTF-8 and lone surrogates become
// U+FFFD. With more, s may stop in the middle of an escape, a surrogate
// pair or a UTF-8 sequence; decoding then stops before it. It returns dst
// and how many bytes of s it used.
func appendUnquoted(dst, s []byte, more bool) ([]byte, int) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return dst, i
			}
			if e := s[i+1]; e != 'u' {
				dst = append(dst, unescape(e))
				i += 2
				continue
			}
			if i+6 > len(s) {
				return dst, i
			}
			r := hex4(s[i+2 : i+6])
			if utf16.IsSurrogate(r) {
				// A surrogate makes a character only with the next escape.
				if more && i+12 > len(s) {
					return dst, i
				}
				if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					if pair := utf16.DecodeRune(r, hex4(s[i+8:i+12])); pair != utf8.RuneError {
						dst = utf8.AppendRune(dst, pair)
						i += 12
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
		default:
			if more && !utf8.FullRune(s[i:]) {
				return dst, i
			}
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, r)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
		}
	}
	return dst, i
}

// unescape returns the byte that the one-letter escape \e stands for.
func unescape(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return e // '"', '\\' and '/'
}

// hex4 returns the value of four hexadecimal digits.
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
