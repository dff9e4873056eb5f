package schemagen

import (
	"encoding/json"
	"reflect"
)

// DocumentTypes are the types whose documents, input and output,
// TestDocumentIsWhatInvopopWrites reads into invopop's model: every
// differential type, and the values any JSON takes.
func DocumentTypes() []reflect.Type {
	return append([]reflect.Type{
		reflect.TypeFor[anyValues](),
		reflect.TypeFor[struct{}](),
		reflect.TypeFor[struct {
			M map[string][]int `json:"m"`
		}](),
	}, differentialTypes...)
}

// EscapeInvisible escapes the characters of the JSON text b that do not
// print, as the document writer does.
func EscapeInvisible(b []byte) []byte { return escapeInvisible(b, 0) }

// WriteDocument writes the published document of s afresh.
func WriteDocument(s *Schema) (json.RawMessage, error) { return document(s.root, s.input, false) }

// EditIn is the arguments of the edit tool of the fixtures.
type EditIn = editIn
