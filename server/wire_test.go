package server

import (
	"encoding/json"
	"testing"
)

func TestAppendToolWritesWhatEncodingJSONWrites(t *testing.T) {
	yes, no := true, false
	for _, tl := range []Tool{
		{Name: "calc", Description: "Exact <math> & more", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: ToolAnnotations{ReadOnlyHint: true}},
		{Name: "write_file", Title: "Write a file", Description: "Writes.\nTwo lines \u2028.", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations:  ToolAnnotations{Title: "Write \"it\"", DestructiveHint: &yes, IdempotentHint: &no, OpenWorldHint: true}},
	} {
		want, err := encodingJSON(tl)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendTool(nil, &tl); string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
