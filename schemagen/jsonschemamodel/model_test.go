package jsonschemamodel_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/stdiotools/toolserver/schemagen"
	"github.com/stdiotools/toolserver/schemagen/jsonschemamodel"
)

// roundTrip parses doc and writes the model back with encoding/json.
func roundTrip(t *testing.T, doc string) (*jsonschema.Schema, string) {
	t.Helper()
	m, err := jsonschemamodel.Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse(%s): %v", doc, err)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("Marshal of the model of %s: %v", doc, err)
	}
	return m, string(out)
}

// sample returns a JSON value for a field of invopop's Schema of type
// typ, one that its encoding writes back as it is.
func sample(t *testing.T, typ reflect.Type) string {
	schemaType := reflect.TypeFor[*jsonschema.Schema]()
	switch {
	case typ == schemaType:
		return `{"type":"string"}`
	case typ.Kind() == reflect.Slice && typ.Elem() == schemaType:
		return `[{"type":"string"},{"minimum":1}]`
	case typ.Kind() == reflect.Map && typ.Elem() == schemaType:
		return `{"a":{"type":"string"}}`
	case typ == reflect.TypeOf(jsonschema.NewProperties()):
		return `{"z":{"type":"string"},"a":{"type":"integer"}}`
	case typ == reflect.TypeFor[json.Number]():
		return `0.10`
	case typ == reflect.TypeFor[[]any]():
		return `[1.10,"a",9007199254740993]`
	case typ == reflect.TypeFor[[]string]():
		return `["a","b"]`
	case typ == reflect.TypeFor[map[string][]string]():
		return `{"a":["b"]}`
	case typ == reflect.TypeFor[*uint64]():
		return `18446744073709551615`
	case typ.Kind() == reflect.Bool:
		return `true`
	case typ.Kind() == reflect.String:
		return `"x"`
	case typ.Kind() == reflect.Interface:
		return `{"n":12345678901234567890}`
	}
	t.Fatalf("no sample for a field of type %v", typ)
	return ""
}

// TestParseReadsEveryKeywordOfTheModel: each keyword that invopop's
// Schema has a field for lands in that field, and the model writes the
// document back as it was.
func TestParseReadsEveryKeywordOfTheModel(t *testing.T) {
	typ := reflect.TypeFor[jsonschema.Schema]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || key == "-" || key == "" {
			continue
		}
		doc := `{"` + key + `":` + sample(t, f.Type) + `}`
		m, out := roundTrip(t, doc)
		if reflect.ValueOf(m).Elem().Field(i).IsZero() || m.Extras != nil {
			t.Errorf("%s: the field %s is empty, extras %v", doc, f.Name, m.Extras)
		}
		if out != doc {
			t.Errorf("%s is written back as %s", doc, out)
		}
	}
}

// TestParseKeepsEveryDigitAndTheOrderOfProperties: numbers keep the
// digits they were written with, in bounds and in values, and properties
// their order.
func TestParseKeepsEveryDigitAndTheOrderOfProperties(t *testing.T) {
	const doc = `{"properties":{"z":{"type":"integer","enum":[9007199254740993,1.10],"maximum":9223372036854775807,"minimum":-9223372036854775808},` +
		`"a":{"type":"number","exclusiveMinimum":0.000,"default":1e400}},"additionalProperties":false,"type":"object","required":["z"]}`
	m, out := roundTrip(t, doc)
	if out != doc {
		t.Errorf("written back as\n%s\nnot\n%s", out, doc)
	}
	z, _ := m.Properties.Get("z")
	if got := z.Enum[0]; got != json.Number("9007199254740993") {
		t.Errorf("enum[0] = %#v", got)
	}
	var names []string
	for name := range m.Properties.KeysFromOldest() {
		names = append(names, name)
	}
	if strings.Join(names, ",") != "z,a" {
		t.Errorf("properties in the order %v", names)
	}
}

// TestParseKeepsWhatTheModelHasNoFieldForInExtras: a list of types, a
// null default or const, and a keyword JSON Schema does not define.
func TestParseKeepsWhatTheModelHasNoFieldForInExtras(t *testing.T) {
	for _, c := range []struct {
		doc, out string
		extras   map[string]any
	}{
		{`{"type":["array","null"]}`, `{"type":["array","null"]}`, map[string]any{"type": []string{"array", "null"}}},
		{`{"type":"string","default":null}`, `{"type":"string","default":null}`, map[string]any{"default": nil}},
		{`{"const":null,"description":"d"}`, `{"description":"d","const":null}`, map[string]any{"const": nil}},
		{`{"x-unit":{"per":0.50},"type":"number"}`, `{"type":"number","x-unit":{"per":0.50}}`, map[string]any{"x-unit": map[string]any{"per": json.Number("0.50")}}},
	} {
		m, out := roundTrip(t, c.doc)
		if !reflect.DeepEqual(m.Extras, c.extras) {
			t.Errorf("%s: extras %#v, want %#v", c.doc, m.Extras, c.extras)
		}
		if out != c.out {
			t.Errorf("%s is written back as %s, want %s", c.doc, out, c.out)
		}
	}
}

// TestParseReadsBooleanSchemas: true and false are schemas of their own,
// and each parse gives a model of its own, not invopop's shared ones.
func TestParseReadsBooleanSchemas(t *testing.T) {
	m, out := roundTrip(t, `{"items":true,"additionalProperties":false,"allOf":[false,true]}`)
	if out != `{"allOf":[false,true],"items":true,"additionalProperties":false}` {
		t.Errorf("written back as %s", out)
	}
	if m.Items == jsonschema.TrueSchema || m.AdditionalProperties == jsonschema.FalseSchema {
		t.Error("the model shares invopop's boolean schemas")
	}
}

// TestParseRefusesWhatIsNotOneSchema: a document that is not one JSON
// Schema, or whose keywords have values of the wrong kind, is an error
// naming the keyword.
func TestParseRefusesWhatIsNotOneSchema(t *testing.T) {
	for _, c := range []struct{ doc, err string }{
		{``, "EOF"},
		{`[]`, "a schema must be an object or a boolean"},
		{`"x"`, "a schema must be an object or a boolean"},
		{`{} {}`, "more JSON text after it"},
		{`{"type":1}`, `"type": a type must be a string or an array of strings`},
		{`{"type":["a",1]}`, `"type": a type must be a string or an array of strings`},
		{`{"properties":[]}`, `"properties": want {, got [`},
		{`{"properties":{"p":{"items":3}}}`, `"properties": "p": "items": a schema must be an object or a boolean`},
		{`{"allOf":{}}`, `"allOf": want [, got {`},
		{`{"$defs":{"d":[]}}`, `"$defs": "d": a schema must be an object or a boolean`},
		{`{"minLength":-1}`, `"minLength": json: cannot unmarshal`},
		{`{"default":}`, `"default": invalid character`},
		{`{"x":}`, `"x": invalid character`},
		{`{"not":{"type":"string"}`, "EOF"},
	} {
		_, err := jsonschemamodel.Parse([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Parse(%s) = %v, want %q", c.doc, err, c.err)
		}
	}
}

// NoteOut is the result of a tool, with properties encoding/json may
// write as null.
type NoteOut struct {
	Lines []string       `json:"lines" description:"The lines <b>"`
	Meta  map[string]int `json:"meta"`
	Size  *int64         `json:"size,omitempty" minimum:"0"`
}

// TestOfGivesTheDocumentBack: the model of an input and an output schema
// writes back the document tools/list publishes.
func TestOfGivesTheDocumentBack(t *testing.T) {
	for _, build := range []func() (*schemagen.Schema, error){schemagen.For[SearchIn], schemagen.ForOutput[SearchIn], schemagen.ForOutput[NoteOut]} {
		s, err := build()
		if err != nil {
			t.Fatal(err)
		}
		m, err := jsonschemamodel.Of(s)
		if err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(s.JSON()) {
			t.Errorf("%v: written back as\n%s\nnot\n%s", s.Type(), out, s.JSON())
		}
	}
}

// FuzzParse: Parse never panics, and the model of any document it reads
// writes JSON that Parse reads again.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string","pattern":"^x$"}},"additionalProperties":false,"required":["a"]}`,
		`{"type":["array","null"],"items":{"enum":[1,2.50,"x"]}}`,
		`{"allOf":[true,false],"$defs":{"d":{"$ref":"#"}},"default":null,"x-y":[{}]}`,
		`true`, `{"type":1}`, `{"properties":{"p":`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		m, err := jsonschemamodel.Parse(doc)
		if err != nil {
			return
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("Marshal of the model of %s: %v", doc, err)
		}
		if _, err := jsonschemamodel.Parse(out); err != nil {
			t.Fatalf("%s gives %s, which Parse refuses: %v", doc, out, err)
		}
	})
}
