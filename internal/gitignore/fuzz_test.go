package gitignore

import (
	"regexp"
	"strings"
	"testing"
)

// FuzzWildmatch holds wildmatch, for patterns of literals, '?', '*' and
// "**" on ASCII paths, to a regular expression built from git's
// documented rules: RE2 runs in linear time and shares no code with it.
// Other patterns must only not panic.
func FuzzWildmatch(f *testing.F) {
	for _, c := range wildCases {
		f.Add(c.pattern, c.text)
	}
	f.Add("**", "a/b")
	f.Add("a/**", "a/b/c")
	f.Add("**/a/**/b/**", "x/a/y/b/z")
	f.Add("***/x", "a/x")
	f.Add("a/***", "a/b")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		w := wild{p: pattern, t: text, pathname: true}
		got := w.match(0, 0) == wmMatch
		if w.steps > maxSteps || strings.ContainsAny(pattern+text, "[\\\x00") || !ascii(pattern+text) {
			return
		}
		re := regexp.MustCompile(wildRegexp(pattern))
		if want := re.MatchString(text); got != want {
			t.Errorf("wildmatch(%q, %q) = %v; the rules (%s) say %v", pattern, text, got, re, want)
		}
	})
}

// wildRegexp translates a pattern of literals, '?', '*' and "**" into a
// regular expression by gitignore(5): '?' and '*' do not match '/'; a
// "**" with a slash or an end on both sides matches across directories
// ("**/" none or some, "/**" at the end everything below); any other run
// of stars is one '*'.
func wildRegexp(p string) string {
	var sb strings.Builder
	sb.WriteString("(?s)^")
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '?':
			sb.WriteString("[^/]")
			i++
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			boundary := j-i >= 2 && (i == 0 || p[i-1] == '/') && (j == len(p) || p[j] == '/')
			switch {
			case boundary && j == len(p):
				sb.WriteString(".*")
			case boundary:
				sb.WriteString("(?:.*/)?")
				j++ // the slash
			default:
				sb.WriteString("[^/]*")
			}
			i = j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
			i++
		}
	}
	sb.WriteString("$")
	return sb.String()
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzParse parses arbitrary ignore files and matches arbitrary paths with
// them: it must never panic, keep no more patterns than lines, and keep
// no pattern longer than MaxPatternBytes or holding a NUL.
func FuzzParse(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\n/dist\n", "a/keep.log")
	f.Add("\uFEFF# comment\r\n\\#x\n\\!y\ntrailing   \nspace\\ \n", "#x")
	f.Add("**/cache/\nlogs/**\n!logs/.gitkeep\n[!a]x\n[[:digit:]]*\n", "logs/.gitkeep")
	f.Add("a\x00b\n!\n/\n\\\n[\n", "a")
	f.Fuzz(func(t *testing.T, content, path string) {
		ps := Parse(content)
		if len(ps) > Lines(content) {
			t.Errorf("%d patterns from %d lines", len(ps), Lines(content))
		}
		for _, p := range ps {
			if len(p.glob) > MaxPatternBytes || strings.IndexByte(p.glob, 0) >= 0 {
				t.Errorf("kept %q", p.glob)
			}
		}
		r := (*Rules)(nil).With("", ps).With("sub", ps)
		r.Ignored(path, false)
		r.Ignored(path, true)
		r.Ignored("sub/"+path, true)
	})
}
