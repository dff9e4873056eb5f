package schemagen

import (
	"fmt"
	"strings"
)

// Lang selects the language of problem messages.
type Lang string

// The languages of the message catalog.
const (
	// English is the default language, used for any unknown Lang.
	English Lang = "en"
	// Chinese is Simplified Chinese.
	Chinese Lang = "zh"
)

// ParseLang returns the Lang for a language tag such as "en", "en-US",
// "zh", "zh_CN" or "zh-Hans". Only the primary subtag counts, case
// insensitively; any other language is an error, and callers usually fall
// back to English.
func ParseLang(s string) (Lang, error) {
	primary, _, _ := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	switch strings.ToLower(strings.TrimSpace(primary)) {
	case "en":
		return English, nil
	case "zh":
		return Chinese, nil
	}
	return English, fmt.Errorf("schemagen: unsupported language %q; use %q or %q", s, English, Chinese)
}
