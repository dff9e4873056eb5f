package security

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseCharClass(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    CharClass
		wantErr string
	}{
		{name: "ident is a class", in: "ident", want: ClassIdent},
		{name: "path is a class", in: "path", want: ClassPath},
		{name: "glob is a class", in: "glob", want: ClassGlob},
		{name: "text is a class", in: "text", want: ClassText},
		{name: "expr is a class", in: "expr", want: ClassExpr},
		{name: "names are case-sensitive", in: "Ident", wantErr: `unknown character class "Ident"; use one of ident, expr, path, glob, text`},
		{name: "the empty name is refused", in: "", wantErr: `unknown character class ""`},
		{name: "a misspelt name is refused", in: "pth", wantErr: `unknown character class "pth"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCharClass(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseCharClass(%q) error = %v, want it to contain %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseCharClass(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// checkCase is one string run through one class. When ok is false, bad and
// index are the refused rune and its byte offset.
type checkCase struct {
	name  string
	class CharClass
	in    string
	ok    bool
	bad   rune
	index int
}

func TestCheck(t *testing.T) {
	tests := []checkCase{
		// ident
		{name: "ident accepts letters digits underscore and hyphen", class: ClassIdent, in: "read_file-2", ok: true},
		{name: "ident accepts a single letter", class: ClassIdent, in: "a", ok: true},
		{name: "ident refuses the empty string", class: ClassIdent, in: "", ok: false, bad: 0, index: -1},
		{name: "ident refuses a space", class: ClassIdent, in: "a b", bad: ' ', index: 1},
		{name: "ident refuses a dot", class: ClassIdent, in: "a.b", bad: '.', index: 1},
		{name: "ident refuses a slash", class: ClassIdent, in: "../x", bad: '.', index: 0},
		{name: "ident refuses NUL", class: ClassIdent, in: "ab\x00", bad: 0, index: 2},
		{name: "ident refuses non-ASCII letters", class: ClassIdent, in: "café", bad: 'é', index: 3},
		{name: "ident refuses emoji", class: ClassIdent, in: "x😀", bad: '😀', index: 1},
		{name: "ident refuses invalid UTF-8", class: ClassIdent, in: "a\xff", bad: utf8.RuneError, index: 1},

		// path
		{name: "path accepts a relative path", class: ClassPath, in: "src/main.go", ok: true},
		{name: "path accepts spaces and punctuation", class: ClassPath, in: "My Documents/a (1)+b,c;d=e@f#g.txt", ok: true},
		{name: "path accepts the empty string", class: ClassPath, in: "", ok: true},
		{name: "path accepts non-Latin scripts", class: ClassPath, in: "文档/résumé/Ωμέγα.txt", ok: true},
		{name: "path accepts emoji", class: ClassPath, in: "photos/😀.png", ok: true},
		{name: "path accepts emoji joined with ZWJ", class: ClassPath, in: "👩\u200d💻.md", ok: true},
		{name: "path accepts combining characters", class: ClassPath, in: "cafe\u0301.txt", ok: true},
		{name: "path accepts glob characters", class: ClassPath, in: "*.{go,md}", ok: true},
		{name: "path accepts U+FFFD written validly", class: ClassPath, in: "a\uFFFD", ok: true},
		{name: "path refuses backslash", class: ClassPath, in: `dir\x`, bad: '\\', index: 3},
		{name: "path refuses NUL", class: ClassPath, in: "a\x00b", bad: 0, index: 1},
		{name: "path refuses newline", class: ClassPath, in: "a\nb", bad: '\n', index: 1},
		{name: "path refuses tab", class: ClassPath, in: "a\tb", bad: '\t', index: 1},
		{name: "path refuses DEL", class: ClassPath, in: "a\x7f", bad: 0x7f, index: 1},
		{name: "path refuses a C1 control", class: ClassPath, in: "ab\u0085", bad: 0x85, index: 2},
		{name: "path refuses the last C1 control", class: ClassPath, in: "\u009f", bad: 0x9f, index: 0},
		{name: "path accepts the first character after C1", class: ClassPath, in: "\u00a0x", ok: true},
		{name: "path refuses a right-to-left override", class: ClassPath, in: "a\u202Etxt.exe", bad: 0x202E, index: 1},
		{name: "path refuses a bidi isolate", class: ClassPath, in: "\u2066", bad: 0x2066, index: 0},
		{name: "path refuses a zero-width space", class: ClassPath, in: "a\u200Bb", bad: 0x200B, index: 1},
		{name: "path refuses a byte order mark", class: ClassPath, in: "\uFEFFa", bad: 0xFEFF, index: 0},
		{name: "path refuses the line separator", class: ClassPath, in: "a\u2028", bad: 0x2028, index: 1},
		{name: "path refuses invalid UTF-8", class: ClassPath, in: "ok\xc3", bad: utf8.RuneError, index: 2},
		{name: "path reports the byte offset after multibyte runes", class: ClassPath, in: "é\x01", bad: 1, index: 2},

		// glob
		{name: "glob accepts wildcards", class: ClassGlob, in: "**/*.[ch]", ok: true},
		{name: "glob accepts negation and braces", class: ClassGlob, in: "!{a,b}?", ok: true},
		{name: "glob refuses backslash escapes", class: ClassGlob, in: `\*`, bad: '\\', index: 0},
		{name: "glob refuses NUL", class: ClassGlob, in: "*\x00", bad: 0, index: 1},

		// text
		{name: "text accepts tab newline and carriage return", class: ClassText, in: "a\tb\r\nc", ok: true},
		{name: "text accepts backslash", class: ClassText, in: `C:\dir`, ok: true},
		{name: "text accepts emoji and combining characters", class: ClassText, in: "naïve 😀 e\u0301", ok: true},
		{name: "text accepts a right-to-left override", class: ClassText, in: "\u202E", ok: true},
		{name: "text accepts the empty string", class: ClassText, in: "", ok: true},
		{name: "text refuses NUL", class: ClassText, in: "a\x00", bad: 0, index: 1},
		{name: "text refuses escape", class: ClassText, in: "\x1b[31m", bad: 0x1b, index: 0},
		{name: "text refuses vertical tab", class: ClassText, in: "\v", bad: '\v', index: 0},
		{name: "text refuses DEL", class: ClassText, in: "x\x7f", bad: 0x7f, index: 1},
		{name: "text refuses a C1 control", class: ClassText, in: "\u0080", bad: 0x80, index: 0},
		{name: "text refuses invalid UTF-8", class: ClassText, in: "\xed\xa0\x80", bad: utf8.RuneError, index: 0},

		// expr
		{name: "expr accepts arithmetic", class: ClassExpr, in: "2 * (3 + 4) / 5 % 6 ^ 7 - 1", ok: true},
		{name: "expr accepts exponents and functions", class: ClassExpr, in: "1.5e3 + sqrt(2,\t3) + max_x", ok: true},
		{name: "expr accepts capital E", class: ClassExpr, in: "1E-3", ok: true},
		{name: "expr refuses a semicolon", class: ClassExpr, in: "1;2", bad: ';', index: 1},
		{name: "expr refuses quotes", class: ClassExpr, in: `"x"`, bad: '"', index: 0},
		{name: "expr refuses newline", class: ClassExpr, in: "1\n2", bad: '\n', index: 1},
		{name: "expr refuses non-ASCII digits", class: ClassExpr, in: "١", bad: '١', index: 0},

		// undefined
		{name: "an undefined class refuses everything", class: CharClass("nope"), in: "a", bad: 'a', index: 0},
		{name: "an undefined class refuses the empty string", class: CharClass(""), in: "", bad: 0, index: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad, index, ok := tt.class.Check(tt.in)
			if ok != tt.ok {
				t.Fatalf("%s.Check(%q) ok = %v, want %v (bad %U at %d)", tt.class, tt.in, ok, tt.ok, bad, index)
			}
			if ok {
				return
			}
			if bad != tt.bad || index != tt.index {
				t.Errorf("%s.Check(%q) = %U at %d, want %U at %d", tt.class, tt.in, bad, index, tt.bad, tt.index)
			}
		})
	}
}

func TestPatternAgreesWithCheck(t *testing.T) {
	samples := []string{
		"", "a", "read_file-2", "a b", "src/main.go", `a\b`, "a\x00", "a\tb", "a\nb", "x\r\n",
		"\x7f", "\u0085", "\u00a0", "😀", "e\u0301", "\u202E", "\u2028", "\uFEFF", "\u200d",
		"1.5e3 + (2*3)", "1;2", "**/*.{go,md}", "C:\\x", "\x1b", "ﬁ", "ǅ", "\U0010FFFF",
		`a\u{A}b`, `\x{FF}`, `\x{F}`, `a\u{1234567}`, `a\u{}`, `\u{41}\`, `\u{10ffff}`, `\u{41`,
	}
	for _, c := range CharClasses() {
		re, err := regexp.Compile(c.Pattern())
		if err != nil {
			t.Fatalf("%s.Pattern() does not compile: %v", c, err)
		}
		for _, s := range samples {
			_, _, ok := c.Check(s)
			if re.MatchString(s) != ok {
				t.Errorf("%s: pattern match(%q) = %v but Check ok = %v", c, s, !ok, ok)
			}
		}
	}
}

func TestDescribeIsAShortPhrase(t *testing.T) {
	for _, c := range CharClasses() {
		d := c.Describe()
		if d == "" || len(d) > 64 || strings.HasSuffix(d, ".") {
			t.Errorf("%s.Describe() = %q; want a short phrase without a final period", c, d)
		}
	}
}

func TestCheckDoesNotAllocate(t *testing.T) {
	s := strings.Repeat("src/dir/file-name_1.go ", 8)
	for _, c := range []CharClass{ClassPath, ClassText, ClassGlob} {
		if n := testing.AllocsPerRun(100, func() { c.Check(s) }); n != 0 {
			t.Errorf("%s.Check allocates %v times per call", c, n)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", "a", `a\b`, "a\x00", "😀", "\u202E", "x\xff", "1+2", `a\u{A}`, `\x{FF}\`} {
		f.Add(s)
	}
	patterns := make(map[CharClass]*regexp.Regexp)
	for _, c := range CharClasses() {
		patterns[c] = regexp.MustCompile(c.Pattern())
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range CharClasses() {
			bad, index, ok := c.Check(s)
			if !ok {
				if index == -1 {
					if s != "" {
						t.Fatalf("%s.Check(%q): index -1 for a non-empty string", c, s)
					}
					continue
				}
				if index < 0 || index >= len(s) {
					t.Fatalf("%s.Check(%q): index %d out of range", c, s, index)
				}
				r, size := utf8.DecodeRuneInString(s[index:])
				if r != bad {
					t.Fatalf("%s.Check(%q): bad = %U, but the rune at %d is %U", c, s, bad, index, r)
				}
				if !(r == utf8.RuneError && size == 1) && c.Allows(r) {
					t.Fatalf("%s.Check(%q): refused %U which Allows accepts", c, s, r)
				}
			}
			if utf8.ValidString(s) && patterns[c].MatchString(s) != ok {
				t.Fatalf("%s: pattern and Check disagree on %q (Check ok = %v)", c, s, ok)
			}
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	inputs := map[CharClass]string{
		ClassIdent: "read_file_with-a-long-name",
		ClassPath:  "src/internal/schemagen/coerce.go",
		ClassText:  strings.Repeat("The quick brown fox jumps over the lazy dog.\n", 4),
		ClassExpr:  "2 * (3 + 4.5e2) / sqrt(16) - 1",
	}
	for _, c := range []CharClass{ClassIdent, ClassPath, ClassText, ClassExpr} {
		s := inputs[c]
		b.Run(string(c), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				c.Check(s)
			}
		})
	}
}

// largeTexts are 8 MiB strings of three kinds, for the benchmarks of
// checking large arguments: source code (short lines, tabs, a few
// characters beyond ASCII), plain ASCII prose, and Chinese prose.
func largeTexts() map[string]string {
	const size = 8 << 20
	fill := func(unit string) string {
		s := strings.Repeat(unit, size/len(unit)+1)
		n := size
		for !utf8.RuneStart(s[n]) {
			n-- // cut at the start of a character
		}
		return s[:n]
	}
	return map[string]string{
		"source": fill("\tif err := run(ctx, \"write\", path); err != nil { // naïve retry\n\t\treturn fmt.Errorf(\"writing %s: %w\", path, err)\n\t}\n"),
		"ascii":  fill("The quick brown fox jumps over the lazy dog. "),
		"cjk":    fill("敏捷的棕色狐狸跳过了懒狗。"),
	}
}

// BenchmarkCheckLarge checks 8 MiB strings against the classes that long
// arguments have: text (file contents) and path.
func BenchmarkCheckLarge(b *testing.B) {
	texts := largeTexts()
	for _, c := range []CharClass{ClassText, ClassPath} {
		for _, kind := range []string{"source", "ascii", "cjk"} {
			s := texts[kind]
			if c == ClassPath {
				s = strings.NewReplacer("\n", " ", "\t", " ", `\`, "/").Replace(s)
			}
			b.Run(string(c)+"/"+kind, func(b *testing.B) {
				if _, _, ok := c.Check(s); !ok {
					b.Fatal("refused")
				}
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					c.Check(s)
				}
			})
		}
	}
}
