package server

import "testing"

func TestShortenKeepsAtMostNRunesAndMarksTheCut(t *testing.T) {
	cases := []struct {
		raw  string
		n    int
		want string
	}{
		{raw: "", n: 5, want: ""},
		{raw: "abc", n: 5, want: "abc"},
		{raw: "abcde", n: 5, want: "abcde"},      // exactly n runes: no cut
		{raw: "abcdef", n: 5, want: "abcd…"},     // one more: n-1 runes and the mark
		{raw: "abcdefghij", n: 5, want: "abcd…"}, // the mark counts as a rune
		{raw: "ab", n: 1, want: "…"},
		{raw: "a", n: 1, want: "a"},
		{raw: "éèêëē", n: 5, want: "éèêëē"}, // runes, not bytes, are counted
		{raw: "éèêëēė", n: 5, want: "éèêë…"},
		{raw: "日本語のテキスト", n: 4, want: "日本語…"},
	}
	for _, c := range cases {
		if got := shorten([]byte(c.raw), c.n); got != c.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", c.raw, c.n, got, c.want)
		}
	}
}
