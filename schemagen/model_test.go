package schemagen_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/stdiotools/toolserver/schemagen"
	"github.com/stdiotools/toolserver/schemagen/jsonschemamodel"
)

// TestDocumentIsWhatInvopopWrites holds the document writer to
// invopop/jsonschema, byte for byte: the document of every differential
// and fixture type, input and output, read into invopop's Schema by
// package jsonschemamodel and written back by invopop's encoding, must be
// the document. So the keywords come in the order invopop's Schema
// declares them, each is one the model holds, and strings are escaped as
// encoding/json escapes them (the characters that do not print aside,
// which the writer alone escapes): documents published before the writer
// existed, and saved schemas, stay the same.
func TestDocumentIsWhatInvopopWrites(t *testing.T) {
	for _, typ := range schemagen.DocumentTypes() {
		for _, build := range []func(reflect.Type) (*schemagen.Schema, error){schemagen.New, schemagen.NewOutput} {
			s, err := build(typ)
			if err != nil {
				t.Fatalf("%v: %v", typ, err)
			}
			m, err := jsonschemamodel.Of(s)
			if err != nil {
				t.Fatalf("%v: %v", typ, err)
			}
			doc, err := json.Marshal(m)
			if err != nil {
				t.Fatalf("%v: %v", typ, err)
			}
			if doc = schemagen.EscapeInvisible(doc); !bytes.Equal(s.JSON(), doc) {
				t.Errorf("%v:\n got %s\nwant %s", typ, s.JSON(), doc)
			}
			if k := unmodelled(m); k != "" {
				t.Errorf("%v: the document has the keyword %q, which invopop's model has no field for", typ, k)
			}
		}
	}
}

// unmodelled returns a keyword of m or of the schemas in it that has no
// field in invopop's model, other than a list of types, or "".
func unmodelled(m *jsonschema.Schema) string {
	if m == nil {
		return ""
	}
	for k := range m.Extras {
		if _, ok := m.Extras["type"].([]string); k != "type" || !ok {
			return k
		}
	}
	subs := []*jsonschema.Schema{m.Items, m.AdditionalProperties, m.PropertyNames}
	if m.Properties != nil {
		for _, p := range m.Properties.FromOldest() {
			subs = append(subs, p)
		}
	}
	for _, sub := range subs {
		if k := unmodelled(sub); k != "" {
			return k
		}
	}
	return ""
}

// BenchmarkDocument writes the input document of the fixtures' edit tool
// with the writer, and through invopop's model and encoding (the model
// read from the document beforehand): what choosing between them costs
// every AddTool without saved schemas. It also reads the model, which
// only a program that imports jsonschemamodel pays.
func BenchmarkDocument(b *testing.B) {
	s, err := schemagen.For[schemagen.EditIn]()
	if err != nil {
		b.Fatal(err)
	}
	m, err := jsonschemamodel.Of(s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("writer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schemagen.WriteDocument(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("invopop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			doc, err := json.Marshal(m)
			if err != nil {
				b.Fatal(err)
			}
			schemagen.EscapeInvisible(doc)
		}
	})
	b.Run("model", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jsonschemamodel.Of(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
