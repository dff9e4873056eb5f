package gitignore

import (
	"strings"
	"testing"
	"time"
)

// wildCases are cases of git's t3070-wildmatch.sh (the column with
// WM_PATHNAME, which is how git matches patterns that hold a '/'), and a
// few more.
var wildCases = []struct {
	pattern, text string
	want          bool
}{
	{"foo", "foo", true},
	{"bar", "foo", false},
	{"", "", true},
	{"???", "foo", true},
	{"??", "foo", false},
	{"*", "foo", true},
	{"f*", "foo", true},
	{"*f", "foo", false},
	{"*foo*", "foo", true},
	{"*ob*a*r*", "foobar", true},
	{"*ab", "aaaaaaabababab", true},
	{`foo\*`, "foo*", true},
	{`foo\*bar`, "foobar", false},
	{`f\\oo`, `f\oo`, true},
	{"*[al]?", "ball", true},
	{"[ten]", "ten", false},
	{"**[!te]", "ten", true},
	{"**[!ten]", "ten", false},
	{"t[a-g]n", "ten", true},
	{"t[!a-g]n", "ten", false},
	{"t[!a-g]n", "ton", true},
	{"t[^a-g]n", "ton", true},
	{"a[]]b", "a]b", true},
	{"a[]-]b", "a-b", true},
	{"a[]-]b", "a]b", true},
	{"a[]-]b", "aab", false},
	{"a[]a-]b", "aab", true},
	{"]", "]", true},
	// Slashes.
	{"foo*bar", "foo/baz/bar", false},
	{"foo**bar", "foo/baz/bar", false},
	{"foo**bar", "foobazbar", true},
	{"foo/**/bar", "foo/baz/bar", true},
	{"foo/**/**/bar", "foo/baz/bar", true},
	{"foo/**/bar", "foo/b/a/z/bar", true},
	{"foo/**/**/bar", "foo/b/a/z/bar", true},
	{"foo/**/bar", "foo/bar", true},
	{"foo/**/**/bar", "foo/bar", true},
	{"foo?bar", "foo/bar", false},
	{"foo[/]bar", "foo/bar", false},
	{"foo[^a-z]bar", "foo/bar", false},
	{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo/bar", false},
	{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true},
	{"**/foo", "foo", true},
	{"**/foo", "XXX/foo", true},
	{"**/foo", "bar/baz/foo", true},
	{"*/foo", "bar/baz/foo", false},
	{"**/bar*", "foo/bar/baz", false},
	{"**/bar/*", "deep/foo/bar/baz", true},
	{"**/bar/*", "deep/foo/bar/baz/", false},
	{"**/bar/**", "deep/foo/bar/baz/", true},
	{"**/bar/*", "deep/foo/bar", false},
	{"**/bar/**", "deep/foo/bar/", true},
	{"**/bar**", "foo/bar/baz", false},
	{"*/bar/**", "foo/bar/baz/x", true},
	{"*/bar/**", "deep/foo/bar/baz/x", false},
	{"**/bar/*/*", "deep/foo/bar/baz/x", true},
	{"a/**/b/c", "a/b/x/b/c", true},
	{"**/b/c", "x/b/b/c", true},
	{"abc/**", "abc", false},
	{"abc/**", "abc/x/y", true},
	// Sets and classes.
	{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true},
	{"[[:digit:][:upper:][:space:]]", "a", false},
	{"[[:digit:][:upper:][:space:]]", "A", true},
	{"[[:digit:][:upper:][:space:]]", "1", true},
	{"[[:digit:][:upper:][:spaci:]]", "1", false},
	{"[[:space:]]", " ", true},
	{"[[:xdigit:]]", "5", true},
	{"[[:xdigit:]]", "f", true},
	{"[[:xdigit:]]", "g", false},
	{"a[[:punct:]]", "a.", true},
	{"[[:punct:]]", "a", false},
	{"[a-c[:digit:]x-z]", "5", true},
	{"[a-c[:digit:]x-z]", "b", true},
	{"[a-c[:digit:]x-z]", "q", false},
	{"[[:]]", ":", false},
	{"[[:]ab]", "a", false},
	{"x[[:]ab]", "x:ab]", true},
	{"[\\-^]", "]", false},
	{"[\\-^]", "^", true},
	{"[\\]]", "]", true},
	{"[\\]]", "\\", false},
	{"[!]-]", "a", true},
	{"[!]-]", "]", false},
	{`\`, `\`, false},
	{"[a-", "a", false},
	{"[ab", "a", false},
	{"a[", "a[", false},
	{"*[", "x[", false},
	{"?", "é", false}, // a byte, not a character
	{"??", "é", true},
	// The abort paths keep long non-matches cheap.
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false},
	{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true},
	{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true},
	{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
}

func TestWildmatchFollowsGit(t *testing.T) {
	for _, c := range wildCases {
		if got := wildmatch(c.pattern, c.text, true); got != c.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", c.pattern, c.text, got, c.want)
		}
	}
}

func TestWildmatchWithoutPathnameLetsWildcardsMatchSlashes(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		want          bool
	}{
		{"foo*bar", "foo/baz/bar", true},
		{"foo?bar", "foo/bar", true},
		{"*/foo", "bar/baz/foo", true},
		{"**/bar*", "foo/bar/baz", true},
	} {
		if got := wildmatch(c.pattern, c.text, false); got != c.want {
			t.Errorf("wildmatch(%q, %q, no pathname) = %v, want %v", c.pattern, c.text, got, c.want)
		}
	}
}

func TestWildmatchGivesUpOnPathologicalPatterns(t *testing.T) {
	// Five "**" against 2,000 levels: without the step bound, about 10^14
	// tries.
	pattern := strings.Repeat("**/a/", 5) + "b"
	text := strings.Repeat("a/", 2000) + "c"
	start := time.Now()
	if wildmatch(pattern, text, true) {
		t.Error("matched")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
