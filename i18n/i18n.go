// Package i18n names the languages toolserver speaks to a model and
// holds the catalog type its packages keep their sentences in. Every
// sentence a model reads (invalid arguments, refused paths) comes from a
// [Catalog] with one text per language; this package is the switch they
// share, so that --lang changes all of them at once, and [Catalog.Check]
// is the test that holds each catalog to both languages.
package i18n

import (
	"fmt"
	"slices"
	"strings"
)

// Lang selects the language of the messages a model reads.
type Lang string

// The languages of the message catalogs.
const (
	// English is the default language, used for any unknown Lang.
	English Lang = "en"
	// Chinese is Simplified Chinese.
	Chinese Lang = "zh"
)

// Parse returns the Lang for a language tag such as "en", "en-US", "zh",
// "zh_CN" or "zh-Hans". Only the primary subtag counts, case
// insensitively; any other language is an error, and callers usually fall
// back to English.
func Parse(s string) (Lang, error) {
	primary, _, _ := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	switch strings.ToLower(strings.TrimSpace(primary)) {
	case "en":
		return English, nil
	case "zh":
		return Chinese, nil
	}
	return English, fmt.Errorf("unsupported language %q; use %q or %q", s, English, Chinese)
}

// Pick returns the text for lang from an English and a Chinese text.
func Pick(lang Lang, en, zh string) string {
	if lang == Chinese {
		return zh
	}
	return en
}

// Check reports what is wrong with one entry of a message catalog, given
// its English and its Chinese text, or nil. Both texts must be non-empty;
// the Chinese must differ from the English and hold a character that is
// not ASCII, unless the English holds no letter outside its placeholders
// (a joiner such as "{1}; {2}" is still punctuation to translate); and
// both must hold the same placeholders, each a name or number in braces
// ("{path}", "{1}"), in any order and any number of times. The catalogs'
// tests run it on every entry, so that no message reaches a model in one
// language only.
func Check(en, zh string) error {
	if en == "" || zh == "" {
		return fmt.Errorf("the English %q and the Chinese %q: both are needed", en, zh)
	}
	enOwn, enHoles := splitPlaceholders(en)
	zhOwn, zhHoles := splitPlaceholders(zh)
	if !sameSet(enHoles, zhHoles) {
		return fmt.Errorf("the English %q has the placeholders %v, the Chinese %q has %v", en, enHoles, zh, zhHoles)
	}
	if !strings.ContainsFunc(enOwn, isLetter) {
		return nil
	}
	if en == zh {
		return fmt.Errorf("%q is not translated", en)
	}
	if !strings.ContainsFunc(zhOwn, func(r rune) bool { return r > 0x7f }) {
		return fmt.Errorf("the Chinese %q of %q has no Chinese character", zh, en)
	}
	return nil
}

// splitPlaceholders returns s without its placeholders, and the
// placeholders.
func splitPlaceholders(s string) (own string, holes []string) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String(), holes
		}
		j := i + 1
		for j < len(s) && (isLetter(rune(s[j])) || '0' <= s[j] && s[j] <= '9') {
			j++
		}
		if j == i+1 || j == len(s) || s[j] != '}' {
			b.WriteString(s[:i+1]) // a brace of the text, such as \u{…}
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		holes = append(holes, s[i:j+1])
		s = s[j+1:]
	}
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// sameSet reports whether a and b hold the same strings, ignoring order
// and repetition.
func sameSet(a, b []string) bool {
	in := func(s string, set []string) bool { return slices.Contains(set, s) }
	for _, s := range a {
		if !in(s, b) {
			return false
		}
	}
	for _, s := range b {
		if !in(s, a) {
			return false
		}
	}
	return true
}
