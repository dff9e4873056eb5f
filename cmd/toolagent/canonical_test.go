package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCanonicalFormMergesOnlyWhatEveryServerReadsAlike(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"key order", `{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{"spaces", `{"a": [1, 2]}`, "{ \"a\" :[1,2]\n}", true},
		{"nested key order", `{"o":{"x":1,"y":2}}`, `{"o":{"y":2,"x":1}}`, true},
		{"an escaped letter", `{"p":"\u0041"}`, `{"p":"A"}`, true},
		{"an escaped slash", `{"p":"a\/b"}`, `{"p":"a/b"}`, true},
		{"an escaped pair of surrogates", `{"p":"\ud83d\ude00"}`, `{"p":"😀"}`, true},
		{"HTML characters", `{"p":"<&>"}`, `{"p":"\u003c\u0026\u003e"}`, true},
		{"1 and 1.0", `{"n":1}`, `{"n":1.0}`, false},
		{"1 and 1e0", `{"n":1}`, `{"n":1e0}`, false},
		{"0 and -0", `{"n":0}`, `{"n":-0}`, false},
		{"a string and a number", `{"n":"1"}`, `{"n":1}`, false},
		{"two lone surrogates", `{"p":"\ud800"}`, `{"p":"\udc00"}`, false},
		{"a lone surrogate and U+FFFD", `{"p":"\ud800"}`, `{"p":"\ufffd"}`, false},
		{"a high surrogate before a letter", `{"p":"\ud800A"}`, `{"p":"\udbffA"}`, false},
		{"two bytes that are not UTF-8", "{\"p\":\"\xff\"}", "{\"p\":\"\xfe\"}", false},
		{"a byte that is not UTF-8 and U+FFFD", "{\"p\":\"\xff\"}", `{"p":"\ufffd"}`, false},
		{"an escaped backslash before u", `{"p":"\\ud800"}`, `{"p":"\\ud800"}`, true},
	}
	for _, tt := range tests {
		if got := canonical(tt.a) == canonical(tt.b); got != tt.same {
			t.Errorf("%s: %s and %s read as the same call: %v, want %v (%q, %q)", tt.name, tt.a, tt.b, got, tt.same, canonical(tt.a), canonical(tt.b))
		}
	}
}

// FuzzCanonical holds the canonical form to two properties: it is a fixed
// point (the form of a form is itself), and two texts that share a form
// decode to the same value.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":2,"a":[1.0,"\u0041"]}`, `{"p":"\ud83d\ude00"}`, `{"p":"\ud800\\u"}`, `"\\\ud800"`, `[1e0, -0]`, "{\"p\":\"\xff\"}"} {
		f.Add(s, `{"a":[1.0,"A"],"b":2}`)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ca := canonical(a)
		if canonical(ca) != ca {
			t.Fatalf("canonical(%q) = %q, whose form is %q", a, ca, canonical(ca))
		}
		if ca != canonical(b) || !json.Valid([]byte(a)) {
			return
		}
		var va, vb any
		if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
			t.Fatalf("%q and %q share a form, and one is not JSON", a, b)
		}
		if !reflect.DeepEqual(va, vb) {
			t.Fatalf("%q and %q share the form %q but decode to %v and %v", a, b, ca, va, vb)
		}
	})
}
