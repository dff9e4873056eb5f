package glob

import (
	"errors"
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		yes     []string
		no      []string
	}{
		{"a star matches within one element", "*.go", []string{"a.go", ".go"}, []string{"a.txt", "a.go/x"}},
		{"a star does not cross a slash", "src/*.go", []string{"src/a.go"}, []string{"src/x/a.go", "a.go"}},
		{"a question mark is one character, not a slash", "a?c", []string{"abc", "aéc"}, []string{"ac", "abbc", "a/c"}},
		{"a class matches one of its characters", "[abc].txt", []string{"a.txt", "c.txt"}, []string{"d.txt", "ab.txt"}},
		{"a range matches characters between its ends", "x[0-9]", []string{"x0", "x9"}, []string{"xa", "x"}},
		{"a caret negates a class", "[^a-c]x", []string{"dx", "éx"}, []string{"ax", "x"}},
		{"a leading double star matches any depth, the top included", "**/*.go", []string{"a.go", "x/a.go", "x/y/z/a.go"}, []string{"a.txt", "x/a.txt"}},
		{"a middle double star matches zero or more directories", "a/**/b", []string{"a/b", "a/x/b", "a/x/y/b"}, []string{"ab", "a/xb", "x/a/b", "a/b/c"}},
		{"a final double star matches everything below", "a/**", []string{"a/b", "a/b/c"}, []string{"a", "b/a/c"}},
		{"a lone double star matches every path", "**", []string{"a", "a/b/c"}, nil},
		{"a double star inside an element is a star", "a**b", []string{"ab", "axxb"}, []string{"a/b"}},
		{"braces match any of their alternatives", "*.{go,md}", []string{"a.go", "b.md"}, []string{"c.txt", "a.{go,md}"}},
		{"braces nest", "{a,b{c,d}}.txt", []string{"a.txt", "bc.txt", "bd.txt"}, []string{"b.txt", "abc.txt"}},
		{"empty alternatives are allowed", "a{,b}", []string{"a", "ab"}, []string{"abb"}},
		{"braces can hold slashes", "{src,lib}/**/*.go", []string{"src/a.go", "lib/x/a.go"}, []string{"cmd/a.go"}},
		{"a brace in a class is literal", "[{]x", []string{"{x"}, []string{"x"}},
		{"a backslash escapes a wildcard", `a\*`, []string{"a*"}, []string{"ab"}},
		{"a literal pattern matches only itself", "README.md", []string{"README.md"}, []string{"readme.md", "x/README.md"}},
		{"non-ASCII names match", "résumé*.pdf", []string{"résumé-2024.pdf"}, []string{"resume.pdf"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Compile(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.yes {
				if !g.Match(s) {
					t.Errorf("%q should match %q", tt.pattern, s)
				}
			}
			for _, s := range tt.no {
				if g.Match(s) {
					t.Errorf("%q should not match %q", tt.pattern, s)
				}
			}
		})
	}
}

func TestPathGlobMatchesNamesAtAnyDepth(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		yes, no []string
	}{
		{"a pattern without a slash matches the base name anywhere", "*.go", []string{"a.go", "x/y/a.go"}, []string{"a.go/x"}},
		{"a plain name matches directories of that name anywhere", "node_modules", []string{"node_modules", "a/node_modules"}, []string{"node_modules/x"}},
		{"a pattern with a slash matches the whole path", "src/*.go", []string{"src/a.go"}, []string{"x/src/a.go"}},
		{"a leading slash anchors a name at the top", "/a.go", []string{"a.go"}, []string{"x/a.go"}},
		{"a leading ./ anchors too", "./a.go", []string{"a.go"}, []string{"x/a.go"}},
		{"each brace alternative chooses for itself", "{*.md,docs/*}", []string{"x/y.md", "docs/a"}, []string{"x/docs/a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := CompilePath(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.yes {
				if !g.Match(s) {
					t.Errorf("%q should match %q", tt.pattern, s)
				}
			}
			for _, s := range tt.no {
				if g.Match(s) {
					t.Errorf("%q should not match %q", tt.pattern, s)
				}
			}
		})
	}
}

func TestMalformedPatternsSayWhatAndWhere(t *testing.T) {
	tests := []struct {
		name, pattern string
		kind          ErrorKind
		char          int // 0: no position
	}{
		{"an unclosed bracket", "a[bc", OpenBracket, 2},
		{"an empty class", "[]a]", BadClass, 1},
		{"a dash at the end of a class", "[a-]x", BadClass, 1},
		{"a negated empty class", "[^]", BadClass, 1},
		{"a trailing backslash", `a\`, EndsInBackslash, 0},
		{"an unclosed brace", "{a,b", UnclosedBrace, 1},
		{"a stray closing brace", "a}b", StrayBrace, 2},
		{"a stray closing brace after a group", "{a}}", StrayBrace, 4},
		{"an unclosed brace inside another", "{a,{b}", UnclosedBrace, 1},
		{"an unclosed class hides the closing brace", "{a,[}", UnclosedBrace, 1},
		{"a bad class inside braces", "{a,[]}", BadClass, 4},
		{"too many alternatives", strings.Repeat("{a,b,c,d}", 5), TooManyAlternatives, 0},
		{"invalid UTF-8 in a class", "[\xff]", BadClass, 1},
		{"positions count characters", "é[", OpenBracket, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompilePath(tt.pattern)
			ge, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("CompilePath(%q) = %v, want an *Error", tt.pattern, err)
			}
			if ge.Kind != tt.kind || ge.Char() != tt.char || ge.Pattern != tt.pattern {
				t.Errorf("CompilePath(%q): kind %d at character %d of %q, want kind %d at %d", tt.pattern, ge.Kind, ge.Char(), ge.Pattern, tt.kind, tt.char)
			}
			if _, err := Compile(tt.pattern); err == nil {
				t.Errorf("Compile(%q) compiled", tt.pattern)
			}
		})
	}
}

func TestGlobAgreesWithPathMatch(t *testing.T) {
	patterns := []string{"*", "a*", "*b", "a*b*c", "?", "a?", "[a-c]*", "[^x]", `\*`, "a/*", "*/b", "[", "a[", "[]", "[a-]", "a[/]b", "x*[", `\`, "*.go"}
	names := []string{"", "a", "ab", "abc", "a/b", "*", "x", "a.go", "d/a.go", "[", "\xff"}
	for _, p := range patterns {
		for _, n := range names {
			checkAgainstPathMatch(t, p, n)
		}
	}
}

// checkAgainstPathMatch fails the test if Compile and path.Match
// disagree about pattern and name. Matches are compared for ASCII names
// only: path.Match lets a '*' stop inside the bytes of a character and a
// '?' then take the rest ("*??" matches one four-byte character), where
// this glob counts characters (see TestGlobCountsCharactersNotBytes).
func checkAgainstPathMatch(t *testing.T, pattern, name string) {
	t.Helper()
	want, wantErr := path.Match(pattern, name)
	g, err := Compile(pattern)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("pattern %q: compile error %v, path.Match error %v", pattern, err, wantErr)
	}
	for _, c := range []byte(name) {
		if c >= utf8.RuneSelf {
			return
		}
	}
	if err == nil && g.Match(name) != want {
		t.Fatalf("pattern %q name %q: match %v, path.Match %v", pattern, name, !want, want)
	}
}

func TestGlobCountsCharactersNotBytes(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"*??", "\U00079010", false}, // one character, four bytes
		{"*?", "\U00079010", true},
		{"0?*??*0", "00\U000790100", false},
		{"0?*?*0", "00\U000790100", true},
		{"*?", "\xbb", true}, // an invalid byte is one character
		{"?", "é", true},
		{"??", "é", false},
		{"*.txt", "日本.txt", true},
	}
	for _, tc := range cases {
		g, err := Compile(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(tc.name); got != tc.want {
			t.Errorf("%q ~ %q = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func FuzzGlob(f *testing.F) {
	for _, s := range []string{"*.go", "**/x", "a/**/b", "{a,b}", "[a-c]?", `\*`, "[^/]", "a[", "{", "}", "[]]"} {
		f.Add(s, "a/b.go")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		g, err := Compile(pattern)
		if err == nil {
			g.Match(name)
		}
		if pg, err := CompilePath(pattern); err == nil {
			pg.Match(name)
		}
		if !strings.Contains(pattern, "**") && !strings.ContainsAny(pattern, "{}") {
			checkAgainstPathMatch(t, pattern, name)
		}
	})
}

func BenchmarkGlobMatch(b *testing.B) {
	g, err := CompilePath("src/**/*_{test,bench}.go")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Match("src/internal/pkg/thing/file_test.go")
	}
}
