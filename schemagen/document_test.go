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
