package toolcall

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/i18n"
)

// MismatchKind says how an argument breaks its tool's schema.
type MismatchKind int

// The kinds of [Mismatch].
const (
	// WrongType is a value of another JSON type than the schema's: Want
	// names the types allowed ("integer", "string or null"), Got the type
	// written.
	WrongType MismatchKind = iota
	// NotAllowed is a value outside "enum" or unlike "const", or any value
	// where the schema is false: Want lists what is allowed, Got is the
	// value as written.
	NotAllowed
	// Missing is a required member absent when its object closed; Path is
	// the member's path.
	Missing
	// Unknown is a member that additionalProperties: false forbids; Want
	// lists the known members.
	Unknown
	// TooSmall is a number below its minimum (or exclusiveMinimum), a
	// string shorter than minLength characters, or an array with fewer
	// than minItems elements: Rule names the keyword, Want its value, Got
	// the value, its length or its count.
	TooSmall
	// TooLarge is the same above maximum, exclusiveMaximum, maxLength or
	// maxItems.
	TooLarge
)

// Mismatch is one way a call's arguments break the tool's input schema.
type Mismatch struct {
	Kind MismatchKind
	// Path is the JSON pointer of the value, as in [Event]: "" for the
	// arguments object, "/limit" for its member "limit".
	Path string
	// Rule is the keyword broken, such as "type" or "maxLength".
	Rule      string
	Want, Got string
}

// Message returns a sentence that tells a model what is wrong, in lang:
// "/limit: a string was given where an integer is required."
func (m Mismatch) Message(lang i18n.Lang) string {
	at := m.Path
	if at == "" {
		at = catalog.Text(lang, msgTheArguments)
	}
	switch m.Kind {
	case WrongType:
		want, got := typeWords(m.Want, lang), typeWords(m.Got, lang)
		if lang != i18n.Chinese {
			want, got = article(want), article(got)
		}
		return catalog.Say(lang, msgWrongType, at, got, want)
	case NotAllowed:
		if m.Want == "" {
			return catalog.Say(lang, msgNoValue, at)
		}
		return catalog.Say(lang, msgNotAllowed, at, m.Got, m.Want)
	case Missing:
		return catalog.Say(lang, msgMissing, at)
	case Unknown:
		if m.Want == "" {
			return catalog.Say(lang, msgUnknownNone, at)
		}
		return catalog.Say(lang, msgUnknown, at, m.Want)
	case TooSmall, TooLarge:
		if id, ok := boundMessage(m.Rule); ok {
			return catalog.Say(lang, id, at, m.Got, m.Want)
		}
		return at
	}
	return catalog.Say(lang, msgOtherRule, at, m.Rule)
}

// boundMessage returns the sentence of the bound named by a keyword.
func boundMessage(rule string) (msgID, bool) {
	// In the order of their messages, from msgMinimum on.
	rules := [...]string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"}
	i := slices.Index(rules[:], rule)
	return msgMinimum + msgID(i), i >= 0
}

// typeWords names JSON types for a sentence: "integer or null" stays so
// in English and becomes "整数或null" in Chinese; a name it does not
// know stays as it is.
func typeWords(types string, lang i18n.Lang) string {
	parts := strings.Split(types, " or ")
	for i, p := range parts {
		if id, ok := typeMessage(p); ok {
			parts[i] = catalog.Text(lang, id)
		}
	}
	return strings.Join(parts, catalog.Text(lang, msgTypeOr))
}

// typeMessage returns the name of a JSON type but null, given its name
// in a schema.
func typeMessage(name string) (msgID, bool) {
	// In the order of their messages, from msgTypeBoolean on.
	types := [...]string{"boolean", "object", "array", "number", "string", "integer"}
	i := slices.Index(types[:], name)
	return msgTypeBoolean + msgID(i), i >= 0
}

// article puts "a" or "an" before a type name (never before null).
func article(s string) string {
	switch {
	case strings.HasPrefix(s, "null"):
		return s
	case strings.HasPrefix(s, "a") || strings.HasPrefix(s, "i") || strings.HasPrefix(s, "o"):
		return "an " + s
	}
	return "a " + s
}

// String returns the mismatch's English message.
func (m Mismatch) String() string { return m.Message(i18n.English) }

// String returns the kind's name, such as "wrong type".
func (k MismatchKind) String() string {
	switch k {
	case WrongType:
		return "wrong type"
	case NotAllowed:
		return "not allowed"
	case Missing:
		return "missing"
	case Unknown:
		return "unknown"
	case TooSmall:
		return "too small"
	case TooLarge:
		return "too large"
	}
	return "MismatchKind(" + strconv.Itoa(int(k)) + ")"
}
