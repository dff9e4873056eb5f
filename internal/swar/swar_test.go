package swar

import (
	"math/rand/v2"
	"testing"
)

// TestTestsAgreeWithBytes holds each word test to the same test made
// byte by byte, on words that mix random bytes with the bytes at the
// edges of the tests.
func TestTestsAgreeWithBytes(t *testing.T) {
	edges := []byte{0, 1, '\t', '\n', '\r', 0x1F, 0x20, 0x21, '"', '\\', 0x7E, 0x7F, 0x80, 0x81, 0x9F, 0xC2, 0xD8, 0xE2, 0xEF, 0xFE, 0xFF}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		var bs [8]byte
		for i := range bs {
			if rng.IntN(2) == 0 {
				bs[i] = edges[rng.IntN(len(edges))]
			} else {
				bs[i] = byte(rng.Uint32())
			}
		}
		w := Load(bs[:], 0)
		if Load(string(bs[:]), 0) != w {
			t.Fatalf("Load of a string and of a slice differ on %x", bs)
		}
		for _, c := range edges {
			test := func(name string, exact, has uint64, pass func(b byte) bool) {
				var want uint64
				first := -1
				for i, b := range bs {
					if pass(b) {
						want |= 0x80 << (8 * i)
						if first < 0 {
							first = i
						}
					}
				}
				if exact != want {
					t.Fatalf("Bytes%s(%x, %#x) = %x, want %x", name, bs, c, exact, want)
				}
				if (has == 0) != (first < 0) || has != 0 && First(has) != first {
					t.Fatalf("Has%s(%x, %#x) = %x, but the first byte that passes is %d", name, bs, c, has, first)
				}
			}
			test("NonASCII", BytesNonASCII(w), BytesNonASCII(w), func(b byte) bool { return b >= 0x80 })
			test("Equal", BytesEqual(w, c), HasByte(w, c), func(b byte) bool { return b == c })
			if c >= 1 && c <= 0x80 {
				test("Below", BytesBelow(w, c), HasBelow(w, c), func(b byte) bool { return b < c })
			}
		}
	}
}
