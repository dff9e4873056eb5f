package gitignore

import (
	"strings"
	"testing"
)

// rules builds the rules of the deepest directory of files, a map from a
// directory ("" for the top) to the content of its ignore file, applying
// each directory's on top of its parents'.
func rules(files map[string]string) *Rules {
	dirs := make([]string, 0, len(files))
	for d := range files {
		dirs = append(dirs, d)
	}
	// Parents first: fewer slashes, then shorter.
	for i := range dirs {
		for j := i + 1; j < len(dirs); j++ {
			if depth(dirs[j]) < depth(dirs[i]) {
				dirs[i], dirs[j] = dirs[j], dirs[i]
			}
		}
	}
	var r *Rules
	for _, d := range dirs {
		r = r.With(d, Parse(files[d]))
	}
	return r
}

func depth(dir string) int {
	if dir == "" {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		path  string
		dir   bool
		want  bool
	}{
		{"a name pattern matches at any depth", map[string]string{"": "*.log"}, "a/b/c.log", false, true},
		{"a name pattern does not match a longer name", map[string]string{"": "*.log"}, "c.logs", false, false},
		{"a later negation keeps what an earlier pattern ignores", map[string]string{"": "*.log\n!keep.log"}, "keep.log", false, false},
		{"a later pattern wins over an earlier negation", map[string]string{"": "!keep.log\n*.log"}, "keep.log", false, true},
		{"a trailing slash matches a directory", map[string]string{"": "build/"}, "src/build", true, true},
		{"a trailing slash does not match a file", map[string]string{"": "build/"}, "src/build", false, false},
		{"a leading slash anchors to the file's directory", map[string]string{"": "/dist"}, "dist", true, true},
		{"a leading slash does not match deeper", map[string]string{"": "/dist"}, "src/dist", true, false},
		{"an inner slash anchors too", map[string]string{"": "docs/*.html"}, "docs/a.html", false, true},
		{"an anchored pattern's star does not cross a slash", map[string]string{"": "docs/*.html"}, "docs/sub/a.html", false, false},
		{"an anchored pattern does not match deeper", map[string]string{"": "docs/*.html"}, "x/docs/a.html", false, false},
		{"a leading **/ matches at the top", map[string]string{"": "**/cache"}, "cache", true, true},
		{"a leading **/ matches at any depth", map[string]string{"": "**/cache"}, "a/b/cache", true, true},
		{"a trailing /** matches what a directory holds", map[string]string{"": "logs/**"}, "logs/a/b.txt", false, true},
		{"a trailing /** does not match the directory itself", map[string]string{"": "logs/**"}, "logs", true, false},
		{"an inner /**/ matches no directory", map[string]string{"": "a/**/z"}, "a/z", false, true},
		{"an inner /**/ matches several directories", map[string]string{"": "a/**/z"}, "a/b/c/z", false, true},
		{"another ** is a star", map[string]string{"": "foo**bar"}, "foo-x-bar", false, true},
		{"a nested file's pattern is relative to its directory", map[string]string{"": "", "sub": "/local.md"}, "sub/local.md", false, true},
		{"a nested file's anchored pattern does not match elsewhere", map[string]string{"": "x", "sub": "/local.md"}, "local.md", false, false},
		{"a nested file's name pattern matches below it", map[string]string{"": "x", "sub": "*.tmp"}, "sub/a/b.tmp", false, true},
		{"a nested file wins over its parent's", map[string]string{"": "*.txt", "sub": "!readme.txt"}, "sub/readme.txt", false, false},
		{"a parent's later pattern does not win over a nested file", map[string]string{"": "!x.txt\n*.txt", "sub": "!x.txt"}, "sub/x.txt", false, false},
		{"an escaped hash is a pattern", map[string]string{"": `\#hash`}, "#hash", false, true},
		{"a hash starts a comment", map[string]string{"": "#hash"}, "#hash", false, false},
		{"an escaped bang is a literal", map[string]string{"": `\!bang`}, "!bang", false, true},
		{"trailing spaces are dropped", map[string]string{"": "trailing.txt   "}, "trailing.txt", false, true},
		{"an escaped trailing space is kept", map[string]string{"": `space\ `}, "space ", false, true},
		{"an escaped space keeps the spaces before it", map[string]string{"": `two \  `}, "two  ", false, true},
		{"a CRLF line ending is one line ending", map[string]string{"": "crlf.txt\r\nother"}, "crlf.txt", false, true},
		{"a byte order mark is skipped", map[string]string{"": "\uFEFFbom.txt"}, "bom.txt", false, true},
		{"a set negated with ! excludes its bytes", map[string]string{"": "[!a]x"}, "ax", false, false},
		{"a set negated with ^ too", map[string]string{"": "[^a]x"}, "bx", false, true},
		{"a character class", map[string]string{"": "[[:digit:]]*.num"}, "1.num", false, true},
		{"a question mark is one byte", map[string]string{"": "tmp?.txt"}, "tmp12.txt", false, false},
		{"a pattern of only a slash matches nothing", map[string]string{"": "/"}, "a", true, false},
		{"a lone ! matches nothing", map[string]string{"": "*\n!"}, "a", false, true},
		{"a trailing backslash matches nothing", map[string]string{"": `a\`}, `a\`, false, false},
		{"whitelisting: everything ignored", map[string]string{"": "*\n!*/\n!*.go"}, "pkg/a.txt", false, true},
		{"whitelisting: directories kept", map[string]string{"": "*\n!*/\n!*.go"}, "pkg", true, false},
		{"whitelisting: Go files kept", map[string]string{"": "*\n!*/\n!*.go"}, "pkg/a.go", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rules(tt.files).Ignored(tt.path, tt.dir); got != tt.want {
				t.Errorf("Ignored(%q, dir %v) = %v, want %v", tt.path, tt.dir, got, tt.want)
			}
		})
	}
}

func TestNoRulesIgnoreNothing(t *testing.T) {
	var r *Rules
	if r.With("", nil) != nil || r.Ignored("a", false) {
		t.Error("nil rules ignore something")
	}
}

func TestParseDropsOverlongLines(t *testing.T) {
	long := strings.Repeat("a", MaxPatternBytes+1)
	ps := Parse(long + "\nb\n")
	if len(ps) != 1 || ps[0].glob != "b" {
		t.Errorf("Parse kept %+v", ps)
	}
	if n := Lines(long + "\nb"); n != 2 {
		t.Errorf("Lines = %d, want 2", n)
	}
}
