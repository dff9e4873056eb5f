package schemagen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	invopop "github.com/invopop/jsonschema"
)

// This file is the one place where the tags of a field become keywords of
// its schema. invopop/jsonschema reflects the skeleton of a type once
// (skeleton.go): the types, the nesting of objects, arrays and maps, the
// properties in field order, additionalProperties false, the date-time
// format of time.Time, the base64 encoding of []byte, the length of a
// fixed-size array, and, for output schemas, the required properties.
// The builder (reflect.go) walks that skeleton beside the Go type and,
// for each node, calls keywords and fieldKeywords here, which only add.

// keywords adds to s, the skeleton of node n, the keywords of n's tags.
func keywords(s *invopop.Schema, n *node) {
	switch n.kind {
	case jArray:
		s.MinItems, s.MaxItems = n.minItems, n.maxItems
	case jMap:
		if n.keyClass != "" {
			s.PropertyNames = &invopop.Schema{Pattern: n.keyClass.Pattern()}
		}
	case jString:
		s.Enum = n.enum
		s.MinLength, s.MaxLength = n.minLength, n.maxLength
		switch {
		case n.userPattern != "":
			s.Pattern = n.userPattern
		case n.class != "":
			s.Pattern = n.class.Pattern()
		}
	case jInteger, jNumber:
		s.Enum = n.enum
		s.Minimum = json.Number(n.minimum)
		s.Maximum = json.Number(n.maximum)
		s.ExclusiveMinimum = json.Number(n.exclusiveMinimum)
		s.ExclusiveMaximum = json.Number(n.exclusiveMaximum)
	}
}

// fieldKeywords adds to s the keywords that belong to a property rather
// than to its type: the description, with the character classes of its
// strings on input, and the default.
func fieldKeywords(s *invopop.Schema, f *field, input bool) {
	s.Description = f.description
	if input {
		s.Description = describeClasses(f.description, f.node)
	}
	if f.hasDefault {
		s.Default = f.def
	}
}

// requireField lists f in the required properties of the object whose
// skeleton is parent. The skeleton of an input schema has none: a pointer
// or a default makes an argument optional there, which invopop does not
// know. That of an output schema has invopop's, which follow the same
// rule as encoding/json and as f.required; a difference is a bug here.
func requireField(parent *invopop.Schema, f *field, input bool) error {
	if input {
		if f.required {
			parent.Required = append(parent.Required, f.name)
		}
		return nil
	}
	if f.required != slices.Contains(parent.Required, f.name) {
		return fmt.Errorf("internal error: field %s is required by one rule and not by the other", f.goPath)
	}
	return nil
}

// markNullable marks an output node whose Go value encoding/json may write
// as null (a nil pointer, slice or map), and widens the type of its
// schema to a list with "null". This is the one keyword of the skeleton
// that is changed rather than added to: invopop would express it with a
// oneOf around the schema, only through its own tags.
func markNullable(n *node) {
	n.nullable = true
	s := n.schema
	if s == nil || s.Type == "" {
		return
	}
	s.Extras = map[string]any{"type": []string{s.Type, "null"}}
	s.Type = ""
}

// shape checks that the skeleton s reflected a value of kind k, the kind
// the builder found for Go type t.
func shape(s *invopop.Schema, k jsonKind, t reflect.Type) error {
	if s == nil {
		return fmt.Errorf("internal error: no schema for %s", t)
	}
	if want := k.typeName(); s.Type != want {
		return fmt.Errorf("internal error: %s reflected as type %q instead of %q", t, s.Type, want)
	}
	return nil
}
