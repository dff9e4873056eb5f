package schemagen

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	invopop "github.com/invopop/jsonschema"
)

// invopopSchema fills invopop/jsonschema's document model from the node n
// of property f (nil for the root, items and map values), keyword by
// keyword as the document writer writes them: the document as invopop
// would write it.
func invopopSchema(n *node, f *field, input bool) *invopop.Schema {
	s := &invopop.Schema{Type: n.kind.typeName()}
	switch n.kind {
	case jArray:
		s.Items = invopopSchema(n.elem, nil, input)
	case jObject:
		s.Properties = invopop.NewProperties()
		for _, p := range n.fields {
			s.Properties.Set(p.name, invopopSchema(p.node, p, input))
			if p.required {
				s.Required = append(s.Required, p.name)
			}
		}
		s.AdditionalProperties = invopop.FalseSchema
	case jMap:
		if n.elem.kind != jAny || n.elem.ptrs > 0 {
			s.AdditionalProperties = invopopSchema(n.elem, nil, input)
		}
		if n.keyClass != "" {
			s.PropertyNames = &invopop.Schema{Pattern: n.keyClass.Pattern()}
		}
	case jTime:
		s.Format = "date-time"
	case jBytes:
		s.ContentEncoding = "base64"
	}
	s.Enum = n.enum
	s.Minimum, s.Maximum = json.Number(n.minimum), json.Number(n.maximum)
	s.ExclusiveMinimum, s.ExclusiveMaximum = json.Number(n.exclusiveMinimum), json.Number(n.exclusiveMaximum)
	s.MinLength, s.MaxLength = n.minLength, n.maxLength
	s.MinItems, s.MaxItems = n.minItems, n.maxItems
	switch {
	case n.userPattern != "":
		s.Pattern = n.userPattern
	case n.class != "":
		s.Pattern = n.class.Pattern()
	}
	if f != nil {
		s.Description = f.description
		if input {
			s.Description = describeClasses(f.description, n)
		}
		if f.hasDefault {
			s.Default = f.def
		}
	}
	if n.nullable && s.Type != "" {
		// invopop says it only with a oneOf, from its own tags.
		s.Extras = map[string]any{"type": []string{s.Type, "null"}}
		s.Type = ""
	}
	return s
}

// invopopDocument writes the document of s through invopop's model and
// its encoding (encoding/json calling the model's MarshalJSON).
func invopopDocument(t testing.TB, s *Schema) []byte {
	t.Helper()
	doc, err := json.Marshal(invopopSchema(s.root, nil, s.input))
	if err != nil {
		t.Fatal(err)
	}
	return escapeInvisible(doc, 0)
}

// TestDocumentIsWhatInvopopWrites holds the document writer to
// invopop/jsonschema, byte for byte: the schemas of every differential
// and fixture type, input and output, written through invopop's Schema
// type and its encoding, must be what document writes. The keyword order
// and the escapes are invopop's, so that documents published before the
// writer existed, and saved schemas, stay the same.
func TestDocumentIsWhatInvopopWrites(t *testing.T) {
	types := append([]reflect.Type{
		reflect.TypeFor[anyValues](),
		reflect.TypeFor[struct{}](),
		reflect.TypeFor[struct {
			M map[string][]int `json:"m"`
		}](),
	}, differentialTypes...)
	for _, typ := range types {
		for _, input := range []bool{true, false} {
			s, err := build(typ, input, "test")
			if err != nil {
				t.Fatalf("%v: %v", typ, err)
			}
			if want := invopopDocument(t, s); !bytes.Equal(s.JSON(), want) {
				t.Errorf("%v (input %v):\n got %s\nwant %s", typ, input, s.JSON(), want)
			}
		}
	}
}

// anyValues holds the values any JSON takes, with and without keywords,
// and the strings encoding/json escapes.
type anyValues struct {
	A    any                        `json:"a"`
	B    any                        `json:"b,omitempty" description:"Any value <b>"`
	Raw  json.RawMessage            `json:"raw"`
	List []any                      `json:"list"`
	Map  map[string]any             `json:"map"`
	Ptrs map[string]*any            `json:"ptrs"`
	Raws map[string]json.RawMessage `json:"raws"`
	Amp  string                     `json:"a&b" chars:"text" default:"<x> \u202e& y" description:"Goes\u2028on \u202e"`
	Time []byte                     `json:"bytes"`
}

// BenchmarkDocument writes the input document of editIn's nodes, with the
// writer and through invopop's model and encoding: what choosing between
// them costs every AddTool without saved schemas.
func BenchmarkDocument(b *testing.B) {
	s := mustSchema[editIn](b)
	b.Run("writer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := document(s.root, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("invopop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			invopopDocument(b, s)
		}
	})
}

// TestNewRefusesTheMethodsOfInvopopsReflector: a type that writes its own
// schema for invopop/jsonschema's reflector is refused, not silently
// described from its fields.
func TestNewRefusesTheMethodsOfInvopopsReflector(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeFor[ownSchema](),
		reflect.TypeFor[struct {
			O ownSchema `json:"o"`
		}](),
	} {
		_, err := New(typ)
		if err == nil || !strings.Contains(err.Error(), "has a JSONSchema method, which schemagen does not call") {
			t.Errorf("New(%v) = %v", typ, err)
		}
	}
}

type ownSchema struct {
	X int `json:"x"`
}

func (ownSchema) JSONSchema() *invopop.Schema { return &invopop.Schema{Type: "string"} }
