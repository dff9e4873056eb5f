package schemagen

import (
	"regexp"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
)

var placeholderRE = regexp.MustCompile(`\{[a-zA-Z]+\}`)

func TestCatalogIsComplete(t *testing.T) {
	full := &Problem{Path: "p", Expected: "string", Got: `"x"`, GotType: "string", Allowed: []string{`"a"`},
		Limit: "1", Count: 2, Char: "'x'", Position: 3, Class: "ident", Suggest: "q", Detail: "d"}
	// The English of a class is its security.CharClass.Describe, and null
	// is the JSON literal in every language.
	classes := []msgID{msgClassPath, msgClassGlob, msgClassText, msgClassExpr, msgClassIdent}
	if err := catalog.Check(numMsgs, append(classes, msgNone, msgNounNull)...); err != nil {
		t.Error(err)
	}
	for _, id := range classes {
		if err := i18n.Check(classPhrase(classOf(id), English), catalog.Text(Chinese, id)); err != nil {
			t.Errorf("message %d: %v", id, err)
		}
	}
	for id := msgID(1); id < numMsgs; id++ {
		for _, lang := range []Lang{English, Chinese} {
			if out := expand(catalog.Text(lang, id), full, lang); placeholderRE.MatchString(out) {
				t.Errorf("message %d in %s leaves a placeholder: %q", id, lang, out)
			}
		}
	}
}

// classOf returns the class whose phrase the catalog entry id is.
func classOf(id msgID) security.CharClass {
	for _, c := range []security.CharClass{security.ClassIdent, security.ClassPath, security.ClassGlob, security.ClassText, security.ClassExpr} {
		if classPhrase(c, Chinese) == catalog.Text(Chinese, id) {
			return c
		}
	}
	return ""
}

func TestUnknownLanguageFallsBackToEnglish(t *testing.T) {
	p := Problem{Path: "path", Expected: "string", msg: msgMissing}
	if got, want := p.Message(Lang("fr")), p.Message(English); got != want {
		t.Errorf("Message(fr) = %q, want %q", got, want)
	}
}

func TestLongAllowedListsAreCut(t *testing.T) {
	p := Problem{Path: "x", Got: `"z"`, msg: msgEnum,
		Allowed: []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`, `"g"`, `"h"`, `"i"`, `"j"`}}
	want := `"x" must be one of "a", "b", "c", "d", "e", "f", "g", "h", …; got "z"`
	if got := p.Message(English); got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	if len(p.Allowed) != 10 {
		t.Errorf("Message changed Allowed to %q", p.Allowed)
	}
}

func TestShortValue(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{name: "a short string is quoted", in: "abc", want: `"abc"`},
		{name: "a long string is cut inside the quotes", in: "abcdefghijklmnopqrstuvwxyz", want: `"abcdefghijklmnopqrstuvw…"`},
		{name: "quotes and backslashes are escaped", in: `a"b\c`, want: `"a\"b\\c"`},
		{name: "newlines are escaped", in: "a\nb", want: `"a\nb"`},
		{name: "invisible characters are escaped", in: "a\u202eb\x00", want: `"a\u202Eb\u0000"`},
		{name: "characters beyond the BMP that are invisible are escaped", in: "\U000E0041", want: `"\U000E0041"`},
		{name: "emoji are shown", in: "😀", want: `"😀"`},
		{name: "null", in: nil, want: "null"},
		{name: "a boolean", in: true, want: "true"},
		{name: "an object is compact JSON with sorted keys", in: map[string]any{"b": 1.0, "a": "<x>"}, want: `{"a":"<x>","b":1}`},
		{name: "a long array is cut", in: []any{"aaaaaaaa", "bbbbbbbb", "cccccccc"}, want: `["aaaaaaaa","bbbbbbbb",…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shortValue(tt.in); got != tt.want {
				t.Errorf("shortValue(%#v) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseLang(t *testing.T) {
	tests := []struct {
		in      string
		want    Lang
		wantErr bool
	}{
		{in: "en", want: English},
		{in: "en-US", want: English},
		{in: "EN_gb", want: English},
		{in: "zh", want: Chinese},
		{in: "zh-CN", want: Chinese},
		{in: "zh_Hans_CN", want: Chinese},
		{in: "ZH-tw", want: Chinese},
		{in: "", want: English, wantErr: true},
		{in: "fr", want: English, wantErr: true},
		{in: "english", want: English, wantErr: true},
	}
	for _, tt := range tests {
		t.Run("tag "+tt.in, func(t *testing.T) {
			got, err := ParseLang(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ParseLang(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// phrased is a Validate error that says itself in each language.
type phrased struct{}

func (phrased) Error() string { return "head and tail cannot be combined" }
func (phrased) Message(lang Lang) string {
	return i18n.Pick(lang, "head and tail cannot be combined", "head 和 tail 不能同时使用")
}

func TestAPhraserSaysItselfInTheLanguageAsked(t *testing.T) {
	errs := hookErrors(phrased{})
	if got, want := errs.Text(Chinese), "head 和 tail 不能同时使用"; got != want {
		t.Errorf("in Chinese: %q, want %q", got, want)
	}
	if got, want := errs.Text(English), "head and tail cannot be combined"; got != want {
		t.Errorf("in English: %q, want %q", got, want)
	}
	if got := errs.Problems[0].Detail; got != "head and tail cannot be combined" {
		t.Errorf("Detail = %q, want the error's text", got)
	}
}
