package schemagen

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// Decode checks args, the raw "arguments" of a call, and decodes them into
// dst, which must be a non-nil pointer to the Schema's struct type. Empty
// args (nil, or only whitespace) mean {}.
//
// It runs these stages, stopping at the first that finds problems:
//
//  1. parsing: args must be one JSON object in valid UTF-8, with no key
//     repeated within an object;
//  2. coercion (input schemas only; see Report): numeric strings to numbers,
//     "true"/"false" to booleans, a single value to a one-element array,
//     null for an optional argument to absent;
//  3. validation against the generated schema, plus the checks a schema
//     cannot express: character classes, oversized numbers, the range of the
//     Go type;
//  4. decoding: *dst is zeroed, then set from the coerced arguments, with
//     defaults for the absent properties of every object that was sent;
//  5. if *dst has a method Validate() error, it is called.
//
// When the arguments are invalid the error is an *Errors, and *dst is left
// untouched unless stage 5 refused them. Any other error means Decode was
// misused (dst of the wrong type). The Report is valid in both cases.
func (s *Schema) Decode(args json.RawMessage, dst any) (Report, error) {
	rv, err := s.target(dst, "Decode")
	if err != nil {
		return Report{}, err
	}
	obj, p := parseArgs(args)
	if p != nil {
		return Report{}, &Errors{Problems: []Problem{*p}}
	}
	return s.decode(obj, rv, dst)
}

// DecodeValue is [Schema.Decode] for arguments parsed already: obj is
// what a [json.Decoder] with UseNumber decodes a JSON object into
// (map[string]any, []any, string, [json.Number], bool and nil), with no
// key repeated, which the parsing stage would have refused. It runs the
// stages from coercion on, which change obj in place. It is for a caller
// that has read the arguments once already, such as a server that checked
// the whole request in one pass and decoded each argument from where it
// found it: a long string is then not crossed again to be parsed.
func (s *Schema) DecodeValue(obj map[string]any, dst any) (Report, error) {
	rv, err := s.target(dst, "DecodeValue")
	if err != nil {
		return Report{}, err
	}
	if obj == nil {
		obj = map[string]any{}
	}
	return s.decode(obj, rv, dst)
}

// target checks that dst is a non-nil pointer to the Schema's struct type
// for the method named op, and returns what it points to.
func (s *Schema) target(dst any, op string) (reflect.Value, error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != s.typ {
		return rv, fmt.Errorf("schemagen: %s: dst must be a non-nil *%s, got %T", op, s.typ, dst)
	}
	return rv.Elem(), nil
}

// decode runs the stages after parsing on obj, and sets target, which dst
// points to, when they pass.
func (s *Schema) decode(obj map[string]any, target reflect.Value, dst any) (Report, error) {
	c := checker{input: s.input, root: s.root, record: true}
	// The stages use one path buffer in turn; none keeps a path.
	buf := make(path, 0, 8)
	c.walk(s.root, obj, buf)
	c.validate(s.root, obj, buf)
	report := Report{Coercions: c.coercions}
	report.sortCoercions(c.keys)
	if len(c.problems) > 0 {
		return report, newErrors(c.problems)
	}
	d := decoder{checker: &c}
	value := reflect.New(s.typ).Elem()
	d.assign(s.root, obj, value, buf)
	report.Defaults = c.defaults
	if len(c.problems) > 0 {
		return report, newErrors(c.problems)
	}
	target.Set(value)
	if v, ok := dst.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return report, hookErrors(err)
		}
	}
	return report, nil
}

// hookErrors turns the error of a Validate method into *Errors. An *Errors
// (possibly wrapped) keeps its problems; any other error becomes one problem
// of kind Other whose message is the error's text, or, for a [Phraser],
// its Message in the language asked for.
func hookErrors(err error) *Errors {
	var errs *Errors
	if errors.As(err, &errs) && len(errs.Problems) > 0 {
		return newErrors(slices.Clone(errs.Problems))
	}
	p := Problem{Kind: Other, Rule: "validate", Detail: err.Error(), rank: -1}
	p.phrase, _ = err.(Phraser)
	if p.Detail == "" {
		p.msg = msgHookFailed
	}
	return &Errors{Problems: []Problem{p}}
}

// decoder sets Go values from validated arguments.
type decoder struct {
	*checker
}

// assign sets rv, a settable value of n's Go type (with its pointers), from
// the JSON value v. The value has passed validation, so a mismatch here is a
// bug, reported as a problem rather than a panic.
func (d *decoder) assign(n *node, v any, rv reflect.Value, at path) {
	if v == nil {
		return // null: leave the zero value (nil pointer, slice or map)
	}
	if n.ptrs > 0 {
		p := reflect.New(n.goType)
		rv.Set(p)
		rv = p.Elem()
	}
	ok := true
	switch n.kind {
	case jString:
		var s string
		if s, ok = v.(string); ok {
			rv.SetString(s)
		}
	case jBoolean:
		var b bool
		if b, ok = v.(bool); ok {
			rv.SetBool(b)
		}
	case jInteger:
		var num json.Number
		if num, ok = v.(json.Number); ok {
			var i int64
			var u uint64
			if i, u, ok = parseInteger(string(num), n); ok {
				if n.unsigned {
					rv.SetUint(u)
				} else {
					rv.SetInt(i)
				}
			}
		}
	case jNumber:
		var num json.Number
		if num, ok = v.(json.Number); ok {
			f, err := strconv.ParseFloat(string(num), n.bits)
			if ok = err == nil; ok {
				rv.SetFloat(f)
			}
		}
	case jObject:
		var obj map[string]any
		if obj, ok = v.(map[string]any); ok {
			d.object(n, obj, rv, at)
		}
	case jArray:
		var arr []any
		if arr, ok = v.([]any); ok {
			if rv.Kind() == reflect.Slice {
				rv.Set(reflect.MakeSlice(rv.Type(), len(arr), len(arr)))
			}
			for i := range min(len(arr), rv.Len()) {
				d.assign(n.elem, arr[i], rv.Index(i), at.at(i))
			}
		}
	case jMap:
		var obj map[string]any
		if obj, ok = v.(map[string]any); ok {
			m := reflect.MakeMapWithSize(rv.Type(), len(obj))
			for k, ev := range obj {
				e := reflect.New(rv.Type().Elem()).Elem()
				d.assign(n.elem, ev, e, at.key(k))
				m.SetMapIndex(reflect.ValueOf(k).Convert(rv.Type().Key()), e)
			}
			rv.Set(m)
		}
	case jAny:
		rv.Set(reflect.ValueOf(plain(v)))
	case jRaw:
		raw, err := jsonwire.Marshal(v)
		if ok = err == nil; ok {
			rv.SetBytes(raw)
		}
	case jTime:
		var s string
		if s, ok = v.(string); ok {
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				d.add(Problem{Kind: OutOfRange, Rule: "format", msg: msgDateTime, Got: shortValue(v), GotType: "string"}, at)
				return
			}
			rv.Set(reflect.ValueOf(t))
		}
	case jBytes:
		var s string
		if s, ok = v.(string); ok {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				d.add(Problem{Kind: WrongType, Rule: "contentEncoding", msg: msgBase64, Expected: "string",
					Got: shortValue(v), GotType: "string"}, at)
				return
			}
			rv.SetBytes(b)
		}
	}
	if !ok {
		d.add(Problem{Kind: Other, Rule: "decode", msg: msgInvalid, Got: shortValue(v), GotType: typeOfValue(v)}, at)
	}
}

// object sets the fields of struct value rv from obj, applying defaults to
// the properties that are absent.
func (d *decoder) object(n *node, obj map[string]any, rv reflect.Value, at path) {
	for _, f := range n.fields {
		fv, present := obj[f.name]
		if !present && !f.hasDefault {
			continue
		}
		child := at.key(f.name)
		if !present {
			fv = cloneJSON(f.def) // decoding may convert it in place
			if d.record {
				d.defaults = append(d.defaults, formatPath(child))
			}
		}
		d.assign(f.node, fv, rv.FieldByIndex(f.index), child)
	}
}

// plain converts a JSON value for an `any` field the way encoding/json
// would: numbers become float64. Maps and slices are converted in place.
func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = plain(e)
		}
	case []any:
		for i, e := range x {
			x[i] = plain(e)
		}
	}
	return v
}

// cloneJSON copies the maps and slices of a JSON value.
func cloneJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = cloneJSON(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = cloneJSON(e)
		}
		return a
	}
	return v
}
