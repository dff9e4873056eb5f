package schemagen

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/internal/decimal"
)

// validate checks v, the value at path at after coercion, against node n.
// It walks the same tree the schema document was written from and applies
// each keyword the document holds for n as JSON Schema 2020-12 does, so
// what a model reads in the schema is what is enforced. The order of the
// checks is the standard one, including where a failure stops the rest: a
// value of the wrong type, outside its enum or not a date-time is checked
// no further.
//
// Two keywords of the document are left to walk, which runs first and
// says which character is wrong: the pattern of a character class (unless
// the field's own pattern replaced it) and the propertyNames of a map.
//
// Nothing is allocated unless a problem is found.
func (c *checker) validate(n *node, v any, at path) {
	if n == nil || n.kind.typeName() == "" {
		return // any and json.RawMessage: every value
	}
	if v == nil && n.nullable {
		// "type": [..., "null"] lets null through, but an enum, which
		// lists no null, still refuses it.
		if n.enum != nil {
			c.add(enumProblem(n, v), at)
		}
		return
	}
	if !hasType(n, v) {
		c.add(typeProblem(n, v, at), at)
		return
	}
	if n.enum != nil && !inEnum(n, v) {
		c.add(enumProblem(n, v), at)
		return
	}
	switch n.kind {
	case jTime:
		if s := v.(string); !isDateTime(s) {
			c.add(Problem{Kind: OutOfRange, Rule: "format", msg: msgDateTime, Got: shortValue(s), GotType: "string"}, at)
		}
	case jString:
		c.validateString(n, v.(string), at)
	case jInteger, jNumber:
		c.validateNumber(n, v.(json.Number), at)
	case jArray:
		c.validateArray(n, v.([]any), at)
	case jObject:
		c.validateObject(n, v.(map[string]any), at)
	case jMap:
		for k, e := range v.(map[string]any) {
			c.validate(n.elem, e, at.key(k))
		}
	}
}

// hasType reports whether v is of the JSON type of n. An integer is a
// number without a fractional part, however it is written (2.0, 1e3).
func hasType(n *node, v any) bool {
	var ok bool
	switch n.kind {
	case jString, jTime, jBytes:
		_, ok = v.(string)
	case jBoolean:
		_, ok = v.(bool)
	case jNumber:
		_, ok = v.(json.Number)
	case jInteger:
		var num json.Number
		num, ok = v.(json.Number)
		ok = ok && decimal.IsInt(string(num))
	case jObject, jMap:
		_, ok = v.(map[string]any)
	case jArray:
		_, ok = v.([]any)
	}
	return ok
}

// typeProblem builds the problem of v, at path at, not being of n's type.
func typeProblem(n *node, v any, at path) Problem {
	p := Problem{Kind: WrongType, Rule: "type", msg: msgWrongType, Expected: n.kind.typeName(),
		Got: shortValue(v), GotType: typeOfValue(v)}
	switch {
	case len(at) == 0:
		p.msg = msgNotObject
	case v == nil:
		p.msg = msgWrongTypeNull
	}
	return p
}

// inEnum reports whether v equals one of n's enum values: strings
// exactly, numbers by value (1 equals 1.0 and 1e0).
func inEnum(n *node, v any) bool {
	switch x := v.(type) {
	case string:
		for _, w := range n.enum {
			if s, ok := w.(string); ok && s == x {
				return true
			}
		}
	case json.Number:
		d, ok := decimal.Parse(string(x))
		if !ok {
			return false
		}
		for _, w := range n.enum {
			if num, isNum := w.(json.Number); isNum {
				if e, ok := decimal.Parse(string(num)); ok && d.Cmp(e) == 0 {
					return true
				}
			}
		}
	}
	return false
}

// enumProblem builds the problem of v not being one of n's enum values.
func enumProblem(n *node, v any) Problem {
	p := Problem{Kind: NotAllowed, Rule: "enum", msg: msgEnum, Got: shortValue(v), GotType: typeOfValue(v),
		Allowed: make([]string, 0, len(n.enum))}
	for _, w := range n.enum {
		p.Allowed = append(p.Allowed, shortValue(w))
	}
	return p
}

// validateString checks the length of s in characters (code points, so
// an emoji counts once) and the field's own pattern, which may match
// anywhere in s unless it is anchored.
func (c *checker) validateString(n *node, s string, at path) {
	if n.minLength != nil || n.maxLength != nil {
		count := utf8.RuneCountInString(s)
		if limit := n.minLength; limit != nil && uint64(count) < *limit {
			p := Problem{Kind: OutOfRange, Rule: "minLength", msg: msgMinLength, Limit: strconv.FormatUint(*limit, 10),
				Count: count, Got: shortValue(s), GotType: "string"}
			if count == 0 && *limit == 1 {
				p.msg = msgNotEmpty
			}
			c.add(p, at)
		}
		if limit := n.maxLength; limit != nil && uint64(count) > *limit {
			c.add(Problem{Kind: OutOfRange, Rule: "maxLength", msg: msgMaxLength, Limit: strconv.FormatUint(*limit, 10),
				Count: count, Got: shortValue(s), GotType: "string"}, at)
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		c.add(Problem{Kind: OutOfRange, Rule: "pattern", msg: msgPattern, Limit: cut(n.userPattern, 40),
			Got: shortValue(s), GotType: "string"}, at)
	}
}

// validateNumber compares num with each bound of n, exactly: the literal
// with the bound as written, digit by digit, never through a float.
func (c *checker) validateNumber(n *node, num json.Number, at path) {
	bounds := [...]struct {
		rule  string
		id    msgID
		limit string
	}{
		{"minimum", msgMinimum, n.minimum},
		{"maximum", msgMaximum, n.maximum},
		{"exclusiveMinimum", msgExclusiveMinimum, n.exclusiveMinimum},
		{"exclusiveMaximum", msgExclusiveMaximum, n.exclusiveMaximum},
	}
	for _, b := range bounds {
		if b.limit == "" {
			continue
		}
		r, ok := decimal.Compare(string(num), b.limit)
		if !ok {
			continue
		}
		var crossed bool
		switch b.id {
		case msgMinimum:
			crossed = r < 0
		case msgMaximum:
			crossed = r > 0
		case msgExclusiveMinimum:
			crossed = r <= 0
		case msgExclusiveMaximum:
			crossed = r >= 0
		}
		if crossed {
			c.add(Problem{Kind: OutOfRange, Rule: b.rule, msg: b.id, Limit: b.limit,
				Got: shortValue(num), GotType: typeOfValue(num)}, at)
		}
	}
}

// validateArray checks the number of items, then each item.
func (c *checker) validateArray(n *node, arr []any, at path) {
	count := uint64(len(arr))
	if limit := n.minItems; limit != nil && count < *limit {
		p := Problem{Kind: OutOfRange, Rule: "minItems", msg: msgMinItems, Limit: strconv.FormatUint(*limit, 10),
			Count: len(arr), Got: shortValue(arr), GotType: "array"}
		if count == 0 && *limit == 1 {
			p.msg = msgMinItems1
		}
		c.add(p, at)
	}
	if limit := n.maxItems; limit != nil && count > *limit {
		c.add(Problem{Kind: OutOfRange, Rule: "maxItems", msg: msgMaxItems, Limit: strconv.FormatUint(*limit, 10),
			Count: len(arr), Got: shortValue(arr), GotType: "array"}, at)
	}
	for i, e := range arr {
		c.validate(n.elem, e, at.at(i))
	}
}

// validateObject checks the required properties, each declared property
// sent, and that nothing else was sent ("additionalProperties": false).
func (c *checker) validateObject(n *node, obj map[string]any, at path) {
	declared := 0
	for _, f := range n.fields {
		fv, present := obj[f.name]
		if !present {
			if f.required {
				c.add(Problem{Kind: MissingRequired, Rule: "required", msg: msgMissing,
					Expected: f.node.kind.typeName()}, at.key(f.name))
			}
			continue
		}
		declared++
		c.validate(f.node, fv, at.key(f.name))
	}
	if declared == len(obj) {
		return
	}
	var unknown *unknownNames
	c.problems = slices.Grow(c.problems, len(obj)-declared) // one for each unknown name
	for name := range obj {
		if n.byName[name] == nil {
			if unknown == nil {
				unknown = newUnknownNames(n, obj)
			}
			c.add(unknown.problem(name), at.key(name))
		}
	}
}
