package schemagen

import (
	"reflect"
	"regexp"

	"github.com/stdiotools/toolserver/security"
)

// jsonKind is what a node holds on the JSON side.
type jsonKind uint8

const (
	jString  jsonKind = iota + 1 // string (and named string types)
	jInteger                     // every Go integer kind
	jNumber                      // float32, float64
	jBoolean                     // bool
	jObject                      // struct
	jArray                       // slice or array (other than []byte)
	jMap                         // map with string keys
	jAny                         // interface{}: any JSON value
	jRaw                         // json.RawMessage: any JSON value, kept as text
	jTime                        // time.Time: an RFC 3339 date-time string
	jBytes                       // []byte: a base64 string
)

// typeName returns the JSON Schema type name of k, or "" when any JSON value
// is accepted.
func (k jsonKind) typeName() string {
	switch k {
	case jString, jTime, jBytes:
		return "string"
	case jInteger:
		return "integer"
	case jNumber:
		return "number"
	case jBoolean:
		return "boolean"
	case jObject, jMap:
		return "object"
	case jArray:
		return "array"
	}
	return ""
}

// node describes one position in the arguments: the Go type found there,
// the JSON it accepts and the constraints declared on it. The tree of nodes
// mirrors the generated JSON Schema and drives coercion, the checks that the
// schema cannot express, the wording of problems and decoding.
type node struct {
	kind   jsonKind
	goType reflect.Type // with the pointers below removed
	ptrs   int          // pointer indirections in front of goType
	// nullable is set on output schemas where encoding/json may write null.
	nullable bool

	// jObject
	fields []*field
	byName map[string]*field

	// jArray and jMap
	elem *node

	// jMap: the class of the keys (input schemas only).
	keyClass security.CharClass

	// jString: the class checked on input ("" when not checked), and the
	// author's pattern, which replaces the class's in the schema, compiled
	// once at registration.
	class       security.CharClass
	userPattern string
	pattern     *regexp.Regexp

	// jString, jInteger, jNumber: allowed values, as JSON values.
	enum []any

	// jInteger, jNumber: bounds as written in the schema, "" when absent.
	minimum, maximum, exclusiveMinimum, exclusiveMaximum string
	// jInteger and jNumber: the bit size of the Go type; jInteger: whether
	// it is unsigned.
	bits     int
	unsigned bool

	// Lengths (jString) and item counts (jArray, both set to the length of
	// a fixed-size array); nil when absent.
	minLength, maxLength, minItems, maxItems *uint64
}

// field is one property of an object node.
type field struct {
	name     string // JSON name
	goPath   string // Go field path, for registration errors
	index    []int  // reflect index path (through embedded structs)
	node     *node
	required bool

	description string
	hasDefault  bool
	def         any // the default as a JSON value (string, json.Number, bool, []any, map[string]any)
}

// field returns the property called name, or nil.
func (n *node) field(name string) *field {
	if n.kind != jObject {
		return nil
	}
	return n.byName[name]
}

// names returns the property names of an object node in schema order.
func (n *node) names() []string {
	names := make([]string, len(n.fields))
	for i, f := range n.fields {
		names[i] = f.name
	}
	return names
}
