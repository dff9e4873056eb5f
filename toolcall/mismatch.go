package toolcall

import (
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
		at = i18n.Pick(lang, "the arguments", "参数")
	}
	zh := lang == i18n.Chinese
	switch m.Kind {
	case WrongType:
		if zh {
			return at + "：需要" + typeWords(m.Want, lang) + "，却给了" + typeWords(m.Got, lang) + "。"
		}
		return at + ": " + article(typeWords(m.Got, lang)) + " was given where " + article(typeWords(m.Want, lang)) + " is required."
	case NotAllowed:
		if m.Want == "" {
			return i18n.Pick(lang, at+": no value is allowed here.", at+"：此处不允许任何值。")
		}
		return i18n.Pick(lang, at+": "+m.Got+" is not allowed; use one of: "+m.Want+".", at+"："+m.Got+" 不被允许；请使用其中之一："+m.Want+"。")
	case Missing:
		return i18n.Pick(lang, at+": this argument is required but missing.", at+"：缺少这个必需的参数。")
	case Unknown:
		if m.Want == "" {
			return i18n.Pick(lang, at+": this argument is not known; the tool takes none.", at+"：未知参数；该工具不接受参数。")
		}
		return i18n.Pick(lang, at+": this argument is not known; the known ones are: "+m.Want+".", at+"：未知参数；已知的参数有："+m.Want+"。")
	case TooSmall, TooLarge:
		return at + boundWords(m, lang)
	}
	return at + ": " + m.Rule
}

// boundWords phrases a broken bound, after the path.
func boundWords(m Mismatch, lang i18n.Lang) string {
	type words struct{ en, zh string }
	w := map[string]words{
		"minimum":          {": %g is below the minimum %w.", "：%g 小于最小值 %w。"},
		"exclusiveMinimum": {": %g must be greater than %w.", "：%g 必须大于 %w。"},
		"maximum":          {": %g is above the maximum %w.", "：%g 大于最大值 %w。"},
		"exclusiveMaximum": {": %g must be less than %w.", "：%g 必须小于 %w。"},
		"minLength":        {": %g characters; at least %w are required.", "：%g 个字符；至少需要 %w 个。"},
		"maxLength":        {": %g characters; at most %w are allowed.", "：%g 个字符；最多允许 %w 个。"},
		"minItems":         {": %g elements; at least %w are required.", "：%g 个元素；至少需要 %w 个。"},
		"maxItems":         {": more than %w elements; at most %w are allowed.", "：多于 %w 个元素；最多允许 %w 个。"},
	}[m.Rule]
	s := i18n.Pick(lang, w.en, w.zh)
	return strings.NewReplacer("%g", m.Got, "%w", m.Want).Replace(s)
}

// typeWords names JSON types for a sentence: "integer or null" becomes
// "integer or null" in English and "整数或 null" in Chinese.
func typeWords(types string, lang i18n.Lang) string {
	if lang != i18n.Chinese {
		return types
	}
	zh := map[string]string{"null": "null", "boolean": "布尔值", "object": "对象", "array": "数组", "number": "数字", "string": "字符串", "integer": "整数"}
	parts := strings.Split(types, " or ")
	for i, p := range parts {
		if t, ok := zh[p]; ok {
			parts[i] = t
		}
	}
	return strings.Join(parts, "或")
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
