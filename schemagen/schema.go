package schemagen

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/stdiotools/toolserver/security"
)

// Schema is the generated JSON Schema of one Go struct type, with the tree
// of nodes it was written from, which Decode validates against. It is
// immutable and safe for concurrent use.
type Schema struct {
	typ   reflect.Type // the struct type
	input bool
	root  *node
	doc   json.RawMessage
}

// For builds the input Schema of T (generic convenience over New).
func For[T any]() (*Schema, error) {
	return New(reflect.TypeFor[T]())
}

// ForOutput builds the output Schema of T (generic convenience over
// NewOutput).
func ForOutput[T any]() (*Schema, error) {
	return NewOutput(reflect.TypeFor[T]())
}

// New builds the input Schema of t, a struct type or a pointer to one: the
// schema of a tool's arguments, with character classes on strings and
// coercion of the arguments in Decode. See the package documentation for
// the rules.
//
// The errors are meant for the tool's author and name the Go field: t is
// not a struct, a type is recursive, a field's kind has no JSON form (chan,
// func, complex, interfaces other than any), a tag value is malformed or
// contradicts another, a chars class is unknown, a default does not satisfy
// its own field's constraints (such as its enum).
func New(t reflect.Type) (*Schema, error) {
	return build(t, true, "New")
}

// NewOutput builds the output Schema of t, a struct type or a pointer to
// one: the schema of a tool's structured result. It differs from an input
// schema in three ways: a property is required unless its json tag has
// omitempty or omitzero (pointers and defaults do not make it optional);
// properties that encoding/json may write as null (pointers, slices, maps)
// accept null; and there are no character classes and no coercions.
func NewOutput(t reflect.Type) (*Schema, error) {
	return build(t, false, "NewOutput")
}

// build implements New and NewOutput.
func build(t reflect.Type, input bool, fn string) (*Schema, error) {
	if t == nil {
		return nil, fmt.Errorf("schemagen.%s: the type is nil", fn)
	}
	wrap := func(err error) error { return fmt.Errorf("schemagen.%s(%s): %w", fn, t, err) }
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() != reflect.Struct {
		return nil, wrap(fmt.Errorf("%s is not a struct or a pointer to a struct; arguments are a JSON object, so declare them as a struct", t))
	}
	if err := unsupportedMethods(st); err != nil {
		return nil, wrap(err)
	}
	b := builder{input: input}
	root, err := b.object(st, "")
	if err != nil {
		return nil, wrap(err)
	}
	if err := checkDefaults(root); err != nil {
		return nil, wrap(err)
	}
	doc, err := document(root, input, false)
	if err != nil {
		return nil, wrap(err)
	}
	return &Schema{typ: st, input: input, root: root, doc: doc}, nil
}

// JSON returns the schema document as compact JSON. It is built once; every
// call returns the same bytes, which the caller must not modify.
func (s *Schema) JSON() json.RawMessage { return s.doc }

// Type returns the struct type the schema describes.
func (s *Schema) Type() reflect.Type { return s.typ }

// Properties returns the names of the top-level properties in schema order,
// which is the order of the struct's fields.
func (s *Schema) Properties() []string { return s.root.names() }

// checkDefaults checks every default in the tree under n against the
// schema of its own property, and that it decodes.
func checkDefaults(n *node) error {
	switch n.kind {
	case jObject:
		for _, f := range n.fields {
			if f.hasDefault {
				if err := checkDefault(f); err != nil {
					return fmt.Errorf("field %s: %w", f.goPath, err)
				}
			}
			if err := checkDefaults(f.node); err != nil {
				return err
			}
		}
	case jArray, jMap:
		return checkDefaults(n.elem)
	}
	return nil
}

// checkDefault validates and decodes the default of f without coercion,
// against the node of its own property.
func checkDefault(f *field) error {
	c := checker{}
	base := path{}.key(f.name)
	def := c.walk(f.node, cloneJSON(f.def), base)
	c.validate(f.node, def, base)
	if len(c.problems) == 0 {
		t := f.node.goType
		if f.node.ptrs > 0 {
			t = reflect.PointerTo(t)
		}
		d := decoder{checker: &c}
		d.assign(f.node, cloneJSON(f.def), reflect.New(t).Elem(), base)
	}
	if len(c.problems) > 0 {
		errs := newErrors(c.problems)
		return fmt.Errorf("default %s is invalid: %s", shortValue(f.def), errs.Problems[0].Message(English))
	}
	return nil
}

// PropertyType returns the JSON Schema type of the top-level property
// name ("string", "integer", "array", ...) and, for an array, the type of
// its items; ok is false when there is no such property.
func (s *Schema) PropertyType(name string) (typ, items string, ok bool) {
	f := s.root.field(name)
	if f == nil {
		return "", "", false
	}
	if f.node.kind == jArray {
		items = f.node.elem.kind.typeName()
	}
	return f.node.kind.typeName(), items, true
}

// PropertiesOfClass returns the top-level properties, in schema order,
// whose strings are of class c: a string of that class, or a list of them.
// A server uses it to find the paths a call names, for instance.
func (s *Schema) PropertiesOfClass(c security.CharClass) []string {
	var out []string
	for _, f := range s.root.fields {
		n := f.node
		if n.kind == jArray {
			n = n.elem
		}
		if n.kind == jString && n.class == c {
			out = append(out, f.name)
		}
	}
	return out
}
