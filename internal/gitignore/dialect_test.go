package gitignore

import (
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/glob"
)

// The tools' globs (internal/glob) and ignore files are two dialects:
// this file counts where they part, which is why each has its own
// matcher (see the package docs), and measures both on the same patterns.

// TestTheToolsGlobIsAnotherDialect runs git's cases (globCases, each held
// to git check-ignore by TestGlobCasesAgreeWithGit) through the tools'
// glob: it refuses 15 of them (sets such as "[]-]" and "[a-]", unclosed
// sets, which git takes) and answers 21 otherwise than git (bytes against
// characters, '!' in a set, POSIX classes, reversed ranges, and "**"
// after a name's leading text); a directory-only line is matched without
// its '/' against a directory, as is against a file. Either count
// changing means the dialects moved.
func TestTheToolsGlobIsAnotherDialect(t *testing.T) {
	refused, differ := 0, 0
	for _, c := range globCases {
		line := c.line
		if c.dir {
			line = strings.TrimSuffix(line, "/")
		}
		g, err := glob.CompilePath(line)
		switch {
		case err != nil:
			refused++
		case g.Match(c.path) != c.want:
			differ++
			t.Logf("%q ~ %q: the tools' glob says %v, git %v", c.line, c.path, !c.want, c.want)
		}
	}
	if refused != 15 || differ != 21 {
		t.Errorf("of git's %d cases the tools' glob refuses %d and answers %d otherwise; the package docs say 15 and 21", len(globCases), refused, differ)
	}
}

// toolsCases are the cases of the tools' glob tests (internal/glob) that
// hold no brace, which ignore files do not have.
var toolsCases = []struct {
	pattern string
	yes, no []string
}{
	{"*.go", []string{"a.go", ".go", "x/y/a.go"}, []string{"a.txt", "a.go/x"}},
	{"src/*.go", []string{"src/a.go"}, []string{"src/x/a.go", "a.go", "x/src/a.go"}},
	{"a?c", []string{"abc", "aéc"}, []string{"ac", "abbc", "a/c"}},
	{"[abc].txt", []string{"a.txt", "c.txt"}, []string{"d.txt", "ab.txt"}},
	{"x[0-9]", []string{"x0", "x9"}, []string{"xa", "x"}},
	{"[^a-c]x", []string{"dx", "éx"}, []string{"ax", "x"}},
	{"**/*.go", []string{"a.go", "x/a.go", "x/y/z/a.go"}, []string{"a.txt", "x/a.txt"}},
	{"a/**/b", []string{"a/b", "a/x/b", "a/x/y/b"}, []string{"ab", "a/xb", "x/a/b", "a/b/c"}},
	{"a/**", []string{"a/b", "a/b/c"}, []string{"a", "b/a/c"}},
	{"**", []string{"a", "a/b/c"}, nil},
	{"a**b", []string{"ab", "axxb"}, []string{"a/b"}},
	{"[{]x", []string{"{x"}, []string{"x"}},
	{`a\*`, []string{"a*"}, []string{"ab"}},
	{"README.md", []string{"README.md"}, []string{"readme.md"}},
	{"résumé*.pdf", []string{"résumé-2024.pdf"}, []string{"resume.pdf"}},
	{"node_modules", []string{"node_modules", "a/node_modules"}, []string{"node_modules/x"}},
	{"/a.go", []string{"a.go"}, []string{"x/a.go"}},
	{"./a.go", []string{"a.go"}, []string{"x/a.go"}},
	{"*??", nil, []string{"\U00079010"}},
	{"*?", []string{"\U00079010"}, nil},
	{"?", []string{"é"}, nil},
	{"??", nil, []string{"é"}},
}

// TestIgnorePatternsAreAnotherDialect runs the tools' brace-free glob
// cases through this package's matcher: it answers 6 of the 66 otherwise
// ('?' and sets take a byte, not a character, and "./" anchors nothing).
func TestIgnorePatternsAreAnotherDialect(t *testing.T) {
	n, differ := 0, 0
	for _, c := range toolsCases {
		if g, err := glob.CompilePath(c.pattern); err != nil {
			t.Fatalf("the tools' glob refuses its own case %q: %v", c.pattern, err)
		} else {
			for _, s := range c.yes {
				if !g.Match(s) {
					t.Fatalf("the tools' glob: %q does not match %q", c.pattern, s)
				}
			}
		}
		p, ok := ParsePattern(c.pattern)
		for _, s := range c.yes {
			n++
			if !ok || !p.Matches(s, false) {
				differ++
			}
		}
		for _, s := range c.no {
			n++
			if ok && p.Matches(s, false) {
				differ++
			}
		}
	}
	if n != 66 || differ != 6 {
		t.Errorf("this package's matcher answers %d of the tools' %d cases otherwise; the package docs say 6 of 66", differ, n)
	}
}

// dialectPatterns mean the same in both dialects.
var dialectPatterns = []struct{ name, pattern, path string }{
	{"extension", "*.go", "src/internal/pkg/thing/file_test.go"},
	{"extension_below", "**/*_test.go", "src/internal/pkg/thing/file_test.go"},
	{"middle_doublestar", "src/**/thing/*.go", "src/internal/pkg/thing/file_test.go"},
	{"name", "node_modules", "web/app/node_modules"},
}

// BenchmarkBothDialects matches the same patterns with this package's
// matcher and with the tools' glob.
func BenchmarkBothDialects(b *testing.B) {
	for _, c := range dialectPatterns {
		p, ok := ParsePattern(c.pattern)
		g, err := glob.CompilePath(c.pattern)
		if !ok || err != nil {
			b.Fatal(c.pattern, err)
		}
		b.Run("gitignore/"+c.name, func(b *testing.B) {
			for b.Loop() {
				p.Matches(c.path, false)
			}
		})
		b.Run("glob/"+c.name, func(b *testing.B) {
			for b.Loop() {
				g.Match(c.path)
			}
		})
	}
}
