package i18n

import "strings"

// Fill returns tpl with each of its placeholders {1} to {9} replaced by
// arg(0) to arg(8), for the first n of them, in one pass: the text an
// argument brings is never read for placeholders itself, and any other
// brace stays as it is. A language may place the placeholders in any
// order and use one more than once.
func Fill(tpl string, n int, arg func(i int) string) string {
	if n == 0 || strings.IndexByte(tpl, '{') < 0 {
		return tpl
	}
	var b strings.Builder
	b.Grow(len(tpl) + 16*n)
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 || i+2 >= len(tpl) {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		if k := int(tpl[i+1]) - '1'; tpl[i+2] == '}' && 0 <= k && k < n {
			b.WriteString(arg(k))
			tpl = tpl[i+3:]
			continue
		}
		b.WriteByte('{')
		tpl = tpl[i+1:]
	}
}

// Expand returns tpl with each placeholder, a name of ASCII letters and
// digits in braces ("{path}", "{1}"), replaced by what value gives for
// the name, in one pass as [Fill] does. A placeholder whose name value
// does not know (its ok false) stays as it is, as does any other brace.
// It serves the catalogs whose placeholders are named, such as
// "{path} does not exist".
func Expand(tpl string, value func(name string) (string, bool)) string {
	if strings.IndexByte(tpl, '{') < 0 {
		return tpl
	}
	var b strings.Builder
	b.Grow(len(tpl) + 32)
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		j := i + 1
		for j < len(tpl) && (isLetter(rune(tpl[j])) || '0' <= tpl[j] && tpl[j] <= '9') {
			j++
		}
		if j > i+1 && j < len(tpl) && tpl[j] == '}' {
			if v, ok := value(tpl[i+1 : j]); ok {
				b.WriteString(v)
				tpl = tpl[j+1:]
				continue
			}
		}
		b.WriteByte('{')
		tpl = tpl[i+1:]
	}
}
