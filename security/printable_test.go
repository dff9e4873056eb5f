package security

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCheckAgreesWithFirstRefused runs the fast check and the one that
// goes one character at a time over strings with one odd character in
// every position of a long plain run, so that it falls in every place of
// a word.
func TestCheckAgreesWithFirstRefused(t *testing.T) {
	odd := []string{"\x00", "\t", "\n", "\r", "\x1f", "\x7f", "\\", `\u{41}`, `\x{4`, "\u0080", "\u009f", "\u00a0", "é",
		"\u061c", "\u200b", "\u200d", "\u2028", "\u2066", "\u2070", "\ufeff", "\uffef", "😀", "\xff", "\xc2", "\xe2\x80"}
	for _, c := range []CharClass{ClassText, ClassPath, ClassGlob} {
		for _, o := range odd {
			for n := range 20 {
				s := strings.Repeat("a", n) + o + strings.Repeat("b", 19-n)
				checkAgrees(t, c, s)
			}
		}
	}
}

// checkAgrees fails t unless Check, firstRefused and printable give the
// same answer on s.
func checkAgrees(t *testing.T, c CharClass, s string) {
	t.Helper()
	bad, index, ok := c.Check(s)
	wantBad, wantIndex, wantOK := c.firstRefused(s)
	if s == "" {
		return // Check answers the empty string by the class's NonEmpty
	}
	if bad != wantBad || index != wantIndex || ok != wantOK {
		t.Fatalf("%s.Check(%q) = %U, %d, %v; one character at a time: %U, %d, %v", c, s, bad, index, ok, wantBad, wantIndex, wantOK)
	}
	// printable decides escapes by refusing every '\'; firstRefused
	// accepts the well-formed ones of a path.
	if fast := printable(s, c == ClassText); fast != wantOK && !(c == ClassPath && !fast && strings.Contains(s, `\`)) {
		t.Fatalf("printable(%q, %v) = %v; %s one character at a time: %v", s, c == ClassText, fast, c, wantOK)
	}
}

// FuzzCheckAgreesWithFirstRefused is the differential fuzz target of the
// fast check against the one that goes one character at a time.
func FuzzCheckAgreesWithFirstRefused(f *testing.F) {
	for _, s := range []string{"", "a", "abcdefgh\tijklmnop\n", "abcdefg\x7f", "abcdefgh\u0085", "abcdefg\u202e", "日本語のテキストです。",
		"a\\u{41}bcdefghij", "abcdefgh\xff", "line one\r\nline two\r\n", "\u00a9 2026 \u2014 all rights", "\xc2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []CharClass{ClassText, ClassPath, ClassGlob} {
			checkAgrees(t, c, s)
			if utf8.ValidString(s) && len(s) < 64 {
				// Again at every offset within a word.
				for n := 1; n < 8; n++ {
					checkAgrees(t, c, strings.Repeat("x", n)+s)
				}
			}
		}
	})
}
