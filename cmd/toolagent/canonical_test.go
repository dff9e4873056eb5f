package main

import "testing"

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
