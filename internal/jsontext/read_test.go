package jsontext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
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

// FuzzValid holds Valid to json.Valid.
func FuzzValid(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v; json.Valid: %v", data, got, want)
		}
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
		for n := range 8 {
			wrapped := []byte(`{"` + strings.Repeat("k", n) + `":"` + string(data) + `"}`)
			decodeAgrees(t, wrapped)
		}
	})
}
