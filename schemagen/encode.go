package schemagen

import (
	"encoding/json"
	"strconv"

	invopop "github.com/invopop/jsonschema"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// This file writes a schema document as encoding/json writes
// invopop.Schema, byte for byte, for the keywords this package sets, in
// a fraction of the time: invopop's MarshalJSON marshals every subschema
// twice over (once through its ordered map of properties, once to compact
// the result), and encoding the fifteen tools' schemas was half of what
// registering them cost at every start of the server. A schema using any
// other keyword is left to encoding/json (appendSchema reports false).
// encode_test.go checks the bytes against encoding/json.

// appendSchema appends s as JSON and reports whether it could.
func appendSchema(b []byte, s *invopop.Schema) ([]byte, bool) {
	switch {
	case s == invopop.TrueSchema:
		return append(b, "true"...), true
	case s == invopop.FalseSchema:
		return append(b, "false"...), true
	case s == nil || !encodable(s):
		return b, false
	}
	start := len(b)
	b = append(b, '{')
	first := true
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
	}
	str := func(k, v string) {
		if v != "" {
			key(k)
			b = appendJSONString(b, v)
		}
	}
	num := func(k string, v json.Number) bool {
		if v == "" {
			return true
		}
		if !json.Valid([]byte(v)) {
			return false
		}
		key(k)
		b = append(b, v...)
		return true
	}
	count := func(k string, v *uint64) {
		if v != nil {
			key(k)
			b = strconv.AppendUint(b, *v, 10)
		}
	}
	value := func(k string, v any) bool {
		raw, err := json.Marshal(v)
		if err != nil {
			return false
		}
		key(k)
		b = append(b, raw...)
		return true
	}
	sub := func(k string, v *invopop.Schema) bool {
		if v == nil {
			return true
		}
		key(k)
		var ok bool
		b, ok = appendSchema(b, v)
		return ok
	}

	str("$schema", s.Version)
	str("$id", string(s.ID))
	if !sub("items", s.Items) {
		return b, false
	}
	if s.Properties != nil {
		key("properties")
		b = append(b, '{')
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			if p != s.Properties.Oldest() {
				b = append(b, ',')
			}
			b = appendJSONString(b, p.Key)
			b = append(b, ':')
			var ok bool
			if b, ok = appendSchema(b, p.Value); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	}
	if !sub("additionalProperties", s.AdditionalProperties) || !sub("propertyNames", s.PropertyNames) {
		return b, false
	}
	str("type", s.Type)
	if len(s.Enum) > 0 && !value("enum", s.Enum) {
		return b, false
	}
	if !num("maximum", s.Maximum) || !num("exclusiveMaximum", s.ExclusiveMaximum) ||
		!num("minimum", s.Minimum) || !num("exclusiveMinimum", s.ExclusiveMinimum) {
		return b, false
	}
	count("maxLength", s.MaxLength)
	count("minLength", s.MinLength)
	str("pattern", s.Pattern)
	count("maxItems", s.MaxItems)
	count("minItems", s.MinItems)
	if len(s.Required) > 0 {
		key("required")
		b = append(b, '[')
		for i, r := range s.Required {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, r)
		}
		b = append(b, ']')
	}
	str("format", s.Format)
	str("contentEncoding", s.ContentEncoding)
	str("description", s.Description)
	if s.Default != nil && !value("default", s.Default) {
		return b, false
	}
	if len(s.Extras) > 0 {
		// invopop appends the extras, as encoding/json writes a map: keys
		// sorted.
		raw, err := json.Marshal(s.Extras)
		if err != nil {
			return b, false
		}
		if first {
			return append(b[:len(b)-1], raw...), true
		}
		b = append(b, ',')
		return append(b, raw[1:]...), true
	}
	if first {
		// No keyword: invopop writes true, or false for a boolean schema
		// other than its own two, which only it can tell apart.
		raw, err := json.Marshal(s)
		if err != nil {
			return b, false
		}
		return append(b[:start], raw...), true
	}
	return append(b, '}'), true
}

// encodable reports whether s uses only the keywords appendSchema writes.
func encodable(s *invopop.Schema) bool {
	return s.Anchor == "" && s.Ref == "" && s.DynamicRef == "" && len(s.Definitions) == 0 && s.Comments == "" &&
		len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil &&
		s.If == nil && s.Then == nil && s.Else == nil && len(s.DependentSchemas) == 0 &&
		len(s.PrefixItems) == 0 && s.Contains == nil && len(s.PatternProperties) == 0 &&
		s.Const == nil && s.MultipleOf == "" && !s.UniqueItems &&
		s.MaxContains == nil && s.MinContains == nil && s.MaxProperties == nil && s.MinProperties == nil &&
		len(s.DependentRequired) == 0 && s.ContentMediaType == "" && s.ContentSchema == nil &&
		s.Title == "" && !s.Deprecated && !s.ReadOnly && !s.WriteOnly && len(s.Examples) == 0
}

// appendJSONString appends s as encoding/json writes a string by
// default: HTML characters escaped, invalid UTF-8 replaced.
func appendJSONString(b []byte, s string) []byte { return jsonwire.AppendString(b, s, true) }
