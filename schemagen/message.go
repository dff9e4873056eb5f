package schemagen

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/security"
)

// maxShown is how many characters of a received value a message shows.
const maxShown = 24

// maxAllowedShown is how many allowed values a message lists.
const maxAllowedShown = 8

// Message returns the problem as one sentence in lang, built from the
// catalog. A Problem built by hand, without a catalog entry, reads as its
// Detail, or as a generic sentence about its Path when Detail is empty.
func (p Problem) Message(lang Lang) string {
	id := p.msg
	if id == msgNone && p.phrase != nil {
		return p.phrase.Message(lang)
	}
	if id == msgNone {
		if p.Detail != "" {
			return p.Detail
		}
		id = msgInvalid
	}
	return expand(catalog.Text(lang, id), &p, lang)
}

// expand fills the {placeholders} of a catalog template from p.
func expand(tpl string, p *Problem, lang Lang) string {
	return i18n.Expand(tpl, func(name string) (string, bool) { return placeholder(name, p, lang) })
}

// placeholder returns the text of one placeholder.
func placeholder(name string, p *Problem, lang Lang) (string, bool) {
	switch name {
	case "arg":
		if p.Path == "" {
			return catalog.Text(lang, msgArguments), true
		}
		return `"` + p.Path + `"`, true
	case "want":
		return typeNoun(p.Expected, lang), true
	case "got":
		return p.Got, true
	case "gotDesc":
		if p.GotType == "" || p.GotType == "null" {
			return p.Got, true
		}
		return expand(catalog.Text(lang, msgGotDesc), p, lang), true
	case "gotType":
		return typeNoun(p.GotType, lang), true
	case "limit":
		return p.Limit, true
	case "count", "n":
		return strconv.Itoa(p.Count), true
	case "pos":
		return strconv.Itoa(p.Position), true
	case "char":
		return p.Char, true
	case "class":
		return classPhrase(security.CharClass(p.Class), lang), true
	case "suggest":
		return `"` + p.Suggest + `"`, true
	case "detail":
		return p.Detail, true
	case "allowed":
		shown := p.Allowed
		if len(shown) > maxAllowedShown {
			shown = append(shown[:maxAllowedShown:maxAllowedShown], "…")
		}
		return strings.Join(shown, catalog.Text(lang, msgListSep)), true
	}
	return "", false
}

// typeNoun returns the noun for a JSON type name, such as "an integer".
func typeNoun(typ string, lang Lang) string {
	id := msgNounAny
	switch typ {
	case "string":
		id = msgNounString
	case "integer":
		id = msgNounInteger
	case "number":
		id = msgNounNumber
	case "boolean":
		id = msgNounBoolean
	case "object":
		id = msgNounObject
	case "array":
		id = msgNounArray
	case "null":
		id = msgNounNull
	}
	return catalog.Text(lang, id)
}

// classPhrase names the characters of a class in lang.
func classPhrase(c security.CharClass, lang Lang) string {
	if lang == English {
		return c.Describe()
	}
	id := msgNone
	switch c {
	case security.ClassIdent:
		id = msgClassIdent
	case security.ClassPath:
		id = msgClassPath
	case security.ClassGlob:
		id = msgClassGlob
	case security.ClassText:
		id = msgClassText
	case security.ClassExpr:
		id = msgClassExpr
	}
	if t := catalog.Text(lang, id); t != "" {
		return t
	}
	return c.Describe()
}

// typeOfValue returns the JSON type name of a parsed value.
func typeOfValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return "number"
		}
		return "integer"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "any"
}

// shortValue returns a parsed value as compact JSON text of at most about
// maxShown characters, cut with "…". Strings stay quoted; characters that
// are not printable are escaped so the text is safe to show.
func shortValue(v any) string {
	switch v := v.(type) {
	case string:
		return quoteShort(v, maxShown)
	case json.Number:
		return cut(string(v), maxShown)
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	}
	b, err := jsonwire.Marshal(v)
	if err != nil {
		return typeOfValue(v)
	}
	return escapeUnprintable(cut(string(b), maxShown))
}

// cut shortens s to n characters, ending it with "…" when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// quoteShort quotes s JSON-style after cutting it to n characters.
func quoteShort(s string, n int) string {
	s = cut(s, n)
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			writeRune(&b, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// escapeUnprintable escapes the characters of s that are not printable.
func escapeUnprintable(s string) string {
	var b strings.Builder
	for _, r := range s {
		writeRune(&b, r)
	}
	return b.String()
}

// writeRune writes r, or \uXXXX when it is not printable (or an invisible
// format character that could disguise the text around it).
func writeRune(b *strings.Builder, r rune) {
	if r == ' ' || (unicode.IsPrint(r) && r != utf8.RuneError) {
		b.WriteRune(r)
		return
	}
	if r > 0xFFFF {
		b.WriteString(`\U`)
		b.WriteString(strings.ToUpper(strconv.FormatInt(int64(r)|1<<32, 16)[1:]))
		return
	}
	b.WriteString(`\u`)
	b.WriteString(strings.ToUpper(strconv.FormatInt(int64(r)|1<<16, 16)[1:]))
}

// charDisplay shows a refused character: quoted when printable, as U+XXXX
// otherwise.
func charDisplay(r rune) string {
	if r != '\'' && r != utf8.RuneError && unicode.IsPrint(r) && !unicode.Is(unicode.Mn, r) {
		return "'" + string(r) + "'"
	}
	s := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for len(s) < 4 {
		s = "0" + s
	}
	return "U+" + s
}
