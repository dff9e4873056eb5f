package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/stdiotools/toolserver/internal/decimal"
)

// Schema is a tool's inputSchema, as tools/list publishes it, compiled for
// checking the arguments of its calls: in full with [Schema.Check], or
// while they stream with a [Checker].
//
// It knows the keywords that tool arguments use and that a value can be
// checked against on its own:
//
//	type (one name or a list; "integer" is any number with no fraction, 1.0 included)
//	enum, const
//	properties, required, additionalProperties (false or a schema)
//	items (one schema for every element)
//	minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers)
//	minLength, maxLength (in characters), minItems, maxItems
//
// Any other keyword is left to the server, which checks the call again:
// a Schema finds fewer problems than a full validator, never more. So
// additionalProperties is not applied where patternProperties is present,
// items not where prefixItems is or where it is a list (the old tuple
// form), and a "type" naming an unknown type is not checked. Boolean
// schemas are understood: true allows anything, false nothing.
type Schema struct {
	root *node
}

// node is one compiled schema. A nil *node allows anything.
type node struct {
	never bool  // the schema false
	types []int // allowed JSON types (typ* constants); empty: any

	enum     []any // allowed values, decoded with json.Number
	hasConst bool
	konst    any

	props      map[string]*node
	propNames  []string // sorted, for messages
	required   []string
	additional *node // for members not in props; nil: any
	noExtra    bool  // additionalProperties is false
	items      *node

	min, max         *decimal.Decimal
	exclMin, exclMax *decimal.Decimal
	minLen, maxLen   int // -1: none
	minItems         int
	maxItems         int
}

// The JSON types of the "type" keyword.
const (
	typNull = iota
	typBoolean
	typObject
	typArray
	typNumber
	typString
	typInteger
)

var typeNames = [...]string{"null", "boolean", "object", "array", "number", "string", "integer"}

// CompileSchema compiles a JSON Schema document. It fails only when doc is
// not JSON or a known keyword has a value of the wrong kind.
func CompileSchema(doc []byte) (*Schema, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("toolcall: the schema is not JSON: %w", err)
	}
	n, err := compileNode(v, "", 0)
	if err != nil {
		return nil, err
	}
	return &Schema{root: n}, nil
}

// maxSchemaDepth bounds the nesting of a schema a Schema compiles.
const maxSchemaDepth = 200

// compileNode compiles the schema v found at the keyword path at.
func compileNode(v any, at string, depth int) (*node, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("toolcall: the schema nests deeper than %d at %s", maxSchemaDepth, at)
	}
	bad := func(kw, want string) error {
		return fmt.Errorf("toolcall: the schema's %s at %q is not %s", kw, at, want)
	}
	switch s := v.(type) {
	case bool:
		if s {
			return nil, nil
		}
		return &node{never: true}, nil
	case map[string]any:
		n := &node{minLen: -1, maxLen: -1, maxItems: -1}
		if t, ok := s["type"]; ok {
			names, ok := stringList(t)
			if !ok {
				return nil, bad("type", "a type name or a list of them")
			}
			for _, name := range names {
				i := slices.Index(typeNames[:], name)
				if i < 0 {
					n.types = nil // an unknown type: no check rather than a false alarm
					break
				}
				n.types = append(n.types, i)
			}
		}
		if e, ok := s["enum"]; ok {
			list, ok := e.([]any)
			if !ok {
				return nil, bad("enum", "a list")
			}
			n.enum = list
			if n.enum == nil {
				n.enum = []any{}
			}
		}
		if c, ok := s["const"]; ok {
			n.hasConst, n.konst = true, c
		}
		if p, ok := s["properties"]; ok {
			m, ok := p.(map[string]any)
			if !ok {
				return nil, bad("properties", "an object")
			}
			n.props = make(map[string]*node, len(m))
			for name, sub := range m {
				c, err := compileNode(sub, at+"/properties/"+name, depth+1)
				if err != nil {
					return nil, err
				}
				n.props[name] = c
				n.propNames = append(n.propNames, name)
			}
			slices.Sort(n.propNames)
		}
		if r, ok := s["required"]; ok {
			_, isList := r.([]any)
			names, ok := stringList(r)
			if !ok || !isList {
				return nil, bad("required", "a list of names")
			}
			n.required = slices.Compact(names)
		}
		if a, ok := s["additionalProperties"]; ok {
			if _, pattern := s["patternProperties"]; !pattern {
				c, err := compileNode(a, at+"/additionalProperties", depth+1)
				if err != nil {
					return nil, err
				}
				n.additional = c
				n.noExtra = c != nil && c.never
			}
		}
		if it, ok := s["items"]; ok {
			if _, prefix := s["prefixItems"]; !prefix {
				if _, tuple := it.([]any); !tuple {
					c, err := compileNode(it, at+"/items", depth+1)
					if err != nil {
						return nil, err
					}
					n.items = c
				}
			}
		}
		for kw, dst := range map[string]**decimal.Decimal{"minimum": &n.min, "maximum": &n.max, "exclusiveMinimum": &n.exclMin, "exclusiveMaximum": &n.exclMax} {
			b, ok := s[kw]
			if !ok {
				continue
			}
			num, ok := b.(json.Number)
			if !ok {
				continue // draft-04's boolean exclusiveMinimum: not checked
			}
			d, ok := decimal.Parse(string(num))
			if !ok {
				return nil, bad(kw, "a number")
			}
			*dst = &d
		}
		for kw, dst := range map[string]*int{"minLength": &n.minLen, "maxLength": &n.maxLen, "minItems": &n.minItems, "maxItems": &n.maxItems} {
			b, ok := s[kw]
			if !ok {
				continue
			}
			k, err := count(b)
			if err != nil {
				return nil, bad(kw, "a count")
			}
			*dst = k
		}
		return n, nil
	}
	return nil, bad("schema", "an object or a boolean")
}

// stringList reads a name or a list of names.
func stringList(v any) ([]string, bool) {
	switch t := v.(type) {
	case string:
		return []string{t}, true
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// count reads a non-negative whole number such as 3 or 3.0.
func count(v any) (int, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("not a number")
	}
	d, ok := decimal.Parse(string(num))
	if !ok {
		return 0, errors.New("not a count")
	}
	k, ok := d.Uint(9)
	if !ok {
		return 0, errors.New("not a count")
	}
	return int(k), nil
}
