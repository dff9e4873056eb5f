package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestMarshalNoEscapeLeavesHTMLCharactersAlone(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{map[string]string{"a": "<b>&</b>"}, `{"a":"<b>&</b>"}`},
		{"\\u003c stays as typed", `"\\u003c stays as typed"`},
		{"\\<", `"\\<"`},
		{"\u2028 and \u00e9 and \x01", `"\u2028 and é and \u0001"`},
		{[]string{"<", "\\", ">"}, `["<","\\",">"]`},
	}
	for _, tt := range tests {
		got, err := marshalNoEscape(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("marshalNoEscape(%q) = %s %v, want %s", tt.in, got, err, tt.want)
		}
		var back, orig any
		_ = json.Unmarshal(got, &back)
		o, _ := json.Marshal(tt.in)
		_ = json.Unmarshal(o, &orig)
		if !reflect.DeepEqual(back, orig) {
			t.Errorf("%s does not decode to %v", got, orig)
		}
	}
}

// FuzzMarshalNoEscape checks that the output decodes to what
// encoding/json's own output decodes to, and has no HTML escapes left.
func FuzzMarshalNoEscape(f *testing.F) {
	f.Add("<a href=\"x\">&amp;</a>")
	f.Add("\\u003c\\\\u003e")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := marshalNoEscape(map[string]string{s: s})
		if err != nil {
			t.Fatal(err)
		}
		var back, orig map[string]string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, got, err)
		}
		o, _ := json.Marshal(map[string]string{s: s})
		_ = json.Unmarshal(o, &orig)
		if !reflect.DeepEqual(back, orig) {
			t.Fatalf("%q: %s decodes to %q, want %q", s, got, back, orig)
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if n := strings.Count(string(got), esc); n > strings.Count(string(got), `\`+esc) {
				t.Fatalf("%q: %s keeps %s", s, got, esc)
			}
		}
	})
}

func TestAppendToolWritesWhatEncodingJSONWrites(t *testing.T) {
	yes, no := true, false
	for _, tl := range []Tool{
		{Name: "calc", Description: "Exact <math> & more", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: ToolAnnotations{ReadOnlyHint: true}},
		{Name: "write_file", Title: "Write a file", Description: "Writes.\nTwo lines \u2028.", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations:  ToolAnnotations{Title: "Write \"it\"", DestructiveHint: &yes, IdempotentHint: &no, OpenWorldHint: true}},
	} {
		want, err := marshalNoEscape(tl)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendTool(nil, &tl); string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
