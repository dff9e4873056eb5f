package schemagen

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	invopop "github.com/invopop/jsonschema"
)

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

// TestTheDocumentOfAMapSaysWhatItsValuesAre: a map of any values has no
// "additionalProperties", since an absent keyword says any; a map of
// pointers to any, of raw JSON or of typed values has one, as invopop
// wrote them, so that saved schemas stay byte for byte what they were.
func TestTheDocumentOfAMapSaysWhatItsValuesAre(t *testing.T) {
	const keys = `"type":"object"`
	for _, c := range []struct {
		typ     reflect.Type
		in, out string
	}{
		{reflect.TypeFor[map[string]any](), `{` + keys + `}`, `{"type":["object","null"]}`},
		{reflect.TypeFor[map[string]*any](), `{"additionalProperties":true,` + keys + `}`, `{"additionalProperties":true,"type":["object","null"]}`},
		{reflect.TypeFor[map[string]json.RawMessage](), `{"additionalProperties":true,` + keys + `}`, `{"additionalProperties":true,"type":["object","null"]}`},
		{reflect.TypeFor[map[string]int](), `{"additionalProperties":{"type":"integer"},` + keys + `}`, `{"additionalProperties":{"type":"integer"},"type":["object","null"]}`},
	} {
		typ := reflect.StructOf([]reflect.StructField{{Name: "M", Type: c.typ, Tag: `json:"m"`}})
		for _, want := range []struct {
			input bool
			prop  string
		}{{true, c.in}, {false, c.out}} {
			s, err := build(typ, want.input, "test")
			if err != nil {
				t.Fatal(err)
			}
			doc := `{"properties":{"m":` + want.prop + `},"type":"object","required":["m"]}`
			if string(s.JSON()) != doc {
				t.Errorf("%v (input %v):\n got %s\nwant %s", c.typ, want.input, s.JSON(), doc)
			}
		}
	}
}

// TestEscapeInvisibleEscapesOnlyWhatDoesNotPrint: the characters outside
// ASCII that do not print become \uXXXX escapes (two for one outside the
// basic plane), others stay, and a text in ASCII, as most documents are,
// is handed back as it is without a copy.
func TestEscapeInvisibleEscapesOnlyWhatDoesNotPrint(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":"b"}`, `{"a":"b"}`},
		{`"é ü 中"`, `"é ü 中"`},
		{"\"a\u202eb\u00adc\"", `"a\u202eb\u00adc"`},
		{"\"\U000e0041\"", `"\udb40\udc41"`},
		{"x\u200b", `x\u200b`},
	} {
		if got := string(escapeInvisible([]byte("kept:"+c.in), len("kept:"))); got != "kept:"+c.want {
			t.Errorf("escapeInvisible(%q) = %q, want %q", c.in, got, "kept:"+c.want)
		}
	}
	ascii := []byte(`{"type":"string","pattern":"^[a-z]+$"}`)
	if allocs := testing.AllocsPerRun(10, func() { escapeInvisible(ascii, 0) }); allocs != 0 {
		t.Errorf("escaping an ASCII text made %v allocations", allocs)
	}
}
