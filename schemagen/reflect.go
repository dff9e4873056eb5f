package schemagen

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// builder walks a Go struct type once and builds the tree of nodes that
// Decode validates against and that the document is written from
// (document.go), so that the document says exactly what the nodes
// enforce.
type builder struct {
	input bool // input schema: character classes, defaults make fields optional

	// The struct types being built, outermost first, each with the length
	// of segs when it was entered, and the segments of the Go path from
	// the root ("[]" for an element, "[key]" for a map value): what a
	// recursive type's error prints.
	stack []frame
	segs  []string
}

// frame is a struct type on the builder's stack.
type frame struct {
	t    reflect.Type
	segs int
}

// object builds the node of struct type t.
func (b *builder) object(t reflect.Type, goPath string) (*node, error) {
	n := &node{kind: jObject, goType: t, byName: make(map[string]*field)}
	if err := b.collect(n, t, nil, goPath); err != nil {
		return nil, err
	}
	return n, nil
}

// enter pushes struct type t on the stack, or returns the error of a
// recursive type when t is on it already: such a type has no schema
// without references, and the walk would not end.
func (b *builder) enter(t reflect.Type) error {
	for _, fr := range b.stack {
		if fr.t == t {
			path := t.Name() + strings.Join(b.segs[fr.segs:], "")
			return fmt.Errorf("type %s is recursive: %s leads back to %s; recursive types cannot be described without references", t, path, t.Name())
		}
	}
	b.stack = append(b.stack, frame{t: t, segs: len(b.segs)})
	return nil
}

// leave pops the struct type entered last.
func (b *builder) leave() { b.stack = b.stack[:len(b.stack)-1] }

// collect adds the fields of struct type t to n, following embedded structs
// the way encoding/json promotes their fields.
func (b *builder) collect(n *node, t reflect.Type, index []int, goPath string) error {
	if err := b.enter(t); err != nil {
		return err
	}
	defer b.leave()
	for i := range t.NumField() {
		sf := t.Field(i)
		jsonTag := sf.Tag.Get("json")
		name, _, _ := strings.Cut(jsonTag, ",")
		if jsonTag == "-" {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		fieldPath := joinGoPath(goPath, sf.Name)
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Struct {
				// Promoted fields read as if declared here.
				if err := b.collect(n, ft, idx, goPath); err != nil {
					return err
				}
				continue
			}
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				return fmt.Errorf("field %s: embedded pointers to structs are not supported; embed the struct by value", fieldPath)
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if prev := n.byName[name]; prev != nil {
			return fmt.Errorf("fields %s and %s both have the JSON name %q; rename one", prev.goPath, fieldPath, name)
		}
		b.segs = append(b.segs, "."+sf.Name)
		f, err := b.field(sf, name, idx, fieldPath)
		b.segs = b.segs[:len(b.segs)-1]
		if err != nil {
			return err
		}
		n.fields = append(n.fields, f)
		n.byName[name] = f
	}
	return nil
}

func joinGoPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// field builds one property from its struct field.
func (b *builder) field(sf reflect.StructField, name string, index []int, goPath string) (*field, error) {
	tags, err := parseTags(sf, goPath)
	if err != nil {
		return nil, fmt.Errorf("field %s: %w", goPath, err)
	}
	n, err := b.node(sf.Type, tags, goPath)
	if err != nil {
		return nil, err
	}
	f := &field{name: name, goPath: goPath, index: index, node: n}
	f.description, _ = tags.get(tagDescription)
	if def, ok := tags.get(tagDefault); ok {
		f.hasDefault = true
		if n.kind == jString {
			f.def = def
		} else {
			v, err := parseJSONValue([]byte(def))
			if err != nil {
				return nil, fmt.Errorf("field %s: default %q is not a JSON value for a %s field; write it as JSON, e.g. default:\"10\" or default:\"[\\\"a\\\"]\"", goPath, def, n.kind.typeName())
			}
			f.def = v
		}
	}
	if k, ok := tags.unused(); ok {
		return nil, fmt.Errorf("field %s: tag %s does not apply to a field of type %s", goPath, k, sf.Type)
	}
	if b.input {
		f.required = !tags.omit && n.ptrs == 0 && !f.hasDefault
	} else {
		f.required = !tags.omit
		n.nullable = !tags.omit && nilable(n)
	}
	return f, nil
}

// nilable reports whether encoding/json writes null for the zero value of
// the node's Go type.
func nilable(n *node) bool {
	if n.ptrs > 0 {
		return true
	}
	switch n.goType.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// node builds the node for a value of type t. The field's tags apply to
// the scalar at the bottom of any pointers, slices and maps, except
// minItems and maxItems, which apply to the outermost array.
func (b *builder) node(t reflect.Type, tags *fieldTags, goPath string) (*node, error) {
	n := &node{}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
		n.ptrs++
	}
	n.goType = t
	if n.ptrs > 1 {
		return nil, fmt.Errorf("field %s: type %s has more than one level of pointers; use one", goPath, t)
	}
	switch {
	case t == reflect.TypeFor[time.Time]():
		n.kind = jTime
		return n, nil
	case t == reflect.TypeFor[json.RawMessage]():
		n.kind = jRaw
		return n, nil
	}
	if err := unsupportedMethods(t); err != nil {
		return nil, fmt.Errorf("field %s: %w", goPath, err)
	}
	if t.Kind() == reflect.Slice && t.Elem() == reflect.TypeFor[byte]() {
		n.kind = jBytes
		return n, nil
	}
	switch t.Kind() {
	case reflect.String:
		n.kind = jString
		return n, b.stringConstraints(n, tags)
	case reflect.Bool:
		n.kind = jBoolean
		return n, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n.kind, n.bits = jInteger, t.Bits()
		return n, numberConstraints(n, tags)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n.kind, n.bits, n.unsigned = jInteger, t.Bits(), true
		return n, numberConstraints(n, tags)
	case reflect.Float32, reflect.Float64:
		n.kind, n.bits = jNumber, t.Bits()
		return n, numberConstraints(n, tags)
	case reflect.Struct:
		obj, err := b.object(t, goPath)
		if err != nil {
			return nil, err
		}
		obj.ptrs = n.ptrs
		return obj, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return nil, fmt.Errorf("field %s: type %s is a byte slice of a named byte type; use []byte", goPath, t)
		}
		n.kind = jArray
		if !tags.arrayDone {
			tags.arrayDone = true
			var err error
			if n.minItems, err = countTag(tags, tagMinItems); err != nil {
				return nil, fmt.Errorf("field %s: %w", goPath, err)
			}
			if n.maxItems, err = countTag(tags, tagMaxItems); err != nil {
				return nil, fmt.Errorf("field %s: %w", goPath, err)
			}
			if n.minItems != nil && n.maxItems != nil && *n.minItems > *n.maxItems {
				return nil, fmt.Errorf("field %s: minItems %d is greater than maxItems %d", goPath, *n.minItems, *n.maxItems)
			}
			if t.Kind() == reflect.Array && (n.minItems != nil || n.maxItems != nil) {
				return nil, fmt.Errorf("field %s: minItems and maxItems do not apply to the fixed-length array %s", goPath, t)
			}
		}
		if t.Kind() == reflect.Array {
			size := uint64(t.Len())
			n.minItems, n.maxItems = &size, &size
		}
		return n, b.element(n, t, tags, goPath, "[]")
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("field %s: map key type %s is not supported; JSON object keys are strings, so use a map with string keys", goPath, t.Key())
		}
		n.kind = jMap
		if b.input {
			n.keyClass = security.ClassIdent
		}
		if v, ok := tags.get(tagKeyChars); ok {
			c, err := security.ParseCharClass(v)
			if err != nil {
				return nil, fmt.Errorf("field %s: keychars: %w", goPath, err)
			}
			if b.input {
				n.keyClass = c
			}
		}
		return n, b.element(n, t, tags, goPath, "[key]")
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return nil, fmt.Errorf("field %s: interface type %s is not supported; use a concrete type, any or json.RawMessage", goPath, t)
		}
		n.kind = jAny
		return n, nil
	}
	return nil, fmt.Errorf("field %s: type %s (kind %s) is not supported; JSON has no such value", goPath, t, t.Kind())
}

// element builds the node of the elements of n, an array or a map of Go
// type t, whose segment of the Go path is seg.
func (b *builder) element(n *node, t reflect.Type, tags *fieldTags, goPath, seg string) error {
	b.segs = append(b.segs, seg)
	elem, err := b.node(t.Elem(), tags, goPath)
	b.segs = b.segs[:len(b.segs)-1]
	if err != nil {
		return err
	}
	elem.nullable = !b.input && nilable(elem)
	n.elem = elem
	return nil
}

// unsupportedMethods refuses types whose JSON form is decided by their own
// methods, which the generated schema could not describe faithfully.
func unsupportedMethods(t reflect.Type) error {
	pt := reflect.PointerTo(t)
	switch {
	case pt.Implements(reflect.TypeFor[json.Unmarshaler]()):
		return fmt.Errorf("type %s has an UnmarshalJSON method, so its JSON form is unknown; use plain fields", t)
	case pt.Implements(reflect.TypeFor[encoding.TextUnmarshaler]()):
		return fmt.Errorf("type %s has an UnmarshalText method, so its JSON form is unknown; use plain fields", t)
	}
	// The methods through which invopop/jsonschema's reflector lets a type
	// write its own schema: the builder does not call them, so a type that
	// has one would not get the schema its author meant. Each name is a
	// constant: MethodByName with any other argument makes the linker keep
	// every exported method of every type in the binary (1.3 MB of
	// toolserver's).
	_, m1 := pt.MethodByName("JSONSchema")
	_, m2 := pt.MethodByName("JSONSchemaAlias")
	_, m3 := pt.MethodByName("JSONSchemaExtend")
	_, m4 := pt.MethodByName("JSONSchemaProperty")
	if m1 || m2 || m3 || m4 {
		return fmt.Errorf("type %s has a JSONSchema method, which schemagen does not call (nor JSONSchemaAlias, JSONSchemaExtend or JSONSchemaProperty); use tags instead", t)
	}
	return nil
}

// stringConstraints applies the string tags of a field to a string node.
func (b *builder) stringConstraints(n *node, tags *fieldTags) error {
	class := security.ClassIdent
	if v, ok := tags.get(tagChars); ok {
		c, err := security.ParseCharClass(v)
		if err != nil {
			return fmt.Errorf("field %s: chars: %w", tags.goPath, err)
		}
		class = c
	}
	var err error
	if n.minLength, err = countTag(tags, tagMinLength); err != nil {
		return fmt.Errorf("field %s: %w", tags.goPath, err)
	}
	if n.maxLength, err = countTag(tags, tagMaxLength); err != nil {
		return fmt.Errorf("field %s: %w", tags.goPath, err)
	}
	if n.minLength != nil && n.maxLength != nil && *n.minLength > *n.maxLength {
		return fmt.Errorf("field %s: minLength %d is greater than maxLength %d", tags.goPath, *n.minLength, *n.maxLength)
	}
	if p, ok := tags.get(tagPattern); ok {
		re, err := regexp.Compile(p)
		if err != nil {
			return fmt.Errorf("field %s: pattern %q is not a valid regular expression (RE2 syntax): %w", tags.goPath, p, err)
		}
		n.userPattern, n.pattern = p, re
	}
	if v, ok := tags.get(tagEnum); ok {
		seen := make(map[string]bool)
		for _, item := range splitList(v) {
			if item == "" {
				return fmt.Errorf("field %s: enum %q has an empty value", tags.goPath, v)
			}
			if seen[item] {
				return fmt.Errorf("field %s: enum lists %q twice", tags.goPath, item)
			}
			seen[item] = true
			if b.input {
				if bad, i, ok := class.Check(item); !ok {
					return fmt.Errorf("field %s: enum value %q has character %q at byte %d, which chars class %q refuses", tags.goPath, item, bad, i, class)
				}
			}
			n.enum = append(n.enum, item)
		}
	}
	// A string with an enum needs no class at run time: the enum values
	// were checked against it above.
	if b.input && n.enum == nil {
		n.class = class
	}
	return nil
}

// countTag parses a non-negative integer tag such as minLength.
func countTag(tags *fieldTags, k tagKey) (*uint64, error) {
	v, ok := tags.get(k)
	if !ok {
		return nil, nil
	}
	u, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s %q is not a non-negative integer", k, v)
	}
	return &u, nil
}

// numberConstraints applies the numeric tags of a field to an integer or
// number node, and narrows integer nodes to the range of their Go type.
func numberConstraints(n *node, tags *fieldTags) error {
	lo, hi := goRange(n)
	bounds := []struct {
		key tagKey
		dst *string
	}{
		{tagMinimum, &n.minimum},
		{tagMaximum, &n.maximum},
		{tagExclusiveMinimum, &n.exclusiveMinimum},
		{tagExclusiveMaximum, &n.exclusiveMaximum},
	}
	rats := make(map[tagKey]*big.Rat)
	for _, bd := range bounds {
		v, ok := tags.get(bd.key)
		if !ok {
			continue
		}
		r, err := parseBound(n, v)
		if err != nil {
			return fmt.Errorf("field %s: %s %q %w", tags.goPath, bd.key, v, err)
		}
		if (lo != nil && r.Cmp(lo) < 0) || (hi != nil && r.Cmp(hi) > 0) {
			return fmt.Errorf("field %s: %s %s is outside the range of %s (%s to %s)", tags.goPath, bd.key, v, n.goType, goLimit(n, false), goLimit(n, true))
		}
		*bd.dst = v
		rats[bd.key] = r
	}
	lower, upper := rats[tagMinimum], rats[tagMaximum]
	if lower == nil {
		lower = rats[tagExclusiveMinimum]
	}
	if upper == nil {
		upper = rats[tagExclusiveMaximum]
	}
	if lower != nil && upper != nil && lower.Cmp(upper) > 0 {
		return fmt.Errorf("field %s: the lower bound %s is greater than the upper bound %s", tags.goPath, lower.RatString(), upper.RatString())
	}
	// Integer types narrower than 64 bits, and unsigned types, show their
	// Go range in the schema unless a tag already says more.
	if n.kind == jInteger {
		if n.minimum == "" && n.exclusiveMinimum == "" && (n.unsigned || n.bits < 64) {
			n.minimum = lo.RatString()
		}
		if n.maximum == "" && n.exclusiveMaximum == "" && n.bits < 64 {
			n.maximum = hi.RatString()
		}
	}
	if v, ok := tags.get(tagEnum); ok {
		seen := make(map[string]bool)
		for _, item := range splitList(v) {
			r, err := parseBound(n, item)
			if err != nil {
				return fmt.Errorf("field %s: enum value %q %w", tags.goPath, item, err)
			}
			if (lo != nil && r.Cmp(lo) < 0) || (hi != nil && r.Cmp(hi) > 0) {
				return fmt.Errorf("field %s: enum value %s is outside the range of %s", tags.goPath, item, n.goType)
			}
			if seen[r.RatString()] {
				return fmt.Errorf("field %s: enum lists %s twice", tags.goPath, item)
			}
			seen[r.RatString()] = true
			n.enum = append(n.enum, json.Number(item))
		}
	}
	return nil
}

// parseBound parses a numeric tag value for node n: a JSON number, and an
// integer for integer nodes.
func parseBound(n *node, v string) (*big.Rat, error) {
	if !isJSONNumber(v) {
		return nil, errors.New("is not a number")
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok || len(v) > maxNumberLen {
		return nil, errors.New("is not a usable number")
	}
	if n.kind == jInteger && !r.IsInt() {
		return nil, errors.New("is not an integer")
	}
	if n.kind == jNumber {
		if _, err := strconv.ParseFloat(v, n.bits); err != nil {
			return nil, fmt.Errorf("does not fit in a float%d", n.bits)
		}
	}
	return r, nil
}

// goRange returns the smallest and largest values of the node's Go type, or
// for floats the largest finite magnitudes.
func goRange(n *node) (lo, hi *big.Rat) {
	switch n.kind {
	case jInteger:
		if n.unsigned {
			max := new(big.Int).Lsh(big.NewInt(1), uint(n.bits))
			max.Sub(max, big.NewInt(1))
			return new(big.Rat), new(big.Rat).SetInt(max)
		}
		max := new(big.Int).Lsh(big.NewInt(1), uint(n.bits-1))
		min := new(big.Int).Neg(max)
		max.Sub(max, big.NewInt(1))
		return new(big.Rat).SetInt(min), new(big.Rat).SetInt(max)
	case jNumber:
		m := math.MaxFloat64
		if n.bits == 32 {
			m = math.MaxFloat32
		}
		hi := new(big.Rat).SetFloat64(m)
		return new(big.Rat).Neg(hi), hi
	}
	return nil, nil
}

// goLimit returns the text of the lowest (upper false) or highest (upper
// true) value of a numeric node's Go type, as shown in problems.
func goLimit(n *node, upper bool) string {
	if n.kind == jNumber {
		m := math.MaxFloat64
		if n.bits == 32 {
			m = math.MaxFloat32
		}
		if !upper {
			m = -m
		}
		return strconv.FormatFloat(m, 'g', -1, n.bits)
	}
	lo, hi := goRange(n)
	if upper {
		return hi.RatString()
	}
	return lo.RatString()
}
