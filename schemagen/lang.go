package schemagen

import (
	"fmt"

	"github.com/stdiotools/toolserver/i18n"
)

// Lang selects the language of problem messages. It is [i18n.Lang], the
// switch every message catalog of toolserver shares.
type Lang = i18n.Lang

// The languages of the message catalog.
const (
	// English is the default language, used for any unknown Lang.
	English = i18n.English
	// Chinese is Simplified Chinese.
	Chinese = i18n.Chinese
)

// Phraser is an error that can say itself in each language, such as one
// from a tool's own message catalog. When a Validate method returns one,
// the problem's message in a language is its Message in that language;
// its Error is the problem's Detail.
type Phraser interface {
	error
	Message(lang Lang) string
}

// ParseLang returns the Lang for a language tag such as "en", "en-US",
// "zh", "zh_CN" or "zh-Hans"; see [i18n.Parse].
func ParseLang(s string) (Lang, error) {
	l, err := i18n.Parse(s)
	if err != nil {
		return l, fmt.Errorf("schemagen: %w", err)
	}
	return l, nil
}
