package gitignore

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// globCases are lines of an ignore file and paths relative to its
// directory, with whether the line's pattern matches the path itself.
// TestGlobCasesAgreeWithGit holds every one to git check-ignore; none has
// a leading directory that the pattern matches, since git would then
// call the path ignored whatever the pattern says of it.
var globCases = []struct {
	line, path string
	dir        bool // path is a directory
	want       bool
}{
	// Names and anchoring.
	{"foo", "foo", false, true},
	{"foo", "a/b/foo", false, true},
	{"foo", "foobar", false, false},
	{"/foo", "foo", false, true},
	{"/foo", "a/foo", false, false},
	{"a/b", "a/b", false, true},
	{"a/b", "x/a/b", false, false},
	{"foo/", "x/foo", true, true},
	{"foo/", "x/foo", false, false},
	{"doc/frotz/", "doc/frotz", true, true},
	{"doc/frotz/", "a/doc/frotz", true, false},
	{"x//y", "x/y", false, false},
	{"x/y//", "x/y", true, false},

	// '*' and '?'.
	{"*", "anything", false, true},
	{"*.c", "src/x.c", false, true},
	{"*.c", "x.cc", false, false},
	{"f*", "foo", false, true},
	{"*f", "foo", false, false},
	{"*o*a*r*", "foobar", false, true},
	{"*ab", "abaabab", false, true},
	{"*ab", "ababa", false, false},
	{"x/*", "x/.hidden", false, true},
	{"x/*.c", "x/y/z.c", false, false},
	{"x/a*c", "x/a/c", false, false},
	{"x/*-*-*-9-*-z", "x/a-b-c-9-d-z", false, true},
	{"x/*-*-*-9-*-z", "x/a--c-9--z", false, true},
	{"x/*-*-*-9-*-z", "x/a-b-c-8-d-z", false, false},
	{"x/*a*b*c*d*e", "x/xaxbxcxdxe", false, true},
	{"x/*a*b*c*d*e", "x/edcba", false, false},
	{"???", "foo", false, true},
	{"??", "foo", false, false},
	{"x/a?c", "x/a/c", false, false},
	{"?", "é", false, false}, // '?' is one byte
	{"??", "é", false, true},

	// Backslashes.
	{`\*`, "*", false, true},
	{`\*`, "a", false, false},
	{`a\*b`, "axb", false, false},
	{`\a`, "a", false, true},
	{`a\\b`, `a\b`, false, true},
	{`\#x`, "#x", false, true},
	{`\!x`, "!x", false, true},
	{`x/a\`, `x/a\`, false, false},
	{`x\/y`, "x/y", false, true},
	{`\/x`, "x", false, false},

	// Sets.
	{"[abc]", "b", false, true},
	{"[abc]", "d", false, false},
	{"[!abc]", "d", false, true},
	{"[!abc]", "a", false, false},
	{"[^a]x", "bx", false, true},
	{"t[a-g]n", "ten", false, true},
	{"t[!a-g]n", "ten", false, false},
	{"a[]]b", "a]b", false, true},
	{"[]-]", "-", false, true},
	{"[]-]", "]", false, true},
	{"[!]a]", "]", false, false},
	{"[]-a]", "_", false, true},
	{"[a-]", "-", false, true},
	{"[-a]", "-", false, true},
	{"[a-c-e]", "d", false, false},
	{"[a-c-e]", "-", false, true},
	{"a[a-c--0]", "a.", false, true},
	{"[z-a]", "z", false, true},
	{"[z-a]", "m", false, false},
	{`[\]]`, "]", false, true},
	{`[\]]`, `\`, false, false},
	{`[\\]`, `\`, false, true},
	{`[a\-c]`, "b", false, false},
	{`[a\-c]`, "-", false, true},
	{`[\a-\c]`, "b", false, true},
	{"x/[a/b]", "x/b", false, true},
	{"x/a[/]b", "x/a/b", false, false},
	{"[a/b]", "q/a", false, false},
	{"x/[é]", "x/é", false, false}, // a set is one byte
	{"x/[!a-c]", "x/é", false, false},

	// Sets that never close match nothing.
	{"a[", "a[", false, false},
	{"[ab", "[ab", false, false},
	{"x/[!a", "x/b", false, false},
	{"[]", "[]", false, false},
	{`x/[\`, `x/[\`, false, false},

	// Classes.
	{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", false, true},
	{"[[:digit:][:upper:][:space:]]", "a", false, false},
	{"[[:digit:][:upper:][:space:]]", "A", false, true},
	{"[[:space:]]x", " x", false, true},
	{"[[:xdigit:]]", "f", false, true},
	{"[[:xdigit:]]", "g", false, false},
	{"[[:punct:]]", "_", false, true},
	{"[[:lower:]]", "Q", false, false},
	{"[[:alpha:]]", "é", false, false},
	{"[[:alpha:]-z]", "-", false, true},
	{"[[:foo:]]", "f", false, false},
	{"[![:foo:]]", "a", false, false},
	{"[[:digit:][:spaci:]]", "1", false, false},
	{"[[:DIGIT:]]", "5", false, false},
	{"[[::]]", ":", false, false},
	{"[[:]]", ":", false, false},
	{"x[[:]ab]", "x:ab]", false, true},
	{"[[:digit]]", "d]", false, true},
	{"[a-[:digit:]]", "d]", false, true},
	{"[a-[:digit:]]", "5]", false, false},
	{"[:alpha:]", "h", false, true},

	// "**".
	{"**", "a", false, true},
	{"/**", "a", true, true},
	{"**/foo", "foo", false, true},
	{"**/foo", "a/b/foo", false, true},
	{"**/foo/bar", "x/foo/bar", false, true},
	{"**/foo/bar", "foo/x/bar", false, false},
	{"**/bar/*", "deep/foo/bar/baz", false, true},
	{"*/foo", "bar/baz/foo", false, false},
	{"a/**/b", "a/b", false, true},
	{"a/**/b", "a/x/y/b", false, true},
	{"a/**/b", "a/xb", false, false},
	{"a/**/**/b", "a/b", false, true},
	{"a/***/b", "a/x/y/b", false, true},
	{"a/**/*/c", "a/b/c", false, true},
	{"a/**/*/c", "a/c", false, false},
	{"abc/**", "abc", true, false},
	{"abc/**", "abc/x", false, true},
	{"a/**/", "a/b", true, true},
	{"a/**/", "a/b", false, false},
	{"**/**", "a", false, true},
	{"a/**b", "a/xb", false, true},
	{"a/**b", "a/x/b", false, false},
	{"**a/b", "x/a/b", false, false},
	{"foo**bar", "foobazbar", false, true},
	{"x/**/y/**/z", "x/y/q/z", false, true},
	{"x/**/y/**/z", "x/q/z", false, false},
	{`x/**\/y`, "x/y", false, false}, // a "**" before "\/" matches one component or more
	{`x/**\/y`, "x/q/r/y", false, true},
	{`**\/*`, "y", false, false},
	{`x/**/**\/y`, "x/q/y", false, true},
	{`x/**/**\/y`, "x/y", false, false},
	{`x/?**\/y`, "x/q/r/y", false, false},

	// What a pattern's text before its first wildcard matches is compared
	// as text; a "**/" right after it is a leading one.
	{"a**/b", "ab", false, true},
	{"a**/b", "a/x/b", false, true},
	{"/a**/b", "ab", false, true},
	{"x/ab**/c", "x/abq/r/c", false, true},
	{"x/?a**/b", "x/qab", false, false},
	{"x/*a**/b", "x/ab", false, false},
	{`x/\a**/b`, "x/ab", false, false},
	{"x/a**b/c", "x/a/b/c", false, false},
	{"c**/?", "cx", false, true},
	{`a/x**\/y`, "a/x/y", false, true},
	{"x/**a", "x/q/a", false, false},
}

func TestGlobCases(t *testing.T) {
	for _, c := range globCases {
		p, ok := ParsePattern(c.line)
		if !ok {
			t.Errorf("%q holds no pattern", c.line)
			continue
		}
		if got := p.Matches(c.path, c.dir); got != c.want {
			t.Errorf("%q matches %q (dir %v): %v, want %v", c.line, c.path, c.dir, got, c.want)
		}
	}
}

// TestGlobCasesAgreeWithGit builds a repository with one directory for
// each case, c000, c001 and so on, each with the case's line alone in its
// .gitignore and the case's path in it, and asks git check-ignore about
// the path and each directory that leads to it. The user's and the
// system's git configuration are kept out.
func TestGlobCasesAgreeWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the cases' names hold bytes Windows refuses")
	}
	root := t.TempDir()
	env := append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+root, "GIT_CONFIG_NOSYSTEM=1")
	run := func(stdin string, args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = root, env, strings.NewReader(stdin)
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) { // 1: nothing ignored
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	run("", "init", "-q")
	var query strings.Builder
	for i, c := range globCases {
		dir := filepath.Join(root, caseDir(i))
		full := filepath.Join(dir, filepath.FromSlash(c.path))
		mkdir := full
		if !c.dir {
			mkdir = filepath.Dir(full)
		}
		if err := os.MkdirAll(mkdir, 0o755); err != nil {
			t.Fatal(err)
		}
		if !c.dir {
			if err := os.WriteFile(full, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(c.line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range leading(c.path) {
			query.WriteString(caseDir(i) + "/" + p + "\x00")
		}
	}
	ignored := map[string]bool{}
	for _, p := range strings.Split(run(query.String(), "check-ignore", "--no-index", "-z", "--stdin"), "\x00") {
		ignored[p] = true
	}
	for i, c := range globCases {
		ps := leading(c.path)
		for _, p := range ps[:len(ps)-1] {
			if ignored[caseDir(i)+"/"+p] {
				t.Errorf("%q, %q: git ignores its directory %q, so it tells nothing of the path", c.line, c.path, p)
			}
			if pat, _ := ParsePattern(c.line); pat.Matches(p, true) {
				t.Errorf("%q matches %q, which leads to %q and which git does not ignore", c.line, p, c.path)
			}
		}
		if got := ignored[caseDir(i)+"/"+c.path]; got != c.want {
			t.Errorf("git check-ignore says %q ignores %q (dir %v): %v; the table says %v", c.line, c.path, c.dir, got, c.want)
		}
	}
}

func caseDir(i int) string { return fmt.Sprintf("c%03d", i) }

// leading returns the directories that lead to p, then p: "a", "a/b" and
// "a/b/c" for "a/b/c".
func leading(p string) []string {
	var ps []string
	for d := p; d != "."; d = path.Dir(d) {
		ps = append([]string{d}, ps...)
	}
	return ps
}

// hostile patterns take many steps to fail on their paths. Matching by
// backtracking takes exponentially many for the first; the others are
// the worst cases of this package's matching, about P×N steps for P parts
// of a pattern against N of a path: 1.6×10^6 component matches, 3×10^6
// byte comparisons, and 4×10^6 component matches for a pattern of
// MaxPatternBytes against a path of 4,096 bytes.
var hostile = []struct{ name, pattern, path string }{
	{"nested ** against a deep path", strings.Repeat("**/a/", 20) + "b", strings.Repeat("a/", 2000) + "c"},
	{"a long run between ** tried at every depth", "**/" + strings.Repeat("a/", 800) + "b/**/c", strings.Repeat("a/", 2000) + "c"},
	{"a long piece between * tried at every byte", "*" + strings.Repeat("?", 1000) + "b*", strings.Repeat("a", 4000)},
	{"the longest pattern against a long path", "**/" + strings.Repeat("a/", (MaxPatternBytes-10)/2) + "b/**/c", strings.Repeat("a/", 2047) + "c"},
}

// TestHostilePatternsMatchQuickly holds the hostile patterns to an
// answer. Their cost is measured by BenchmarkHostilePattern (microseconds);
// the bound here only catches a matcher that backtracks exponentially,
// which would take years, so it is generous enough for a loaded machine
// under the race detector.
func TestHostilePatternsMatchQuickly(t *testing.T) {
	for _, h := range hostile {
		m := compile(h.pattern)
		done := make(chan bool, 1)
		go func() { done <- m.match(h.path) }()
		select {
		case matched := <-done:
			if matched {
				t.Errorf("%s: matched", h.name)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: no answer within a minute", h.name)
		}
	}
}

func BenchmarkHostilePattern(b *testing.B) {
	for _, h := range hostile {
		m := compile(h.pattern)
		b.Run(strings.ReplaceAll(h.name, " ", "_"), func(b *testing.B) {
			for b.Loop() {
				m.match(h.path)
			}
		})
	}
}
