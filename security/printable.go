package security

import (
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/swar"
)

// This file is the fast way through CharClass.Check for the classes of
// printable characters (path, glob and text), which long arguments such
// as the content of a file have: it reads eight bytes at a time and only
// says whether a string passes. Where one does not, Check looks for the
// first refused character with CharClass.firstRefused, one character at
// a time; a differential fuzz target holds the two to the same answer.

// printable reports whether s is accepted by ClassText (text set) or by
// ClassGlob (text unset; ClassPath accepts the same strings, and more
// where a '\' starts an escape, which firstRefused decides). Checked
// this way, every byte can be judged on its own once s is known to be
// valid UTF-8: the bytes that continue a character (0x80 to 0xBF) are
// never refused, and every refused character beyond ASCII starts with
// one of four bytes. Eight bytes at a time are tested for the bytes that
// need a look, and only a word that has one is looked at byte by byte.
func printable(s string, text bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	i := 0
	for {
		if text {
			i += plainTextWords(s[i:])
		} else {
			i += plainGlobWords(s[i:])
		}
		if i+8 > len(s) {
			return printableBytes(s, i, len(s), text)
		}
		if !printableBytes(s, i, i+8, text) {
			return false
		}
		i += 8
	}
}

// plainTextWords returns the length of the words of eight bytes at the
// start of s in which no byte may be refused by ClassText: no control
// other than tab, line feed and carriage return, no DEL, and no 0xC2,
// which starts the C1 controls and other characters.
func plainTextWords(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load(s, i)
		if swar.HasByte(w, 0x7F) != 0 || swar.BytesNonASCII(w) != 0 && swar.HasByte(w, 0xC2) != 0 {
			break
		}
		if swar.HasBelow(w, 0x20) != 0 && swar.BytesBelow(w, 0x20)&^(swar.BytesEqual(w, '\t')|swar.BytesEqual(w, '\n')|swar.BytesEqual(w, '\r')) != 0 {
			break
		}
	}
	return i
}

// plainGlobWords returns the length of the words of eight bytes at the
// start of s in which no byte may be refused by ClassGlob: no control,
// no DEL, no '\', and none of the first bytes of the C1 controls (0xC2)
// and of the disguises (0xD8, 0xE2, 0xEF).
func plainGlobWords(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load(s, i)
		if swar.HasBelow(w, 0x20)|swar.HasByte(w, 0x7F)|swar.HasByte(w, '\\') != 0 {
			break
		}
		if swar.BytesNonASCII(w) != 0 && swar.HasByte(w, 0xC2)|swar.HasByte(w, 0xD8)|swar.HasByte(w, 0xE2)|swar.HasByte(w, 0xEF) != 0 {
			break
		}
	}
	return i
}

// printableBytes judges the bytes of valid UTF-8 s from i to end, each
// on its own: the ASCII ones as the class does, a lead byte by the
// character it starts.
func printableBytes(s string, i, end int, text bool) bool {
	for ; i < end; i++ {
		switch b := s[i]; {
		case b < 0x20:
			if !text || b != '\t' && b != '\n' && b != '\r' {
				return false
			}
		case b == 0x7F:
			return false
		case b == '\\':
			if !text {
				return false
			}
		case b == 0xC2: // U+0080 to U+00BF: the C1 controls are up to U+009F
			if s[i+1] <= 0x9F {
				return false
			}
		case !text && (b == 0xD8 || b == 0xE2 || b == 0xEF):
			// U+061C, U+200B to U+2069 and U+FEFF are disguises.
			if r, _ := utf8.DecodeRuneInString(s[i:]); isDisguise(r) {
				return false
			}
		}
	}
	return true
}
