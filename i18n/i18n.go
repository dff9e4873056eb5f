// Package i18n names the languages toolserver speaks to a model. Every
// sentence a model reads (invalid arguments, refused paths) comes from a
// catalog with one text per language; this package is the switch they
// share, so that --lang changes all of them at once.
package i18n

import (
	"fmt"
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
