package jsonschemamodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/invopop/jsonschema"

	"github.com/stdiotools/toolserver/schemagen"
)

// Of returns the document of s, input or output, as invopop's model (see
// the package documentation for what it holds). Each call returns a new
// model, which the caller may change.
func Of(s *schemagen.Schema) (*jsonschema.Schema, error) {
	m, err := Parse(s.JSON())
	if err != nil {
		return nil, fmt.Errorf("jsonschemamodel: the schema of %v: %w", s.Type(), err)
	}
	return m, nil
}

// Parse reads one JSON Schema document, such as a saved schema, into
// invopop's model. It reads the document once, from start to end, as
// tokens, rather than through the model's UnmarshalJSON, which decodes
// the numbers in values as float64 (losing digits) and refuses a list of
// types.
func Parse(doc []byte) (*jsonschema.Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	s, err := schema(dec)
	if err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("reading the schema: more JSON text after it")
	}
	return s, nil
}

// schema reads one schema: an object, or true or false.
func schema(dec *json.Decoder) (*jsonschema.Schema, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
	case true:
		s := *jsonschema.TrueSchema
		return &s, nil
	case false:
		s := *jsonschema.FalseSchema
		return &s, nil
	default:
		return nil, fmt.Errorf("a schema must be an object or a boolean, not %v", tok)
	}
	s := new(jsonschema.Schema)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // an object's member names are strings
		if err := keyword(dec, s, key); err != nil {
			return nil, fmt.Errorf("%q: %w", key, err)
		}
	}
	_, err = dec.Token() // the closing brace
	return s, err
}

// keyword reads the value of the keyword key of s.
func keyword(dec *json.Decoder, s *jsonschema.Schema, key string) (err error) {
	if p := subschema(s, key); p != nil {
		*p, err = schema(dec)
		return err
	}
	if p := schemaList(s, key); p != nil {
		*p, err = list(dec)
		return err
	}
	switch key {
	case "properties":
		return properties(dec, s)
	case "patternProperties":
		s.PatternProperties, err = schemaMap(dec)
		return err
	case "dependentSchemas":
		s.DependentSchemas, err = schemaMap(dec)
		return err
	case "$defs":
		s.Definitions, err = schemaMap(dec)
		return err
	case "type":
		return types(dec, s)
	case "default", "const":
		// A null would look absent in the field.
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
		switch {
		case v == nil:
			extra(s, key, nil)
		case key == "default":
			s.Default = v
		default:
			s.Const = v
		}
		return nil
	}
	if p := value(s, key); p != nil {
		return dec.Decode(p)
	}
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	extra(s, key, v)
	return nil
}

// types reads the value of "type": one name, or a list of them, which
// invopop's model keeps in Extras.
func types(dec *json.Decoder, s *jsonschema.Schema) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &s.Type)
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		return errors.New("a type must be a string or an array of strings")
	}
	extra(s, "type", names)
	return nil
}

// extra sets a keyword that has no field of its own in invopop's model.
func extra(s *jsonschema.Schema, key string, v any) {
	if s.Extras == nil {
		s.Extras = map[string]any{}
	}
	s.Extras[key] = v
}

// list reads an array of schemas.
func list(dec *json.Decoder) ([]*jsonschema.Schema, error) {
	if err := delim(dec, '['); err != nil {
		return nil, err
	}
	var l []*jsonschema.Schema
	for dec.More() {
		s, err := schema(dec)
		if err != nil {
			return nil, err
		}
		l = append(l, s)
	}
	_, err := dec.Token()
	return l, err
}

// schemaMap reads an object of schemas by name, as "$defs" holds.
func schemaMap(dec *json.Decoder) (map[string]*jsonschema.Schema, error) {
	m := map[string]*jsonschema.Schema{}
	err := members(dec, func(name string) error {
		s, err := schema(dec)
		m[name] = s
		return err
	})
	return m, err
}

// properties reads the object of "properties" into s, keeping their
// order.
func properties(dec *json.Decoder, s *jsonschema.Schema) error {
	s.Properties = jsonschema.NewProperties()
	return members(dec, func(name string) error {
		p, err := schema(dec)
		s.Properties.Set(name, p)
		return err
	})
}

// members reads an object, calling read for the value of each member.
func members(dec *json.Decoder, read func(name string) error) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name := tok.(string)
		if err := read(name); err != nil {
			return fmt.Errorf("%q: %w", name, err)
		}
	}
	_, err := dec.Token()
	return err
}

// delim reads the token d.
func delim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("want %v, got %v", d, tok)
	}
	return nil
}
