package jsonwire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/stdiotools/toolserver/internal/swar"
)

// This file reads JSON text as encoding/json reads it, for the one kind
// of text where encoding/json is slow: long strings, such as the content
// of a file written through a tool. encoding/json looks at every byte of
// a string through its scanner's state machine, once to find where a
// value ends and again to decode it, and copies the text in between;
// here a string is crossed eight bytes at a time (package swar), and
// decoded straight into its final form.
//
// The answers are encoding/json's on every input, which differential
// fuzz targets check. Where encoding/json would fail, these functions
// only say no; the caller asks encoding/json for the reason.

// maxDepth is how deeply encoding/json lets arrays and objects nest.
const maxDepth = 10000

// Valid reports whether data is one JSON value with optional whitespace
// around it, exactly as [json.Valid] does (which, like it, lets bytes
// that are not UTF-8 through inside strings).
func Valid(data []byte) bool {
	i, ok := skipValue(data, skipSpace(data, 0), 0)
	return ok && skipSpace(data, i) == len(data)
}

// ValueEnd returns the index just past the JSON value that starts at
// data[i], inside depth arrays and objects (0 for a value that stands
// alone), and whether it is valid, as [Valid] checks it, nesting
// included. It is for a caller that walks an object itself to keep some
// of its members: it skips every other value, and every name, with
// ValueEnd, and so checks the whole text in the same pass.
func ValueEnd(data []byte, i, depth int) (int, bool) {
	return skipValue(data, i, depth)
}

// StringEnd returns the index just past the closing quote of the string
// whose opening quote is data[i], in valid JSON text, or len(data) if
// there is none. It jumps from quote to quote (bytes.IndexByte), and the
// closing quote is the first after an even run of backslashes.
func StringEnd(data []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		j += k
		run := 0
		for data[j-1-run] == '\\' { // stops at data[i], a quote at worst
			run++
		}
		j++
		if run%2 == 0 {
			return j
		}
	}
}

// DecodeObject decodes data, one JSON object with optional whitespace
// around it, into what a [json.Decoder] with UseNumber decodes it into as
// an any: a map[string]any whose values are such maps, []any, strings,
// [json.Number], bools and nil. ok is false when data is anything else,
// when it is not valid UTF-8, when an object repeats a key (which
// encoding/json would decode as the last value), or when it nests more
// deeply than encoding/json allows.
//
// A string is decoded in one pass straight into memory of its own, as
// long as its escaped text in data: about a tenth longer than the string
// for source code, where one character in ten or so is a line break, a
// tab or a quote. The value shares no bytes with data.
func DecodeObject(data []byte) (obj map[string]any, ok bool) {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return nil, false
	}
	d := decoder{data: data}
	v, i, ok := d.value(i, 0)
	if !ok || skipSpace(data, i) != len(data) {
		return nil, false
	}
	return v.(map[string]any), true
}

// Unquote decodes raw, one JSON string, quotes included, as encoding/json
// decodes it. ok is false when raw is anything else or is not valid UTF-8.
func Unquote(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	d := decoder{data: raw}
	return d.text(0, len(raw)-1)
}

// DecodeValid decodes data, one JSON value with no whitespace around it,
// as [DecodeObject] decodes the values of an object, but without checking
// it again: data must be a value that [ValueEnd] (or [Valid]) and
// utf8.Valid have accepted, such as a member of an object that a caller
// checked whole as it walked it. A string is then decoded in one pass
// that looks only for backslashes, since data says where it ends. ok is
// false when an object in data repeats a key. On data that was not
// checked the result means nothing, but DecodeValid never panics.
func DecodeValid(data []byte) (v any, ok bool) {
	d := decoder{data: data, valid: true}
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		s, ok := d.text(0, len(data)-1)
		if !ok {
			return nil, false
		}
		return s, true
	}
	v, i, ok := d.value(0, 0)
	if !ok || i != len(data) {
		return nil, false
	}
	return v, true
}

// SameString reports whether a and b, JSON strings (quotes included) in
// valid UTF-8, decode to the same string, as Unquote decodes them. Their
// texts are compared as they are up to where they first differ; only from
// the last character or escape that starts there are they decoded and
// compared a character at a time, until their texts are alike again. Two
// long strings that differ early are told apart at once.
func SameString(a, b []byte) bool {
	if len(a) < 2 || len(b) < 2 || a[0] != '"' || b[0] != '"' || a[len(a)-1] != '"' || b[len(b)-1] != '"' {
		return false
	}
	a, b = a[1:len(a)-1], b[1:len(b)-1]
	i, j := 0, 0 // where a character or escape starts in both
	for {
		k := commonPrefix(a[i:], b[j:])
		q := unitStart(a, i, i+k) - i
		i, j = i+q, j+q
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		ra, na := unit(a, i)
		rb, nb := unit(b, j)
		if na == 0 || nb == 0 || ra != rb {
			return false
		}
		i, j = i+na, j+nb
	}
}

// commonPrefix returns the length of the longest common start of a and
// b, comparing many bytes at a time but for the first chunk that differs.
func commonPrefix(a, b []byte) int {
	const chunk = 64
	i, n := 0, min(len(a), len(b))
	for i+chunk <= n && string(a[i:i+chunk]) == string(b[i:i+chunk]) {
		i += chunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// unitStart returns the last place from lo to q in the text of a JSON
// string where a character or an escape starts, given that one starts at
// lo: q itself unless it falls inside a character of several bytes or
// inside an escape, or right after the first half of a surrogate pair
// written as escapes, which the half after it may complete. It looks only
// at the bytes before q (and whether the byte at q continues a
// character, which the bytes before it decide in valid UTF-8), so it
// finds the same place in two texts alike up to q.
func unitStart(s []byte, lo, q int) int {
	for q > lo && q < len(s) && !utf8.RuneStart(s[q]) {
		q--
	}
	// An escape starts at each backslash that ends a run of odd length:
	// a run of backslashes starts where a character or escape does (no
	// escape ends with a backslash but \\, which is in the run).
	escapeAt := func(p int) bool {
		if s[p] != '\\' {
			return false
		}
		run := 1
		for p-run >= lo && s[p-run] == '\\' {
			run++
		}
		return run%2 == 1
	}
	// Inside an escape: one of its six bytes at most started before q.
	for p := q - 1; p >= max(lo, q-5); p-- {
		if escapeAt(p) && (p == q-1 || s[p+1] == 'u') {
			q = p
			break
		}
	}
	// After a high surrogate: back to it.
	if p := q - 6; p >= lo && escapeAt(p) && s[p+1] == 'u' {
		if r := hex4(s, p+2); r >= 0xD800 && r < 0xDC00 {
			q = p
		}
	}
	return q
}

// unit decodes the character or escape at s[i] of a JSON string's text,
// and returns it and its length, 0 for an escape that is not valid.
func unit(s []byte, i int) (rune, int) {
	if s[i] == '\\' {
		return unescape(s, i)
	}
	return utf8.DecodeRune(s[i:])
}

// SkipSpace returns the index of the first byte from i on that is not
// JSON whitespace, or len(data).
func SkipSpace(data []byte, i int) int { return skipSpace(data, i) }

// Skip returns the index just past the JSON value that starts at data[i],
// in text known to be valid (checked whole by [Valid], [ValueEnd] or a
// caller's walk), as [StringEnd] does for a string: it checks nothing,
// and so crosses a value with a search for each string's closing quote
// and a look at each byte between strings. A caller that splits an
// object it checked before, such as the arguments of a call, walks it
// with Skip and SkipSpace; a text not yet checked is walked with
// ValueEnd. On text that is not valid the index means nothing, but Skip
// never panics and never returns more than len(data).
func Skip(data []byte, i int) int {
	if i >= len(data) {
		return len(data)
	}
	switch data[i] {
	case '"':
		return StringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = StringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	default:
		j := i
		for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' && data[j] != ' ' && data[j] != '\t' && data[j] != '\r' && data[j] != '\n' {
			j++
		}
		return j
	}
}

// skipSpace returns the index of the first byte from i on that is not
// JSON whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at
// data[i], nested depth deep, and whether it is valid.
func skipValue(data []byte, i, depth int) (int, bool) {
	if i >= len(data) {
		return i, false
	}
	switch c := data[i]; c {
	case '"':
		end, ok := scanString(data, i+1)
		return end + 1, ok
	case '{', '[':
		if depth++; depth > maxDepth {
			return i, false
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == closing {
			return i + 1, true
		}
		for {
			var ok bool
			if closing == '}' {
				if i >= len(data) || data[i] != '"' {
					return i, false
				}
				if i, ok = skipValue(data, i, depth); !ok {
					return i, false
				}
				if i = skipSpace(data, i); i >= len(data) || data[i] != ':' {
					return i, false
				}
				i = skipSpace(data, i+1)
			}
			if i, ok = skipValue(data, i, depth); !ok {
				return i, false
			}
			if i = skipSpace(data, i); i >= len(data) {
				return i, false
			}
			switch data[i] {
			case ',':
				i = skipSpace(data, i+1)
			case closing:
				return i + 1, true
			default:
				return i, false
			}
		}
	case 't':
		return literal(data, i, "true")
	case 'f':
		return literal(data, i, "false")
	case 'n':
		return literal(data, i, "null")
	default:
		end := numberEnd(data, i)
		return end, end > i
	}
}

// literal returns the index past word, and whether data holds it at i.
func literal(data []byte, i int, word string) (int, bool) {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// numberEnd returns the index past the JSON number that starts at
// data[i], or i if none does: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(data []byte, i int) int {
	start := i
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digitsEnd(data, i+1)
	default:
		return start
	}
	if i < len(data) && data[i] == '.' {
		j := digitsEnd(data, i+1)
		if j == i+1 {
			return start
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digitsEnd(data, i)
		if j == i {
			return start
		}
		i = j
	}
	return i
}

// digitsEnd returns the index of the first byte from i on that is not a
// decimal digit.
func digitsEnd(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// scanString finds the closing quote of the JSON string whose text starts
// at data[i], just past its opening quote, and says whether the string is
// valid: no control characters, every escape well formed.
func scanString(data []byte, i int) (end int, ok bool) {
	for {
		// Eight bytes at a time up to a quote, a backslash or a control.
		for i+8 <= len(data) {
			w := swar.Load(data, i)
			if m := swar.HasByte(w, '"') | swar.HasByte(w, '\\') | swar.HasBelow(w, 0x20); m != 0 {
				i += swar.First(m)
				break
			}
			i += 8
		}
		for i < len(data) && data[i] != '"' && data[i] != '\\' && data[i] >= 0x20 {
			i++
		}
		switch {
		case i == len(data) || data[i] < 0x20:
			return i, false
		case data[i] == '"':
			return i, true
		case i+1 < len(data) && shortEscapes[data[i+1]] != 0:
			i += 2
			continue
		}
		_, n := unescape(data, i)
		if n == 0 {
			return i, false
		}
		i += n
	}
}

// shortEscapes maps the letter after a backslash to the byte the escape
// stands for, for the escapes of two bytes, and every other byte to 0.
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unescape decodes the escape that starts with the backslash at data[i]
// as encoding/json does, and returns what it stands for and its length
// in data: 0 when it is not valid. A \u escape of half a surrogate pair
// takes the other half with it when that follows; a half without its
// other is U+FFFD.
func unescape(data []byte, i int) (r rune, n int) {
	if i+1 >= len(data) {
		return 0, 0
	}
	switch c := data[i+1]; c {
	case '"', '\\', '/':
		return rune(c), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r = hex4(data, i+2)
		if r < 0 {
			return 0, 0
		}
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
			if pair := utf16.DecodeRune(r, hex4(data, i+8)); pair != utf8.RuneError {
				return pair, 12
			}
		}
		return utf8.RuneError, 6
	}
	return 0, 0
}

// hex4 returns the value of the four hexadecimal digits at data[i], or -1.
func hex4(data []byte, i int) rune {
	if len(data)-i < 4 {
		return -1
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// decoder builds the values of DecodeObject and DecodeValid.
type decoder struct {
	data []byte
	// valid says that data was checked already (DecodeValid), so that its
	// strings are decoded without being checked again.
	valid bool
}

// value decodes the value at data[i], nested depth deep, and returns it
// with the index just past it.
func (d *decoder) value(i, depth int) (any, int, bool) {
	data := d.data
	if i >= len(data) {
		return nil, i, false
	}
	switch data[i] {
	case '"':
		return d.str(i)
	case '{':
		if depth++; depth > maxDepth {
			return nil, i, false
		}
		obj := make(map[string]any)
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == '}' {
			return obj, i + 1, true
		}
		for {
			if i >= len(data) || data[i] != '"' {
				return nil, i, false
			}
			k, j, ok := d.str(i)
			if !ok {
				return nil, j, false
			}
			if i = skipSpace(data, j); i >= len(data) || data[i] != ':' {
				return nil, i, false
			}
			var v any
			if v, i, ok = d.value(skipSpace(data, i+1), depth); !ok {
				return nil, i, false
			}
			key := k.(string)
			if _, dup := obj[key]; dup {
				return nil, i, false
			}
			obj[key] = v
			if i = skipSpace(data, i); i >= len(data) {
				return nil, i, false
			}
			switch data[i] {
			case ',':
				i = skipSpace(data, i+1)
			case '}':
				return obj, i + 1, true
			default:
				return nil, i, false
			}
		}
	case '[':
		if depth++; depth > maxDepth {
			return nil, i, false
		}
		arr := []any{} // encoding/json gives an empty array, not nil
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			return arr, i + 1, true
		}
		for {
			v, j, ok := d.value(i, depth)
			if !ok {
				return nil, j, false
			}
			arr = append(arr, v)
			if i = skipSpace(data, j); i >= len(data) {
				return nil, i, false
			}
			switch data[i] {
			case ',':
				i = skipSpace(data, i+1)
			case ']':
				return arr, i + 1, true
			default:
				return nil, i, false
			}
		}
	case 't':
		j, ok := literal(data, i, "true")
		return true, j, ok
	case 'f':
		j, ok := literal(data, i, "false")
		return false, j, ok
	case 'n':
		j, ok := literal(data, i, "null")
		return nil, j, ok
	default:
		j := numberEnd(data, i)
		return json.Number(data[i:j]), j, j > i
	}
}

// str decodes the string whose opening quote is data[i] into memory of
// its own, checking it as it goes. The closing quote is found first, by
// jumping from quote to quote, so that the memory is as long as the text
// between the quotes.
func (d *decoder) str(i int) (any, int, bool) {
	data := d.data
	end := StringEnd(data, i) - 1
	if end <= i || data[end] != '"' {
		return nil, len(data), false
	}
	s, ok := d.text(i, end)
	return s, end + 1, ok
}

// text decodes the string whose quotes are data[i] and data[end] into
// memory as long as the text between them, which the decoded string never
// exceeds (every escape is longer than what it stands for), checking it
// too: valid UTF-8, no control characters, every escape well formed, and
// no quote inside but escaped ones, so that a caller that takes the last
// quote of a text for the end of a string that starts at its first learns
// whether it is so.
func (d *decoder) text(i, end int) (string, bool) {
	text := d.data[i+1 : end]
	// UTF-8 first, in a pass of its own: utf8.Valid crosses ASCII text a
	// word at a time, far faster than the decoding below would look at
	// the bytes from 0x80 up one sequence at a time.
	if !d.valid && !utf8.Valid(text) {
		return "", false
	}
	// Eight bytes at a time are copied up to a byte that needs a look, and
	// the bytes copied past it are overwritten by what follows: buf has
	// room for eight bytes past the end.
	buf := make([]byte, len(text)+8)
	w := 0
	for r := 0; r < len(text); {
		if r+8 <= len(text) {
			x := swar.Load(text, r)
			binary.LittleEndian.PutUint64(buf[w:], x)
			m := swar.HasByte(x, '\\')
			if !d.valid {
				m |= swar.HasByte(x, '"') | swar.HasBelow(x, 0x20)
			}
			if m == 0 {
				r += 8
				w += 8
				continue
			}
			k := swar.First(m)
			r += k
			w += k
		}
		switch c := text[r]; {
		case c < 0x20 || c == '"':
			return "", false
		case c != '\\':
			buf[w] = c
			r++
			w++
			continue
		}
		if r+1 < len(text) {
			if b := shortEscapes[text[r+1]]; b != 0 {
				buf[w] = b
				w++
				r += 2
				continue
			}
		}
		c, n := unescape(text, r)
		if n == 0 {
			return "", false
		}
		w += utf8.EncodeRune(buf[w:], c)
		r += n
	}
	// buf is never written again: the string can have its bytes.
	return unsafe.String(unsafe.SliceData(buf), w), true
}
