package schemagen

import (
	"bytes"
	"encoding/json"
	"testing"

	invopop "github.com/invopop/jsonschema"
)

// TestAppendSchemaWritesWhatEncodingJSONWrites builds the documents of
// every differential type, input and output, and checks that appendSchema
// writes them byte for byte as encoding/json does through invopop's
// MarshalJSON.
func TestAppendSchemaWritesWhatEncodingJSONWrites(t *testing.T) {
	for _, typ := range differentialTypes {
		for _, input := range []bool{true, false} {
			s, err := build(typ, input, "test")
			if err != nil {
				t.Fatalf("%v: %v", typ, err)
			}
			doc := s.root.schema
			want, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendSchema(nil, doc)
			if !ok || !bytes.Equal(got, want) {
				t.Errorf("%v (input %v): ok %v\n got %s\nwant %s", typ, input, ok, got, want)
			}
		}
	}
}

func TestAppendSchemaLeavesOtherKeywordsToEncodingJSON(t *testing.T) {
	for _, s := range []*invopop.Schema{
		{Type: "string", Title: "t"},
		{Type: "object", Ref: "#/$defs/x"},
		{AnyOf: []*invopop.Schema{{Type: "string"}}},
	} {
		if _, ok := appendSchema(nil, s); ok {
			t.Errorf("%+v was written, not left to encoding/json", s)
		}
	}
}
