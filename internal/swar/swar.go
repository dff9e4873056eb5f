// Package swar tests the eight bytes of a uint64 at once (SWAR: SIMD
// within a register), for the scanners of long strings: the character
// classes of arguments and the strings of JSON text. A scanner loads
// eight bytes with [Load], the first in the lowest bits, skips the word
// when no byte needs a look, and otherwise finds the first byte that
// does, with [First], or looks at its bytes one by one.
//
// The tests come in two kinds. The Has functions set the high bit (0x80)
// of the first byte that passes, in the lowest bits, and may set it in
// the bytes after that one too: they say whether a byte passes and which
// is the first, nothing more. The Bytes functions set it in exactly the
// bytes that pass, at a few more operations.
package swar

import "math/bits"

const (
	ones  = 0x0101010101010101 // 0x01 in every byte
	highs = 0x8080808080808080 // 0x80 in every byte
	lows  = 0x7F7F7F7F7F7F7F7F // 0x7F in every byte
)

// Load returns the eight bytes of s from i, the first in the lowest bits.
// The compiler makes one load of it.
func Load[T string | []byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// HasBelow flags the bytes of w below n, for n from 1 to 0x80: taking n
// from such a byte borrows into its high bit, which was clear. Below the
// first such byte nothing borrows, and above it the borrow may flag a
// byte that is not below n.
func HasBelow(w uint64, n byte) uint64 {
	return (w - uint64(n)*ones) &^ w & highs
}

// HasByte flags the bytes of w equal to c: xored with c, such a byte is
// zero, the one byte below 1. Like HasBelow, it is exact up to the first.
func HasByte(w uint64, c byte) uint64 {
	return HasBelow(w^uint64(c)*ones, 1)
}

// First returns the index, from 0 to 7, of the first byte that a mask of
// the tests above flags; the mask must not be zero.
func First(mask uint64) int {
	return bits.TrailingZeros64(mask) >> 3
}

// BytesEqual flags exactly the bytes of w equal to c: adding 0x7F to the
// low seven bits of a byte carries into its high bit unless they are all
// zero, and never into the next byte.
func BytesEqual(w uint64, c byte) uint64 {
	x := w ^ uint64(c)*ones
	return ^((x&lows + lows) | x | lows)
}

// BytesNonASCII flags exactly the bytes of w from 0x80 up, which are not
// ASCII.
func BytesNonASCII(w uint64) uint64 {
	return w & highs
}

// BytesBelow flags exactly the bytes of w below n, for n from 1 to 0x80:
// adding 0x80-n to the low seven bits of a byte carries into its high bit
// when they are n or more, and a byte with its high bit set is not below
// n.
func BytesBelow(w uint64, n byte) uint64 {
	return ^((w&lows + uint64(0x80-n)*ones) | w) & highs
}
