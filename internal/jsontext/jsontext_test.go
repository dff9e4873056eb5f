package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
)

// reference is what encoding/json writes for s.
func reference(s string, html bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var samples = []string{"", "plain", `a"b\c`, "\x00\x1f\x7f\b\f\n\r\t", "<a href=\"x\">&</a>", "\u2028\u2029", "\xff\xfe bad", "\xed\xa0\x80", "静夜思", `\u003c`}

func TestAppendStringWritesWhatEncodingJSONWrites(t *testing.T) {
	for _, s := range samples {
		for _, html := range []bool{true, false} {
			if got, want := AppendString(nil, s, html), reference(s, html); !bytes.Equal(got, want) {
				t.Errorf("%q html %v: got %s, want %s", s, html, got, want)
			}
		}
	}
}

// FuzzAppendString checks the encoder against encoding/json, byte for
// byte, with and without HTML escaping.
func FuzzAppendString(f *testing.F) {
	for _, s := range samples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			if got, want := AppendString(nil, s, html), reference(s, html); !bytes.Equal(got, want) {
				t.Fatalf("%q html %v: got %s, want %s", s, html, got, want)
			}
		}
	})
}
