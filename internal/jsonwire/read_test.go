package jsonwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// readSeeds are JSON texts and near misses at the edges of the grammar.
var readSeeds = []string{
	``, ` `, `{}`, ` {} `, `{`, `}`, `[]`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{1:2}`, `null`, `nul`, `nullx`, `true`, `false`, `t`,
	`0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5e`, `1e+`, `1E-7`, `-12.5e+3`, `1 2`, `[1 2]`,
	`""`, `"a`, `"\"`, `"\\"`, `"\/"`, `"\'"`, `"\x"`, `"\u"`, `"\u12"`, `"\u12g4"`, `"\u00e9"`, `"\u00E9"`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, `"\ud83d\ud83d\ude00"`, `"\ud83d\u12"`,
	"\"a\tb\"", "\"a\x00b\"", "\"a\x7fb\"", "\"\xff\"", "\"caf\xc3\xa9\"", "\"\xed\xa0\x80\"",
	`{"a":{"b":[1,{"c":null}],"d":"e"},"f":[[]],"g":{}}`, `{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `{"a":1,"b":{"a":2}}`,
	`{"path":"src/main.go","content":"package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n","dry_run":false}`,
	`{"x":"0123456789abcdef\"0123456789abcdef\\0123456789abcdef\n"}`, `{"x":"01234567"} x`, `{"x":1}{}`, "{\"x\":1}\n\t ",
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range readSeeds {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v; json.Valid: %v", s, got, want)
		}
		valueEndAgrees(t, []byte(s))
	}
}

// valueEndAgrees fails t unless ValueEnd finds the end of the value that
// starts after data's leading whitespace, valid and followed by nothing
// but whitespace exactly when json.Valid(data); and, for data that is
// also UTF-8, unless DecodeValid decodes that value as encoding/json does.
func valueEndAgrees(t *testing.T, data []byte) {
	t.Helper()
	want := json.Valid(data)
	end, ok := ValueEnd(data, skipSpace(data, 0), 0)
	if whole := ok && skipSpace(data, end) == len(data); whole != want {
		t.Fatalf("ValueEnd(%q) = %d, %v; json.Valid: %v", data, end, ok, want)
	}
	if want && utf8.Valid(data) {
		decodeValueAgrees(t, bytes.TrimSpace(data))
	}
}

// decodeValueAgrees fails t unless DecodeValid(data), for one valid value
// in UTF-8, decodes what a json.Decoder with UseNumber decodes, or refuses
// it for a key repeated in an object.
func decodeValueAgrees(t *testing.T, data []byte) {
	t.Helper()
	got, ok := DecodeValid(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("encoding/json refuses %q: %v", data, err)
	}
	if wantOK := !repeatsKey(data); ok != wantOK || ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeValid(%q) = %#v, %v; encoding/json: %#v", data, got, ok, want)
	}
}

func TestDecodeValidRefusesARepeatedKey(t *testing.T) {
	for _, v := range []string{`{"a":1,"a":2}`, `[{"b":{"c":1,"c":1}}]`} {
		if got, ok := DecodeValid([]byte(v)); ok {
			t.Errorf("DecodeValid(%s) = %#v, true; want false", v, got)
		}
	}
}

func TestDecodeObjectAgreesWithDecoder(t *testing.T) {
	for _, s := range readSeeds {
		decodeAgrees(t, []byte(s))
	}
}

// TestNestingLimit checks the depth at which encoding/json and these
// functions both give up.
func TestNestingLimit(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		arr := []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
		if got, want := Valid(arr), json.Valid(arr); got != want {
			t.Errorf("Valid of %d nested arrays = %v; json.Valid: %v", depth, got, want)
		}
		obj := []byte(`{"a":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`)
		decodeAgrees(t, obj)
	}
}

// TestStringEnd finds the end of strings with escapes at every place in
// a word of eight bytes.
func TestStringEnd(t *testing.T) {
	for n := range 20 {
		s := `"` + strings.Repeat("a", n) + `\"\\` + strings.Repeat("b", n) + `"`
		data := []byte(s + `,"next"`)
		if got := StringEnd(data, 0); got != len(s) {
			t.Errorf("StringEnd(%q, 0) = %d, want %d", data, got, len(s))
		}
	}
	if got := StringEnd([]byte(`"abc`), 0); got != 4 {
		t.Errorf("StringEnd of an unterminated string = %d, want 4", got)
	}
}

// decodeAgrees fails t unless DecodeObject(data) decodes what a
// json.Decoder with UseNumber decodes, or refuses exactly what it must:
// anything but one object of valid UTF-8 that encoding/json decodes,
// with no key repeated in an object.
func decodeAgrees(t *testing.T, data []byte) {
	t.Helper()
	got, ok := DecodeObject(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	err := dec.Decode(&want)
	_, isObject := want.(map[string]any)
	wantOK := err == nil && isObject && utf8.Valid(data) &&
		len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) == 0 && !repeatsKey(data)
	if ok != wantOK {
		t.Fatalf("DecodeObject(%q): ok = %v, want %v (encoding/json: %v)", data, ok, wantOK, err)
	}
	if ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeObject(%q) = %#v; encoding/json: %#v", data, got, want)
	}
}

// repeatsKey reports whether valid JSON text repeats a key in an object.
func repeatsKey(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var keys []map[string]bool // of the objects open, innermost last
	var inObject []bool        // whether each open container is an object
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			keys = append(keys, map[string]bool{})
			inObject = append(inObject, true)
			expectKey = true
			continue
		case json.Delim('['):
			inObject = append(inObject, false)
			expectKey = false
			continue
		case json.Delim('}'):
			keys = keys[:len(keys)-1]
			fallthrough
		case json.Delim(']'):
			inObject = inObject[:len(inObject)-1]
		default:
			if k, isString := tok.(string); expectKey && isString {
				if keys[len(keys)-1][k] {
					return true
				}
				keys[len(keys)-1][k] = true
				expectKey = false
				continue
			}
		}
		// A value ended: a key comes next inside an object.
		expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}

// unquoteAgrees fails t unless Unquote(raw) decodes what json.Unmarshal
// decodes into a string, or refuses what it refuses, what is not UTF-8
// and what has whitespace around the string.
func unquoteAgrees(t *testing.T, raw []byte) {
	t.Helper()
	got, ok := Unquote(raw)
	var want string
	err := json.Unmarshal(raw, &want)
	wantOK := err == nil && utf8.Valid(raw) && len(raw) > 0 && raw[0] == '"' && raw[len(raw)-1] == '"'
	if ok != wantOK || ok && got != want {
		t.Fatalf("Unquote(%q) = %q, %v; json.Unmarshal: %q, %v", raw, got, ok, want, err)
	}
}

func TestUnquoteAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range readSeeds {
		unquoteAgrees(t, []byte(s))
	}
}

// sameStringAgrees fails t unless SameString(a, b) says whether a and b
// decode to the same string, on valid JSON strings of valid UTF-8.
func sameStringAgrees(t *testing.T, a, b []byte) {
	t.Helper()
	sa, okA := Unquote(a)
	sb, okB := Unquote(b)
	if !okA || !okB {
		return
	}
	if got := SameString(a, b); got != (sa == sb) {
		t.Fatalf("SameString(%s, %s) = %v; they decode to %q and %q", a, b, got, sa, sb)
	}
}

func TestSameString(t *testing.T) {
	for _, tc := range [][2]string{
		{`"abc"`, `"abc"`}, {`"abc"`, `"abd"`}, {`"a\nb"`, `"a\u000ab"`}, {`"a\\nb"`, `"a\nb"`}, {`"\/"`, `"/"`},
		{`"é"`, `"\u00e9"`}, {`"é"`, `"ê"`}, {`"\u00e9x"`, `"\u00e8x"`}, {`"\ud83d\ude00"`, `"😀"`}, {`"\ud83d\ude00"`, `"\ud83d\ude01"`},
		{`"\ud83d\ude00"`, `"\ud83dx"`}, {`"\ud83d"`, `"\ufffd"`}, {`"\ud83d"`, `"�"`}, {`"ab"`, `"abc"`}, {`""`, `"\u0000"`},
		{`"x\\\\"`, `"x\\\\\\\\"`}, {`"\\\\u0041"`, `"\\\\A"`}, {`"\u0041BC"`, `"ABC"`},
		{`"` + strings.Repeat("a", 70) + `\t"`, `"` + strings.Repeat("a", 70) + `\u0009"`},
	} {
		sameStringAgrees(t, []byte(tc[0]), []byte(tc[1]))
		sameStringAgrees(t, []byte(tc[1]), []byte(tc[0]))
	}
}

// FuzzSameString holds SameString to comparing the decoded strings.
func FuzzSameString(f *testing.F) {
	f.Add(`"a\nb"`, `"a\u000ab"`)
	f.Add(`"\ud83d\ude00"`, `"\ud83d\ude01"`)
	f.Add(`"é\u00e9"`, `"\u00e9é"`)
	f.Fuzz(func(t *testing.T, a, b string) {
		sameStringAgrees(t, []byte(a), []byte(b))
		// The same string written another way: escapes for < > & and
		// none of those it had.
		if s, ok := Unquote([]byte(a)); ok {
			alt := AppendString(nil, s, true)
			sameStringAgrees(t, []byte(a), alt)
			sameStringAgrees(t, alt, []byte(a))
		}
		// Two strings, each written with every n-th character as a \u
		// escape (surrogate pairs beyond U+FFFF).
		if utf8.ValidString(a) && utf8.ValidString(b) {
			for n := 1; n <= 3; n++ {
				for m := 2; m <= 4; m++ {
					sameStringAgrees(t, escapeEvery(a, n), escapeEvery(b, m))
					sameStringAgrees(t, escapeEvery(a, n), escapeEvery(a, m))
				}
			}
		}
	})
}

// escapeEvery writes s as a JSON string with every n-th character as a
// \u escape and the others as AppendString writes them.
func escapeEvery(s string, n int) []byte {
	out := []byte{'"'}
	i := 0
	for _, r := range s {
		if i%n == 0 {
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04X`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			enc := AppendString(nil, string(r), false)
			out = append(out, enc[1:len(enc)-1]...)
		}
		i++
	}
	return append(out, '"')
}

// FuzzValid holds Valid to json.Valid.
func FuzzValid(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v; json.Valid: %v", data, got, want)
		}
		valueEndAgrees(t, data)
		// DecodeValid never panics on what was not checked.
		_, _ = DecodeValid(data)
	})
}

// FuzzDecodeObject holds DecodeObject to a json.Decoder with UseNumber,
// the text as given and wrapped in an object as the string at every
// place in a word of eight bytes.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeAgrees(t, data)
		unquoteAgrees(t, data)
		unquoteAgrees(t, []byte(`"`+string(data)+`"`))
		for n := range 8 {
			wrapped := []byte(`{"` + strings.Repeat("k", n) + `":"` + string(data) + `"}`)
			decodeAgrees(t, wrapped)
		}
	})
}

// skipAgrees fails t unless Skip finds, in valid text, the end ValueEnd
// finds, from the first value and from every value after a comma or a
// colon.
func skipAgrees(t *testing.T, data []byte) {
	t.Helper()
	if !json.Valid(data) {
		_ = Skip(data, 0) // never panics
		return
	}
	for i := range data {
		if i > 0 && data[i-1] != ',' && data[i-1] != ':' && data[i-1] != '[' {
			continue
		}
		j := SkipSpace(data, i)
		if j == len(data) || data[j] == '}' || data[j] == ']' || i > 0 && insideString(data, i) {
			continue
		}
		want, _ := ValueEnd(data, j, 0)
		if got := Skip(data, j); got != want {
			t.Fatalf("Skip(%q, %d) = %d; ValueEnd: %d", data, j, got, want)
		}
	}
}

// insideString reports whether data[i] lies inside a string of the valid
// text data.
func insideString(data []byte, i int) bool {
	for j := 0; j < i; j++ {
		if data[j] == '"' {
			end := StringEnd(data, j)
			if i < end {
				return true
			}
			j = end - 1
		}
	}
	return false
}

func TestSkipFindsWhatValueEndFinds(t *testing.T) {
	for _, s := range readSeeds {
		skipAgrees(t, []byte(s))
	}
}

// FuzzSkip holds Skip to ValueEnd on valid text, and to never panicking
// on the rest.
func FuzzSkip(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { skipAgrees(t, data) })
}
