package fs

import (
	"strings"
	"testing"
)

func TestGlobErrors(t *testing.T) {
	tests := []struct{ name, pattern, err string }{
		{"an unclosed bracket", "a[bc", `the pattern "a[bc" is malformed: '[' at character 2 is never closed by ']'; write [[] for a literal '['`},
		{"an empty class", "[]a]", `the character class at character 1 is malformed`},
		{"a dash at the end of a class", "[a-]x", "the character class at character 1 is malformed"},
		{"a negated empty class", "[^]", "the character class at character 1 is malformed"},
		{"a trailing backslash", `a\`, `ends with '\', which escapes nothing`},
		{"an unclosed brace", "{a,b", `'{' at character 1 is never closed by '}'; write [{] for a literal '{'`},
		{"a stray closing brace", "a}b", `'}' at character 2 has no '{' before it`},
		{"a stray closing brace after a group", "{a}}", `'}' at character 4 has no '{' before it`},
		{"an unclosed brace inside another", "{a,{b}", `'{' at character 1 is never closed`},
		{"an unclosed class hides the closing brace", "{a,[}", `'{' at character 1 is never closed`},
		{"a bad class inside braces", "{a,[]}", `the character class at character 4 is malformed`},
		{"too many alternatives", strings.Repeat("{a,b,c,d}", 5), "its braces stand for more than 256 patterns"},
		{"invalid UTF-8 in a class", "[\xff]", "the character class at character 1 is malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newPathGlob(tt.pattern)
			if err == nil {
				t.Fatalf("%q compiled", tt.pattern)
			}
			wantContains(t, err.Error(), tt.err)
		})
	}
}
